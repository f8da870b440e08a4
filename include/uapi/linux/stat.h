/* uapi/linux/stat.h — statx's structure and bits, as Linux's uapi header
 * defines them: the kernel fills it (fs/stat.c), the user programs read
 * it (musl 1.2.3 has none). Only statx's part: the S_IF* modes are libc's
 * and zpk/fs.h's. */
#ifndef _UAPI_LINUX_STAT_H
#define _UAPI_LINUX_STAT_H

#include "types.h"

struct statx_timestamp {
	__s64 tv_sec;
	__u32 tv_nsec;
	__s32 __reserved;
};

/* 256 bytes, as Linux's. */
struct statx {
	__u32 stx_mask, stx_blksize;
	__u64 stx_attributes;
	__u32 stx_nlink, stx_uid, stx_gid;
	__u16 stx_mode, __spare0;
	__u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	__u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	__u64 stx_mnt_id;
	__u64 __spare2[13];
};

/* stx_mask: what was asked, and what was filled. */
#define STATX_TYPE		0x00000001U
#define STATX_MTIME		0x00000040U
#define STATX_CTIME		0x00000080U
#define STATX_BASIC_STATS	0x000007ffU	/* TYPE ... BLOCKS */
#define STATX_BTIME		0x00000800U
#define STATX_MNT_ID		0x00001000U
#define STATX_MNT_ID_UNIQUE	0x00004000U
#define STATX__RESERVED		0x80000000U

/* stx_attributes */
#define STATX_ATTR_IMMUTABLE	0x00000010
#define STATX_ATTR_APPEND	0x00000020
#define STATX_ATTR_NODUMP	0x00000040
#define STATX_ATTR_AUTOMOUNT	0x00001000
#define STATX_ATTR_MOUNT_ROOT	0x00002000
#define STATX_ATTR_DAX		0x00200000

#endif
