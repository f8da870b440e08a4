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
	char cwd_path[256];
	unsigned int umask;
	short oom_score_adj;		/* -1000..1000; fork copies it */

	struct k_sigaction sighand[_NSIG];
	sigset_t blocked, pending;
	struct kernel_siginfo siginfo[_NSIG];	/* one queued per signal */

	unsigned long min_flt, maj_flt;	/* page faults, as getrusage */
	unsigned long cmin_flt, cmaj_flt;	/* of reaped children */
	unsigned long maxrss_kb, cmaxrss_kb;	/* peak RSS at exit */
	unsigned long start_time;	/* ns since boot */
	unsigned long utime, stime;	/* ns */
	int *clear_child_tid;
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

/* kernel/fork.c: a copy of current (fork), or a kernel thread running
 * fn(arg) that becomes a user process when it execs (init). */
struct task_struct *copy_process(void);
int kernel_thread(int (*fn)(void *), void *arg, const char *name);
void free_task(struct task_struct *t);

/* References that keep a task struct (not its pid or stack) after it is
 * reaped: /proc files opened on it see it EXIT_DEAD. */
static inline void get_task_struct(struct task_struct *t)
{
	t->usage++;
}
void put_task_struct(struct task_struct *t);

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
