/* block/blk.h — what only block/ shares (Linux's block/blk.h): the /dev
 * node's file operations and its ioctls. */
#ifndef BLOCK_BLK_H
#define BLOCK_BLK_H

#include <zpk/blkdev.h>
#include <zpk/fs.h>

/* /dev/vda's read, write, llseek, fsync, ioctl (block/fops.c). */
extern const struct file_operations def_blk_fops;
/* The block device ioctls (block/ioctl.c): -ENOTTY for others. */
long blkdev_ioctl(struct file *f, unsigned int cmd, unsigned long arg);

#endif
