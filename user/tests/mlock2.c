/* user/tests/mlock2.c — mlock2 with MLOCK_ONFAULT (locked, VmLck and the
 * smaps "lo" flag, but nothing faulted in), mlock over it (populates),
 * munlock, mlockall(MCL_FUTURE | MCL_ONFAULT), a fork child that
 * inherits no lock, and RLIMIT_MEMLOCK, which root passes. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT	1
#endif
#ifndef MCL_ONFAULT
#define MCL_ONFAULT	4
#endif

#define N	16
#define LEN	(N * PAGE_SIZE)

static int mlock2_(void *p, size_t len, int flags)
{
	return (int)syscall(SYS_mlock2, p, len, flags);
}

/* The smaps entry holding p: its Rss (kB) and whether VmFlags has
 * "lo"; -1 if there is none. */
static long long smaps_of(const void *p, int *locked)
{
	char *buf = proc_read("/proc/self/smaps", NULL), *cur = buf, *f;
	struct proc_map m;
	long long rss = -1;

	while (buf && proc_maps_next(&cur, &m)) {
		if (m.start > (unsigned long)p || (unsigned long)p >= m.end)
			continue;
		rss = proc_field(m.fields, m.fields_end, "Rss");
		f = strstr(m.fields, "VmFlags:");
		*locked = f && f < m.fields_end && strstr(f, " lo") &&
			  strstr(f, " lo") < m.fields_end;
		break;
	}
	free(buf);
	return rss;
}

/* Pages of the N at p that are present (pagemap: no allocation, so it
 * cannot grow a neighbouring mapping); -1 if pagemap fails. */
static int present(const void *p)
{
	uint64_t e[N];
	int n = 0;

	if (pagemap_read(0, (unsigned long)p, e, N) != N)
		return -1;
	for (int i = 0; i < N; i++)
		n += !!(e[i] & PM_PRESENT);
	return n;
}

/* Linux's default RLIMIT_MEMLOCK is 8 MiB (what the host says may be
 * its init's); root has CAP_IPC_LOCK and locks more than it. */
static void memlock_limit(void)
{
	size_t len = 16UL << 20;
	struct rlimit rl = { 0, 0 };
	char *q;
	int r;

	getrlimit(RLIMIT_MEMLOCK, &rl);
	tap_ok(rl.rlim_cur <= rl.rlim_max && (!is_zpk() || (rl.rlim_cur ==
	       8UL << 20 && rl.rlim_max == 8UL << 20)), "RLIMIT_MEMLOCK "
	       "%llu kB, at most %llu kB", (unsigned long long)rl.rlim_cur >> 10,
	       (unsigned long long)rl.rlim_max >> 10);
	q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS, -1, 0);
	r = mlock2_(q, len, MLOCK_ONFAULT);
	if (geteuid() == 0)
		tap_ok(r == 0, "root mlocks 16 MiB past it (%s)",
		       r ? strerror(errno) : "ok");
	else
		tap_skip("not root: the limit binds");
	munlock(q, len);
	munmap(q, len);
}

int main(void)
{
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *q;
	long long lck0, rss;
	int lo = 0, st;
	pid_t pid;

	need_proc();
	tap_plan(14);
	lck0 = self_kb("VmLck");
	tap_ok(mlock2_(p, LEN, 2) < 0 && errno == EINVAL, "mlock2 with an "
	       "unknown flag: EINVAL");
	tap_ok(mlock2_(p, LEN, MLOCK_ONFAULT) == 0, "mlock2(MLOCK_ONFAULT)");
	rss = smaps_of(p, &lo);
	tap_ok(self_kb("VmLck") - lck0 == LEN / 1024 && lo, "VmLck %+lld kB, "
	       "smaps VmFlags lo (%d)", self_kb("VmLck") - lck0, lo);
	tap_ok(rss == 0, "nothing faulted in (Rss %lld kB)", rss);
	memset(p, 1, 4 * PAGE_SIZE);
	rss = smaps_of(p, &lo);
	tap_ok(rss == 16, "4 pages written: Rss %lld kB", rss);
	tap_ok(mlock2_(p, LEN, 0) == 0 && smaps_of(p, &lo) == LEN / 1024,
	       "mlock2(0) over it populates the rest");
	pid = fork();
	if (pid == 0)
		_exit(self_kb("VmLck") == 0 && smaps_of(p, &lo) >= 0 && !lo ?
		      0 : 1);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a fork child has no "
	       "lock: VmLck 0, no lo");
	tap_ok(munlock(p, LEN) == 0 && self_kb("VmLck") == lck0 &&
	       smaps_of(p, &lo) >= 0 && !lo, "munlock: VmLck back, no lo");
	q = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	munmap(q, PAGE_SIZE);
	st = mlock2_(q, PAGE_SIZE, MLOCK_ONFAULT);
	tap_ok(st < 0 && errno == ENOMEM, "mlock2 of a hole: ENOMEM");
	tap_ok(mlockall(MCL_ONFAULT) < 0 && errno == EINVAL,
	       "mlockall(MCL_ONFAULT) alone: EINVAL");
	tap_ok(mlockall(MCL_FUTURE | MCL_ONFAULT) == 0, "mlockall(MCL_FUTURE "
	       "| MCL_ONFAULT)");
	q = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		 MAP_ANONYMOUS, -1, 0);
	rss = present(q);
	smaps_of(q, &lo);
	munlockall();
	tap_ok(rss == 0 && lo, "a later mmap is locked (lo) but not "
	       "populated (%lld pages present)", rss);
	munmap(q, LEN);
	munmap(p, LEN);
	memlock_limit();
	tap_done();
}
