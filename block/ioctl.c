/* block/ioctl.c — the ioctls of a disk's node (Linux's block/ioctl.c):
 * its size in bytes and sectors, its block sizes, read-only or not. */
#include <uapi/linux/fs.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/uaccess.h>

#include "blk.h"

/* Linux's set_init_blocksize: the largest power of two up to a page
 * that divides the disk's size. */
static int soft_block_size(const struct gendisk *disk)
{
	u64 size = disk->capacity << SECTOR_SHIFT;
	int bsize = SECTOR_SIZE;

	while (bsize < (int)PAGE_SIZE && !(size & bsize))
		bsize <<= 1;
	return bsize;
}

long blkdev_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct gendisk *disk = f->private_data;
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case BLKGETSIZE64:
		return put_user((u64)disk->capacity << SECTOR_SHIFT,
				(u64 __user *)p);
	case BLKGETSIZE:
		return put_user((unsigned long)disk->capacity,
				(unsigned long __user *)p);
	case BLKSSZGET:
		return put_user((int)SECTOR_SIZE, (int __user *)p);
	case BLKBSZGET:
		return put_user(soft_block_size(disk), (int __user *)p);
	case BLKPBSZGET:
		return put_user((unsigned int)SECTOR_SIZE,
				(unsigned int __user *)p);
	case BLKROGET:
		return put_user((int)disk->read_only, (int __user *)p);
	case BLKFLSBUF:
		return 0;	/* no buffer cache: nothing to drop */
	}
	return -ENOTTY;
}
