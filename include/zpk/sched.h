/* zpk/sched.h — tasks (processes) and the scheduler's interface: one
 * round-robin run queue for all CPUs; preemption on return to user mode. */
#ifndef ZPK_SCHED_H
#define ZPK_SCHED_H

#include <asm/percpu.h>
#include <asm/ptrace.h>
#include <zpk/atomic.h>
#include <zpk/cpumask.h>
#include <zpk/list.h>
#include <zpk/mm_types.h>
#include <zpk/signal.h>
#include <zpk/wait.h>

#define TASK_COMM_LEN	16
#define THREAD_SIZE	16384		/* kernel stack per task */
#define NGROUPS_SMALL	32		/* setgroups' limit here (Linux 65536) */

enum task_state {
	TASK_RUNNING,			/* on the run queue or running */
	TASK_INTERRUPTIBLE,		/* asleep; a signal wakes it */
	TASK_UNINTERRUPTIBLE,
	EXIT_ZOMBIE,			/* exited, not yet reaped */
	EXIT_DEAD,
};

struct files_struct;
struct inode;

struct task_struct {
	int pid;
	enum task_state state;
	char comm[TASK_COMM_LEN];
	void *stack;			/* THREAD_SIZE bytes, kernel stack */
	unsigned long ksp;		/* saved kernel rsp while switched out */
	unsigned long fsbase;		/* user TLS (arch_prctl ARCH_SET_FS) */
	struct mm_struct *mm;		/* NULL for kernel threads */
	struct task_struct *parent;
	struct list_head children;	/* of sibling */
	struct list_head sibling;
	struct list_head tasks;		/* every task, for /proc and ps */
	struct list_head run_list;	/* on the run queue */
	struct wait_queue_head wait_chldexit;	/* parent sleeps in wait4 */
	int exit_code;			/* wait4 status word */
	int exit_signal;		/* SIGCHLD to the parent */
	int usage;			/* the task list's, /proc files' */
	unsigned int signal_flags;	/* SIGNAL_UNKILLABLE for init */
	bool need_resched;
	bool on_cpu;			/* some CPU runs on its stack */
	int cpu;			/* the CPU it runs or last ran on */
	int lock_depth;			/* big kernel lock levels held */

	struct files_struct *files;
	struct inode *cwd;
	char cwd_path[256];
	unsigned int umask;
	short oom_score_adj;		/* -1000..1000; fork copies it */
	unsigned int ngroups;		/* supplementary groups (setgroups) */
	u32 groups[NGROUPS_SMALL];

	struct k_sigaction sighand[_NSIG];
	sigset_t blocked, pending;
	struct kernel_siginfo siginfo[_NSIG];	/* one queued per signal */

	unsigned long min_flt, maj_flt;	/* page faults, as getrusage */
	unsigned long cmin_flt, cmaj_flt;	/* of reaped children */
	unsigned long maxrss_kb, cmaxrss_kb;	/* peak RSS at exit */
	unsigned long start_time;	/* ns since boot */
	unsigned long utime, stime;	/* ns */
	int __user *set_child_tid;	/* CLONE_CHILD_SETTID: pid stored here */
	int __user *clear_child_tid;	/* 0 stored + futex wake at mm release */
	struct task_struct *vfork_parent;	/* CLONE_VFORK: asleep for us */
	bool vfork_done;		/* set when the mm is released */
	unsigned long ticks;		/* timer ticks this slice */
	struct cpumask cpus_mask;	/* where it may run (affinity) */
	u64 wake_at_ns;			/* nanosleep: 0, or when to wake */
	struct list_head timeout_list;	/* asleep with wake_at_ns: the tick's */
	unsigned long futex_uaddr;	/* futex word slept on, or 0 */
	u64 enosys_logged[512 / 64];	/* missing calls reported once */
	u8 fpu[512] __aligned(16);	/* FXSAVE area while switched out */
};

/* The task running on this CPU: one mov from this CPU's struct pcpu. */
#define current get_current()

/* The state current will sleep in at its next schedule(). The barrier
 * orders it before the caller's next look at its wake-up condition. */
#define set_current_state(s) do {					\
	WRITE_ONCE(current->state, (s));				\
	smp_mb();							\
} while (0)
#define __set_current_state(s)	WRITE_ONCE(current->state, (s))

/* Linux's system_state: BOOTING until kernel_main turns interrupts on;
 * the context checks below are off until then (boot runs with them off). */
enum system_states { SYSTEM_BOOTING, SYSTEM_SCHEDULING };
extern enum system_states system_state;

/*
 * A function that may sleep calls this first: sleeping with a spinlock
 * held or interrupts off is a bug, reported with a backtrace (Linux's
 * "BUG: sleeping function called from invalid context"), even when this
 * call happens not to sleep.
 */
#define might_sleep()	__might_sleep(__FILE__, __LINE__)
void __might_sleep(const char *file, int line);

extern struct task_struct init_task;	/* pid 0: CPU 0's idle task */
extern struct list_head task_list;	/* all tasks, by creation */

/* The boot context becomes the idle task, pid 0. */
void sched_init(void);
/* The idle loop: runs whatever is runnable, halts when nothing is. */
void __noreturn cpu_idle(void);
/* CPU cpu's idle task (swapper/cpu, pid 0, not on the task list). */
struct task_struct *idle_task_init(int cpu);
/* Give the CPU to the next runnable task (maybe the same one). */
void schedule(void);
/* Make t runnable and put it on the run queue, unless it runs already
 * (then it just does not go to sleep). Any context. */
void wake_up_process(struct task_struct *t);
/* Every CPU's timer interrupt (Linux's update_process_times): the tick
 * counted where it fell (user mode, the kernel, idle), then the
 * scheduler's tick. */
void update_process_times(bool user);
/* fork, clone, vfork and kernel threads since boot (/proc/stat). */
extern unsigned long total_forks;
/* Waits until no CPU runs on p's stack (a zombie's last switch away may
 * still be under way on another CPU when its parent reaps it). */
void wait_task_inactive(struct task_struct *p);
/* A new task's first code: the end of the switch into it (the run queue
 * unlocked, interrupts on). */
void finish_task_switch(void);
/* RESCHEDULE_VECTOR's handler: this CPU looks at the run queue. */
void scheduler_ipi(void);
/* Where p may run from now on (Linux's set_cpus_allowed_ptr): it moves
 * at its next switch (current: on its way back to user mode, or at its
 * next schedule()). */
void set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *m);
/* CPUs the scheduler runs tasks on (Linux's cpu_active_mask). */
extern struct cpumask cpu_active_mask;
struct task_struct *find_task_by_pid(int pid);

/* What clone asks for (Linux's struct kernel_clone_args, the part zpk
 * uses): flags without CSIGNAL, the signal, and the clone arguments. */
struct kernel_clone_args {
	unsigned long flags;
	int exit_signal;
	unsigned long stack;		/* new user rsp, or 0: the parent's */
	unsigned long tls;		/* CLONE_SETTLS: the FS base */
	int __user *parent_tid, *child_tid;
};

/* kernel/fork.c: fork/vfork/clone (the child's pid, or -errno as Linux's
 * kernel_clone), or a kernel thread running fn(arg) that becomes a user
 * process when it execs (init). */
long kernel_clone(const struct kernel_clone_args *args);
int kernel_thread(int (*fn)(void *), void *arg, const char *name);
/* A new child's first C code, from ret_from_fork: CLONE_CHILD_SETTID. */
void schedule_tail(void);
void free_task(struct task_struct *t);

/* References that keep a task struct (not its pid or stack) after it is
 * reaped: /proc files opened on it see it EXIT_DEAD. */
static inline void get_task_struct(struct task_struct *t)
{
	t->usage++;
}
void put_task_struct(struct task_struct *t);
/* kernel/fork.c: current stops using mm (exit or exec): the store and
 * futex wake of CLONE_CHILD_CLEARTID if others share mm, and the wake of
 * a vfork parent. Called while mm is still current->mm. */
void mm_release(struct task_struct *tsk, struct mm_struct *mm);

/* kernel/futex.c: wakes up to nr FUTEX_WAIT sleepers on uaddr in
 * current's mm; how many were woken. */
long futex_wake(u32 __user *uaddr, int nr);

/* kernel/exit.c: ends current; code is a wait4 status word. */
void __noreturn do_exit(int code);
/* A zombie child of current goes for good: off the task list, its stack
 * and pid freed once no CPU runs on it (Linux's release_task). Under the
 * big kernel lock. */
void release_task(struct task_struct *p);

/* kernel/exec.c: replaces current's program; 0 or -errno (before the
 * point of no return; after it, a failure kills with SIGSEGV). */
int kernel_execve(const char *path, const char *const *argv,
		  const char *const *envp);

/* Folds mm's peak RSS into t's ru_maxrss (exec and exit drop an mm). */
static inline void task_update_maxrss(struct task_struct *t,
				      const struct mm_struct *mm)
{
	unsigned long kb = mm->hiwater_rss * 4;

	if (t->maxrss_kb < kb)
		t->maxrss_kb = kb;
}

/* Where the user registers of t sit: the top of its kernel stack. */
static inline struct pt_regs *task_pt_regs(struct task_struct *t)
{
	return (struct pt_regs *)((char *)t->stack + THREAD_SIZE) - 1;
}

#endif
