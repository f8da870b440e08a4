/* fs/pipe.c — pipes as Linux's: a ring of page buffers (16 until
 * F_SETPIPE_SZ) between a read end and a write end; readers sleep while it
 * is empty, writers while it is full. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/mm_verify.h>
#include <zpk/pipe_fs_i.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define PIPE_BUF	PAGE_SIZE	/* writes up to this size are atomic */
#define PIPEFS_MAGIC	0x50495045

/* Linux's pipefs: pipes' inodes have a file system of their own, so
 * that st_dev and fstatfs tell them apart. */
struct super_block pipefs_sb = {
	.s_dev = 12,
	.s_magic = PIPEFS_MAGIC,
	.s_type = "pipefs",
};

static LIST_HEAD(all_pipes);
unsigned int pipe_max_size = 1048576;

static struct pipe_buffer *pipe_buf(struct pipe_inode_info *p, unsigned int i)
{
	return &p->bufs[(p->tail + i) % p->ring_size];
}

/* Drops a buffer's page: the pipe's own is kept as tmp_page if that is
 * free (Linux's anon_pipe_buf_release), a user page's reference is put,
 * the zero page was taken without one (vmsplice). */
static void pipe_buf_release(struct pipe_inode_info *p,
			     struct pipe_buffer *buf)
{
	if (buf->can_merge && !p->tmp_page)
		p->tmp_page = buf->page;
	else if (!PageZero(buf->page))
		put_page(buf->page);
	buf->page = NULL;
}

/* A page for a write's new buffer: tmp_page, or a fresh one. */
static struct page *pipe_new_page(struct pipe_inode_info *p)
{
	struct page *page = p->tmp_page;

	p->tmp_page = NULL;
	return page ? page : alloc_page(GFP_KERNEL);
}

void pipe_push_buf(struct pipe_inode_info *p, const struct pipe_buffer *buf)
{
	BUG_ON(pipe_full(p));
	*pipe_buf(p, p->nrbufs++) = *buf;
}

/* Copies up to n bytes out of the oldest buffers into dst, freeing the
 * ones it empties. Returns the bytes copied. */
static size_t pipe_take(struct pipe_inode_info *p, char *dst, size_t n)
{
	size_t done = 0;

	while (done < n && p->nrbufs) {
		struct pipe_buffer *buf = pipe_buf(p, 0);
		size_t k = min(n - done, (size_t)buf->len);

		memcpy(dst + done, (char *)page_address(buf->page) +
		       buf->offset, k);
		buf->offset += k;
		buf->len -= k;
		done += k;
		if (buf->len)
			break;
		pipe_buf_release(p, buf);
		p->tail = (p->tail + 1) % p->ring_size;
		p->nrbufs--;
	}
	return done;
}

/* Room for n more bytes at the end of the newest buffer, if it is the
 * pipe's own page. */
static bool pipe_can_merge(struct pipe_inode_info *p, size_t n)
{
	struct pipe_buffer *last = p->nrbufs ? pipe_buf(p, p->nrbufs - 1) :
				   NULL;

	return last && last->can_merge && last->offset + last->len + n <=
					      PAGE_SIZE;
}

/*
 * Appends up to n bytes of src: into the newest buffer while it has room,
 * then into fresh pages while there are free buffers. atomic: all n
 * (<= PIPE_BUF) or nothing. Returns the bytes appended, or -ENOMEM if no
 * page could be had for the first of them.
 */
static ssize_t pipe_append(struct pipe_inode_info *p, const char *src,
			   size_t n, bool atomic)
{
	size_t done = 0;

	if (atomic && !pipe_can_merge(p, n) && pipe_full(p))
		return 0;
	if (p->nrbufs && pipe_can_merge(p, atomic ? n : 1)) {
		struct pipe_buffer *last = pipe_buf(p, p->nrbufs - 1);
		size_t k = min(n, PAGE_SIZE - last->offset - last->len);

		memcpy((char *)page_address(last->page) + last->offset +
		       last->len, src, k);
		last->len += k;
		done = k;
	}
	while (done < n && !pipe_full(p)) {
		struct pipe_buffer buf = { .can_merge = true };
		size_t k = min(n - done, PAGE_SIZE);

		buf.page = pipe_new_page(p);
		if (!buf.page)
			return done ? (ssize_t)done : -ENOMEM;
		memcpy(page_address(buf.page), src + done, k);
		buf.len = k;
		pipe_push_buf(p, &buf);
		done += k;
	}
	return (ssize_t)done;
}

static ssize_t pipe_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	size_t got;

	(void)pos;
	if (!n)
		return 0;
	while (!p->nrbufs) {
		if (!p->writers)
			return 0;		/* end of file */
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (sleep_on(&p->wait))
			return -ERESTARTSYS;
	}
	got = pipe_take(p, buf, n);
	wake_up(&p->wait);
	return (ssize_t)got;
}

static ssize_t pipe_write(struct file *f, const char *buf, size_t n,
			  loff_t *pos)
{
	struct pipe_inode_info *p = f->private_data;
	bool atomic = n <= PIPE_BUF;
	size_t done = 0;
	ssize_t k;

	(void)pos;
	while (done < n) {
		if (!p->readers) {
			send_sig_thread(current, SIGPIPE, NULL);
			return done ? (ssize_t)done : -EPIPE;
		}
		k = pipe_append(p, buf + done, n - done, atomic);
		if (k < 0)
			return done ? (ssize_t)done : k;
		done += k;
		if (k)
			wake_up(&p->wait);
		if (done == n)
			break;
		if (f->f_flags & O_NONBLOCK)
			return done ? (ssize_t)done : -EAGAIN;
		if (sleep_on(&p->wait))
			return done ? (ssize_t)done : -ERESTARTSYS;
	}
	return (ssize_t)done;
}

int pipe_wait_for_space(struct pipe_inode_info *p, bool nonblock)
{
	for (;;) {
		if (!p->readers) {
			send_sig_thread(current, SIGPIPE, NULL);
			return -EPIPE;
		}
		if (!pipe_full(p))
			return 0;
		if (nonblock)
			return -EAGAIN;
		if (sleep_on(&p->wait))
			return -ERESTARTSYS;
	}
}

static bool reads(const struct file *f)
{
	return (f->f_flags & O_ACCMODE) != O_WRONLY;
}

static bool writes(const struct file *f)
{
	return (f->f_flags & O_ACCMODE) != O_RDONLY;
}

/* A new empty pipe with its tmp_page, on all_pipes, or NULL. */
static struct pipe_inode_info *alloc_pipe(void)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->ring_size = PIPE_DEF_BUFFERS;
	p->bufs = kzalloc(PIPE_DEF_BUFFERS * sizeof(*p->bufs), GFP_KERNEL);
	p->tmp_page = p->bufs ? alloc_page(GFP_KERNEL) : NULL;
	if (!p->tmp_page) {
		kfree(p->bufs);
		kfree(p);
		return NULL;
	}
	init_waitqueue_head(&p->wait);
	list_add(&p->list, &all_pipes);
	return p;
}

/* Frees p with the pages it holds. */
static void free_pipe(struct pipe_inode_info *p)
{
	while (p->nrbufs) {
		pipe_buf_release(p, pipe_buf(p, 0));
		p->tail = (p->tail + 1) % p->ring_size;
		p->nrbufs--;
	}
	if (p->tmp_page)
		__free_page(p->tmp_page);
	list_del(&p->list);
	kfree(p->bufs);
	kfree(p);
}

/* The pipe of inode goes once neither side has a file open. */
static void put_pipe(struct inode *inode, struct pipe_inode_info *p)
{
	if (p->readers || p->writers)
		return;
	inode->i_private = NULL;
	free_pipe(p);
}

/* Sleeps until the other side has a file open, or had one since we
 * came (its open counter moved: it may have closed again already, as
 * Linux's wait_for_partner). 0 or -ERESTARTSYS. */
static int wait_for_partner(struct pipe_inode_info *p, int *count,
			    unsigned int *cnt)
{
	unsigned int seen = *cnt;

	while (!*count && *cnt == seen)
		if (sleep_on(&p->wait))
			return -ERESTARTSYS;
	return 0;
}

/*
 * Linux's fifo_open, for a FIFO made by mknod and for /proc/PID/fd/N of
 * a pipe: the inode's pipe, made at its first open; the file joins as a
 * reader, a writer or both (O_RDWR). A reader waits for a writer and a
 * writer for a reader, unless O_NONBLOCK (a writer is then -ENXIO
 * without a reader); -ERESTARTSYS if a signal comes first.
 */
static int pipe_open(struct file *f)
{
	struct inode *inode = f->f_inode;
	struct pipe_inode_info *p = inode->i_private;
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
	struct pipe_inode_info *p = f->private_data;

	if (!p)
		return;		/* pipe_open said -ENXIO */
	p->readers -= reads(f);
	p->writers -= writes(f);
	wake_up(&p->wait);
	put_pipe(f->f_inode, p);
}

/*
 * Linux's pipe_poll: the read end is readable with data, and hung up
 * once no writer is left; the write end is writable while a buffer is
 * free, an error once no reader is left.
 */
static unsigned int pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe_inode_info *p = f->private_data;
	unsigned int mask = 0;

	poll_wait(f, &p->wait, pt);
	if (reads(f)) {
		if (p->nrbufs)
			mask |= POLLIN | POLLRDNORM;
		if (!p->writers)
			mask |= POLLHUP;
	}
	if (writes(f)) {
		if (!pipe_full(p))
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

struct pipe_inode_info *get_pipe_info(struct file *f)
{
	return f->f_op == &pipe_fops ? f->private_data : NULL;
}

/* ---- F_SETPIPE_SZ ----------------------------------------------------- */

unsigned int round_pipe_size(unsigned int size)
{
	unsigned int r = PAGE_SIZE;

	if (size > (1U << 31))
		return 0;
	while (r < size)
		r <<= 1;
	return r;
}

/* Linux's capable(CAP_SYS_RESOURCE): every zpk task runs as root
 * (getuid is 0), so pipe-max-size binds nobody until credentials come. */
static bool capable_sys_resource(void)
{
	return true;
}

/*
 * Linux's pipe_set_size and pipe_resize_ring: the ring becomes size
 * bytes rounded to a power-of-two number of pages, its buffers kept in
 * order; -EBUSY if they would not fit, -EPERM to grow past pipe-max-size
 * without CAP_SYS_RESOURCE. The new size in bytes; writers may go on.
 */
static long pipe_set_size(struct pipe_inode_info *p, unsigned int arg)
{
	unsigned int size = round_pipe_size(arg), slots = size >> PAGE_SHIFT;
	struct pipe_buffer *bufs;

	if (!slots)
		return -EINVAL;
	if (slots > p->ring_size && size > pipe_max_size &&
	    !capable_sys_resource())
		return -EPERM;
	if (slots < p->nrbufs)
		return -EBUSY;
	bufs = kzalloc((size_t)slots * sizeof(*bufs), GFP_KERNEL);
	if (!bufs)
		return -ENOMEM;
	for (unsigned int i = 0; i < p->nrbufs; i++)
		bufs[i] = *pipe_buf(p, i);
	kfree(p->bufs);
	p->bufs = bufs;
	p->tail = 0;
	p->ring_size = slots;
	wake_up(&p->wait);
	return (long)size;
}

long pipe_fcntl(struct file *f, unsigned int cmd, unsigned int arg)
{
	struct pipe_inode_info *p = get_pipe_info(f);

	if (!p)
		return -EBADF;
	if (cmd == F_SETPIPE_SZ)
		return pipe_set_size(p, arg);
	return (long)p->ring_size * PAGE_SIZE;
}

/* Adds delta to _refcount of every page the pipes hold a reference to
 * (mm_verify's ref holder: it counts them out, as it counts out
 * mappings). Big kernel lock held: the pipes' lock. */
static void pipe_tally_pages(int delta)
{
	struct pipe_inode_info *p;

	list_for_each_entry(p, &all_pipes, list)
		for (unsigned int i = 0; i < p->nrbufs; i++)
			if (!PageZero(pipe_buf(p, i)->page))
				page_ref_add(pipe_buf(p, i)->page, delta);
}

static struct mm_verify_ref_holder pipe_ref_holder = {
	.name = "pipes",
	.tally_pages = pipe_tally_pages,
	.list = LIST_HEAD_INIT(pipe_ref_holder.list),
};

void pipe_init(void)
{
	mm_verify_add_ref_holder(&pipe_ref_holder);
}

int create_pipe(struct file **rd, struct file **wr, unsigned int flags)
{
	struct pipe_inode_info *p = alloc_pipe();
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
		free_pipe(p);
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
