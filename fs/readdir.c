/* fs/readdir.c — listing directories: getdents64 over ramfs dentries,
 * then /proc's made-up entries. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define DT_FIFO	1
#define DT_CHR	2
#define DT_DIR	4
#define DT_BLK	6
#define DT_REG	8
#define DT_LNK	10
#define DT_SOCK	12

static u8 dtype(u32 mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return DT_DIR;
	case S_IFCHR: return DT_CHR;
	case S_IFBLK: return DT_BLK;
	case S_IFIFO: return DT_FIFO;
	case S_IFLNK: return DT_LNK;
	case S_IFSOCK: return DT_SOCK;
	}
	return DT_REG;
}

/* One linux_dirent64 record into buf at *used; false if it won't fit. */
static bool emit_dirent(char *buf, size_t size, size_t *used, u64 ino,
			s64 off, u8 type, const char *name, size_t len)
{
	size_t reclen = (19 + len + 1 + 7) & ~7UL;
	char *p = buf + *used;

	if (*used + reclen > size)
		return false;
	memset(p, 0, reclen);
	memcpy(p, &ino, 8);
	memcpy(p + 8, &off, 8);
	memcpy(p + 16, &(u16){ (u16)reclen }, 2);
	p[18] = (char)type;
	memcpy(p + 19, name, len);
	*used += reclen;
	return true;
}

/* /proc's made-up entries come after its nstored stored ones. */
static long dir_fill_dynamic(struct file *f, char *buf, size_t size,
			     size_t used, s64 nstored)
{
	struct inode *dir = f->f_inode;
	struct dir_entry de;

	while (dir->i_op->readdir(dir, f->f_pos - 2 - nstored, &de)) {
		if (!emit_dirent(buf, size, &used, de.ino, f->f_pos + 1,
				 dtype(de.mode), de.name, de.len))
			return used ? (long)used : -EINVAL;
		f->f_pos++;
	}
	return (long)used;
}

/*
 * Entries from index f_pos on: 0 is ".", 1 is "..", then the names in
 * list order. Fills buf (kernel) and returns the bytes used; -EINVAL if
 * not even one record fits.
 */
long dir_fill(struct file *f, char *buf, size_t size)
{
	struct inode *dir = f->f_inode;
	struct inode *parent = dir->i_parent ? dir->i_parent : dir;
	struct dentry *d;
	size_t used = 0;
	s64 idx = 0;

	for (; f->f_pos < 2; f->f_pos++) {
		bool dot = f->f_pos == 0;

		if (!emit_dirent(buf, size, &used, dot ? dir->i_ino
						     : parent->i_ino,
				 f->f_pos + 1, DT_DIR, "..", dot ? 1 : 2))
			return used ? (long)used : -EINVAL;
	}
	list_for_each_entry(d, &dir->i_children, d_list) {
		if (idx++ < f->f_pos - 2)
			continue;
		if (!emit_dirent(buf, size, &used, d->d_inode->i_ino,
				 f->f_pos + 1, dtype(d->d_inode->i_mode),
				 d->d_name, d->d_len))
			return used ? (long)used : -EINVAL;
		f->f_pos++;
	}
	if (dir->i_op && dir->i_op->readdir)
		return dir_fill_dynamic(f, buf, size, used, idx);
	return (long)used;
}

static long sys_getdents64(int fd, void __user *dirp, unsigned int count)
{
	struct file *f = fget(fd);
	size_t size = min((size_t)count, (size_t)PAGE_SIZE);
	char *buf;
	long n;

	if (!f)
		return -EBADF;
	n = -ENOTDIR;
	if (!S_ISDIR(f->f_inode->i_mode))
		goto out;
	n = -ENOMEM;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		goto out;
	n = dir_fill(f, buf, size);
	if (n > 0 && copy_to_user(dirp, buf, n))
		n = -EFAULT;
	kfree(buf);
out:
	fput(f);
	return n;
}
SYSCALL(__NR_getdents64, sys_getdents64);
