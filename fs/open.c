/* fs/open.c — opening by path (O_CREAT, O_EXCL, O_TRUNC,
 * O_DIRECTORY, O_NOFOLLOW as Linux) and reads/writes at the file position. */
#include <zpk/errno.h>
#include <zpk/fs.h>

static bool wants_write(int flags)
{
	return (flags & O_ACCMODE) == O_WRONLY ||
	       (flags & O_ACCMODE) == O_RDWR;
}

/*
 * Finds, or with O_CREAT makes, the inode path names. As Linux: O_CREAT
 * follows a dangling link and makes its target, but O_CREAT|O_EXCL
 * follows no last link (-EEXIST), and O_NOFOLLOW opens none (-ELOOP).
 */
static int open_inode(struct inode *cwd, const char *path, int flags,
		      u32 mode, struct inode **res)
{
	bool excl = (flags & O_CREAT) && (flags & O_EXCL);
	struct nameidata nd;
	struct inode *inode;
	int err = path_parent(cwd, path, &nd);

	if (err)
		return err;
	if (excl || (flags & O_NOFOLLOW))
		err = nd_final_nofollow(&nd, res);
	else
		err = nd_final(&nd, res);
	/* A last name with a slash (maybe a link's) cannot be a file. */
	if ((flags & O_CREAT) && nd.slash)
		return -EISDIR;
	if (!err) {
		if (excl)
			return -EEXIST;
		if (S_ISLNK((*res)->i_mode))
			return -ELOOP;
		/* "." with O_CREAT: Linux says EISDIR. */
		if ((flags & O_CREAT) && S_ISDIR((*res)->i_mode))
			return -EISDIR;
		return 0;
	}
	/* Not after a walk that failed inside a link: nd is at the link. */
	if (!(flags & O_CREAT) || err != -ENOENT ||
	    ramfs_find(nd.dir, nd.last, nd.len))
		return err;
	if (nd.dir->i_fixed)	/* /proc, /sys: no new names */
		return nd.dir->i_sb->s_magic == SYSFS_MAGIC ? -EACCES :
							       -ENOENT;
	if (dir_dead(nd.dir))	/* a removed cwd */
		return -ENOENT;
	err = ramfs_create(nd.dir, nd.last, nd.len, S_IFREG | (mode & 07777),
			   &inode);
	if (err)
		return err;
	iput(inode);	/* the name holds it now */
	*res = inode;
	return 0;
}

/* Linux's do_dentry_open and handle_truncate: write access first (so a
 * running program is neither opened for writing nor truncated), then
 * O_TRUNC, then the file's own open. */
static int do_dentry_open(struct file *f, int flags)
{
	struct inode *inode = f->f_inode;
	int err;

	if (S_ISREG(inode->i_mode) && wants_write(flags)) {
		err = get_write_access(inode);
		if (err)
			return err;
		f->f_mode |= FMODE_WRITER;
	}
	if ((flags & O_TRUNC) && S_ISREG(inode->i_mode)) {
		err = vfs_truncate(inode, 0);
		if (err)
			return err;
	}
	return f->f_op && f->f_op->open ? f->f_op->open(f) : 0;
}

/* truncate(2) and O_TRUNC: -ETXTBSY for a running program's file. */
int vfs_truncate(struct inode *inode, loff_t size)
{
	int err = get_write_access(inode);

	if (err)
		return err;
	err = ramfs_truncate(inode, size);
	put_write_access(inode);
	return err;
}

/*
 * open(2) relative to cwd (NULL: the root). *res gets a new file with one
 * reference. Errors as Linux: -ENOENT, -ENOTDIR, -EEXIST, -EISDIR (a
 * directory opened for writing or created), -EROFS (initrd files),
 * -ETXTBSY (a running program's file, for writing), -ENAMETOOLONG,
 * -ENOMEM.
 */
int vfs_open_at(struct inode *cwd, const char *path, int flags, u32 mode,
		struct file **res)
{
	struct inode *inode;
	struct file *f;
	int err = open_inode(cwd, path, flags, mode, &inode);

	if (err)
		return err;
	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (S_ISDIR(inode->i_mode) && (wants_write(flags) || (flags & O_TRUNC)))
		return -EISDIR;
	if (inode->i_readonly && (wants_write(flags) || (flags & O_TRUNC)))
		return -EROFS;
	f = alloc_file(inode, flags & ~(O_CREAT | O_EXCL | O_TRUNC));
	if (!f)
		return -ENOMEM;
	err = do_dentry_open(f, flags);
	if (err) {
		fput(f);
		return err;
	}
	*res = f;
	return 0;
}

/* open(2) for the kernel's own opens (the console, the initrd, ktests):
 * a relative path starts at the root; the syscalls use the caller's cwd. */
int vfs_open(const char *path, int flags, u32 mode, struct file **res)
{
	return vfs_open_at(NULL, path, flags, mode, res);
}

/* read(2) at f_pos: -EBADF if not open for reading, -EINVAL if the file
 * has no read. */
ssize_t vfs_read(struct file *f, char *buf, size_t n)
{
	if ((f->f_flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (!f->f_op || !f->f_op->read)
		return -EINVAL;
	return f->f_op->read(f, buf, n, &f->f_pos);
}

/* write(2) at f_pos (the end with O_APPEND): -EBADF if read-only. */
ssize_t vfs_write(struct file *f, const char *buf, size_t n)
{
	if (!wants_write(f->f_flags))
		return -EBADF;
	if (!f->f_op || !f->f_op->write)
		return -EINVAL;
	return f->f_op->write(f, buf, n, &f->f_pos);
}
