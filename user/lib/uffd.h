/* user/lib/uffd.h — what the userfaultfd tests share: the ABI (musl has no
 * <linux/userfaultfd.h>: the kernel's include/uapi/ is on the include
 * path), a uffd with features, the ioctls, a message read with a timeout,
 * and a thread that touches one page. */
#ifndef UFFD_H
#define UFFD_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/userfaultfd.h>	/* include/uapi/, the kernel's own */

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
