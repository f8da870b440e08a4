/* user/tests/userfaultfd_wp.c — userfaultfd write protection: WP faults
 * resolved by UFFDIO_WRITEPROTECT, COPY_MODE_WP, the uffd-wp bit in
 * pagemap through mprotect, fork (kept only with EVENT_FORK), unregister
 * and close, on the zero page, and shmem's markers (a protection that
 * outlives a zap). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "uffd.h"
#include "ulib.h"

#define FLAGS	(O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY)
#define MISS_WP	(UFFDIO_REGISTER_MODE_MISSING | UFFDIO_REGISTER_MODE_WP)
#define WP	UFFDIO_WRITEPROTECT_MODE_WP
#define MARKER_BITS	(PM_PRESENT | PM_SWAP | PM_UFFD_WP)

static char src[PAGE_SIZE];

static uint64_t pm(void *p)
{
	uint64_t e = 0;

	pagemap_read(0, (unsigned long)p, &e, 1);
	return e;
}

static char *map_anon(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A thread writes v to p; its WP fault must reach fd and wait there
 * until UFFDIO_WRITEPROTECT lifts the protection. */
static int wp_fault_resolved(int fd, char *p, char v)
{
	struct uffd_toucher t;
	struct uffd_msg m;
	int ok;

	uffd_toucher_start(&t, p, 1, v);
	ok = !uffd_read(fd, &m, 5000) && m.event == UFFD_EVENT_PAGEFAULT &&
	     m.arg.pagefault.address == (uintptr_t)p &&
	     m.arg.pagefault.flags == (UFFD_PAGEFAULT_FLAG_WP |
				       UFFD_PAGEFAULT_FLAG_WRITE);
	uffd_settle(30);
	ok = ok && !t.done && *p != v;
	ok = ok && !uffd_wp(fd, p, PAGE_SIZE, 0);
	uffd_toucher_join(&t);
	return ok && *p == v;
}

static void anon(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_PAGEFAULT_FLAG_WP);
	char *p = map_anon(4);
	long r;

	memset(src, 's', sizeof(src));
	uffd_register(fd, p, 4 * PAGE_SIZE, MISS_WP, NULL);
	uffd_copy(fd, p, src, PAGE_SIZE, 0, NULL);
	tap_ok(!(pm(p) & PM_UFFD_WP), "a copied page: pagemap uffd-wp clear");
	r = uffd_wp(fd, p, PAGE_SIZE, WP);
	tap_ok(r == 0 && (pm(p) & PM_UFFD_WP) && peek(p) == 's',
	       "WRITEPROTECT: pagemap bit 57 set, reads go on");
	tap_ok(wp_fault_resolved(fd, p, 'w'), "a write faults with FLAG_WP|"
	       "FLAG_WRITE and waits; unprotecting wakes it, the write lands");
	tap_ok(!(pm(p) & PM_UFFD_WP), "unprotected: bit 57 clear");
	tap_ok(uffd_wp(fd, p, PAGE_SIZE, WP |
		       UFFDIO_WRITEPROTECT_MODE_DONTWAKE) == -EINVAL &&
	       uffd_wp(fd, p, PAGE_SIZE, 4) == -EINVAL,
	       "WRITEPROTECT with WP|DONTWAKE or mode 4: EINVAL");
	r = uffd_copy(fd, p + PAGE_SIZE, src, PAGE_SIZE, UFFDIO_COPY_MODE_WP,
		      NULL);
	tap_ok(r == 0 && (pm(p + PAGE_SIZE) & PM_UFFD_WP) &&
	       wp_fault_resolved(fd, p + PAGE_SIZE, 'c'), "COPY_MODE_WP: "
	       "the page comes protected, its first write faults");
	uffd_wp(fd, p, PAGE_SIZE, WP);
	mprotect(p, PAGE_SIZE, PROT_READ);
	mprotect(p, PAGE_SIZE, PROT_READ | PROT_WRITE);
	tap_ok((pm(p) & PM_UFFD_WP) && wp_fault_resolved(fd, p, 'm'),
	       "mprotect read-only and back keeps the protection");
	uffd_zeropage(fd, p + 2 * PAGE_SIZE, PAGE_SIZE, NULL);
	uffd_wp(fd, p + 2 * PAGE_SIZE, PAGE_SIZE, WP);
	tap_ok(wp_fault_resolved(fd, p + 2 * PAGE_SIZE, 'z') &&
	       p[2 * PAGE_SIZE + 1] == 0, "a protected zero-page PTE: the "
	       "write faults, then COWs a zeroed page");
	uffd_wp(fd, p, 3 * PAGE_SIZE, WP);
	r = uffd_unregister(fd, p, PAGE_SIZE);
	poke(p, 'u');
	tap_ok(r == 0 && !(pm(p) & PM_UFFD_WP) && p[0] == 'u',
	       "UNREGISTER clears the bit: writes go through");
	close(fd);
	poke(p + PAGE_SIZE, 'x');
	tap_ok(!(pm(p + PAGE_SIZE) & PM_UFFD_WP) && p[PAGE_SIZE] == 'x',
	       "closing the uffd clears the rest");
	fd = uffd_new(FLAGS, 0);
	uffd_register(fd, p + 3 * PAGE_SIZE, PAGE_SIZE,
		      UFFDIO_REGISTER_MODE_MISSING, NULL);
	tap_ok(uffd_copy(fd, p + 3 * PAGE_SIZE, src, PAGE_SIZE,
			 UFFDIO_COPY_MODE_WP, NULL) == -EINVAL &&
	       uffd_wp(fd, p + 3 * PAGE_SIZE, PAGE_SIZE, WP) == -ENOENT,
	       "without WP mode: COPY_MODE_WP EINVAL, WRITEPROTECT ENOENT");
	close(fd);
	munmap(p, 4 * PAGE_SIZE);
}

struct fork_args {
	int fd, child_fd;
};

static void *read_fork_event(void *arg)
{
	struct fork_args *a = arg;
	struct uffd_msg m;

	a->child_fd = -1;
	if (!uffd_read(a->fd, &m, 10000) && m.event == UFFD_EVENT_FORK)
		a->child_fd = m.arg.fork.ufd;
	return NULL;
}

/* fork with the page protected: the child sees bit 57 iff EVENT_FORK. */
static int fork_sees_wp(char *p, int fd, int with_event)
{
	struct fork_args a = { fd, -1 };
	pthread_t th;
	int st;
	pid_t pid;

	if (with_event)
		pthread_create(&th, NULL, read_fork_event, &a);
	pid = fork();
	if (pid == 0)
		_exit(!!(pm(p) & PM_UFFD_WP) != with_event);
	waitpid(pid, &st, 0);
	if (with_event) {
		pthread_join(th, NULL);
		if (a.child_fd < 0)
			return 0;
		close(a.child_fd);
	}
	return WIFEXITED(st) && !WEXITSTATUS(st);
}

static void forking(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_PAGEFAULT_FLAG_WP);
	char *p = map_anon(1);

	uffd_register(fd, p, PAGE_SIZE, MISS_WP, NULL);
	uffd_copy(fd, p, src, PAGE_SIZE, UFFDIO_COPY_MODE_WP, NULL);
	tap_ok(fork_sees_wp(p, fd, 0), "fork without EVENT_FORK: the child's "
	       "PTE has no uffd-wp bit");
	close(fd);
	fd = uffd_new(FLAGS, UFFD_FEATURE_PAGEFAULT_FLAG_WP |
		      UFFD_FEATURE_EVENT_FORK);
	uffd_register(fd, p, PAGE_SIZE, MISS_WP, NULL);
	uffd_wp(fd, p, PAGE_SIZE, WP);
	tap_ok(fork_sees_wp(p, fd, 1), "with EVENT_FORK: the child keeps it, "
	       "and its uffd comes in the FORK message");
	close(fd);
	munmap(p, PAGE_SIZE);
}

static void on_sigbus(int sig)
{
	_exit(sig == SIGBUS ? 42 : 1);
}

static void sigbus_child(void *arg)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_PAGEFAULT_FLAG_WP |
			  UFFD_FEATURE_SIGBUS);
	char *p = map_anon(1);

	(void)arg;
	signal(SIGBUS, on_sigbus);
	uffd_register(fd, p, PAGE_SIZE, MISS_WP, NULL);
	uffd_copy(fd, p, src, PAGE_SIZE, UFFDIO_COPY_MODE_WP, NULL);
	if (peek(p) != 's')
		_exit(2);
	poke(p, 1);
}

/* A page of a memfd mapped twice: q is registered, a is the alias. */
static void shmem(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_PAGEFAULT_FLAG_WP |
			  UFFD_FEATURE_WP_HUGETLBFS_SHMEM);
	int mfd = syscall(SYS_memfd_create, "wp", 0);
	char *q, *a;
	long r;

	ftruncate(mfd, 2 * PAGE_SIZE);
	q = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 mfd, 0);
	a = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 mfd, 0);
	r = uffd_register(fd, q, 2 * PAGE_SIZE, UFFDIO_REGISTER_MODE_WP,
			  NULL);
	poke(q, 'q');
	uffd_wp(fd, q, PAGE_SIZE, WP);
	tap_ok(r == 0 && (pm(q) & (PM_UFFD_WP | PM_PRESENT)) ==
	       (PM_UFFD_WP | PM_PRESENT), "shmem: a protected page");
	madvise(q, PAGE_SIZE, MADV_DONTNEED);
	tap_ok((pm(q) & MARKER_BITS) == (PM_UFFD_WP | PM_SWAP),
	       "MADV_DONTNEED leaves a marker: bit 57 on a swap entry, as "
	       "Linux shows it (%#llx)", (unsigned long long)pm(q));
	tap_ok(peek(q) == 'q' && (pm(q) & (PM_UFFD_WP | PM_PRESENT)) ==
	       (PM_UFFD_WP | PM_PRESENT) && wp_fault_resolved(fd, q, 'Q') &&
	       a[0] == 'Q', "read back in, the page is still protected; the "
	       "write faults, then lands in the file");
	uffd_wp(fd, q + PAGE_SIZE, PAGE_SIZE, WP);
	tap_ok((pm(q + PAGE_SIZE) & MARKER_BITS) == (PM_UFFD_WP | PM_SWAP) &&
	       wp_fault_resolved(fd, q + PAGE_SIZE, 'n'), "protecting an "
	       "unmapped page leaves a marker; its first write faults");
	uffd_wp(fd, q, PAGE_SIZE, WP);
	madvise(q, PAGE_SIZE, MADV_DONTNEED);
	uffd_wp(fd, q, PAGE_SIZE, 0);
	tap_ok(!(pm(q) & PM_UFFD_WP) && (poke(q, 'z'), a[0] == 'z'),
	       "unprotecting drops the marker: the write goes through");
	munmap(q, 2 * PAGE_SIZE);
	munmap(a, 2 * PAGE_SIZE);
	close(mfd);
	close(fd);
}

int main(void)
{
	int st;

	need_proc();
	tap_plan(19);
	anon();
	forking();
	st = in_child(sigbus_child, NULL);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42, "UFFD_FEATURE_SIGBUS: "
	       "a WP fault is SIGBUS too (%s)", status_str(st));
	shmem();
	tap_done();
}
