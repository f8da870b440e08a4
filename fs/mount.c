/* fs/mount.c — the mounted file systems: the mount table /proc/PID/mounts
 * prints (the root, /dev, /proc, /sys), their ids, and statfs, fstatfs. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/proc_fs.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define ST_VALID	0x0020	/* f_flags is filled in */

/* In mount order, as Linux lists them. */
static struct super_block *const mount_table[] = {
	&rootfs_sb, &devtmpfs_sb, &proc_sb, &sysfs_sb,
};

int sb_mnt_id(const struct super_block *sb)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mount_table); i++)
		if (mount_table[i] == sb)
			break;
	return (int)i + 1;
}

/* Linux's statfs, x86-64: 120 bytes. */
struct statfs {
	long f_type, f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int f_fsid[2];
	long f_namelen, f_frsize, f_flags;
	long f_spare[4];
};

/* tmpfs's default limits (Linux's shmem_default_max_blocks and
 * _max_inodes): half of RAM, in pages and in inodes. */
static unsigned long tmpfs_max(void)
{
	return totalram_pages() / 2;
}

/* Linux's shmem_statfs for tmpfs-like file systems, simple_statfs for the
 * others (proc, pipefs): sizes 0. */
static void fill_statfs(struct super_block *sb, struct statfs *st)
{
	unsigned long max = tmpfs_max();

	memset(st, 0, sizeof(*st));
	st->f_type = (long)sb->s_magic;
	st->f_bsize = st->f_frsize = PAGE_SIZE;
	st->f_namelen = NAME_MAX;
	st->f_flags = ST_VALID | sb->s_flags;
	if (sb->s_magic != TMPFS_MAGIC)
		return;
	st->f_blocks = st->f_files = max;
	st->f_bfree = st->f_bavail = max - min(ramfs_sb_pages(sb), max);
	st->f_ffree = max - min(sb->s_inodes, max);
}

static long put_statfs(struct super_block *sb, struct statfs __user *ubuf)
{
	struct statfs st;

	fill_statfs(sb, &st);
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

static long sys_statfs(const char __user *path, struct statfs __user *buf)
{
	struct inode *inode;
	long err = user_lookup(AT_FDCWD, path, &inode);

	return err ? err : put_statfs(inode->i_sb, buf);
}
SYSCALL(__NR_statfs, sys_statfs);

static long sys_fstatfs(int fd, struct statfs __user *buf)
{
	struct file *f = fget(fd);
	long err;

	if (!f)
		return -EBADF;
	err = put_statfs(f->f_inode->i_sb, buf);
	fput(f);
	return err;
}
SYSCALL(__NR_fstatfs, sys_fstatfs);

/*
 * /proc/PID/mounts (and /proc/mounts, a link to self/mounts): Linux's
 * show_vfsmnt line per mount, "source mountpoint type options 0 0", the
 * options as Linux's show_mnt_opts and shmem_show_options print them.
 */
int proc_pid_mounts(struct seq_file *m, struct task_struct *task)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);

	(void)task;
	if (!path)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(mount_table); i++) {
		struct super_block *sb = mount_table[i];
		unsigned long f = sb->s_flags;

		if (!sb->s_root || d_path(sb->s_root, path, PATH_MAX) < 0)
			continue;
		seq_printf(m, "%s %s %s rw%s%s%s%s", sb->s_type, path,
			   sb->s_type, f & ST_NOSUID ? ",nosuid" : "",
			   f & ST_NODEV ? ",nodev" : "",
			   f & ST_NOEXEC ? ",noexec" : "",
			   f & ST_RELATIME ? ",relatime" : "");
		if (sb->s_magic == TMPFS_MAGIC)
			seq_printf(m, ",size=%luk,nr_inodes=%lu",
				   tmpfs_max() * 4, tmpfs_max());
		seq_printf(m, "%s 0 0\n", sb->s_options ? sb->s_options : "");
	}
	kfree(path);
	return 0;
}
