/* user/tests/close_range.c — close_range(2) as Linux's: a range of open
 * descriptors closed, or marked close-on-exec (CLOSE_RANGE_CLOEXEC);
 * CLOSE_RANGE_UNSHARE in a thread that shares the table closes its own
 * copy's only; EINVAL for an unknown flag or first > last. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define CLOSE_RANGE_UNSHARE	(1U << 1)
#define CLOSE_RANGE_CLOEXEC	(1U << 2)

static long close_range3(unsigned int first, unsigned int last,
			 unsigned int flags)
{
	return syscall(436, first, last, flags) ? -errno : 0;
}

static int open_fds(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if ((fds[i] = open("/proc/self/status", O_RDONLY)) < 0)
			return -1;
	return 0;
}

static int nr_open(const int *fds, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += fcntl(fds[i], F_GETFD) >= 0;
	return k;
}

static void *unshare_close(void *arg)
{
	int *fds = arg;

	return (void *)close_range3(fds[0], ~0U, CLOSE_RANGE_UNSHARE);
}

int main(void)
{
	int fds[4], cloexec = 0;
	pthread_t t;
	void *r;

	tap_plan(6);
	if (open_fds(fds, 4))
		return tap_ok(0, "open"), 1;
	tap_ok(close_range3(fds[1], fds[2], 0) == 0 && nr_open(fds, 4) == 2 &&
	       fcntl(fds[0], F_GETFD) >= 0 && fcntl(fds[3], F_GETFD) >= 0,
	       "[fds[1], fds[2]] closed, the others open");
	tap_ok(close_range3(fds[0], ~0U, 0) == 0 && nr_open(fds, 4) == 0,
	       "to ~0: every one from the first closed");
	open_fds(fds, 4);
	tap_ok(close_range3(fds[0], fds[3], CLOSE_RANGE_CLOEXEC) == 0 &&
	       nr_open(fds, 4) == 4, "CLOSE_RANGE_CLOEXEC closes none");
	for (int i = 0; i < 4; i++)
		cloexec += fcntl(fds[i], F_GETFD) == FD_CLOEXEC;
	tap_ok(cloexec == 4, "... and marks all four close-on-exec (%d)",
	       cloexec);
	pthread_create(&t, NULL, unshare_close, fds);
	pthread_join(t, &r);
	tap_ok(r == NULL && nr_open(fds, 4) == 4, "CLOSE_RANGE_UNSHARE in "
	       "a thread: its own copy's closed, ours stay open (%ld)",
	       (long)r);
	tap_ok(close_range3(5, 4, 0) == -EINVAL &&
	       close_range3(0, 1, 1) == -EINVAL &&
	       close_range3(0, 1, 8) == -EINVAL,
	       "EINVAL: first > last, an unknown flag");
	tap_done();
}
