/* kernel/exit.c — the end of a thread and of a thread group: do_exit
 * releases everything but the task itself; a process stays a zombie until
 * its parent's wait4 reaps it, a thread reaps itself (release_task). */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/tlbflush.h>
#include <zpk/coredump.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/itimer.h>
#include <zpk/kernel_stat.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mm_verify.h>
#include <zpk/mmu.h>
#include <zpk/pid.h>
#include <zpk/pidfd.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/reboot.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/tty.h>
#include <zpk/uaccess.h>
#include <zpk/zero_page.h>
#include <uapi/linux/resource.h>

/* mm_verify=exit's check of mm. It waits for every mm's mmap_lock and
 * needs no big kernel lock of do_exit's (it takes it for the pipes
 * itself): that goes meanwhile, so that the other CPUs' system calls are
 * not held up. */
static void exit_mm_verify(struct mm_struct *mm)
{
	bool bkl = kernel_locked();

	if (!mm_verify_on_exit)
		return;
	if (bkl)
		unlock_kernel();
	mm_verify_exit(mm);
	if (bkl)
		lock_kernel();
}

/* Drops current's address space; the kernel's tables stay loaded. */
static void exit_mm(void)
{
	struct mm_struct *mm = current->mm;

	if (!mm)
		return;
	task_update_maxrss(current, mm);
	/* mm_verify=exit: the counters and pages of this mm before the
	 * teardown, in time linear in it; all of them are swept on demand
	 * (/proc/sys/vm/mm_verify: the test runner, after each test). */
	exit_mm_verify(mm);
	mm_release(current, mm);
	local_irq_disable();	/* a flush IPI sees both or neither */
	switch_mm(NULL);
	current->mm = NULL;
	local_irq_enable();
	mmput(mm);
}

static void exit_files(void)
{
	if (current->files) {
		put_files_struct(current->files);
		current->files = NULL;
	}
	if (current->fs) {
		put_fs_struct(current->fs);
		current->fs = NULL;
	}
}

static bool do_notify_parent(struct task_struct *tsk, int sig);

/* A live thread of current's group other than current, or NULL (Linux's
 * find_alive_thread). */
static struct task_struct *find_alive_thread(void)
{
	struct task_struct *t;

	for_each_thread(current, t)
		if (!(t->flags & PF_EXITING))
			return t;
	return NULL;
}

/* c's parent thread is exiting: c's threads that asked for it with
 * PR_SET_PDEATHSIG get their signal for the process, as from the parent,
 * even when another thread of the parent's group takes c over. */
static void send_pdeath_signals(struct task_struct *c)
{
	struct kernel_siginfo info = { .si_code = SI_USER,
				       .kill.pid = current->tgid };
	struct task_struct *t;

	for_each_thread(c, t)
		if (t->pdeath_signal) {
			info.si_signo = t->pdeath_signal;
			send_signal(t, t->pdeath_signal, &info);
		}
}

/*
 * Current's children go to another live thread of its group, or else
 * to init, which reaps them (Linux's forget_original_parent). A new
 * parent outside the group hears of a child that is a zombie already,
 * and a process group that this orphans gets SIGHUP and SIGCONT if it
 * has stopped members.
 */
static void forget_original_parent(void)
{
	struct task_struct *reaper = find_alive_thread(), *c, *n;

	if (!reaper)
		reaper = find_task_by_pid(1);
	list_for_each_entry_safe(c, n, &current->children, sibling) {
		list_del(&c->sibling);
		c->parent = reaper;
		list_add_tail(&c->sibling, &reaper->children);
		send_pdeath_signals(c);
		if (same_thread_group(reaper, current))
			continue;
		c->exit_signal = SIGCHLD;  /* "We don't want people slaying init" */
		if (c->state == EXIT_ZOMBIE && thread_group_empty(c) &&
		    do_notify_parent(c, SIGCHLD)) {
			c->state = EXIT_DEAD;
			release_task(c);
			continue;
		}
		kill_orphaned_pgrp(c, current);
	}
}

/* When init ends, so does the machine: its status becomes QEMU's. */
static void __noreturn init_exited(int code)
{
	int status = code & 0x7f ? 128 + (code & 0x7f) : (code >> 8) & 0xff;

	pr_info("zpk: init exited with status %d\n", status);
	kernel_poweroff(status);
}

/* The parent ignores SIGCHLD (SIG_IGN or SA_NOCLDWAIT): its children
 * reap themselves. */
static bool parent_ignores_children(struct task_struct *p, int sig)
{
	struct k_sigaction *ka = &p->sighand->action[SIGCHLD - 1];

	return sig == SIGCHLD &&
	       (ka->handler == SIG_IGN || (ka->flags & SA_NOCLDWAIT));
}

/*
 * Tells tsk's parent that the process tsk leads has ended: sig (SIGCHLD
 * unless clone said otherwise) and a wake of its wait4; and those who
 * poll a pidfd of it, which is now readable. True if the
 * parent ignores SIGCHLD, so that tsk is released at once (Linux's
 * do_notify_parent).
 */
static bool do_notify_parent(struct task_struct *tsk, int sig)
{
	struct task_struct *p = tsk->parent;
	struct kernel_siginfo info = { .si_signo = sig };
	int code = tsk->exit_code;
	bool autoreap = parent_ignores_children(p, sig);

	info.si_code = code & 0x7f ? (code & 0x80 ? CLD_DUMPED : CLD_KILLED)
				   : CLD_EXITED;
	info.chld.pid = tsk->tgid;
	info.chld.status = code & 0x7f ? code & 0x7f : (code >> 8) & 0xff;
	wake_up(&tsk->wait_pidfd);	/* Linux's do_notify_pidfd */
	if (sig > 0 && !(autoreap && p->sighand->action[SIGCHLD - 1].handler ==
				     SIG_IGN))
		send_signal(p, sig, &info);
	wake_up(&p->signal->wait_chldexit);
	return autoreap;
}

/*
 * Current becomes a zombie: a leader whose threads are all gone tells
 * its parent (a leader with threads left waits for the last of them);
 * a thread, or a process its parent ignores, is released at once.
 */
static void exit_notify(bool group_dead)
{
	struct task_struct *tsk = current;
	bool autoreap = true;

	forget_original_parent();
	if (group_dead)
		kill_orphaned_pgrp(tsk->group_leader, NULL);
	tsk->state = EXIT_ZOMBIE;
	if (thread_group_leader(tsk))
		autoreap = thread_group_empty(tsk) &&
			   do_notify_parent(tsk, tsk->exit_signal);
	/* An exec in another thread waits for the leader to be a zombie. */
	if (tsk->signal->notify_count < 0)
		wake_up_process(tsk->signal->group_exec_task);
	if (autoreap) {
		tsk->state = EXIT_DEAD;
		release_task(tsk);
	}
}

/* The thread's part of its group's figures, kept when it leaves it
 * (Linux's __exit_signal). */
static void __exit_signal(struct task_struct *p)
{
	struct signal_struct *sig = p->signal;

	sig->min_flt += p->min_flt;
	sig->maj_flt += p->maj_flt;
	sig->utime += p->utime;
	sig->stime += p->stime;
	sig->nr_threads--;
	list_del_init(&p->thread_node);
	if (thread_group_leader(p))
		list_del_init(&p->sibling);
	/* de_thread waits for the other threads to be released. */
	if (sig->notify_count > 0 && !--sig->notify_count)
		wake_up_process(sig->group_exec_task);
}

bool pid_nr_used(int nr)
{
	struct task_struct *t;

	list_for_each_entry(t, &task_list, tasks)
		if (t->pid == nr || (thread_group_leader(t) &&
				     (t->signal->pgrp == nr ||
				      t->signal->session == nr)))
			return true;
	return false;
}

void put_pid_nr(int nr)
{
	if (nr > 0 && !pid_nr_used(nr))
		free_pid(nr);
}

void release_task(struct task_struct *p)
{
	struct task_struct *leader;
	bool zap_leader;

repeat:
	__exit_signal(p);
	list_del(&p->tasks);
	proc_flush_task(p);
	put_pid_nr(p->pid);
	if (thread_group_leader(p)) {
		put_pid_nr(p->signal->pgrp);
		put_pid_nr(p->signal->session);
	}
	put_sighand(p->sighand);
	p->sighand = NULL;
	/* The last thread of a zombie leader: its parent may now reap it. */
	zap_leader = false;
	leader = p->group_leader;
	if (leader != p && thread_group_empty(leader) &&
	    leader->state == EXIT_ZOMBIE) {
		zap_leader = do_notify_parent(leader, leader->exit_signal);
		if (zap_leader)
			leader->state = EXIT_DEAD;
	}
	/* A task releasing itself runs on its stack until its last switch,
	 * after which its CPU frees it (PF_DEAD, finish_lock_switch). Another
	 * may still be in that switch on its CPU: its stack goes once it is
	 * off it. */
	if (p == current) {
		p->flags |= PF_DEAD;
	} else {
		wait_task_inactive(p);
		put_task_stack(p);
		put_task_struct(p);
	}
	p = leader;
	if (zap_leader)
		goto repeat;
}

void __noreturn do_exit(int code)
{
	struct task_struct *tsk = current;
	bool group_dead;

	if (tsk->pid == 0)
		panic("the idle task tried to exit");
	exit_signals();
	coredump_task_exit(tsk);	/* a dump in progress needs our regs */
	group_dead = --tsk->signal->live == 0;
	if (group_dead)
		exit_itimers(tsk->signal);
	/* The last thread's status is the process's, unless the group was
	 * ended as a whole (Linux's synchronize_group_exit). */
	if (group_dead && !(tsk->signal->flags & SIGNAL_GROUP_EXIT)) {
		tsk->signal->flags = SIGNAL_GROUP_EXIT;
		tsk->signal->group_exit_code = code;
		tsk->signal->group_stop_count = 0;
	}
	/* Init's last thread: there is nothing to go on with. */
	if (group_dead && tsk->tgid == 1)
		init_exited(tsk->signal->group_exit_code);
	exit_mm();
	exit_files();
	if (group_dead)
		disassociate_ctty(true);
	/* Every process's end checks that nobody wrote the shared zeros. */
	zero_page_verify();
	tsk->exit_code = code;
	exit_notify(group_dead);
	schedule();
	panic("task %d ran again after its exit", tsk->pid);
}

/*
 * The whole thread group ends with code (a wait status), unless it is
 * ending already (then with that one) or an exec is killing the other
 * threads (then 0): every other thread gets SIGKILL (Linux's
 * do_group_exit).
 */
void __noreturn do_group_exit(int code)
{
	struct signal_struct *sig = current->signal;

	if (sig->flags & SIGNAL_GROUP_EXIT) {
		code = sig->group_exit_code;
	} else if (sig->group_exec_task) {
		code = 0;
	} else {
		sig->group_exit_code = code;
		sig->flags = SIGNAL_GROUP_EXIT;
		zap_other_threads(current);
	}
	do_exit(code);
}

/* One thread ends; its process goes on while it has others. */
static long sys_exit(int status)
{
	do_exit((status & 0xff) << 8);
}
SYSCALL(__NR_exit, sys_exit);

static long sys_exit_group(int status)
{
	do_group_exit((status & 0xff) << 8);
}
SYSCALL(__NR_exit_group, sys_exit_group);

/* ---- wait4 and waitid ------------------------------------------------ */

#define WNOHANG		0x00000001
#define WUNTRACED	0x00000002	/* waitid's WSTOPPED */
#define WEXITED		0x00000004
#define WCONTINUED	0x00000008
#define WNOWAIT		0x01000000	/* report, and leave it waitable */
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000

#define P_ALL		0
#define P_PID		1
#define P_PGID		2
#define P_PIDFD		3

/* What waitid reports of a child (Linux's struct waitid_info). */
struct waitid_info {
	int pid, uid, status, cause;	/* cause: CLD_* */
};

/* Which children a wait takes (Linux's wo_type and wo_pid). */
enum wait_type { WAIT_ALL, WAIT_PID, WAIT_PGID, WAIT_TASK };

struct wait_opts {
	enum wait_type type;
	int id;				/* the pid or process group */
	struct task_struct *task;	/* WAIT_TASK: a pidfd's process */
	int options;
	int __user *status;		/* wait4's status word, or NULL */
	struct waitid_info *info;	/* waitid's report, or NULL */
	struct rusage *ru;		/* the child's usage, or NULL */
};

/* Linux's eligible_pid and eligible_child: the pid selects the child,
 * __WCLONE the ones that signal their end otherwise than by SIGCHLD. */
static bool eligible_child(const struct wait_opts *wo, struct task_struct *p)
{
	if (wo->type == WAIT_PID && p->pid != wo->id)
		return false;
	if (wo->type == WAIT_PGID && p->signal->pgrp != wo->id)
		return false;
	if (wo->type == WAIT_TASK && p != wo->task)
		return false;
	if (wo->options & __WALL)
		return true;
	return (p->exit_signal != SIGCHLD) == !!(wo->options & __WCLONE);
}

/* The report of the child pid: wait4's status word (copied out now) or
 * waitid's info (copied out by the caller), and the usage. The pid, or
 * -EFAULT. */
static long wait_report(const struct wait_opts *wo, int pid, int status,
			int cause, int info_status, const struct rusage *r)
{
	if (wo->info)
		*wo->info = (struct waitid_info){ .pid = pid, .cause = cause,
						  .status = info_status };
	else if (wo->status && copy_to_user(wo->status, &status, sizeof(int)))
		return -EFAULT;
	if (wo->ru)
		*wo->ru = *r;
	return pid;
}

/* A process's figures as wait4's rusage gives them: its threads' faults;
 * their times and its reaped children's (Linux's RUSAGE_BOTH). */
static void child_rusage(struct task_struct *c, struct rusage *r)
{
	u64 ut, st;

	*r = (struct rusage){ .ru_minflt = (long)(c->min_flt +
						  c->signal->min_flt),
			      .ru_majflt = (long)(c->maj_flt +
						  c->signal->maj_flt),
			      .ru_maxrss = (long)c->signal->maxrss_kb };
	thread_group_cputime(c, &ut, &st);
	ut += c->signal->cutime;
	st += c->signal->cstime;
	r->ru_utime[0] = (long)(ut / NSEC_PER_SEC);
	r->ru_utime[1] = (long)(ut % NSEC_PER_SEC / NSEC_PER_USEC);
	r->ru_stime[0] = (long)(st / NSEC_PER_SEC);
	r->ru_stime[1] = (long)(st % NSEC_PER_SEC / NSEC_PER_USEC);
}

/* An exit status word as waitid tells it: CLD_EXITED and the code, or
 * CLD_KILLED and the signal (no core is ever dumped). */
static long wait_report_exit(const struct wait_opts *wo, int pid, int status,
			     const struct rusage *r)
{
	if ((status & 0x7f) == 0)
		return wait_report(wo, pid, status, CLD_EXITED,
				   (status >> 8) & 0xff, r);
	return wait_report(wo, pid, status, CLD_KILLED, status & 0x7f, r);
}

/* Frees a zombie, then reports it: a bad pointer gives -EFAULT with the
 * child already gone, as on Linux. The status is the group's if it ended
 * together (exit_group, a fatal signal). Only for WEXITED; WNOWAIT
 * reports and leaves it a zombie. Its times and its reaped children's
 * go to current's process (cutime, cstime: times(2)). */
static long wait_task_zombie(const struct wait_opts *wo, struct task_struct *c)
{
	struct signal_struct *sig = c->signal, *psig = current->signal;
	int pid = c->pid, status = sig->flags & SIGNAL_GROUP_EXIT ?
				   sig->group_exit_code : c->exit_code;
	struct rusage r;
	u64 ut, st;

	if (!(wo->options & WEXITED))
		return 0;
	child_rusage(c, &r);
	if (wo->options & WNOWAIT)
		return wait_report_exit(wo, pid, status, &r);
	thread_group_cputime(c, &ut, &st);
	psig->cutime += ut + sig->cutime;
	psig->cstime += st + sig->cstime;
	psig->cmin_flt += r.ru_minflt + sig->cmin_flt;
	psig->cmaj_flt += r.ru_majflt + sig->cmaj_flt;
	psig->cmaxrss_kb = max(psig->cmaxrss_kb,
			       max(sig->maxrss_kb, sig->cmaxrss_kb));
	c->state = EXIT_DEAD;
	release_task(c);
	return wait_report_exit(wo, pid, status, &r);
}

/* WUNTRACED (WSTOPPED): a stopped child not yet reported (Linux's
 * wait_task_stopped); its status word is 0x7f | stop signal << 8. */
static long wait_task_stopped(const struct wait_opts *wo,
			      struct task_struct *c)
{
	struct signal_struct *sig = c->signal;
	struct rusage r;
	int code;

	if (!(wo->options & WUNTRACED) || !(sig->flags & SIGNAL_STOP_STOPPED) ||
	    !sig->group_exit_code)
		return 0;
	code = sig->group_exit_code;
	if (!(wo->options & WNOWAIT))
		sig->group_exit_code = 0;
	child_rusage(c, &r);
	return wait_report(wo, c->pid, (code << 8) | 0x7f, CLD_STOPPED, code,
			   &r);
}

/* WCONTINUED: a child resumed by SIGCONT since its last report: status
 * 0xffff (Linux's wait_task_continued). */
static long wait_task_continued(const struct wait_opts *wo,
				struct task_struct *c)
{
	struct rusage r;

	if (!(wo->options & WCONTINUED) ||
	    !(c->signal->flags & SIGNAL_STOP_CONTINUED))
		return 0;
	if (!(wo->options & WNOWAIT))
		c->signal->flags &= ~SIGNAL_STOP_CONTINUED;
	child_rusage(c, &r);
	return wait_report(wo, c->pid, 0xffff, CLD_CONTINUED, SIGCONT, &r);
}

/* One child: its pid (or -EFAULT) if it has something to report, else
 * 0; *any says it was a child the wait may still hear from. A zombie
 * leader with threads left is not reapable yet (Linux's
 * delay_group_leader). */
static long wait_consider_task(const struct wait_opts *wo,
			       struct task_struct *c, bool *any)
{
	long r;

	if (!eligible_child(wo, c) || c->state == EXIT_DEAD)
		return 0;
	/* Without WEXITED a reapable zombie is nothing to wait for: ECHILD
	 * if it is the only child, as Linux. */
	if (c->state == EXIT_ZOMBIE && thread_group_empty(c))
		return wait_task_zombie(wo, c);
	*any = true;
	r = wait_task_stopped(wo, c);
	return r ? r : wait_task_continued(wo, c);
}

/* The children of every thread of current's group (or of current only,
 * __WNOTHREAD): the first with a report, as wait_consider_task. */
static long do_wait_thread(const struct wait_opts *wo, bool *any)
{
	struct task_struct *t, *c, *n;
	long r;

	*any = false;
	for_each_thread(current, t) {
		if ((wo->options & __WNOTHREAD) && t != current)
			continue;
		list_for_each_entry_safe(c, n, &t->children, sibling) {
			r = wait_consider_task(wo, c, any);
			if (r)
				return r;
		}
	}
	return 0;
}

/* Linux's do_wait: the first report's pid, 0 (WNOHANG and nothing yet),
 * -ECHILD (no child it could ever report), -ERESTARTSYS, -EFAULT. */
static long do_wait(const struct wait_opts *wo)
{
	bool any;
	long r;

	for (;;) {
		r = do_wait_thread(wo, &any);
		if (r)
			return r;
		if (!any)
			return -ECHILD;
		if (wo->options & WNOHANG)
			return 0;
		if (sleep_on(&current->signal->wait_chldexit))
			return -ERESTARTSYS;
	}
}

static long sys_wait4(int pid, int __user *status, int options,
		      struct rusage __user *uru)
{
	struct wait_opts wo = { .type = WAIT_PID, .id = pid,
				.options = options | WEXITED,
				.status = status };
	struct rusage r;
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD |
			__WALL | __WCLONE))
		return -EINVAL;
	/* -INT_MIN has no process group: Linux's wait4 refuses it. */
	if (pid == -__INT_MAX__ - 1)
		return -ESRCH;
	if (pid == -1) {
		wo.type = WAIT_ALL;
	} else if (pid <= 0) {
		wo.type = WAIT_PGID;
		wo.id = pid ? -pid : current->signal->pgrp;
	}
	wo.ru = uru ? &r : NULL;
	ret = do_wait(&wo);
	if (ret > 0 && uru && copy_to_user(uru, &r, sizeof(r)))
		return -EFAULT;
	return ret;
}
SYSCALL(__NR_wait4, sys_wait4);

/* waitid's idtype and id as a wait_opts: 0, or -EINVAL (Linux's order),
 * -EBADF or -EINVAL for a descriptor that is not a pidfd; a pidfd's
 * process is held in wo->task (put_task_struct) and O_NONBLOCK makes it
 * WNOHANG. */
static long waitid_target(int which, int id, struct wait_opts *wo,
			  bool *nonblock)
{
	unsigned int flags = 0;
	int err;

	switch (which) {
	case P_ALL:
		wo->type = WAIT_ALL;
		return 0;
	case P_PID:
		wo->type = WAIT_PID;
		wo->id = id;
		return id <= 0 ? -EINVAL : 0;
	case P_PGID:
		wo->type = WAIT_PGID;
		wo->id = id ? id : current->signal->pgrp;
		return id < 0 ? -EINVAL : 0;
	case P_PIDFD:
		if (id < 0)
			return -EINVAL;
		wo->type = WAIT_TASK;
		wo->task = pidfd_get_task(id, &flags, &err);
		/* A reaped process is no child: ECHILD, as Linux's pid
		 * that no task has any more. */
		if (!wo->task && err != -ESRCH)
			return err;
		*nonblock = flags & O_NONBLOCK;
		return 0;
	}
	return -EINVAL;
}

/* Linux's waitid info: si_signo SIGCHLD (0 if nothing was reported),
 * si_errno, si_code, si_pid, si_uid, si_status; the rest untouched. */
static long put_waitid_info(struct kernel_siginfo __user *infop, bool got,
			    const struct waitid_info *info)
{
	int __user *u = (int __user *)infop;

	if (put_user(got ? SIGCHLD : 0, &u[0]) || put_user(0, &u[1]) ||
	    put_user(info->cause, &u[2]) || put_user(info->pid, &u[4]) ||
	    put_user(info->uid, &u[5]) || put_user(info->status, &u[6]))
		return -EFAULT;
	return 0;
}

/*
 * waitid(idtype, id, infop, options, rusage): P_ALL, P_PID, P_PGID (0:
 * the caller's group) and P_PIDFD; WEXITED, WSTOPPED and WCONTINUED (one
 * at least), WNOHANG, WNOWAIT, __WNOTHREAD, __WCLONE, __WALL. 0 after a
 * report, or with WNOHANG before any (si_signo and si_pid 0); -EAGAIN
 * for a nonblocking pidfd's process that has nothing to report.
 */
static long sys_waitid(int which, int id, struct kernel_siginfo __user *infop,
		       int options, struct rusage __user *uru)
{
	struct waitid_info info = { 0 };
	struct wait_opts wo = { .options = options, .info = &info };
	bool nonblock = false;
	struct rusage r;
	long ret;

	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED |
			__WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	ret = waitid_target(which, id, &wo, &nonblock);
	if (ret)
		return ret;
	if (nonblock)
		wo.options |= WNOHANG;
	wo.ru = uru ? &r : NULL;
	if (which == P_PIDFD && !wo.task)
		ret = -ECHILD;
	else
		ret = do_wait(&wo);
	if (wo.task)
		put_task_struct(wo.task);
	if (!ret && !(options & WNOHANG) && nonblock)
		ret = -EAGAIN;
	if (ret < 0)
		return ret;
	if (ret > 0 && uru && copy_to_user(uru, &r, sizeof(r)))
		return -EFAULT;
	if (infop && put_waitid_info(infop, ret > 0, &info))
		return -EFAULT;
	return 0;
}
SYSCALL(__NR_waitid, sys_waitid);
