/* uapi/linux/fs.h — the block device ioctls of Linux's uapi/linux/fs.h
 * that zpk answers (block/ioctl.c), for the kernel and user/ alike. */
#ifndef _UAPI_LINUX_FS_H
#define _UAPI_LINUX_FS_H

/* _IO(0x12, n) and _IOR(0x12, n, size_t), spelled out. */
#define BLKROGET	0x125e		/* int: 1 if read-only */
#define BLKGETSIZE	0x1260		/* unsigned long: 512-byte sectors */
#define BLKFLSBUF	0x1261		/* drop buffers: none to drop */
#define BLKSSZGET	0x1268		/* int: logical block size */
#define BLKBSZGET	0x80081270	/* int: soft block size */
#define BLKGETSIZE64	0x80081272	/* u64: bytes */
#define BLKPBSZGET	0x127b		/* unsigned int: physical block size */

#endif
