/* user/lib/uffd.c — the userfaultfd tests' helpers (uffd.h). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "uffd.h"

int uffd_new(int flags, uint64_t features)
{
	struct uffdio_api api = { .api = UFFD_API, .features = features };
	int fd = syscall(SYS_userfaultfd, flags);

	if (fd < 0)
		return -1;
	if (ioctl(fd, UFFDIO_API, &api)) {
		close(fd);
		return -1;
	}
	return fd;
}

int uffd_register(int uffd, void *p, size_t len, int mode, uint64_t *ioctls)
{
	struct uffdio_register r = {
		.range = { (uintptr_t)p, len }, .mode = mode };

	if (ioctl(uffd, UFFDIO_REGISTER, &r))
		return -errno;
	if (ioctls)
		*ioctls = r.ioctls;
	return 0;
}

int uffd_unregister(int uffd, void *p, size_t len)
{
	struct uffdio_range r = { (uintptr_t)p, len };

	return ioctl(uffd, UFFDIO_UNREGISTER, &r) ? -errno : 0;
}

int uffd_copy(int uffd, void *dst, const void *src, size_t len, int mode,
	      int64_t *res)
{
	struct uffdio_copy c = { (uintptr_t)dst, (uintptr_t)src, len, mode,
				 0 };
	int r = ioctl(uffd, UFFDIO_COPY, &c) ? -errno : 0;

	if (res)
		*res = c.copy;
	return r;
}

int uffd_zeropage(int uffd, void *dst, size_t len, int64_t *res)
{
	struct uffdio_zeropage z = { { (uintptr_t)dst, len }, 0, 0 };
	int r = ioctl(uffd, UFFDIO_ZEROPAGE, &z) ? -errno : 0;

	if (res)
		*res = z.zeropage;
	return r;
}

int uffd_wp(int uffd, void *p, size_t len, int mode)
{
	struct uffdio_writeprotect w = { { (uintptr_t)p, len }, mode };

	return ioctl(uffd, UFFDIO_WRITEPROTECT, &w) ? -errno : 0;
}

int uffd_wake(int uffd, void *p, size_t len)
{
	struct uffdio_range r = { (uintptr_t)p, len };

	return ioctl(uffd, UFFDIO_WAKE, &r) ? -errno : 0;
}

int uffd_read(int uffd, struct uffd_msg *msg, int ms)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	int r;

	do
		r = poll(&pfd, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		errno = ETIMEDOUT;
	if (r <= 0)
		return -1;
	return read(uffd, msg, sizeof(*msg)) == sizeof(*msg) ? 0 : -1;
}

static void *toucher(void *arg)
{
	struct uffd_toucher *t = arg;

	t->tid = syscall(SYS_gettid);
	if (t->write)
		*t->p = t->v;
	else
		t->got = *t->p;
	t->done = 1;
	return NULL;
}

void uffd_toucher_start(struct uffd_toucher *t, void *p, int write, char v)
{
	pthread_t th;

	t->p = p;
	t->write = write;
	t->v = v;
	t->done = 0;
	pthread_create(&th, NULL, toucher, t);
	t->thread = (unsigned long)th;
}

void uffd_toucher_join(struct uffd_toucher *t)
{
	pthread_join((pthread_t)t->thread, NULL);
}

void uffd_settle(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}
