/* zpk/smp.h — making other CPUs run a function (Linux's linux/smp.h):
 * a request queued per CPU and an IPI; and bringing the CPUs up. */
#ifndef ZPK_SMP_H
#define ZPK_SMP_H

#include <zpk/cpumask.h>
#include <zpk/list.h>

typedef void (*smp_call_func_t)(void *info);

/* One request to one CPU (Linux's call_single_data, "csd"). */
struct call_single_data {
	struct list_head list;		/* on the target's queue */
	smp_call_func_t func;
	void *info;
	unsigned int flags;		/* CSD_FLAG_LOCK: queued or running */
};

/*
 * Runs func(info) on every online CPU in mask except this one, from
 * their interrupt handlers (interrupts off there: func must not sleep).
 * With wait, returns once every func has returned; else once each
 * request is queued. Process context with interrupts on: two CPUs that
 * waited for each other with interrupts off would wait forever.
 */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);
/* The same for every online CPU but this one. */
void smp_call_function(smp_call_func_t func, void *info, bool wait);
/* func(info) on cpu (this one: called here, interrupts off); 0, or
 * -ENXIO if cpu is not online. */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     bool wait);
/* On every online CPU, this one included (here with interrupts off). */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);

/* Boot: the per-CPU request queues, empty. */
void call_function_init(void);
/* CALL_FUNCTION_VECTOR's handler: runs what is queued for this CPU. */
void generic_smp_call_function_interrupt(void);

/* kernel_main: the other CPUs are started (arch/x86_64/smpboot.c). */
void smp_init(void);
/* Stops every other CPU for good (panic): an NMI each, then hlt. */
void smp_send_stop(void);

#endif
