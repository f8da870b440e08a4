/* zpk/sched.h — tasks (processes) and the scheduler's interface.
 * One CPU; a round-robin run queue; preemption on return to user mode. */
#ifndef ZPK_SCHED_H
#define ZPK_SCHED_H

#include <asm/ptrace.h>
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

	struct files_struct *files;
	struct inode *cwd;
	unsigned int umask;
	short oom_score_adj;		/* -1000..1000; fork copies it */
	short nice;			/* -20..19, setpriority's; fork copies
					 * it (round-robin: slices are equal) */
	unsigned short ioprio;		/* ioprio_set's class << 13 | data */
	unsigned int ngroups;		/* supplementary groups (setgroups) */
	u32 groups[NGROUPS_SMALL];

	struct k_sigaction sighand[_NSIG];
	sigset_t blocked, pending;
	sigset_t saved_sigmask;		/* sigsuspend's caller's mask, put */
	bool restore_sigmask;		/* back once a handler is set up */
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
	u64 wake_at_ns;			/* nanosleep: 0, or when to wake */
	unsigned long futex_uaddr;	/* futex word slept on, or 0 */
	u64 enosys_logged[512 / 64];	/* missing calls reported once */
	u8 fpu[512] __aligned(16);	/* FXSAVE area while switched out */
};

/* The running task; one CPU, so a plain variable. */
extern struct task_struct *current_task;
#define current current_task

extern struct list_head task_list;	/* all tasks, by creation */

/* The boot context becomes the idle task, pid 0. */
void sched_init(void);
/* The idle loop: runs whatever is runnable, halts when nothing is. */
void __noreturn cpu_idle(void);
/* Give the CPU to the next runnable task (maybe the same one). */
void schedule(void);
/* Make t runnable and put it on the run queue. */
void wake_up_process(struct task_struct *t);
/* Called from the timer interrupt. */
void scheduler_tick(void);
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
