/* fs/devices.c — the character devices /dev/null, /dev/zero,
 * /dev/random, /dev/urandom and /dev/console, and vfs_init(), which
 * builds / with /dev and /tmp. */
#include <zpk/bug.h>
#include <zpk/console.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/pipe_fs_i.h>
#include <zpk/random.h>
#include <zpk/string.h>

static ssize_t null_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	(void)f, (void)buf, (void)n, (void)pos;
	return 0;
}

/* Writes to null, zero and (for now) the console's input side succeed
 * and vanish. */
static ssize_t null_write(struct file *f, const char *buf, size_t n,
			  loff_t *pos)
{
	(void)f, (void)buf, (void)pos;
	return n;
}

static ssize_t zero_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	(void)f, (void)pos;
	memset(buf, 0, n);
	return n;
}

/* /dev/random and /dev/urandom: getrandom(2)'s bytes; both never wait,
 * as Linux's since 5.6 once the generator is seeded. */
static ssize_t random_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	(void)f, (void)pos;
	get_random_bytes(buf, n);
	return n;
}

static ssize_t console_dev_write(struct file *f, const char *buf, size_t n,
				 loff_t *pos)
{
	(void)f, (void)pos;
	console_write(buf, n);
	return n;
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
};

static const struct file_operations zero_fops = {
	.read = zero_read,
	.read_user = zero_read_user,
	.write = null_write,
	.mmap = mmap_zero,
};

static const struct file_operations random_fops = {
	.read = random_read,
	.write = null_write,
};

/* Reading the console returns EOF until the tty layer exists. */
static const struct file_operations console_fops = {
	.read = null_read,
	.write = console_dev_write,
};

/* A device node with no driver behind it: Linux's open says ENXIO. */
static int no_device_open(struct file *f)
{
	(void)f;
	return -ENXIO;
}

const struct file_operations no_device_fops = {
	.open = no_device_open,
};

/*
 * What a character device node made by mknod(2) opens as: the device of
 * that number /dev has (the drivers zpk has are the nodes vfs_init made:
 * null, zero, the console, a tty once tty_init ran), else nothing
 * (-ENXIO), as Linux's cdev lookup by number.
 */
const struct file_operations *chrdev_fops(u32 rdev)
{
	struct inode *dev = devtmpfs_sb.s_root;
	struct dentry *d;

	if (!dev)
		return &no_device_fops;
	list_for_each_entry(d, &dev->i_children, d_list)
		if (S_ISCHR(d->d_inode->i_mode) && d->d_inode->i_rdev == rdev)
			return d->d_inode->i_fop;
	return &no_device_fops;
}

/* /dev is a file system of its own, as Linux's devtmpfs. */
struct super_block devtmpfs_sb = {
	.s_dev = 5,
	.s_magic = TMPFS_MAGIC,
	.s_type = "devtmpfs",
	.s_flags = ST_RELATIME,
	.s_options = ",mode=755",
};

static int mount_devtmpfs(void)
{
	struct inode *dev = ramfs_new_inode(&devtmpfs_sb, S_IFDIR | 0755);
	int err;

	if (!dev)
		return -ENOMEM;
	err = ramfs_link(vfs_root, "dev", 3, dev);
	iput(dev);	/* the name holds it */
	devtmpfs_sb.s_root = dev;
	return err;
}

/*
 * An empty root with /dev (null, zero, console) and /tmp. Idempotent, so
 * that tests may call it; BUGs if memory runs out this early.
 */
void vfs_init(void)
{
	int err = 0;

	if (vfs_root)
		return;
	pipe_init();
	vfs_root = ramfs_new_inode(&rootfs_sb, S_IFDIR | 0755);
	BUG_ON(!vfs_root);
	rootfs_sb.s_root = vfs_root;
	/* Named by nobody, held forever by the i_count of its creation. */
	vfs_root->i_nlink = 2;
	err |= mount_devtmpfs();
	err |= vfs_mkdir(NULL, "/tmp", 01777);
	err |= vfs_mknod(NULL, "/dev/null", S_IFCHR | 0666, MKDEV(1, 3),
			 &null_fops);
	err |= vfs_mknod(NULL, "/dev/zero", S_IFCHR | 0666, MKDEV(1, 5),
			 &zero_fops);
	err |= vfs_mknod(NULL, "/dev/console", S_IFCHR | 0600, MKDEV(5, 1),
			 &console_fops);
	err |= vfs_mknod(NULL, "/dev/random", S_IFCHR | 0666, MKDEV(1, 8),
			 &random_fops);
	err |= vfs_mknod(NULL, "/dev/urandom", S_IFCHR | 0666, MKDEV(1, 9),
			 &random_fops);
	BUG_ON(err);
}
