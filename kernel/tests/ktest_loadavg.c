/* kernel/tests/ktest_loadavg.c — ktests of the load averages
 * (kernel/loadavg.c): calc_load's decay. */
#include <zpk/ktest.h>
#include <zpk/loadavg.h>

/* One task always runnable: the 1-minute average nears 1.00 within a few
 * minutes (60 samples, 5 min: 1 - e^-5 = 0.993), the 15-minute one lags. */
KTEST(loadavg, calc_load_converges)
{
	unsigned long l1 = 0, l15 = 0;

	for (int i = 0; i < 60; i++) {
		l1 = calc_load(l1, EXP_1, FIXED_1);
		l15 = calc_load(l15, EXP_15, FIXED_1);
	}
	KEXPECT_TRUE(l1 >= FIXED_1 * 99 / 100 && l1 <= FIXED_1);
	KEXPECT_TRUE(l15 > FIXED_1 / 4 && l15 < FIXED_1 / 2);
	for (int i = 0; i < 60; i++)
		l1 = calc_load(l1, EXP_1, 0);
	KEXPECT_TRUE(l1 < FIXED_1 / 100);
}
