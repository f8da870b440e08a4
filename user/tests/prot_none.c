/* user/tests/prot_none.c — PROT_NONE memory is unreadable to the kernel's
 * uaccess too: system calls given a pointer into it fail with EFAULT, and
 * mprotect back to readable finds the data (also across fork). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define SECRET		"zpk-secret-7f3a"
#define SECRET_AT	64	/* byte 0 is "/": a path stat() could use */

static int fails_efault(long r)
{
	return r == -1 && errno == EFAULT;
}

static int is_zero(const char *p, int n)
{
	for (int i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* Page 0: "/" and the secret; page 1: read only (a zero-page PTE where
 * the policy maps one). Both then go PROT_NONE. */
static char *map_secret(void)
{
	char *p = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	strcpy(p, "/");
	strcpy(p + SECRET_AT, SECRET);
	peek(p + PAGE_SIZE);
	return p;
}

/* Every way the kernel might read or write PROT_NONE memory for us. */
static void uaccess_checks(char *p)
{
	char buf[32] = "untouched";
	struct iovec local = { p + SECRET_AT, 16 }, remote = { buf, 16 };
	struct stat st;
	int fd[2];

	pipe(fd);
	tap_ok(fails_efault(write(fd[1], p + SECRET_AT, 16)),
	       "write(pipe) from a PROT_NONE page: EFAULT");
	tap_ok(fails_efault(write(fd[1], p + PAGE_SIZE, 16)),
	       "write(pipe) from a PROT_NONE page only read before: EFAULT");
	write(fd[1], "x", 1);
	tap_ok(fails_efault(read(fd[0], p, 1)),
	       "read(pipe) into a PROT_NONE page: EFAULT");
	close(fd[0]);
	close(fd[1]);
	tap_ok(fails_efault(syscall(SYS_stat, p, &st)),
	       "stat() of a path in a PROT_NONE page: EFAULT");
	tap_ok(fails_efault(process_vm_writev(getpid(), &local, 1, &remote, 1,
					      0)) &&
	       strcmp(buf, "untouched") == 0,
	       "process_vm_writev from a PROT_NONE page: EFAULT, nothing "
	       "copied");
	tap_ok(fails_efault(process_vm_readv(getpid(), &local, 1, &remote, 1,
					     0)),
	       "process_vm_readv into a PROT_NONE page: EFAULT");
}

/* The child's view after fork: its own copy of the secret, writable once
 * it mprotects back; its writes must not reach the parent. */
static void child(void *arg)
{
	char *p = arg;

	if (mprotect(p, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE) ||
	    strcmp(p + SECRET_AT, SECRET) || !is_zero(p + PAGE_SIZE, 64))
		_exit(1);
	memset(p, 'c', 2 * PAGE_SIZE);
	_exit(0);
}

int main(void)
{
	char buf[32] = "";
	long long rss0, rss1, rss2;
	char *p, *q;
	int fd, st;

	need_proc();
	tap_plan(14);
	p = map_secret();
	if (!tap_ok(p != NULL, "map two pages, a secret in the first"))
		tap_done();
	tap_ok(syscall(SYS_stat, p, &(struct stat){ 0 }) == 0,
	       "stat() of the path while readable works");
	/* RssAnon: the program's own text pages come in as it runs. */
	rss0 = self_kb("RssAnon");
	tap_ok(mprotect(p, 2 * PAGE_SIZE, PROT_NONE) == 0,
	       "mprotect(PROT_NONE)");
	rss1 = self_kb("RssAnon");
	uaccess_checks(p);
	/* FOLL_FORCE (ptrace, /proc/PID/mem) still reads it, as Linux. */
	fd = open("/proc/self/mem", O_RDONLY);
	tap_ok(fd >= 0 && pread(fd, buf, sizeof(SECRET),
				(off_t)(unsigned long)(p + SECRET_AT)) ==
			  sizeof(SECRET) && strcmp(buf, SECRET) == 0,
	       "/proc/self/mem reads the PROT_NONE secret (FOLL_FORCE)");
	close(fd);
	st = in_child(child, p);
	tap_ok(st == 0, "a forked child mprotects back, finds the secret and "
	       "writes its copy (%s)", status_str(st));
	tap_ok(mprotect(p, 2 * PAGE_SIZE, PROT_READ) == 0 &&
	       strcmp(p + SECRET_AT, SECRET) == 0 && p[0] == '/' &&
	       is_zero(p + PAGE_SIZE, PAGE_SIZE),
	       "mprotect(PROT_READ): the secret intact, the child's writes "
	       "not seen");
	rss2 = self_kb("RssAnon");
	tap_ok(kb_near(rss1, rss0) && kb_near(rss2, rss0),
	       "RssAnon unchanged by mprotect: %lld, %lld, %lld kB", rss0, rss1,
	       rss2);
	munmap(p, 2 * PAGE_SIZE);

	q = mmap(NULL, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	tap_ok(q != MAP_FAILED && fails_efault(write(1, q, 1)),
	       "write() from a never-touched PROT_NONE page: EFAULT");
	munmap(q, PAGE_SIZE);
	tap_done();
}
