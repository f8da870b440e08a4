/* kernel/signal.c — generating signals (kill, faults, SIGCHLD) and acting on
 * them at the return to user mode: default action or the user's handler. */
#include <asm/signal.h>
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define UNBLOCKABLE	(sigmask(SIGKILL) | sigmask(SIGSTOP))

static struct k_sigaction *sigaction_of(struct task_struct *t, int sig)
{
	return &t->sighand[sig - 1];
}

/* Signals whose default action is to do nothing. */
static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGWINCH ||
	       sig == 23 /* SIGURG */;
}

/* Default action "core": terminate (no core file is written, so the
 * status has no core flag, as on Linux with RLIMIT_CORE 0). */
static bool sig_ignored(struct task_struct *t, int sig)
{
	void *h = sigaction_of(t, sig)->handler;

	if (t->blocked & sigmask(sig))
		return false;	/* may be unblocked later: keep it */
	/* Init gets only what it handles, SIGKILL included (Linux's
	 * SIGNAL_UNKILLABLE); a forced signal has cleared the flag. */
	if ((t->signal_flags & SIGNAL_UNKILLABLE) && h == SIG_DFL)
		return true;
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

bool signal_pending(struct task_struct *t)
{
	return t->pending & ~t->blocked;
}

int send_signal(struct task_struct *t, int sig,
		const struct kernel_siginfo *info)
{
	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (t->state == EXIT_ZOMBIE || t->state == EXIT_DEAD || !t->pid ||
	    sig_ignored(t, sig))
		return 0;
	if (!(t->pending & sigmask(sig))) {
		t->pending |= sigmask(sig);
		if (info)
			t->siginfo[sig - 1] = *info;
		else
			t->siginfo[sig - 1] = (struct kernel_siginfo){
				.si_signo = sig, .si_code = SI_KERNEL };
	}
	if (t->state == TASK_INTERRUPTIBLE && (t->pending & ~t->blocked))
		wake_up_process(t);
	return 0;
}

/* A fault cannot be ignored or blocked: that would re-fault forever. */
void force_sig_fault(int sig, int code, unsigned long addr)
{
	struct k_sigaction *ka = sigaction_of(current, sig);
	struct kernel_siginfo info = { .si_signo = sig, .si_code = code };

	info.addr = (void *)addr;
	if (ka->handler == SIG_IGN || (current->blocked & sigmask(sig))) {
		ka->handler = SIG_DFL;
		current->blocked &= ~sigmask(sig);
	}
	/* Even init dies of a fault it does not handle, as on Linux. */
	if (ka->handler == SIG_DFL)
		current->signal_flags &= ~SIGNAL_UNKILLABLE;
	current->pending &= ~sigmask(sig);	/* this one's info wins */
	send_signal(current, sig, &info);
}

void force_sig(int sig)
{
	struct k_sigaction *ka = sigaction_of(current, sig);

	if (ka->handler == SIG_DFL)
		current->signal_flags &= ~SIGNAL_UNKILLABLE;
	send_signal(current, sig, NULL);
}

/* The lowest pending, unblocked signal, taken off the pending set. */
static int dequeue_signal(struct kernel_siginfo *info)
{
	sigset_t ready = current->pending & ~current->blocked;
	int sig = __builtin_ctzll(ready) + 1;

	current->pending &= ~sigmask(sig);
	*info = current->siginfo[sig - 1];
	return sig;
}

sigset_t sigmask_to_save(void)
{
	return current->restore_sigmask ? current->saved_sigmask
					 : current->blocked;
}

void restore_saved_sigmask(void)
{
	if (!current->restore_sigmask)
		return;
	current->restore_sigmask = false;
	current->blocked = current->saved_sigmask;
}

/* Delivers one pending signal; true if the caller should look again. */
bool do_signal(struct pt_regs *regs)
{
	struct kernel_siginfo info;
	int sig = dequeue_signal(&info);
	struct k_sigaction *ka = sigaction_of(current, sig), k = *ka;

	if (k.handler == SIG_IGN)
		return true;
	if (k.handler == SIG_DFL) {
		/* Queued while blocked, now unblocked: init still ignores
		 * it (Linux's get_signal). */
		if (current->signal_flags & SIGNAL_UNKILLABLE)
			return true;
		if (sig_default_ignored(sig) || sig == SIGSTOP ||
		    sig == SIGTSTP || sig == 21 || sig == 22)
			return true;	/* stopping is not supported: ignore */
		do_exit(sig);		/* wait status: killed by sig */
	}
	if (k.flags & SA_RESETHAND)
		ka->handler = SIG_DFL;
	if (setup_rt_frame(sig, &k, &info, regs)) {
		pr_info("zpk: %s[%d]: cannot build the frame for signal %d at sp %#llx: SIGSEGV\n",
			current->comm, current->pid, sig,
			(unsigned long long)regs->rsp);
		do_exit(SIGSEGV);
	}
	current->restore_sigmask = false;	/* the frame holds the mask */
	current->blocked |= k.mask & ~UNBLOCKABLE;
	if (!(k.flags & SA_NODEFER))
		current->blocked |= sigmask(sig) & ~UNBLOCKABLE;
	return true;
}

/* ---- system calls ---------------------------------------------------- */

static long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
			     struct k_sigaction __user *oact, size_t setsize)
{
	struct k_sigaction new, *ka;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG ||
	    (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	ka = sigaction_of(current, sig);
	if (oact && copy_to_user(oact, ka, sizeof(*ka)))
		return -EFAULT;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		*ka = new;
		if (sig_ignored(current, sig))
			current->pending &= ~sigmask(sig);
	}
	return 0;
}
SYSCALL(__NR_rt_sigaction, sys_rt_sigaction);

static long sys_rt_sigprocmask(int how, const sigset_t __user *set,
			       sigset_t __user *oset, size_t setsize)
{
	sigset_t new, old = current->blocked;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new = old | new;
			break;
		case SIG_UNBLOCK:
			new = old & ~new;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
		current->blocked = new & ~UNBLOCKABLE;
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_rt_sigprocmask, sys_rt_sigprocmask);

/* Sleeps until a signal that mask leaves unblocked is pending. */
static long sleep_for_signal(void)
{
	while (!signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	return -EINTR;
}

/* Linux's sigsuspend: waits under mask; the handler runs under it too,
 * and the caller's mask comes back with its sigreturn (or at once if no
 * handler runs). Always -EINTR. */
static long sys_rt_sigsuspend(const sigset_t __user *umask, size_t setsize)
{
	sigset_t mask;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	current->saved_sigmask = current->blocked;
	current->restore_sigmask = true;
	current->blocked = mask & ~UNBLOCKABLE;
	return sleep_for_signal();
}
SYSCALL(__NR_rt_sigsuspend, sys_rt_sigsuspend);

static long sys_pause(void)
{
	return sleep_for_signal();
}
SYSCALL(__NR_pause, sys_pause);

static long sys_rt_sigpending(sigset_t __user *set, size_t setsize)
{
	sigset_t p = current->pending & current->blocked;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	return copy_to_user(set, &p, sizeof(p)) ? -EFAULT : 0;
}
SYSCALL(__NR_rt_sigpending, sys_rt_sigpending);

static long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);

	if (restore_rt_frame(regs)) {
		pr_info("zpk: %s[%d]: bad signal frame at sp %#llx: SIGSEGV\n",
			current->comm, current->pid,
			(unsigned long long)regs->rsp);
		do_exit(SIGSEGV);
	}
	return (long)regs->rax;	/* the syscall return writes rax back */
}
SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn);

static int kill_one(struct task_struct *t, int sig)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = SI_USER };

	info.kill.pid = current->pid;
	return sig ? send_signal(t, sig, &info) : 0;
}

/* pid > 0: that process; 0: the caller (no process groups yet); -1:
 * every process but init and the caller. */
static long sys_kill(int pid, int sig)
{
	struct task_struct *t;
	int found = 0;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid > 0) {
		t = find_task_by_pid(pid);
		return t ? kill_one(t, sig) : -ESRCH;
	}
	if (pid == 0)
		return kill_one(current, sig);
	list_for_each_entry(t, &task_list, tasks)
		if (t->pid > 1 && t != current && t->state != EXIT_DEAD) {
			kill_one(t, sig);
			found++;
		}
	return found ? 0 : -ESRCH;
}
SYSCALL(__NR_kill, sys_kill);

/* One thread per process: a tid is a pid. */
static long sys_tkill(int tid, int sig)
{
	return tid <= 0 ? -EINVAL : sys_kill(tid, sig);
}
SYSCALL(__NR_tkill, sys_tkill);

static long sys_tgkill(int tgid, int tid, int sig)
{
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	return tgid != tid ? -ESRCH : sys_kill(tid, sig);
}
SYSCALL(__NR_tgkill, sys_tgkill);
