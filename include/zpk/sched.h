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
	TASK_STOPPED,			/* SIGSTOP & co.: SIGCONT wakes it */
	EXIT_ZOMBIE,			/* exited, not yet reaped */
	EXIT_DEAD,
};

/* task_struct.flags (Linux's PF_*) */
#define PF_EXITING	0x00000004	/* in do_exit */
#define PF_DEAD		0x00000008	/* released itself: its last switch
					 * away frees it (Linux 2.6's) */
#define PF_FORKNOEXEC	0x00000040	/* forked and not yet exec'd */
#define PF_MEMALLOC	0x00000800	/* reclaiming: its allocations may
					 * not reclaim in turn */

/* task_struct.jobctl */
#define JOBCTL_STOP_PENDING	(1U << 17)	/* join the group stop */

struct files_struct;
struct inode;
struct tty_struct;

/* What restart_syscall needs to go on with an interrupted sleep (Linux's
 * restart_block): the function and its arguments. */
struct restart_block {
	long (*fn)(struct restart_block *rb);
	u64 deadline_ns;		/* absolute, ktime */
	void __user *uaddr;		/* futex word, or nanosleep's rem */
	u32 val, bitset;
	bool private;			/* futex: FUTEX_PRIVATE_FLAG */
	int clock;
};

/*
 * Signal handlers, shared by CLONE_SIGHAND (Linux's sighand_struct).
 * The big kernel lock guards it and the signal_struct, where Linux has
 * the siglock beside action (docs/smp.md).
 */
struct sighand_struct {
	int count;			/* tasks sharing it */
	struct k_sigaction action[_NSIG];
	/* signalfd's readers and pollers: every signal queued for these
	 * tasks wakes them (fs/signalfd.c) */
	struct wait_queue_head signalfd_wqh;
};

/*
 * What the threads of one process share (Linux's signal_struct): the
 * thread list, process-directed pending signals, the group's exit and
 * stop state, its process group and session, and the group's usage
 * figures. Every field is the thread group's; the big kernel lock
 * guards them all.
 */
struct signal_struct {
	int sigcnt;			/* task structs pointing here */
	int live;			/* threads not yet in do_exit */
	int nr_threads;			/* threads not yet released */
	struct list_head thread_head;	/* of task_struct.thread_node */
	struct wait_queue_head wait_chldexit;	/* wait4 of any thread */

	sigset_t shared_pending;	/* kill(): any thread may take it */
	struct kernel_siginfo shared_info[_NSIG];

	unsigned int flags;		/* SIGNAL_* */
	int group_exit_code;		/* exit_group status, or stop signal */
	int group_stop_count;		/* threads still to stop */
	struct task_struct *group_exec_task;	/* de_thread's caller */
	int notify_count;		/* threads de_thread still waits for */

	int pgrp, session;		/* process group and session ids */
	bool leader;			/* a session leader (setsid) */
	struct tty_struct *tty;		/* controlling terminal, or NULL */

	short oom_score_adj;		/* -1000..1000; fork copies it */
	unsigned long min_flt, maj_flt;	/* of released threads */
	u64 utime, stime;		/* of released threads, ns */
	u64 cutime, cstime;		/* of reaped children, ns */

	/* The interval timers (kernel/itimer.c), under its itimer_lock. */
	u64 it_real_expires;		/* ktime ns, while queued */
	u64 it_real_last;		/* the last expiry: the interval's grid */
	u64 it_real_incr;		/* ns; 0: it fires once */
	bool it_real_queued;		/* on the tick's list */
	bool it_real_fired;		/* SIGALRM still to send (kworker) */
	bool it_real_used;		/* ever queued: exit must look */
	struct list_head it_real_node, it_fired_node;
	u8 it_cpu_armed;		/* bit 0 ITIMER_VIRTUAL, bit 1 _PROF */
	s64 it_left[2];			/* their CPU ns to go */
	u64 it_incr[2];			/* and their intervals */
	unsigned long cmin_flt, cmaj_flt;	/* of reaped children */
	unsigned long maxrss_kb, cmaxrss_kb;	/* peak RSS */

	/* Core dumps (fs/coredump.c): RLIMIT_CORE, which fork copies, and
	 * while a dump is written, its wait for the other threads. */
	u64 core_limit, core_limit_max;
	struct core_state *core_state;
};

/* The file-system context, shared by CLONE_FS (Linux's fs_struct). */
struct fs_struct {
	int users;
	unsigned int umask;
	struct inode *pwd;		/* NULL: the root */
};

/* task_struct.on_rq (Linux's): runnable, on cpu's rq (queued there, or
 * running there), or moving to it, on no rq meanwhile (kernel/sched.c). */
#define TASK_ON_RQ_QUEUED	1
#define TASK_ON_RQ_MIGRATING	2

struct task_struct {
	int pid;			/* the thread id (gettid) */
	int tgid;			/* the process id: the leader's pid */
	enum task_state state;
	unsigned int flags;		/* PF_* */
	char comm[TASK_COMM_LEN];
	void *stack;			/* THREAD_SIZE bytes, kernel stack */
	void *rw_page;			/* read and write's bounce page */
	unsigned long ksp;		/* saved kernel rsp while switched out */
	unsigned long fsbase;		/* user TLS (arch_prctl ARCH_SET_FS) */
	struct mm_struct *mm;		/* NULL for kernel threads */
	struct mempolicy mempolicy;	/* set_mempolicy's; fork copies it */
	struct task_struct *parent;	/* a thread of the parent process */
	struct task_struct *group_leader;
	struct list_head children;	/* of sibling: processes we forked */
	struct list_head sibling;	/* leaders only */
	struct list_head thread_node;	/* in signal->thread_head */
	struct list_head tasks;		/* every task, threads too */
	struct list_head run_list;	/* on the run queue */
	int exit_code;			/* wait4 status word */
	int exit_signal;		/* to the parent; -1 for a thread */
	int pdeath_signal;		/* prctl PR_SET_PDEATHSIG: sent when
					 * the parent thread exits; 0: none */
	bool no_new_privs;		/* PR_SET_NO_NEW_PRIVS: one-way, kept
					 * by fork and execve */
	int usage;			/* the task list's, /proc files' */
	bool need_resched;
	bool on_cpu;			/* some CPU runs on its stack */
	int on_rq;			/* 0, or TASK_ON_RQ_*: runnable */
	int cpu;			/* its rq: where it runs, is queued,
					 * or last ran (task_rq_lock) */
	int lock_depth;			/* big kernel lock levels held */

	struct signal_struct *signal;
	struct sighand_struct *sighand;
	struct fs_struct *fs;
	struct files_struct *files;
	short nice;			/* -20..19, setpriority's; fork copies
					 * it (round-robin: slices are equal) */
	unsigned short ioprio;		/* ioprio_set's class << 13 | data */
	unsigned int ngroups;		/* supplementary groups (setgroups) */
	u32 groups[NGROUPS_SMALL];

	sigset_t blocked, pending;	/* pending: sent to this thread */
	sigset_t saved_sigmask;		/* sigsuspend's, restored after */
	bool restore_sigmask;
	struct kernel_siginfo siginfo[_NSIG];	/* one queued per signal */
	unsigned long sas_ss_sp;	/* sigaltstack: the alternate signal */
	size_t sas_ss_size;		/* stack (size 0: none) and its */
	unsigned int sas_ss_flags;	/* flags, as set (SS_*) */
	sigset_t itimer_sigs;		/* SIGVTALRM, SIGPROF its ticks fired */
	unsigned int jobctl;		/* JOBCTL_* */
	bool in_syscall;		/* pt_regs hold a system call's result */
	bool core_waiter;		/* a core dump waits for it in do_exit */
	struct restart_block restart_block;

	unsigned long min_flt, maj_flt;	/* page faults, as getrusage */
	unsigned long start_time;	/* ns since boot */
	unsigned long utime, stime;	/* ns */
	int __user *set_child_tid;	/* CLONE_CHILD_SETTID: pid stored here */
	int __user *clear_child_tid;	/* 0 stored + futex wake at mm release */
	struct robust_list_head __user *robust_list;	/* set_robust_list */
	struct task_struct *vfork_parent;	/* CLONE_VFORK: asleep for us */
	bool vfork_done;		/* set when the mm is released */
	unsigned long ticks;		/* timer ticks this slice */
	struct cpumask cpus_mask;	/* where it may run (affinity) */
	u64 wake_at_ns;			/* nanosleep: 0, or when to wake */
	struct list_head timeout_list;	/* asleep with wake_at_ns: the tick's */
	struct wait_queue_head wait_pidfd;	/* pollers of its pidfds */
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
#define might_sleep() do {						\
	if (unlikely(spin_locks_held() || irqs_disabled()))		\
		__might_sleep(__FILE__, __LINE__);			\
} while (0)
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
/* Make t runnable and put it on a run queue of a CPU it may run on,
 * unless it runs or is queued already (then it just does not go to
 * sleep). Any context; no rq lock held (takes t's, then maybe another's). */
void wake_up_process(struct task_struct *t);
/* A running t looks at its signals now, wherever it runs. No rq lock
 * held. */
void kick_process(struct task_struct *t);
/* Every CPU's timer interrupt (Linux's update_process_times): the tick
 * counted where it fell (user mode, the kernel, idle), then the
 * scheduler's tick. */
void update_process_times(bool user);
/* Waits until no CPU runs on p's stack (a zombie's last switch away may
 * still be under way on another CPU when its parent reaps it). */
void wait_task_inactive(struct task_struct *p);
/* A new task's first code: the end of the switch into it (entered with
 * this CPU's rq lock held and interrupts off; returns with the lock
 * released, interrupts on, a task that released itself and switched away
 * for good freed). */
void finish_task_switch(void);
/* RESCHEDULE_VECTOR's handler: this CPU looks at its run queue. */
void scheduler_ipi(void);
/* Where p may run from now on (Linux's set_cpus_allowed_ptr): queued,
 * it moves now; running, at its next switch (current: on its way back to
 * user mode, or at its next schedule()). No rq lock held. */
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

/* kernel/futex.c: wakes up to nr FUTEX_WAIT sleepers on the futex at
 * uaddr, in current's mm (a shared one: what every process mapping it
 * sees there); how many were woken. */
long futex_wake(u32 __user *uaddr, int nr);
/* kernel/futex.c: the robust futexes current holds are marked
 * FUTEX_OWNER_DIED and a waiter woken (its exit or exec). */
void futex_exit_release(struct task_struct *tsk);

/* kernel/exit.c: ends current (the thread); code is a wait4 status word. */
void __noreturn do_exit(int code);

/* kernel/exec.c: replaces current's program; 0 or -errno (before the
 * point of no return; after it, a failure kills with SIGSEGV). */
int kernel_execve(const char *path, const char *const *argv,
		  const char *const *envp);

/* Folds mm's peak RSS into t's process's ru_maxrss (exec and exit drop
 * an mm). */
static inline void task_update_maxrss(struct task_struct *t,
				      const struct mm_struct *mm)
{
	unsigned long kb = mm->hiwater_rss * 4;

	if (t->signal->maxrss_kb < kb)
		t->signal->maxrss_kb = kb;
}

/* ---- thread groups (Linux's include/linux/sched/signal.h) ---------- */

/* A signal t should act on at its return to user mode (or to wake a
 * sleep: the sleep returns -ERESTARTSYS or -EINTR). */
static inline bool signal_pending(const struct task_struct *t)
{
	return ((t->pending | t->signal->shared_pending) & ~t->blocked) ||
	       (t->jobctl & JOBCTL_STOP_PENDING);
}

/* SIGKILL or a group exit is pending: t is about to die. */
static inline bool fatal_signal_pending(const struct task_struct *t)
{
	return t->pending & sigmask(SIGKILL);
}

/* A CPU's idle task (swapper/N): pid 0. */
static inline bool is_idle_task(const struct task_struct *t)
{
	return t->pid == 0;
}

static inline bool thread_group_leader(const struct task_struct *t)
{
	return t->group_leader == t;
}

/* Only t's own thread is left in its group (a zombie leader counts). */
static inline bool thread_group_empty(const struct task_struct *t)
{
	return list_is_singular(&t->signal->thread_head);
}

static inline bool same_thread_group(const struct task_struct *a,
				     const struct task_struct *b)
{
	return a->signal == b->signal;
}

/* Every thread t of p's group, leader first. */
#define for_each_thread(p, t)						\
	list_for_each_entry(t, &(p)->signal->thread_head, thread_node)

/* Every process (thread-group leader) p on the task list. */
#define for_each_process(p)						\
	list_for_each_entry(p, &task_list, tasks)			\
		if (!thread_group_leader(p)) {} else

/* The pid of t's process's parent, as getppid reports it. */
static inline int task_ppid_nr(const struct task_struct *t)
{
	return t->group_leader->parent ? t->group_leader->parent->tgid : 0;
}

/* pid 0's (Linux's init_signals, init_sighand, init_fs). */
extern struct signal_struct init_signals;
extern struct sighand_struct init_sighand;
extern struct fs_struct init_fs;

/* kernel/exit.c: the end of a thread group: every other thread killed,
 * then do_exit with the group's status. */
void __noreturn do_group_exit(int code);
/* A reaped or self-reaping task leaves its group, the task list and its
 * pid (Linux's release_task); a leader whose last thread this was is
 * reported to its parent, and released too if the parent ignores it.
 * Its stack goes once no CPU runs on it. Under the big kernel lock. */
void release_task(struct task_struct *p);
/* nr goes back to the pid allocator once no task has it as its pid and
 * no process as its process group or session id (Linux's struct pid
 * lives while any of them refers to it). */
void put_pid_nr(int nr);
/* Whether some task has nr as its pid, or some process as its process
 * group or session id (Linux's find_get_pid finds a struct pid). */
bool pid_nr_used(int nr);
void put_task_stack(struct task_struct *t);

/* kernel/fork.c: dropping the shared parts. */
void put_signal_struct(struct signal_struct *sig);
void put_sighand(struct sighand_struct *sh);
void put_fs_struct(struct fs_struct *fs);
/* exec: a private copy of the handlers if they are shared; 0 or -ENOMEM */
int unshare_sighand(struct task_struct *t);

/* Where the user registers of t sit: the top of its kernel stack. */
static inline struct pt_regs *task_pt_regs(struct task_struct *t)
{
	return (struct pt_regs *)((char *)t->stack + THREAD_SIZE) - 1;
}

#endif
