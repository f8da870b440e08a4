/* user/bench/smp.h — zpbench's several-CPU runs (smp.c). */
#ifndef ZPBENCH_SMP_H
#define ZPBENCH_SMP_H

/* How the T workers run: processes, threads of one process, or
 * processes that also fork and reap a child each round. */
enum { SMP_PROCS, SMP_THREADS, SMP_FORKS, NR_SMP_MODES };

/* smp_c2c maps the c2c plugin's marker page and puts the runs in its
 * windows (docs/c2c.md); 0, or -1. */
int smp_c2c(void);
/* smp_huge makes each page of the runs a 2 MiB huge page (--huge). */
void smp_huge(void);
/* T workers in mode for each T of list, best of reps runs (one window
 * each after smp_c2c); 0 if all ran. */
int smp_bench(const char *list, int mode, long pages, long rounds, int reps);
/* CLOCK_MONOTONIC in nanoseconds (zpbench's phases time with it too). */
long long now_ns(void);

#endif
