/* user/lib/uffd.h — what the userfaultfd tests share: the ABI (musl has no
 * <linux/userfaultfd.h>), a uffd with features, the ioctls, a message
 * read with a timeout, and a thread that touches one page. */
#ifndef UFFD_H
#define UFFD_H

#include <stdint.h>
#include <sys/ioctl.h>

#define UFFD_API		0xAAULL
#define UFFD_USER_MODE_ONLY	1
#define UFFDIO_API		_IOWR(0xAA, 0x3F, struct uffdio_api)
#define UFFDIO_REGISTER		_IOWR(0xAA, 0x00, struct uffdio_register)
#define UFFDIO_UNREGISTER	_IOR(0xAA, 0x01, struct uffdio_range)
#define UFFDIO_WAKE		_IOR(0xAA, 0x02, struct uffdio_range)
#define UFFDIO_COPY		_IOWR(0xAA, 0x03, struct uffdio_copy)
#define UFFDIO_ZEROPAGE		_IOWR(0xAA, 0x04, struct uffdio_zeropage)
#define UFFDIO_WRITEPROTECT	_IOWR(0xAA, 0x06, struct uffdio_writeprotect)
#define UFFDIO_CONTINUE		_IOWR(0xAA, 0x07, struct uffdio_continue)
#define USERFAULTFD_IOC_NEW	_IO(0xAA, 0x00)

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
#define UFFD_FEATURE_MISSING_SHMEM	(1 << 5)
#define UFFD_FEATURE_SIGBUS		(1 << 7)
#define UFFD_FEATURE_THREAD_ID		(1 << 8)
#define UFFD_FEATURE_MINOR_SHMEM	(1 << 10)
#define UFFD_FEATURE_EXACT_ADDRESS	(1 << 11)
#define UFFD_FEATURE_WP_HUGETLBFS_SHMEM	(1 << 12)

#define UFFDIO_REGISTER_MODE_MISSING	1
#define UFFDIO_REGISTER_MODE_WP		2
#define UFFDIO_REGISTER_MODE_MINOR	4
#define UFFDIO_COPY_MODE_DONTWAKE	1
#define UFFDIO_COPY_MODE_WP		2
#define UFFDIO_WRITEPROTECT_MODE_WP	1
#define UFFDIO_WRITEPROTECT_MODE_DONTWAKE 2

#define _UFFDIO_WAKE		0x02
#define _UFFDIO_COPY		0x03
#define _UFFDIO_ZEROPAGE	0x04
#define _UFFDIO_WRITEPROTECT	0x06
#define _UFFDIO_CONTINUE	0x07

struct uffd_msg {
	uint8_t event, reserved1;
	uint16_t reserved2;
	uint32_t reserved3;
	union {
		struct {
			uint64_t flags, address;
			uint32_t ptid;
		} pagefault;
		struct {
			uint32_t ufd;
		} fork;
		struct {
			uint64_t from, to, len;
		} remap;
		struct {
			uint64_t start, end;
		} remove;
		struct {
			uint64_t r1, r2, r3;
		} reserved;
	} arg;
} __attribute__((packed));

struct uffdio_api {
	uint64_t api, features, ioctls;
};
struct uffdio_range {
	uint64_t start, len;
};
struct uffdio_register {
	struct uffdio_range range;
	uint64_t mode, ioctls;
};
struct uffdio_copy {
	uint64_t dst, src, len, mode;
	int64_t copy;
};
struct uffdio_zeropage {
	struct uffdio_range range;
	uint64_t mode;
	int64_t zeropage;
};
struct uffdio_writeprotect {
	struct uffdio_range range;
	uint64_t mode;
};
struct uffdio_continue {
	struct uffdio_range range;
	uint64_t mode;
	int64_t mapped;
};

/* userfaultfd(flags) then UFFDIO_API with features: the fd, or -1. */
int uffd_new(int flags, uint64_t features);
/* UFFDIO_REGISTER of [p, p + len) with mode: 0 or -errno; *ioctls (if
 * given) gets what the range offers. */
int uffd_register(int uffd, void *p, size_t len, int mode,
		  uint64_t *ioctls);
int uffd_unregister(int uffd, void *p, size_t len);
/* UFFDIO_COPY of len bytes from src to dst: 0, or -errno with the
 * ioctl's copy field in *res (if given). */
int uffd_copy(int uffd, void *dst, const void *src, size_t len, int mode,
	      int64_t *res);
int uffd_zeropage(int uffd, void *dst, size_t len, int64_t *res);
int uffd_wp(int uffd, void *p, size_t len, int mode);
int uffd_wake(int uffd, void *p, size_t len);
/* The next message, waiting up to ms for it (poll): 0, or -1 (none came:
 * errno ETIMEDOUT, or read's). */
int uffd_read(int uffd, struct uffd_msg *msg, int ms);

/* A thread that reads (write 0) or writes (write 1: the byte v) *p and
 * records what it read and its tid; uffd_toucher_join waits for it. */
struct uffd_toucher {
	volatile char *p;
	int write, tid;
	char v, got;
	volatile int done;
	unsigned long thread;
};
void uffd_toucher_start(struct uffd_toucher *t, void *p, int write, char v);
void uffd_toucher_join(struct uffd_toucher *t);

/* Sleep ms milliseconds: lets a thread or child reach its fault. */
void uffd_settle(int ms);

#endif
