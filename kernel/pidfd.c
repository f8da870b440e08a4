/* kernel/pidfd.c — process file descriptors (Linux's pidfds): pidfd_open,
 * the file that holds a process, pidfd_send_signal, and pidfd_get_task
 * for the other calls that take one (process_mrelease). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/pidfd.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

/* The process goes with the last descriptor of its pidfd. */
static void pidfd_release(struct file *f)
{
	put_task_struct(f->private_data);
}

/*
 * Linux's pidfd_poll: readable once the whole process has exited (a
 * leader that exited before its threads is not yet: wait4 would not
 * reap it either), and hung up once reaped. do_notify_parent wakes the
 * pollers when the process ends.
 */
static unsigned int pidfd_poll(struct file *f, struct poll_table *pt)
{
	struct task_struct *t = f->private_data;

	poll_wait(f, &t->wait_pidfd, pt);
	if (t->state == EXIT_DEAD)
		return POLLIN | POLLRDNORM | POLLHUP;
	if (t->state == EXIT_ZOMBIE && thread_group_empty(t))
		return POLLIN | POLLRDNORM;
	return 0;
}

/* No read or write (-EINVAL, as Linux's anonymous inode). */
static const struct file_operations pidfd_fops = {
	.poll = pidfd_poll,
	.release = pidfd_release,
};

/*
 * A new close-on-exec pidfd of the thread-group leader t in current's
 * table, holding t (Linux's pidfd_create: an anonymous inode "[pidfd]",
 * O_RDWR, plus O_NONBLOCK if asked). The fd, -ENOMEM or -EMFILE.
 */
static int pidfd_create(struct task_struct *t, unsigned int flags)
{
	struct file *f = anon_inode_getfile("[pidfd]", &pidfd_fops, t,
					    O_RDWR | flags);
	int fd;

	if (!f)
		return -ENOMEM;
	get_task_struct(t);
	fd = fd_install_new(f, 0, true);
	if (fd < 0)
		fput(f);
	return fd;
}

struct task_struct *pidfd_get_task(int fd, unsigned int *flags, int *err)
{
	struct file *f = fget(fd);
	struct task_struct *t = NULL;

	*err = -EBADF;
	if (!f)
		return NULL;
	if (f->f_op == &pidfd_fops) {
		t = f->private_data;
		*flags = f->f_flags;
		*err = -ESRCH;
		if (t->state == EXIT_DEAD)
			t = NULL;	/* reaped: get_pid_task finds none */
		else
			get_task_struct(t);
	}
	fput(f);
	return t;
}

/*
 * pidfd_open(2) as Linux 6.1's: only PIDFD_NONBLOCK, pid > 0 (-EINVAL);
 * -ESRCH when no task has the pid, -EINVAL when the pid is not a
 * process's (a thread's id, or a process group's or session's whose
 * leader is gone). A zombie gets one until it is reaped.
 */
static long sys_pidfd_open(int pid, unsigned int flags)
{
	struct task_struct *t;

	if (flags & ~PIDFD_NONBLOCK)
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;
	t = find_task_by_pid(pid);
	if (!t)
		return pid_nr_used(pid) ? -EINVAL : -ESRCH;
	if (!thread_group_leader(t))
		return -EINVAL;
	return pidfd_create(t, flags);
}
SYSCALL(__NR_pidfd_open, sys_pidfd_open);

/* pidfd_send_signal's scopes (Linux 6.9 on); none: the process. */
#define PIDFD_SIGNAL_THREAD		1U	/* its main thread, as tgkill */
#define PIDFD_SIGNAL_THREAD_GROUP	2U	/* the process, as kill */
#define PIDFD_SIGNAL_PROCESS_GROUP	4U	/* the group its pid names */

/*
 * A siginfo from the caller (Linux's copy_siginfo_from_user_any and
 * pidfd_send_signal's checks): it must be for sig (-EINVAL), and only
 * the caller may send itself one that claims to come from the kernel
 * or from kill or tgkill (si_code >= 0 or SI_TKILL: -EPERM), so that no
 * process can forge another's signal. 0 or -EFAULT.
 */
static int pidfd_siginfo(struct kernel_siginfo *info,
			 const void __user *uinfo, int sig, bool self)
{
	if (copy_from_user(info, uinfo, sizeof(*info)))
		return -EFAULT;
	if (info->si_signo != sig)
		return -EINVAL;
	if (!self && (info->si_code >= 0 || info->si_code == SI_TKILL))
		return -EPERM;
	return 0;
}

/* sig to t in scope (Linux's kill_pid_info_type, kill_pgrp_info); sig 0
 * probes. 0, -EINVAL for a bad signal, -ESRCH for an empty group. */
static int pidfd_deliver(struct task_struct *t, int sig,
			 const struct kernel_siginfo *info, unsigned int scope)
{
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (scope == PIDFD_SIGNAL_PROCESS_GROUP)
		return kill_pgrp(t->pid, sig, info);
	if (!sig)
		return 0;
	if (scope == PIDFD_SIGNAL_THREAD)
		return send_sig_thread(t, sig, info);
	return send_signal(t, sig, info);
}

/*
 * pidfd_send_signal(2) as Linux 6.18's: sig to the process fd holds, or
 * in the one scope flags names (-EINVAL for others, or two); with
 * uinfo, that siginfo (pidfd_siginfo), else kill's (SI_USER) or, to a
 * thread, tgkill's (SI_TKILL) with the caller's pid. -EBADF if fd is not
 * a pidfd, -ESRCH once the process is reaped (after the siginfo's
 * checks, as Linux, which finds the task last).
 */
static long sys_pidfd_send_signal(int fd, int sig, const void __user *uinfo,
				  unsigned int flags)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = SI_USER };
	struct task_struct *t;
	unsigned int fflags;
	int err, ret;

	if (flags & ~(PIDFD_SIGNAL_THREAD | PIDFD_SIGNAL_THREAD_GROUP |
		      PIDFD_SIGNAL_PROCESS_GROUP))
		return -EINVAL;
	if (flags & (flags - 1))
		return -EINVAL;		/* more than one scope */
	t = pidfd_get_task(fd, &fflags, &err);
	if (!t && err != -ESRCH)
		return err;
	if (flags == PIDFD_SIGNAL_THREAD)
		info.si_code = SI_TKILL;
	info.kill.pid = current->tgid;
	ret = uinfo ? pidfd_siginfo(&info, uinfo, sig, t == current &&
				    flags != PIDFD_SIGNAL_PROCESS_GROUP) : 0;
	if (!ret)
		ret = t ? pidfd_deliver(t, sig, &info, flags) : err;
	if (t)
		put_task_struct(t);
	return ret;
}
SYSCALL(__NR_pidfd_send_signal, sys_pidfd_send_signal);
