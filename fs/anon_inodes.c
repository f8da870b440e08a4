/* fs/anon_inodes.c — Linux's anon_inodefs: the inodes under files that
 * have no name (a pidfd, a userfaultfd), so fstat, fstatfs and the
 * /proc/PID/fd/N link say what they are. */
#include <zpk/errno.h>
#include <zpk/fs.h>

#define ANON_INODE_FS_MAGIC	0x09041934

struct super_block anon_inodefs_sb = {
	.s_dev = 14,
	.s_magic = ANON_INODE_FS_MAGIC,
	.s_type = "anon_inodefs",
};

/* Opening /proc/PID/fd/N of one: Linux's no_open. */
static int anon_inode_no_open(struct file *f)
{
	(void)f;
	return -ENXIO;
}

static const struct file_operations anon_inode_fops = {
	.open = anon_inode_no_open,
};

struct file *anon_inode_getfile(const char *name,
				const struct file_operations *fops,
				void *priv, unsigned int flags)
{
	struct inode *inode = ramfs_new_inode(&anon_inodefs_sb, 0600);
	struct file *f;

	if (!inode)
		return NULL;
	inode->i_fop = &anon_inode_fops;
	inode->i_private = (void *)name;
	f = alloc_file(inode, flags);
	iput(inode);			/* the file holds it now */
	if (!f)
		return NULL;
	f->f_op = fops;
	f->private_data = priv;
	return f;
}
