/* user/tests/groups_rseq.c — getgroups/setgroups (count, short lists,
 * inheritance, limits) and rseq: -ENOSYS on zpk, present on Linux. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/* Raw calls: the libc wrappers may broadcast setgroups to threads. */
static long getgroups_raw(int n, unsigned int *list)
{
	return syscall(SYS_getgroups, n, list);
}

static long setgroups_raw(long n, const unsigned int *list)
{
	return syscall(SYS_setgroups, n, list);
}

static int has(const unsigned int *l, long n, unsigned int g)
{
	for (long i = 0; i < n; i++)
		if (l[i] == g)
			return 1;
	return 0;
}

/* What the child found, for the parent to report (one TAP stream). */
struct res {
	long set, n, count, short_list, bad_ptr, too_many, negative, empty;
	int err_short, err_bad, err_many, err_neg, inherited, got789;
};

/* In a child, so that the test leaves the runner's groups alone. */
static void set_and_check(void *arg)
{
	static const unsigned int want[3] = { 9, 7, 8 };
	struct res *r = arg;
	unsigned int got[8];
	pid_t pid;
	int status;

	r->set = setgroups_raw(3, want);
	r->n = getgroups_raw(8, got);
	r->got789 = r->n == 3 && has(got, 3, 7) && has(got, 3, 8) &&
		    has(got, 3, 9);
	r->count = getgroups_raw(0, NULL);
	r->short_list = getgroups_raw(2, got);
	r->err_short = errno;
	pid = fork();
	if (pid == 0)
		_exit(getgroups_raw(8, got) == 3 && has(got, 3, 8) ? 0 : 1);
	waitpid(pid, &status, 0);
	r->inherited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	r->bad_ptr = setgroups_raw(1, (unsigned int *)8);
	r->err_bad = errno;
	r->too_many = setgroups_raw(65537, want);
	r->err_many = errno;
	r->negative = setgroups_raw(-1, want);
	r->err_neg = errno;
	r->empty = setgroups_raw(0, NULL) == 0 && getgroups_raw(0, NULL) == 0;
}

static void check_setgroups(void)
{
	struct res *r = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = in_child(set_and_check, r);

	tap_ok(WIFEXITED(status) && r->set == 0 && r->got789,
	       "setgroups {9,7,8}, getgroups gives them (%ld)", r->n);
	tap_ok(r->count == 3, "getgroups(0, NULL) counts 3 (%ld)", r->count);
	tap_ok(r->short_list == -1 && r->err_short == EINVAL,
	       "getgroups with room for 2 of 3 is EINVAL (%s)",
	       strerror(r->err_short));
	tap_ok(r->inherited, "a fork child inherits the list");
	tap_ok(r->bad_ptr == -1 && r->err_bad == EFAULT,
	       "setgroups from a bad pointer: EFAULT (%s)", strerror(r->err_bad));
	tap_ok(r->too_many == -1 && r->err_many == EINVAL,
	       "setgroups of 65537 groups (> NGROUPS_MAX) is EINVAL (%s)",
	       strerror(r->err_many));
	tap_ok(r->negative == -1 && r->err_neg == EINVAL,
	       "setgroups(-1) is EINVAL (%s)", strerror(r->err_neg));
	tap_ok(r->empty, "setgroups(0, NULL) empties the list");
	munmap(r, PAGE_SIZE);
}

int main(void)
{
	unsigned int list[64];
	long n, m, r;

	tap_plan(11);
	n = getgroups_raw(0, NULL);
	m = getgroups_raw(64, list);
	tap_ok(n >= 0 && m == n, "getgroups(0, NULL) is the count (%ld = %ld)",
	       n, m);
	errno = 0;
	r = getgroups_raw(-1, list);
	tap_ok(r == -1 && errno == EINVAL, "getgroups(-1) is EINVAL (%s)",
	       strerror(errno));
	if (getuid() == 0)
		check_setgroups();
	else
		for (int i = 0; i < 8; i++)
			tap_skip("setgroups needs root (uid %d)", getuid());

	/* A NULL area of size 0: a Linux with rseq refuses it (EINVAL);
	 * zpk has none: ENOSYS, as Linux before 4.18. */
	errno = 0;
	r = syscall(SYS_rseq, NULL, 0, 0, 0);
	if (is_zpk())
		tap_ok(r == -1 && errno == ENOSYS, "rseq is ENOSYS on zpk (%s)",
		       strerror(errno));
	else
		tap_ok(r == -1 && (errno == EINVAL || errno == ENOSYS),
		       "rseq(NULL, 0) is EINVAL (or ENOSYS on an old Linux) (%s)",
		       strerror(errno));
	tap_done();
}
