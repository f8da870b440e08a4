/* zpk/loadavg.h — the load averages (kernel/loadavg.c), Linux's fixed
 * point: FSHIFT bits of fraction. */
#ifndef ZPK_LOADAVG_H
#define ZPK_LOADAVG_H

#define FSHIFT		11
#define FIXED_1		(1UL << FSHIFT)
#define LOAD_INT(x)	((x) >> FSHIFT)
#define LOAD_FRAC(x)	LOAD_INT(((x) & (FIXED_1 - 1)) * 100)
#define EXP_1		1884		/* FIXED_1 / exp(5 s / 1 min) */
#define EXP_5		2014		/* ... / 5 min */
#define EXP_15		2037		/* ... / 15 min */

extern unsigned long avenrun[3];

unsigned long calc_load(unsigned long load, unsigned long exp,
			unsigned long active);
void calc_global_load_tick(void);
void get_avenrun(unsigned long *loads, unsigned long offset, int shift);
/* Runnable tasks now, the idle task aside (Linux's nr_running). */
unsigned int nr_running(void);

#endif
