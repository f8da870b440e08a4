/* fs/file.c — struct file references and descriptor tables: fget,
 * fput, dup_fd for fork, do_close_on_exec for exec, fd_install_new. */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/smp_lock.h>
#include <zpk/string.h>

/* The table of task 0 (boot, ktests); processes have their own. */
struct files_struct init_files = { .count = 1 };

/* A new file on inode with one reference; takes an inode reference.
 * NULL if out of memory. */
struct file *alloc_file(struct inode *inode, unsigned int flags)
{
	struct file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return NULL;
	ihold(inode);
	f->f_inode = inode;
	f->f_op = inode->i_fop;
	f->f_flags = flags;
	atomic_set(&f->f_count, 1);
	return f;
}

/* +1 reference; returns f for chaining. */
struct file *get_file(struct file *f)
{
	BUG_ON(atomic_read(&f->f_count) <= 0);
	atomic_inc(&f->f_count);
	return f;
}

/* -1 reference; the last one calls release, drops the inode, frees f,
 * under the big kernel lock (the VFS's): munmap's fput comes without. */
void fput(struct file *f)
{
	BUG_ON(atomic_read(&f->f_count) <= 0);
	if (!atomic_dec_and_test(&f->f_count))
		return;
	lock_kernel();
	locks_remove_file(f);
	if (f->f_ep)
		eventpoll_release_file(f);
	if (f->f_op && f->f_op->release)
		f->f_op->release(f);
	if (f->f_mode & FMODE_WRITER)
		put_write_access(f->f_inode);
	iput(f->f_inode);
	kfree(f);
	unlock_kernel();
}

/* current's file at fd with a reference, or NULL for a bad fd. */
struct file *fget(int fd)
{
	struct files_struct *files = current_files();

	if (fd < 0 || fd >= NR_OPEN_DEFAULT || !files->fd[fd])
		return NULL;
	return get_file(files->fd[fd]);
}

/* An empty table with count 1, or NULL. */
struct files_struct *files_alloc(void)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);

	if (files)
		files->count = 1;
	return files;
}

/* fork: a copy of old whose descriptors share old's files (+1 each). */
struct files_struct *dup_fd(struct files_struct *old)
{
	struct files_struct *files = files_alloc();

	if (!files)
		return NULL;
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (old->fd[i])
			files->fd[i] = get_file(old->fd[i]);
	files->close_on_exec = old->close_on_exec;
	return files;
}

static void close_slot(struct files_struct *files, int fd)
{
	struct file *f = files->fd[fd];

	files->fd[fd] = NULL;
	files->close_on_exec &= ~(1ULL << fd);
	locks_remove_posix(f, files);	/* any close drops them (POSIX) */
	fput(f);
}

/* -1 reference on the table; the last closes every descriptor. */
void put_files_struct(struct files_struct *files)
{
	BUG_ON(files->count <= 0);
	if (--files->count)
		return;
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (files->fd[i])
			close_slot(files, i);
	if (files != &init_files)
		kfree(files);
}

int unshare_files(void)
{
	struct files_struct *files = current->files, *copy;

	if (!files || files->count == 1)
		return 0;
	copy = dup_fd(files);
	if (!copy)
		return -ENOMEM;
	current->files = copy;
	put_files_struct(files);
	return 0;
}

/* exec: closes the descriptors marked FD_CLOEXEC. */
void do_close_on_exec(struct files_struct *files)
{
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (files->fd[i] && (files->close_on_exec & (1ULL << i)))
			close_slot(files, i);
}

/*
 * Puts f in current's lowest free descriptor >= min_fd and returns it;
 * the table takes over the caller's reference. -EMFILE if full, -EINVAL
 * for a bad min_fd (the reference stays the caller's on error).
 */
int fd_install_new(struct file *f, int min_fd, bool cloexec)
{
	struct files_struct *files = current_files();

	if (min_fd < 0 || min_fd >= NR_OPEN_DEFAULT)
		return -EINVAL;
	for (int fd = min_fd; fd < NR_OPEN_DEFAULT; fd++) {
		if (files->fd[fd])
			continue;
		files->fd[fd] = f;
		if (cloexec)
			files->close_on_exec |= 1ULL << fd;
		else
			files->close_on_exec &= ~(1ULL << fd);
		return fd;
	}
	return -EMFILE;
}

/* dup2: f at exactly fd, closing what was there; takes the reference. */
int fd_install_at(struct file *f, int fd, bool cloexec)
{
	struct files_struct *files = current_files();

	if (fd < 0 || fd >= NR_OPEN_DEFAULT)
		return -EBADF;
	if (files->fd[fd])
		close_slot(files, fd);
	files->fd[fd] = f;
	if (cloexec)
		files->close_on_exec |= 1ULL << fd;
	return fd;
}

/* close(2) on current's table: 0 or -EBADF. */
int close_fd(int fd)
{
	struct files_struct *files = current_files();

	if (fd < 0 || fd >= NR_OPEN_DEFAULT || !files->fd[fd])
		return -EBADF;
	close_slot(files, fd);
	return 0;
}
