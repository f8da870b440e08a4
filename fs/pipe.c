/* fs/pipe.c — pipes: a one-page ring buffer between a read end and a
 * write end; readers sleep while it is empty, writers while it is full. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define PIPE_SIZE	PAGE_SIZE
#define PIPEFS_MAGIC	0x50495045
#define PIPE_BUF	PAGE_SIZE	/* writes up to this size are atomic */

/* Linux's pipefs: pipes' inodes have a file system of their own, so
 * that st_dev and fstatfs tell them apart. */
struct super_block pipefs_sb = {
	.s_dev = 12,
	.s_magic = PIPEFS_MAGIC,
	.s_type = "pipefs",
};

struct pipe {
	char *buf;
	size_t head, len;		/* data is buf[head .. head + len) */
	int readers, writers;
	unsigned int r_counter, w_counter;	/* opens of each side ever */
	struct wait_queue_head wait;	/* both sides sleep here */
};

static size_t pipe_take(struct pipe *p, char *dst, size_t n)
{
	size_t done = 0;

	while (done < n && p->len) {
		size_t k = min(n - done, min(p->len, PIPE_SIZE - p->head));

		memcpy(dst + done, p->buf + p->head, k);
		p->head = (p->head + k) % PIPE_SIZE;
		p->len -= k;
		done += k;
	}
	return done;
}

static size_t pipe_put(struct pipe *p, const char *src, size_t n)
{
	size_t done = 0;

	while (done < n && p->len < PIPE_SIZE) {
		size_t tail = (p->head + p->len) % PIPE_SIZE;
		size_t k = min(n - done, min(PIPE_SIZE - p->len,
					     PIPE_SIZE - tail));

		memcpy(p->buf + tail, src + done, k);
		p->len += k;
		done += k;
	}
	return done;
}

static ssize_t pipe_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct pipe *p = f->private_data;
	size_t got;

	(void)pos;
	if (!n)
		return 0;
	while (!p->len) {
		if (!p->writers)
			return 0;		/* end of file */
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (sleep_on(&p->wait))
			return -EINTR;
	}
	got = pipe_take(p, buf, n);
	wake_up(&p->wait);
	return (ssize_t)got;
}

static ssize_t pipe_write(struct file *f, const char *buf, size_t n,
			  loff_t *pos)
{
	struct pipe *p = f->private_data;
	size_t done = 0;

	(void)pos;
	while (done < n) {
		if (!p->readers) {
			send_signal(current, SIGPIPE, NULL);
			return done ? (ssize_t)done : -EPIPE;
		}
		/* Small writes go in whole or wait for room. */
		if (PIPE_SIZE - p->len >= min(n - done, (size_t)PIPE_BUF) ||
		    n - done > PIPE_BUF) {
			size_t k = pipe_put(p, buf + done, n - done);

			done += k;
			if (k)
				wake_up(&p->wait);
			if (done == n)
				break;
		}
		if (f->f_flags & O_NONBLOCK)
			return done ? (ssize_t)done : -EAGAIN;
		if (sleep_on(&p->wait))
			return done ? (ssize_t)done : -EINTR;
	}
	return (ssize_t)done;
}

static bool reads(const struct file *f)
{
	return (f->f_flags & O_ACCMODE) != O_WRONLY;
}

static bool writes(const struct file *f)
{
	return (f->f_flags & O_ACCMODE) != O_RDONLY;
}

/* A new empty pipe, or NULL. */
static struct pipe *alloc_pipe(void)
{
	struct pipe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->buf = (char *)__get_free_page(GFP_KERNEL);
	if (!p->buf) {
		kfree(p);
		return NULL;
	}
	init_waitqueue_head(&p->wait);
	return p;
}

/* The pipe of inode goes once neither side has a file open. */
static void put_pipe(struct inode *inode, struct pipe *p)
{
	if (p->readers || p->writers)
		return;
	inode->i_private = NULL;
	free_page((unsigned long)p->buf);
	kfree(p);
}

/* Sleeps until the other side has a file open, or had one since we
 * came (its open counter moved: it may have closed again already, as
 * Linux's wait_for_partner). 0 or -EINTR. */
static int wait_for_partner(struct pipe *p, int *count, unsigned int *cnt)
{
	unsigned int seen = *cnt;

	while (!*count && *cnt == seen)
		if (sleep_on(&p->wait))
			return -EINTR;
	return 0;
}

/*
 * Linux's fifo_open, for a FIFO made by mknod and for /proc/PID/fd/N of
 * a pipe: the inode's pipe, made at its first open; the file joins as a
 * reader, a writer or both (O_RDWR). A reader waits for a writer and a
 * writer for a reader, unless O_NONBLOCK (a writer is then -ENXIO
 * without a reader); -EINTR if a signal comes first.
 */
static int pipe_open(struct file *f)
{
	struct inode *inode = f->f_inode;
	struct pipe *p = inode->i_private;
	bool nonblock = f->f_flags & O_NONBLOCK;

	if (!p) {
		p = alloc_pipe();
		if (!p)
			return -ENOMEM;
		inode->i_private = p;
	}
	if (writes(f) && !reads(f) && nonblock && !p->readers) {
		put_pipe(inode, p);
		return -ENXIO;
	}
	f->private_data = p;	/* pipe_release undoes what follows */
	p->readers += reads(f);
	p->writers += writes(f);
	p->r_counter += reads(f);
	p->w_counter += writes(f);
	wake_up(&p->wait);
	if (reads(f) && !writes(f) && !nonblock)
		return wait_for_partner(p, &p->writers, &p->w_counter);
	if (writes(f) && !reads(f))
		return wait_for_partner(p, &p->readers, &p->r_counter);
	return 0;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = f->private_data;

	if (!p)
		return;		/* pipe_open said -ENXIO */
	p->readers -= reads(f);
	p->writers -= writes(f);
	wake_up(&p->wait);
	put_pipe(f->f_inode, p);
}

/*
 * Linux's pipe_poll: the read end is readable with data, and hung up
 * once no writer is left; the write end is writable while a PIPE_BUF
 * write would not wait (here: the one page is empty), an error once no
 * reader is left.
 */
static unsigned int pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = f->private_data;
	unsigned int mask = 0;

	poll_wait(&p->wait, pt);
	if (reads(f)) {
		if (p->len)
			mask |= POLLIN | POLLRDNORM;
		if (!p->writers)
			mask |= POLLHUP;
	}
	if (writes(f)) {
		if (PIPE_SIZE - p->len >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

const struct file_operations pipe_fops = {
	.open = pipe_open,
	.read = pipe_read,
	.write = pipe_write,
	.poll = pipe_poll,
	.release = pipe_release,
};

int create_pipe(struct file **rd, struct file **wr, unsigned int flags)
{
	struct pipe *p = alloc_pipe();
	struct inode *inode = ramfs_new_inode(&pipefs_sb, S_IFIFO | 0600);
	int err = -ENOMEM;

	*rd = *wr = NULL;
	if (!p || !inode)
		goto fail;
	inode->i_fop = &pipe_fops;
	inode->i_private = p;
	*rd = alloc_file(inode, O_RDONLY | (flags & O_NONBLOCK));
	*wr = alloc_file(inode, O_WRONLY | (flags & O_NONBLOCK));
	if (!*rd || !*wr)
		goto fail;
	(*rd)->private_data = (*wr)->private_data = p;
	p->readers = p->writers = 1;
	iput(inode);			/* the files hold it now */
	return 0;
fail:
	if (*rd)
		kfree(*rd), iput(inode);
	if (*wr)
		kfree(*wr), iput(inode);
	if (inode)
		iput(inode);
	if (p)
		free_page((unsigned long)p->buf);
	kfree(p);
	return err;
}

/* ---- system calls ---------------------------------------------------- */

static long sys_pipe2(int __user *ufds, int flags)
{
	struct file *rd, *wr;
	int fds[2];
	long err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = create_pipe(&rd, &wr, flags);
	if (err)
		return err;
	fds[0] = fd_install_new(rd, 0, flags & O_CLOEXEC);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install_new(wr, 0, flags & O_CLOEXEC);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			close_fd(fds[0]);
		else
			fput(rd);
		fput(wr);
		return -EMFILE;
	}
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		close_fd(fds[0]);
		close_fd(fds[1]);
		return -EFAULT;
	}
	return 0;
}
SYSCALL(__NR_pipe2, sys_pipe2);

static long sys_pipe(int __user *fds)
{
	return sys_pipe2(fds, 0);
}
SYSCALL(__NR_pipe, sys_pipe);
