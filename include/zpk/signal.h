/* zpk/signal.h — signals: Linux x86-64 numbers, sigaction layout, delivery.
 * Default actions terminate or ignore; stop signals are ignored (no jobs). */
#ifndef ZPK_SIGNAL_H
#define ZPK_SIGNAL_H

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
#define SIGWINCH	28
#define _NSIG		64

#define SIG_DFL		((void *)0)
#define SIG_IGN		((void *)1)

#define SA_SIGINFO	0x00000004
#define SA_RESTORER	0x04000000
#define SA_ONSTACK	0x08000000
#define SA_RESTART	0x10000000
#define SA_NODEFER	0x40000000
#define SA_RESETHAND	0x80000000

#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* si_code values */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2
#define BUS_ADRERR	2
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3

/* task_struct.signal_flags */
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
/* Queue sig for t (one pending instance per signal, as Linux's classic). */
int send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info);
/* A fault in user mode: SIGSEGV/SIGBUS with si_addr, to current. */
void force_sig_fault(int sig, int code, unsigned long addr);
/* A fatal signal the kernel sends current (out of memory): even init's
 * unkillability gives way, as for a fault. */
void force_sig(int sig);
bool signal_pending(struct task_struct *t);
/* The mask a signal frame saves: sigsuspend's caller's while it waits
 * (Linux's sigmask_to_save), else the blocked set. */
sigset_t sigmask_to_save(void);
/* On the way back to user mode with no handler run: sigsuspend's
 * caller's mask again. */
void restore_saved_sigmask(void);

#endif
