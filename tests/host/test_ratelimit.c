/* host-test-sources: lib/ratelimit.c lib/vsnprintf.c lib/string.c */
/* tests/host/test_ratelimit.c — lib/ratelimit.c on a clock the test moves:
 * burst events per interval go through, the rest are counted, and the
 * next interval reports how many were suppressed and starts afresh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/printk.h>
#include <zpk/ratelimit.h>

volatile u64 jiffies;
static char log_line[256];

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (fmt[0] == KERN_SOH[0] && fmt[1])
		fmt += 2;
	va_start(ap, fmt);
	n = vsnprintf(log_line, sizeof(log_line), fmt, ap);
	va_end(ap);
	return n;
}

static int let_through(struct ratelimit_state *rs, int tries)
{
	int n = 0;

	while (tries-- > 0)
		n += __ratelimit(rs);
	return n;
}

static void test_burst_per_interval(void **state)
{
	DEFINE_RATELIMIT_STATE(rs, 5 * HZ, 10);

	(void)state;
	jiffies = 1000;
	log_line[0] = 0;
	assert_int_equal(let_through(&rs, 25), 10);
	assert_int_equal(rs.missed, 15);
	jiffies += 5 * HZ - 1;		/* still the same interval */
	assert_false(__ratelimit(&rs));
	assert_string_equal(log_line, "");
	jiffies += 1;			/* the next one */
	assert_int_equal(let_through(&rs, 12), 10);
	assert_string_equal(log_line,
			    "let_through: 16 callbacks suppressed\n");
	assert_int_equal(rs.missed, 2);
}

static void test_quiet_interval_reports_nothing(void **state)
{
	DEFINE_RATELIMIT_STATE(rs, 2, 3);

	(void)state;
	jiffies = 50;
	log_line[0] = 0;
	assert_int_equal(let_through(&rs, 3), 3);
	jiffies += 2;
	assert_int_equal(let_through(&rs, 3), 3);
	assert_string_equal(log_line, "");
}

static void test_zero_interval_or_burst(void **state)
{
	DEFINE_RATELIMIT_STATE(unlimited, 0, 0);
	DEFINE_RATELIMIT_STATE(closed, 5 * HZ, 0);

	(void)state;
	jiffies = 7;
	assert_int_equal(let_through(&unlimited, 100), 100);
	assert_int_equal(let_through(&closed, 100), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_per_interval),
		cmocka_unit_test(test_quiet_interval_reports_nothing),
		cmocka_unit_test(test_zero_interval_or_burst),
	};

	return cmocka_run_group_tests_name("ratelimit", tests, NULL, NULL);
}
