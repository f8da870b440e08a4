/* zpk/signal.h — signals: Linux x86-64 numbers, sigaction layout, delivery
 * to threads and thread groups; default actions terminate, ignore or stop. */
#ifndef ZPK_SIGNAL_H
#define ZPK_SIGNAL_H

#include <zpk/compiler.h>
#include <zpk/types.h>

#define SIGHUP		1
#define SIGINT		2
#define SIGQUIT		3
#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGUSR1		10
#define SIGSEGV		11
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGSYS		31
#define _NSIG		64

#define SIG_DFL		((void *)0)
#define SIG_IGN		((void *)1)

#define SA_NOCLDSTOP	0x00000001
#define SA_NOCLDWAIT	0x00000002
#define SA_SIGINFO	0x00000004
#define SA_RESTORER	0x04000000
#define SA_ONSTACK	0x08000000
#define SA_RESTART	0x10000000
#define SA_NODEFER	0x40000000
#define SA_RESETHAND	0x80000000

/* sigaltstack's ss_flags */
#define SS_ONSTACK	1		/* the thread runs on it now */
#define SS_DISABLE	2		/* there is none */
#define SS_AUTODISARM	(1U << 31)	/* off while a handler runs on it */
#define SS_FLAG_BITS	SS_AUTODISARM
#define MINSIGSTKSZ	2048		/* x86's: smaller is -ENOMEM */

/* stack_t, as sigaltstack and uc_stack hold it. */
typedef struct {
	void __user *ss_sp;
	int ss_flags;
	size_t ss_size;
} stack_t;

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* si_code values */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SI_TKILL	(-6)
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2
#define BUS_ADRERR	2
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_STOPPED	5
#define CLD_CONTINUED	6

/* signal_struct.flags (Linux's) */
#define SIGNAL_STOP_STOPPED	0x00000001	/* the group is stopped */
#define SIGNAL_STOP_CONTINUED	0x00000002	/* for WCONTINUED */
#define SIGNAL_GROUP_EXIT	0x00000004	/* exit_group or fatal signal */
#define SIGNAL_CLD_STOPPED	0x00000010	/* the parent is still to */
#define SIGNAL_CLD_CONTINUED	0x00000020	/* hear of it (SIGCHLD) */
#define SIGNAL_CLD_MASK		(SIGNAL_CLD_STOPPED | SIGNAL_CLD_CONTINUED)
#define SIGNAL_UNKILLABLE	0x00000040	/* init: SIG_DFL is ignored */

typedef u64 sigset_t;

/* The kernel's struct sigaction, as rt_sigaction passes it on x86-64. */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	sigset_t mask;
};

/* siginfo_t: 128 bytes; only the fields zpk fills. */
struct kernel_siginfo {
	int si_signo, si_errno, si_code, _pad0;
	union {
		struct { int pid, uid; } kill;
		void *addr;			/* SIGSEGV, SIGBUS */
		struct { int pid, uid, status; } chld;
		char _pad[112];
	};
};

static inline sigset_t sigmask(int sig)
{
	return 1ULL << (sig - 1);
}

struct task_struct;
struct pt_regs;
/* Process-directed: queue sig for t's thread group (one pending instance
 * per signal, as Linux's classic signals); a thread that does not block
 * it takes it. 0 or -EINVAL. */
int send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info);
/* Thread-directed (tkill, faults): queue sig for the thread t itself. */
int send_sig_thread(struct task_struct *t, int sig,
		    const struct kernel_siginfo *info);
/* sig to every process of process group pgrp: 0, or -ESRCH if there is
 * none (Linux's kill_pgrp); sig 0 only asks whether there is one. */
int kill_pgrp(int pgrp, int sig, const struct kernel_siginfo *info);
/* Takes current's lowest pending signal of mask (its own, then its
 * group's) into *info: the signal, or 0 if none (signalfd's read). */
int dequeue_signal_mask(sigset_t mask, struct kernel_siginfo *info);
/* A fault in user mode: SIGSEGV/SIGBUS with si_addr, to current. */
void force_sig_fault(int sig, int code, unsigned long addr);
/* A fatal signal the kernel sends current (out of memory): even init's
 * unkillability gives way, as for a fault. */
void force_sig(int sig);
/* signal_pending and fatal_signal_pending: zpk/sched.h (they read
 * task_struct, and every return to user mode asks). */
/* sig's handler is SIG_IGN or t blocks it: t would not act on it now. */
bool sig_blocked_or_ignored(struct task_struct *t, int sig);
/* At every return to user mode: stops, handlers, default actions and the
 * restart of an interrupted system call. True if a handler was set up. */
bool do_signal(struct pt_regs *regs);
/* SIGKILL to every other thread of p's group; how many there were,
 * zombies included (Linux's zap_other_threads). */
int zap_other_threads(struct task_struct *p);
/* do_exit: current stops taking signals (PF_EXITING). */
void exit_signals(void);
/* The mask a handler's frame saves: sigsuspend's old one, or blocked. */
sigset_t sigmask_to_save(void);
/* ppoll's mask (Linux's set_user_sigmask): *umask, if not NULL, holds
 * until restore_saved_sigmask_unless; 0, -EINVAL (sigsetsize), -EFAULT. */
int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize);
/* The old mask back now, unless the call was interrupted: then after
 * the handler (its frame saved the old mask). */
void restore_saved_sigmask_unless(bool interrupted);
/* The alternate signal stack of current (Linux's sas_ss_flags): 0, or
 * SS_ONSTACK if sp is on it, SS_DISABLE if there is none. */
int sas_ss_flags(unsigned long sp);
/* sp is on current's alternate stack, unless that is SS_AUTODISARM. */
bool on_sig_stack(unsigned long sp);
/* sp is on it, whatever its flags. */
bool __on_sig_stack(unsigned long sp);
/* None for t: what a new thread and a delivery with SS_AUTODISARM do. */
void sas_ss_reset(struct task_struct *t);
/* rt_sigreturn: the alternate stack back from the frame's uc_stack, as
 * sigaltstack would set it from sp (errors are dropped, as Linux's). */
void restore_altstack(const stack_t *ss, unsigned long sp);
/* Every process of process group pgrp is in a session whose parents
 * are all in pgrp or outside the session (Linux's orphaned pgrp). */
bool will_become_orphaned_pgrp(int pgrp, struct task_struct *ignored);
/* At exit: the SIGHUP and SIGCONT that a newly orphaned process group
 * with stopped members gets (tsk exits, or parent leaves tsk). */
void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent);

#endif
