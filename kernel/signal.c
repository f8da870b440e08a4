/* kernel/signal.c — generating signals for threads and thread groups (kill,
 * tkill, faults, SIGCHLD), group stops and exits, and acting on signals at
 * the return to user mode: default action, stop, or the user's handler. */
#include <asm/signal.h>
#include <zpk/coredump.h>
#include <zpk/errno.h>
#include <zpk/itimer.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define UNBLOCKABLE	(sigmask(SIGKILL) | sigmask(SIGSTOP))
#define STOP_SIGNALS	(sigmask(SIGSTOP) | sigmask(SIGTSTP) |		\
			 sigmask(SIGTTIN) | sigmask(SIGTTOU))
#define SIGNAL_STOP_MASK (SIGNAL_CLD_MASK | SIGNAL_STOP_STOPPED |	\
			  SIGNAL_STOP_CONTINUED)

static struct k_sigaction *sigaction_of(struct task_struct *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

/* Default action "stop": SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU. */
static bool sig_kernel_stop(int sig)
{
	return sigmask(sig) & STOP_SIGNALS;
}

/* Signals whose default action is to do nothing. */
static bool sig_default_ignored(int sig)
{
	return sig == SIGCHLD || sig == SIGCONT || sig == SIGWINCH ||
	       sig == SIGURG;
}

static bool sig_handler_ignored(void *h, int sig)
{
	return h == SIG_IGN || (h == SIG_DFL && sig_default_ignored(sig));
}

/* Default action "terminate" or "core" (fs/coredump.c). */
static bool sig_fatal(struct task_struct *t, int sig)
{
	return sigaction_of(t, sig)->handler == SIG_DFL &&
	       !sig_default_ignored(sig) && !sig_kernel_stop(sig);
}

/* Would t drop sig now (Linux's sig_ignored)? A blocked signal is kept:
 * its handler may change before it is unblocked. */
static bool sig_ignored(struct task_struct *t, int sig)
{
	void *h = sigaction_of(t, sig)->handler;

	if (t->blocked & sigmask(sig))
		return false;
	/* Init gets only what it handles, SIGKILL included (Linux's
	 * SIGNAL_UNKILLABLE); a forced signal has cleared the flag. */
	if ((t->signal->flags & SIGNAL_UNKILLABLE) && h == SIG_DFL)
		return true;
	return sig_handler_ignored(h, sig);
}

bool sig_blocked_or_ignored(struct task_struct *t, int sig)
{
	return (t->blocked & sigmask(sig)) ||
	       sigaction_of(t, sig)->handler == SIG_IGN;
}

sigset_t sigmask_to_save(void)
{
	return current->restore_sigmask ? current->saved_sigmask
					: current->blocked;
}

/* Adds sig to a pending set, unless it is there already (one instance
 * of each, as Linux's legacy signals): false then. */
static bool queue_sig(sigset_t *pending, struct kernel_siginfo *infos,
		      int sig, const struct kernel_siginfo *info)
{
	if (*pending & sigmask(sig))
		return false;
	*pending |= sigmask(sig);
	infos[sig - 1] = info ? *info : (struct kernel_siginfo){
		.si_signo = sig, .si_code = SI_KERNEL };
	return true;
}

/* Linux's wake_up_state(t, __TASK_STOPPED): wake_up_process wakes only
 * sleepers. */
static void wake_up_stopped(struct task_struct *t)
{
	if (t->state != TASK_STOPPED)
		return;
	t->state = TASK_RUNNING;
	wake_up_process(t);
}

/* t has a signal to act on: an interruptible sleep ends; a fatal one
 * also ends a stop; running on another CPU, it is sent to look. */
static void signal_wake_up(struct task_struct *t, bool fatal)
{
	if (t->state == TASK_INTERRUPTIBLE)
		wake_up_process(t);
	else if (fatal && t->state == TASK_STOPPED)
		wake_up_stopped(t);
	else
		kick_process(t);
}

/* SIGKILL to thread t, to end it with its group. */
static void sigkill_thread(struct task_struct *t)
{
	t->jobctl &= ~JOBCTL_STOP_PENDING;
	queue_sig(&t->pending, t->siginfo, SIGKILL, NULL);
	signal_wake_up(t, true);
}

int zap_other_threads(struct task_struct *p)
{
	struct task_struct *t;
	int count = 0;

	p->signal->group_stop_count = 0;
	for_each_thread(p, t) {
		if (t == p)
			continue;
		count++;
		if (t->state != EXIT_ZOMBIE && t->state != EXIT_DEAD)
			sigkill_thread(t);
		else
			t->jobctl &= ~JOBCTL_STOP_PENDING;
	}
	return count;
}

/* The group's stop flags become flags, the rest stays. */
static void signal_set_stop_flags(struct signal_struct *sig,
				  unsigned int flags)
{
	sig->flags = (sig->flags & ~SIGNAL_STOP_MASK) | flags;
}

/*
 * SIGCONT resumes p's group whatever its handler: stop signals pending
 * are dropped, stopped threads run again, and the parent is to hear of
 * it from the first thread back at work (Linux's prepare_signal).
 */
static void resume_group(struct task_struct *p)
{
	struct signal_struct *sig = p->signal;
	struct task_struct *t;
	unsigned int why = 0;

	sig->shared_pending &= ~STOP_SIGNALS;
	for_each_thread(p, t) {
		t->pending &= ~STOP_SIGNALS;
		t->jobctl &= ~JOBCTL_STOP_PENDING;
		wake_up_stopped(t);
	}
	if (sig->flags & SIGNAL_STOP_STOPPED)
		why = SIGNAL_CLD_CONTINUED;
	else if (sig->group_stop_count)
		why = SIGNAL_CLD_STOPPED;
	if (why) {
		signal_set_stop_flags(sig, why | SIGNAL_STOP_CONTINUED);
		sig->group_stop_count = 0;
		sig->group_exit_code = 0;
	}
}

/* Side effects of sending sig to p's group, and whether to queue it: a
 * dying group takes nothing more; a stop signal cancels a pending
 * SIGCONT and SIGCONT every pending stop. */
static bool prepare_signal(int sig, struct task_struct *p)
{
	struct task_struct *t;

	if (p->signal->flags & SIGNAL_GROUP_EXIT)
		return false;
	if (sig_kernel_stop(sig)) {
		p->signal->shared_pending &= ~sigmask(SIGCONT);
		for_each_thread(p, t)
			t->pending &= ~sigmask(SIGCONT);
	} else if (sig == SIGCONT) {
		resume_group(p);
	}
	return !sig_ignored(p, sig);
}

/* Could thread t take sig now (Linux's wants_signal)? */
static bool wants_signal(int sig, struct task_struct *t)
{
	if ((t->blocked & sigmask(sig)) || (t->flags & PF_EXITING))
		return false;
	if (sig == SIGKILL)
		return true;
	return t->state != TASK_STOPPED;
}

/*
 * sig was queued for p (shared: for its group): picks the thread to act
 * on it (p if it can, else any other that does not block it) and wakes
 * it. A fatal signal one of them takes kills the whole group at once
 * (Linux's complete_signal).
 */
static void complete_signal(int sig, struct task_struct *p, bool shared)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t = NULL, *it;

	if (wants_signal(sig, p))
		t = p;
	else if (shared)
		for_each_thread(p, it)
			if (wants_signal(sig, it)) {
				t = it;
				break;
			}
	if (!t)
		return;	/* blocked everywhere: it waits in shared_pending */
	/* A fatal signal ends the group at once, but one whose action is
	 * core: its thread takes it and dumps first (Linux's
	 * complete_signal). */
	if (sig_fatal(p, sig) && !sig_kernel_coredump(sig) &&
	    !(signal->flags & (SIGNAL_UNKILLABLE | SIGNAL_GROUP_EXIT))) {
		signal->flags = SIGNAL_GROUP_EXIT;
		signal->group_exit_code = sig;
		signal->group_stop_count = 0;
		for_each_thread(p, it)
			sigkill_thread(it);
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

/* Queues sig for thread t (shared false) or its group (true). */
static int __send_signal(int sig, const struct kernel_siginfo *info,
			 struct task_struct *t, bool shared)
{
	struct signal_struct *signal = t->signal;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (!t->pid || !t->sighand || !prepare_signal(sig, t))
		return 0;
	/* signalfd's readers, whether or not sig is blocked (Linux's
	 * signalfd_notify) */
	wake_up(&t->sighand->signalfd_wqh);
	if (shared ? queue_sig(&signal->shared_pending, signal->shared_info,
			       sig, info)
		   : queue_sig(&t->pending, t->siginfo, sig, info))
		complete_signal(sig, t, shared);
	return 0;
}

int send_signal(struct task_struct *t, int sig,
		const struct kernel_siginfo *info)
{
	return __send_signal(sig, info, t, true);
}

int send_sig_thread(struct task_struct *t, int sig,
		    const struct kernel_siginfo *info)
{
	return __send_signal(sig, info, t, false);
}

int kill_pgrp(int pgrp, int sig, const struct kernel_siginfo *info)
{
	struct task_struct *p;
	bool success = false;
	int err = -ESRCH;

	for_each_process(p) {
		if (p->signal->pgrp != pgrp || p->state == EXIT_DEAD ||
		    !p->pid)
			continue;
		err = sig ? send_signal(p, sig, info) : 0;	/* 0 probes */
		success |= !err;
	}
	return success ? 0 : err;
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
		current->signal->flags &= ~SIGNAL_UNKILLABLE;
	current->pending &= ~sigmask(sig);	/* this one's info wins */
	send_sig_thread(current, sig, &info);
}

void force_sig(int sig)
{
	if (sigaction_of(current, sig)->handler == SIG_DFL)
		current->signal->flags &= ~SIGNAL_UNKILLABLE;
	send_sig_thread(current, sig, NULL);
}

/* Signals current has just blocked (or, exiting, no longer takes) but
 * its group has pending: another thread that can take them is woken
 * (Linux's retarget_shared_pending). */
static void retarget_shared_pending(sigset_t which)
{
	sigset_t retarget = current->signal->shared_pending & which;
	struct task_struct *t;

	for_each_thread(current, t) {
		if (!retarget)
			return;
		if (t == current || (t->flags & PF_EXITING) ||
		    !(retarget & ~t->blocked))
			continue;
		retarget &= t->blocked;
		signal_wake_up(t, false);
	}
}

/* ---- job control ------------------------------------------------------ */

/* Tells the parent of tsk's process that the group stopped or went on:
 * SIGCHLD unless it asked not (SA_NOCLDSTOP, SIG_IGN), and a wake of
 * its wait4 (Linux's do_notify_parent_cldstop). */
static void do_notify_parent_cldstop(struct task_struct *tsk, int why)
{
	struct task_struct *leader = tsk->group_leader, *parent = leader->parent;
	struct kernel_siginfo info = { .si_signo = SIGCHLD, .si_code = why };
	struct k_sigaction *ka;

	if (!parent)
		return;
	info.chld.pid = leader->tgid;
	info.chld.status = why == CLD_CONTINUED ? SIGCONT :
			   tsk->signal->group_exit_code & 0x7f;
	ka = sigaction_of(parent, SIGCHLD);
	if (ka->handler != SIG_IGN && !(ka->flags & SA_NOCLDSTOP))
		send_signal(parent, SIGCHLD, &info);
	wake_up(&parent->signal->wait_chldexit);
}

/* current stops for its group's stop; the last thread to stop marks the
 * group stopped and tells the parent. True if that was the last one. */
static bool task_participate_group_stop(void)
{
	struct signal_struct *sig = current->signal;

	current->jobctl &= ~JOBCTL_STOP_PENDING;
	if (sig->group_stop_count)
		sig->group_stop_count--;
	if (sig->group_stop_count || (sig->flags & SIGNAL_STOP_STOPPED))
		return false;
	signal_set_stop_flags(sig, SIGNAL_STOP_STOPPED);
	return true;
}

/*
 * A stop signal (signr), or a group stop another thread started (0):
 * signr starts the group stop, asking every other live thread to stop
 * too; then current stops until SIGCONT or SIGKILL (Linux's
 * do_signal_stop).
 */
static void do_signal_stop(int signr)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;

	if (!(current->jobctl & JOBCTL_STOP_PENDING)) {
		if (!(sig->flags & SIGNAL_STOP_STOPPED))
			sig->group_exit_code = signr;
		sig->group_stop_count = 1;
		current->jobctl |= JOBCTL_STOP_PENDING;
		for_each_thread(current, t) {
			if (t == current || t->state == TASK_STOPPED ||
			    (t->flags & PF_EXITING))
				continue;
			t->jobctl |= JOBCTL_STOP_PENDING;
			sig->group_stop_count++;
			signal_wake_up(t, false);
		}
	}
	current->state = TASK_STOPPED;
	if (task_participate_group_stop())
		do_notify_parent_cldstop(current, CLD_STOPPED);
	schedule();
}

/* The first thread to run after a stop or continue tells the parent. */
static void notify_stop_change(void)
{
	struct signal_struct *sig = current->signal;
	int why = sig->flags & SIGNAL_CLD_CONTINUED ? CLD_CONTINUED
						    : CLD_STOPPED;

	sig->flags &= ~SIGNAL_CLD_MASK;
	do_notify_parent_cldstop(current, why);
}

bool will_become_orphaned_pgrp(int pgrp, struct task_struct *ignored)
{
	struct task_struct *p, *pp;

	for_each_process(p) {
		if (p->signal->pgrp != pgrp || p == ignored ||
		    p->state == EXIT_DEAD ||
		    (p->state == EXIT_ZOMBIE && thread_group_empty(p)))
			continue;
		pp = p->parent;
		if (!pp || pp->tgid == 1)
			continue;
		if (pp->signal->pgrp != pgrp &&
		    pp->signal->session == p->signal->session)
			return false;
	}
	return true;
}

static bool has_stopped_jobs(int pgrp)
{
	struct task_struct *p;

	for_each_process(p)
		if (p->signal->pgrp == pgrp &&
		    (p->signal->flags & SIGNAL_STOP_STOPPED))
			return true;
	return false;
}

void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent)
{
	int pgrp = tsk->signal->pgrp;
	struct task_struct *ignored = tsk;

	if (!parent)
		parent = tsk->parent;	/* tsk exits */
	else
		ignored = NULL;		/* tsk loses its parent */
	if (!parent || parent->signal->pgrp == pgrp ||
	    parent->signal->session != tsk->signal->session)
		return;
	if (will_become_orphaned_pgrp(pgrp, ignored) &&
	    has_stopped_jobs(pgrp)) {
		kill_pgrp(pgrp, SIGHUP, NULL);
		kill_pgrp(pgrp, SIGCONT, NULL);
	}
}

/* ---- delivery ---------------------------------------------------------- */

/* The lowest pending signal of mask, the thread's own first, then its
 * group's; taken off its set. 0 if none. */
int dequeue_signal_mask(sigset_t mask, struct kernel_siginfo *info)
{
	struct signal_struct *sig = current->signal;
	sigset_t *pending = &current->pending;
	struct kernel_siginfo *infos = current->siginfo;
	sigset_t ready = *pending & mask;
	int signr;

	if (!ready) {
		pending = &sig->shared_pending;
		infos = sig->shared_info;
		ready = *pending & mask;
	}
	if (!ready)
		return 0;
	signr = __builtin_ctzll(ready) + 1;
	*pending &= ~sigmask(signr);
	*info = infos[signr - 1];
	if (signr == SIGALRM && pending == &sig->shared_pending)
		itimer_rearm_real(sig);
	return signr;
}

/* The lowest pending unblocked signal. */
static int dequeue_signal(struct kernel_siginfo *info)
{
	return dequeue_signal_mask(~current->blocked, info);
}

/* The default action of signr, which current dequeued with info:
 * nothing, a stop, or the end of its group, with a core dump first for
 * the signals whose action is core. */
static void do_default_action(int signr, const struct kernel_siginfo *info)
{
	struct signal_struct *sig = current->signal;

	if (sig_default_ignored(signr))
		return;
	/* Queued while blocked, now unblocked: init still ignores it. */
	if ((sig->flags & SIGNAL_UNKILLABLE) && signr != SIGKILL &&
	    signr != SIGSTOP)
		return;
	if (sig_kernel_stop(signr)) {
		/* An orphaned group has nobody to continue it. */
		if (signr == SIGSTOP ||
		    !will_become_orphaned_pgrp(sig->pgrp, NULL))
			do_signal_stop(signr);
		return;
	}
	if (sig_kernel_coredump(signr))
		do_coredump(info);	/* the status gets 0x80 if it dumped */
	do_group_exit(signr);	/* wait status: killed by signr */
}

/*
 * The next signal current should run a handler for, with its action in
 * *ka, after stops, group exits and default actions (Linux's
 * get_signal). 0 when there is none.
 */
static int get_signal(struct k_sigaction *ka, struct kernel_siginfo *info)
{
	struct signal_struct *sig = current->signal;
	int signr;

	for (;;) {
		if (sig->flags & SIGNAL_CLD_MASK) {
			notify_stop_change();
			continue;
		}
		if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exec_task) {
			current->pending &= ~sigmask(SIGKILL);
			do_group_exit(SIGKILL);
		}
		if (current->jobctl & JOBCTL_STOP_PENDING) {
			do_signal_stop(0);
			continue;
		}
		signr = dequeue_signal(info);
		if (!signr)
			return 0;
		*ka = *sigaction_of(current, signr);
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler != SIG_DFL) {
			if (ka->flags & SA_RESETHAND)
				sigaction_of(current, signr)->handler = SIG_DFL;
			return signr;
		}
		do_default_action(signr, info);
	}
}

/* The handler's frame, then its mask (Linux's handle_signal). */
static void handle_signal(int sig, const struct k_sigaction *ka,
			  const struct kernel_siginfo *info,
			  struct pt_regs *regs)
{
	syscall_restart(regs, ka);
	if (setup_rt_frame(sig, ka, info, regs)) {
		pr_info("zpk: %s[%d]: cannot build the frame for signal %d at sp %#llx: SIGSEGV\n",
			current->comm, current->pid, sig,
			(unsigned long long)regs->rsp);
		do_group_exit(SIGSEGV);
	}
	current->restore_sigmask = false;
	current->blocked |= ka->mask & ~UNBLOCKABLE;
	if (!(ka->flags & SA_NODEFER))
		current->blocked |= sigmask(sig) & ~UNBLOCKABLE;
	/* The frame has it for sigreturn to put back (Linux's
	 * signal_delivered). */
	if (current->sas_ss_flags & SS_AUTODISARM)
		sas_ss_reset(current);
}

bool do_signal(struct pt_regs *regs)
{
	struct kernel_siginfo info;
	struct k_sigaction ka;
	int sig;

	if (current->itimer_sigs)
		itimer_send_signals();
	sig = signal_pending(current) ? get_signal(&ka, &info) : 0;
	if (sig) {
		handle_signal(sig, &ka, &info, regs);
		return true;
	}
	syscall_restart(regs, NULL);
	if (current->restore_sigmask) {
		current->restore_sigmask = false;
		current->blocked = current->saved_sigmask;
	}
	return false;
}

/* do_exit: current takes no more signals; its group's pending ones go to
 * a thread that can, and a group stop it was part of goes on without it. */
void exit_signals(void)
{
	current->flags |= PF_EXITING;
	if (thread_group_empty(current) ||
	    (current->signal->flags & SIGNAL_GROUP_EXIT))
		return;
	retarget_shared_pending(~current->blocked);
	if ((current->jobctl & JOBCTL_STOP_PENDING) &&
	    task_participate_group_stop())
		do_notify_parent_cldstop(current, CLD_STOPPED);
}

/* ---- system calls ---------------------------------------------------- */

/* Drops sig from the group's pending set and every thread's. */
static void flush_sig(struct task_struct *p, int sig)
{
	struct task_struct *t;

	p->signal->shared_pending &= ~sigmask(sig);
	for_each_thread(p, t)
		t->pending &= ~sigmask(sig);
}

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
		/* POSIX: ignoring a pending signal discards it, blocked or
		 * not, in every thread. */
		if (sig_handler_ignored(new.handler, sig))
			flush_sig(current, sig);
	}
	return 0;
}
SYSCALL(__NR_rt_sigaction, sys_rt_sigaction);

/* Sets current's mask; newly blocked group signals go to another
 * thread. */
static void set_current_blocked(sigset_t new)
{
	sigset_t newly = new & ~current->blocked;

	current->blocked = new & ~UNBLOCKABLE;
	retarget_shared_pending(newly);
}

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
		set_current_blocked(new);
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_rt_sigprocmask, sys_rt_sigprocmask);

static long sys_rt_sigpending(sigset_t __user *set, size_t setsize)
{
	sigset_t p = (current->pending | current->signal->shared_pending) &
		     current->blocked;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	return copy_to_user(set, &p, sizeof(p)) ? -EFAULT : 0;
}
SYSCALL(__NR_rt_sigpending, sys_rt_sigpending);

/* Sleeps until a signal is to be acted on; -ERESTARTNOHAND (EINTR
 * after a handler). */
static long sleep_until_signal(void)
{
	while (!signal_pending(current)) {
		current->state = TASK_INTERRUPTIBLE;
		schedule();
	}
	return -ERESTARTNOHAND;
}

static long sys_pause(void)
{
	return sleep_until_signal();
}
SYSCALL(__NR_pause, sys_pause);

/* set is the mask for a sleep and the handler that may end it; the
 * frame saves the old one, which sigreturn (or the return without a
 * handler) restores. */
static void set_saved_sigmask(sigset_t set)
{
	current->saved_sigmask = current->blocked;
	set_current_blocked(set);
	current->restore_sigmask = true;
}

int set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
	sigset_t set;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&set, umask, sizeof(set)))
		return -EFAULT;
	set_saved_sigmask(set);
	return 0;
}

void restore_saved_sigmask_unless(bool interrupted)
{
	if (interrupted || !current->restore_sigmask)
		return;
	current->restore_sigmask = false;
	current->blocked = current->saved_sigmask;
}

static long sys_rt_sigsuspend(const sigset_t __user *uset, size_t setsize)
{
	sigset_t set;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	set_saved_sigmask(set);
	return sleep_until_signal();
}
SYSCALL(__NR_rt_sigsuspend, sys_rt_sigsuspend);

/*
 * Linux's do_sigtimedwait: a pending signal of these (never SIGKILL or
 * SIGSTOP) is taken without running its handler. With none, sleep with
 * them unblocked, so that one sent to the process picks this thread,
 * until one comes, another signal (-EINTR), or wake_at (0: never) passes
 * (-EAGAIN). The signal's number, its siginfo in *info.
 */
static long do_sigtimedwait(sigset_t these, struct kernel_siginfo *info,
			    u64 wake_at)
{
	sigset_t saved = current->blocked;
	int sig = dequeue_signal_mask(these, info);

	if (sig || wake_at == 1)
		return sig ? sig : -EAGAIN;
	current->blocked &= ~these;
	for (;;) {
		current->state = TASK_INTERRUPTIBLE;
		if (signal_pending(current) ||
		    (wake_at && ktime_get_ns() >= wake_at))
			break;
		current->wake_at_ns = wake_at;
		schedule();
		current->wake_at_ns = 0;
	}
	current->state = TASK_RUNNING;
	set_current_blocked(saved);
	sig = dequeue_signal_mask(these, info);
	if (sig)
		return sig;
	return signal_pending(current) ? -EINTR : -EAGAIN;
}

/* sigwaitinfo and sigtimedwait: timeout NULL waits for ever, {0, 0}
 * only looks. Not restarted after a handler: -EINTR, as Linux. */
static long sys_rt_sigtimedwait(const sigset_t __user *uthese,
				struct kernel_siginfo __user *uinfo,
				const struct __kernel_timespec __user *uts,
				size_t setsize)
{
	struct kernel_siginfo info;
	sigset_t these;
	u64 wake_at = 0, ns;
	long ret;

	if (setsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		ret = timespec_from_user(uts, &ns);
		if (ret)
			return ret;
		wake_at = ns ? ktime_get_ns() + ns : 1;	/* 1: do not sleep */
	}
	ret = do_sigtimedwait(these & ~UNBLOCKABLE, &info, wake_at);
	if (ret > 0 && uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return ret;
}
SYSCALL(__NR_rt_sigtimedwait, sys_rt_sigtimedwait);

static long sys_rt_sigreturn(void)
{
	struct pt_regs *regs = task_pt_regs(current);

	if (restore_rt_frame(regs)) {
		pr_info("zpk: %s[%d]: bad signal frame at sp %#llx: SIGSEGV\n",
			current->comm, current->pid,
			(unsigned long long)regs->rsp);
		do_group_exit(SIGSEGV);
	}
	current->in_syscall = false;	/* rax is the program's again */
	return (long)regs->rax;	/* the syscall return writes rax back */
}
SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn);

/* After a sleep restarted without a handler: go on with it. */
static long sys_restart_syscall(void)
{
	struct restart_block *rb = &current->restart_block;
	long (*fn)(struct restart_block *) = rb->fn;

	rb->fn = NULL;
	return fn ? fn(rb) : -EINTR;
}
SYSCALL(__NR_restart_syscall, sys_restart_syscall);

/* ---- the alternate signal stack ----------------------------------------- */

/* Linux's __on_sig_stack: the stack grows down, so its top is on it. */
bool __on_sig_stack(unsigned long sp)
{
	return sp > current->sas_ss_sp &&
	       sp - current->sas_ss_sp <= current->sas_ss_size;
}

/* SS_AUTODISARM: a handler on it has disarmed it, so sp cannot be on
 * it unless the program set it so; a stray sp near its end then does
 * not stop delivery (Linux's reasoning). */
bool on_sig_stack(unsigned long sp)
{
	if (current->sas_ss_flags & SS_AUTODISARM)
		return false;
	return __on_sig_stack(sp);
}

int sas_ss_flags(unsigned long sp)
{
	if (!current->sas_ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

void sas_ss_reset(struct task_struct *t)
{
	t->sas_ss_sp = 0;
	t->sas_ss_size = 0;
	t->sas_ss_flags = SS_DISABLE;
}

/*
 * Linux's do_sigaltstack: *oss gets the current one as seen from sp;
 * ss, if not NULL, replaces it. 0, -EPERM (sp is on it), -EINVAL (a mode
 * other than 0, SS_ONSTACK, SS_DISABLE), -ENOMEM (smaller than
 * MINSIGSTKSZ). SS_ONSTACK sets it as 0 does.
 */
static int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	unsigned int mode;

	if (oss) {
		memset(oss, 0, sizeof(*oss));
		oss->ss_sp = (void __user *)current->sas_ss_sp;
		oss->ss_size = current->sas_ss_size;
		oss->ss_flags = sas_ss_flags(sp) |
				(current->sas_ss_flags & SS_FLAG_BITS);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(sp))
		return -EPERM;
	mode = (unsigned int)ss->ss_flags & ~SS_FLAG_BITS;
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode != SS_DISABLE && ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	current->sas_ss_sp = mode == SS_DISABLE ? 0 : (unsigned long)ss->ss_sp;
	current->sas_ss_size = mode == SS_DISABLE ? 0 : ss->ss_size;
	current->sas_ss_flags = (unsigned int)ss->ss_flags;
	return 0;
}

void restore_altstack(const stack_t *ss, unsigned long sp)
{
	(void)do_sigaltstack(ss, NULL, sp);
}

/* The new stack is set even when the old one cannot be copied out. */
static long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss)
{
	unsigned long sp = task_pt_regs(current)->rsp;
	stack_t new, old;
	int err;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &new : NULL, uoss ? &old : NULL, sp);
	if (!err && uoss && copy_to_user(uoss, &old, sizeof(old)))
		err = -EFAULT;
	return err;
}
SYSCALL(__NR_sigaltstack, sys_sigaltstack);

/* Process-directed: t's group; si_pid is the sender's process. */
static int kill_one(struct task_struct *t, int sig)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = SI_USER };

	info.kill.pid = current->tgid;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	return sig ? send_signal(t, sig, &info) : 0;
}

/* kill(-pgrp): every process in the group, ESRCH if there is none. */
static int kill_pgrp_user(int pgrp, int sig)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = SI_USER };

	info.kill.pid = current->tgid;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (!sig) {
		struct task_struct *p;

		for_each_process(p)
			if (p->signal->pgrp == pgrp && p->pid &&
			    p->state != EXIT_DEAD)
				return 0;
		return -ESRCH;
	}
	return kill_pgrp(pgrp, sig, &info);
}

/* pid > 0: the process with that pid (or thread id); 0: the caller's
 * process group; -1: every process but init and the caller's; < -1: the
 * process group -pid. */
static long sys_kill(int pid, int sig)
{
	struct task_struct *t;
	int count = 0, err = 0, r;

	if (pid > 0) {
		t = find_task_by_pid(pid);
		return t ? kill_one(t, sig) : -ESRCH;
	}
	if (pid == -__INT_MAX__ - 1)
		return -ESRCH;
	if (pid != -1)
		return kill_pgrp_user(pid ? -pid : current->signal->pgrp, sig);
	for_each_process(t)
		if (t->pid > 1 && !same_thread_group(t, current) &&
		    t->state != EXIT_DEAD) {
			r = kill_one(t, sig);
			count++;
			if (r)
				err = r;
		}
	return count ? err : -ESRCH;
}
SYSCALL(__NR_kill, sys_kill);

/*
 * sigqueue's info from user space, for sig (Linux's
 * __copy_siginfo_from_user): si_signo is sig. Only to oneself may it
 * claim to be the kernel's (si_code >= 0) or tkill's (SI_TKILL), for
 * that adds the sender. 0, -EFAULT or -EPERM.
 */
static int sigqueueinfo_from_user(struct kernel_siginfo *info, int sig,
				  const struct kernel_siginfo __user *u,
				  int target)
{
	if (copy_from_user(info, u, sizeof(*info)))
		return -EFAULT;
	info->si_signo = sig;
	if ((info->si_code >= 0 || info->si_code == SI_TKILL) &&
	    target != current->pid)
		return -EPERM;
	return 0;
}

static long sys_rt_sigqueueinfo(int pid, int sig,
				const struct kernel_siginfo __user *uinfo)
{
	struct kernel_siginfo info;
	struct task_struct *t;
	int err = sigqueueinfo_from_user(&info, sig, uinfo, pid);

	if (err)
		return err;
	t = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (!t)
		return -ESRCH;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	return sig ? send_signal(t, sig, &info) : 0;
}
SYSCALL(__NR_rt_sigqueueinfo, sys_rt_sigqueueinfo);

static long sys_rt_tgsigqueueinfo(int tgid, int tid, int sig,
				  const struct kernel_siginfo __user *uinfo)
{
	struct kernel_siginfo info;
	struct task_struct *t;
	int err;

	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	err = sigqueueinfo_from_user(&info, sig, uinfo, tid);
	if (err)
		return err;
	t = find_task_by_pid(tid);
	if (!t || t->tgid != tgid)
		return -ESRCH;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	return sig ? send_sig_thread(t, sig, &info) : 0;
}
SYSCALL(__NR_rt_tgsigqueueinfo, sys_rt_tgsigqueueinfo);

/* Thread-directed: the thread tid, if it is in process tgid (> 0). */
static long do_tkill(int tgid, int tid, int sig)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = SI_TKILL };
	struct task_struct *t = find_task_by_pid(tid);

	info.kill.pid = current->tgid;
	if (!t || (tgid > 0 && t->tgid != tgid))
		return -ESRCH;
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	return sig ? send_sig_thread(t, sig, &info) : 0;
}

static long sys_tkill(int tid, int sig)
{
	return tid <= 0 ? -EINVAL : do_tkill(0, tid, sig);
}
SYSCALL(__NR_tkill, sys_tkill);

static long sys_tgkill(int tgid, int tid, int sig)
{
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	return do_tkill(tgid, tid, sig);
}
SYSCALL(__NR_tgkill, sys_tgkill);
