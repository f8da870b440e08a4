/* asm/percpu.h — each CPU's own block of data, reached through GS: in
 * kernel mode GS's base is this CPU's struct pcpu, so a field is one mov. */
#ifndef ASM_PERCPU_H
#define ASM_PERCPU_H

#include <zpk/compiler.h>
#include <zpk/kernel_stat.h>
#include <zpk/types.h>

#define NR_CPUS		8		/* -smp 1..8 */

struct task_struct;
struct vm_cpu_stat;

/*
 * What the entry code and every "current" need without a lock: only
 * this CPU writes its block (Linux's pcpu_hot). The first two offsets are
 * fixed: syscall_64.asm reads them as %gs:0 and %gs:8.
 */
struct pcpu {
	u64 kernel_rsp;		/* top of the running task's kernel stack */
	u64 user_rsp;		/* scratch for the SYSCALL entry */
	struct task_struct *current_task;	/* what runs on this CPU */
	struct pcpu *self;	/* this block's own address */
	int cpu_number;		/* 0 .. nr_cpu_ids - 1; 0 is the BSP */
	int lapic_id;		/* its local APIC's id (from the MADT) */
	struct task_struct *idle;	/* swapper/N: runs when nothing else */
	struct task_struct *prev_task;	/* schedule(): the task switched from */
	struct task_struct *dead_task;	/* prev_task if PF_DEAD: to be freed */
	struct mm_struct *loaded_mm;	/* whose pgd is in CR3; NULL: init_pgd
					 * (Linux's cpu_tlbstate.loaded_mm) */
	int spin_count;		/* spinlocks held (Linux's preempt_count) */
	/* Interrupts taken, as Linux's irq_stat counts them. */
	unsigned long apic_timer_irqs;	/* local timer ticks */
	unsigned long irq_call_count;	/* function-call IPIs */
	unsigned long irq_resched_count;	/* reschedule IPIs */
	unsigned long irq_spurious_count;
	u64 cpustat[NR_STATS];	/* ns of ticks, by where they fell
				 * (Linux's kcpustat_cpu) */
	unsigned long nr_switches;	/* context switches (ctxt) */
	struct vm_cpu_stat *vm_stat;	/* &vm_cpu_stats[cpu_number]: a
					 * count_vm_event is one load and an
					 * add (zpk/vmstat.h) */
} __aligned(64);

extern struct pcpu pcpu_data[NR_CPUS];

#ifndef HOST_TEST
/* A field of this CPU's block. Volatile: across a schedule() the task may
 * come back on another CPU, so the compiler may not reuse an old read. */
#define this_cpu_read(field) ({						\
	__typeof__(((struct pcpu *)0)->field) __v;			\
	asm volatile("mov %%gs:%c1, %0" : "=r"(__v)			\
		     : "i"(__builtin_offsetof(struct pcpu, field)));	\
	__v;								\
})
#define this_cpu_write(field, val) do {					\
	__typeof__(((struct pcpu *)0)->field) __v = (val);		\
	asm volatile("mov %0, %%gs:%c1" : : "r"(__v),			\
		     "i"(__builtin_offsetof(struct pcpu, field))	\
		     : "memory");					\
} while (0)

/* Adds n to an int field of this CPU's block: one instruction, which an
 * interrupt on this CPU cannot split (Linux's this_cpu_add). */
#define this_cpu_add_int(field, n) do {					\
	asm volatile("addl %0, %%gs:%c1" : : "er"((int)(n)),		\
		     "i"(__builtin_offsetof(struct pcpu, field))	\
		     : "memory");					\
} while (0)

/* The CPU this code runs on. Stable until the next schedule(): the kernel
 * is not preempted, so a task changes CPU only where it sleeps. */
static inline int smp_processor_id(void)
{
	return this_cpu_read(cpu_number);
}

/* This CPU's own struct pcpu, as a pointer. */
static inline struct pcpu *this_cpu_ptr(void)
{
	return this_cpu_read(self);
}

/*
 * current: one mov from %gs. Not volatile (Linux's this_cpu_read_stable):
 * for the code of one task the answer never changes, even when the task
 * moves to another CPU, so the compiler may keep it in a register.
 */
static inline struct task_struct *get_current(void)
{
	struct task_struct *t;

	asm("mov %%gs:%c1, %0" : "=r"(t)
	    : "i"(__builtin_offsetof(struct pcpu, current_task)));
	return t;
}
#else
static inline int smp_processor_id(void)
{
	return 0;
}

/* No task runs under the host tests: the harness's answers NULL, for the
 * system calls beside the code they test, which no test calls. */
struct task_struct *get_current(void);
#endif

#define per_cpu(field, cpu)	(pcpu_data[cpu].field)

#endif
