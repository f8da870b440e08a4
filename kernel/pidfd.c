/* kernel/pidfd.c — process file descriptors (Linux's pidfds): pidfd_open,
 * the file that holds a process, and pidfd_get_task for the calls that
 * take one (process_mrelease). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/pidfd.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>

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
