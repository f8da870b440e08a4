/* user/tests/resources.c — descriptors, pipes, VMAs and /proc files taken
 * until each runs out: Linux's errno at the limit, everything works again
 * once given back, and (zpk) every page comes back. Processes run out in
 * pid_max and exhaust (the fork bomb). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "ulib.h"

#define NOFILE	64	/* zpk's fixed RLIMIT_NOFILE; Linux's lowered to it */
#define MAPS	70000	/* more than max_map_count (65530) */
#define MAPS_TOP	0x20000000UL	/* MAPS pages below: nothing else */

static int fds[NOFILE];

static void close_all(int n)
{
	for (int i = 0; i < n; i++)
		close(fds[i]);
}

/* The pages are back (zpk: sysinfo's free pages are this system's). */
static void pages_back(const char *what, long before)
{
	long after = free_pages_back(before);

	if (is_zpk())
		tap_ok(after >= before - LEAK_SLACK, "%s: every page is back "
		       "(free pages %ld -> %ld)", what, before, after);
	else
		tap_skip("zpk only: %s: free pages are system-wide on Linux",
			 what);
}

/* Opens path (flags) until the table is full: EMFILE. */
static void descriptors(const char *what, const char *path, int flags)
{
	char buf[64];
	int n = 0, err = 0, fd;
	long before;

	/* One open first, not counted: the /proc/PID directory a first
	 * lookup makes stays while the process lives (its inode may take
	 * a new slab page). */
	close(open(path, flags));
	before = sysinfo_free_pages();

	while (n < NOFILE && (fd = open(path, flags)) >= 0) {
		read(fd, buf, sizeof(buf));	/* /proc files made on read */
		fds[n++] = fd;
	}
	err = errno;
	tap_ok(n < NOFILE && err == EMFILE, "%s until the table is full: "
	       "EMFILE after %d (%s)", what, n, strerror(err));
	close_all(n);
	fd = open(path, flags);
	tap_ok(fd >= 0, "... closed, it opens again");
	close(fd);
	pages_back(what, before);
}

/* dup of a full table: EMFILE; dup2 past the limit: EBADF. */
static void dup_limits(void)
{
	int n = 0, fd, r1, e1, r2, e2;

	while (n < NOFILE && (fd = dup(0)) >= 0)
		fds[n++] = fd;
	r1 = dup(0);
	e1 = errno;
	close_all(n);
	r2 = dup2(0, NOFILE);
	e2 = errno;
	tap_ok(r1 == -1 && e1 == EMFILE && r2 == -1 && e2 == EBADF,
	       "dup of a full table: EMFILE; dup2 to fd %d: EBADF", NOFILE);
}

/* Pipes until the table is full, each filled until EAGAIN. */
static void pipes(void)
{
	long before = sysinfo_free_pages(), bytes = 0;
	static char buf[4096];
	int n = 0, p[2], err, ok = 1;
	ssize_t w;

	while (n + 2 <= NOFILE && pipe2(p, O_NONBLOCK) == 0) {
		fds[n++] = p[0];
		fds[n++] = p[1];
		while ((w = write(p[1], buf, sizeof(buf))) > 0)
			bytes += w;
		ok &= errno == EAGAIN;
	}
	err = errno;
	tap_ok(err == EMFILE && ok, "%d pipes until the table is full "
	       "(EMFILE), each filled until EAGAIN: %ld bytes held", n / 2,
	       bytes);
	close_all(n);
	pages_back("the pipes", before);
}

/* One-page mappings that cannot merge (every other one PROT_NONE) until
 * there are max_map_count of them: ENOMEM; then one munmap of them all.
 * Each goes just below the last, at the bottom of zpk's sorted VMA list,
 * where finding its place costs nothing (mmap's own search is a walk). */
static void vmas(void)
{
	long before = sysinfo_free_pages(), n = 0;
	unsigned long top = MAPS_TOP, addr = top;
	void *again;
	int err;

	for (; n < MAPS; n++) {
		char *p;

		addr -= PAGE_SIZE;
		p = mmap((void *)addr, PAGE_SIZE,
			 n & 1 ? PROT_NONE : PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0);
		if (p == MAP_FAILED)
			break;
	}
	err = errno;
	tap_ok(n < MAPS && err == ENOMEM, "mappings until there are too "
	       "many: ENOMEM after %ld (%s)", n, strerror(err));
	again = MAP_FAILED;
	if (n && !munmap((void *)(addr + PAGE_SIZE), top - addr - PAGE_SIZE))
		again = mmap(NULL, PAGE_SIZE, PROT_READ,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tap_ok(again != MAP_FAILED, "... unmapped in one call, mmap works "
	       "again");
	/* Its VMA too: it may have taken a new slab page. */
	munmap(again, PAGE_SIZE);
	pages_back("the mappings", before);
}

int main(void)
{
	struct rlimit rl = { NOFILE, NOFILE };

	need_proc();
	tap_plan(18);
	/* The page counts are exact: the kernel objects a call makes come
	 * from this CPU's slabs and go back to them, which they would not
	 * all do if the process moved to another CPU between. */
	pin_to_one_cpu();
	/* Linux's limit is the host's: lower it to zpk's (zpk: EPERM,
	 * it is NOFILE already). */
	setrlimit(RLIMIT_NOFILE, &rl);
	descriptors("/dev/null", "/dev/null", O_RDONLY);
	descriptors("a /proc/self/status", "/proc/self/status", O_RDONLY);
	descriptors("/proc/self/mem", "/proc/self/mem", O_RDWR);
	descriptors("/proc/meminfo", "/proc/meminfo", O_RDONLY);
	dup_limits();
	pipes();
	vmas();
	tap_done();
}
