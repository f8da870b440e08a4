/* uapi/linux/userfaultfd.h — the userfaultfd ABI, Linux 6.1's (its
 * include/uapi/linux/userfaultfd.h): the ioctls, their structures, and
 * the 32-byte message read(2) gives. Shared by the kernel (fs/ and
 * mm/userfaultfd.c, through zpk/userfaultfd_k.h) and the user tests
 * (user/lib/uffd.h: musl has no <linux/userfaultfd.h>). The ioctl numbers
 * take _IOWR and the others from the includer: the kernel's
 * uapi/asm-generic/ioctl.h, a program's <sys/ioctl.h>. */
#ifndef _UAPI_LINUX_USERFAULTFD_H
#define _UAPI_LINUX_USERFAULTFD_H

#include "types.h"

#define UFFD_API		0xAAULL
#define UFFD_USER_MODE_ONLY	1	/* userfaultfd(2): no kernel faults */

/* /dev/userfaultfd's one ioctl: a new uffd. */
#define USERFAULTFD_IOC		0xAA
#define USERFAULTFD_IOC_NEW	_IO(USERFAULTFD_IOC, 0x00)

#define _UFFDIO_REGISTER	0x00
#define _UFFDIO_UNREGISTER	0x01
#define _UFFDIO_WAKE		0x02
#define _UFFDIO_COPY		0x03
#define _UFFDIO_ZEROPAGE	0x04
#define _UFFDIO_WRITEPROTECT	0x06
#define _UFFDIO_CONTINUE	0x07
#define _UFFDIO_API		0x3F

/* The ioctls every uffd has, and those a registered range has. */
#define UFFD_API_IOCTLS		(1ULL << _UFFDIO_REGISTER | \
				 1ULL << _UFFDIO_UNREGISTER | \
				 1ULL << _UFFDIO_API)
#define UFFD_API_RANGE_IOCTLS	(1ULL << _UFFDIO_WAKE | 1ULL << _UFFDIO_COPY | \
				 1ULL << _UFFDIO_ZEROPAGE | \
				 1ULL << _UFFDIO_WRITEPROTECT | \
				 1ULL << _UFFDIO_CONTINUE)

#define UFFDIO			0xAA
#define UFFDIO_API		_IOWR(UFFDIO, _UFFDIO_API, struct uffdio_api)
#define UFFDIO_REGISTER		_IOWR(UFFDIO, _UFFDIO_REGISTER, \
				      struct uffdio_register)
#define UFFDIO_UNREGISTER	_IOR(UFFDIO, _UFFDIO_UNREGISTER, \
				     struct uffdio_range)
#define UFFDIO_WAKE		_IOR(UFFDIO, _UFFDIO_WAKE, struct uffdio_range)
#define UFFDIO_COPY		_IOWR(UFFDIO, _UFFDIO_COPY, struct uffdio_copy)
#define UFFDIO_ZEROPAGE		_IOWR(UFFDIO, _UFFDIO_ZEROPAGE, \
				      struct uffdio_zeropage)
#define UFFDIO_WRITEPROTECT	_IOWR(UFFDIO, _UFFDIO_WRITEPROTECT, \
				      struct uffdio_writeprotect)
#define UFFDIO_CONTINUE		_IOWR(UFFDIO, _UFFDIO_CONTINUE, \
				      struct uffdio_continue)

#define UFFD_EVENT_PAGEFAULT	0x12
#define UFFD_EVENT_FORK		0x13
#define UFFD_EVENT_REMAP	0x14
#define UFFD_EVENT_REMOVE	0x15

#define UFFD_PAGEFAULT_FLAG_WRITE	(1 << 0)
#define UFFD_PAGEFAULT_FLAG_WP		(1 << 1)
#define UFFD_PAGEFAULT_FLAG_MINOR	(1 << 2)

#define UFFD_FEATURE_PAGEFAULT_FLAG_WP	(1 << 0)
#define UFFD_FEATURE_EVENT_FORK		(1 << 1)
#define UFFD_FEATURE_EVENT_REMAP	(1 << 2)
#define UFFD_FEATURE_EVENT_REMOVE	(1 << 3)
#define UFFD_FEATURE_MISSING_HUGETLBFS	(1 << 4)
#define UFFD_FEATURE_MISSING_SHMEM	(1 << 5)
#define UFFD_FEATURE_SIGBUS		(1 << 7)
#define UFFD_FEATURE_THREAD_ID		(1 << 8)
#define UFFD_FEATURE_MINOR_HUGETLBFS	(1 << 9)
#define UFFD_FEATURE_MINOR_SHMEM	(1 << 10)
#define UFFD_FEATURE_EXACT_ADDRESS	(1 << 11)
#define UFFD_FEATURE_WP_HUGETLBFS_SHMEM	(1 << 12)

#define UFFDIO_REGISTER_MODE_MISSING	(1 << 0)
#define UFFDIO_REGISTER_MODE_WP		(1 << 1)
#define UFFDIO_REGISTER_MODE_MINOR	(1 << 2)
#define UFFDIO_COPY_MODE_DONTWAKE	(1 << 0)
#define UFFDIO_COPY_MODE_WP		(1 << 1)
#define UFFDIO_ZEROPAGE_MODE_DONTWAKE	(1 << 0)
#define UFFDIO_WRITEPROTECT_MODE_WP	(1 << 0)
#define UFFDIO_WRITEPROTECT_MODE_DONTWAKE (1 << 1)
#define UFFDIO_CONTINUE_MODE_DONTWAKE	(1 << 0)

/* What read(2) gives: 32 bytes a message. */
struct uffd_msg {
	__u8 event;
	__u8 reserved1;
	__u16 reserved2;
	__u32 reserved3;
	union {
		struct {
			__u64 flags;
			__u64 address;
			__u32 ptid;	/* UFFD_FEATURE_THREAD_ID */
		} pagefault;
		struct {
			__u32 ufd;
		} fork;
		struct {
			__u64 from, to, len;
		} remap;
		struct {
			__u64 start, end;
		} remove;
		struct {
			__u64 reserved1, reserved2, reserved3;
		} reserved;
	} arg;
} __attribute__((packed));

struct uffdio_api {
	__u64 api, features, ioctls;
};
struct uffdio_range {
	__u64 start, len;
};
struct uffdio_register {
	struct uffdio_range range;
	__u64 mode, ioctls;
};
struct uffdio_copy {
	__u64 dst, src, len, mode;
	__s64 copy;
};
struct uffdio_zeropage {
	struct uffdio_range range;
	__u64 mode;
	__s64 zeropage;
};
struct uffdio_writeprotect {
	struct uffdio_range range;
	__u64 mode;
};
struct uffdio_continue {
	struct uffdio_range range;
	__u64 mode;
	__s64 mapped;
};

#endif
