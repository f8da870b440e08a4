/* user/tests/userfaultfd.c — userfaultfd on private anonymous memory:
 * the syscall and /dev/userfaultfd, UFFDIO_API, REGISTER/UNREGISTER with
 * Linux's errnos, missing faults read as messages and resolved by COPY,
 * ZEROPAGE and WAKE, poll and read, SIGBUS, kernel faults (a handled
 * signal does not end them), and a uffd closed, a process exiting or
 * a clone killed while faults wait. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uffd.h"
#include "ulib.h"

#define FLAGS	(O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY)
#define NEED	(UFFD_FEATURE_PAGEFAULT_FLAG_WP | UFFD_FEATURE_EVENT_FORK | \
		 UFFD_FEATURE_EVENT_REMAP | UFFD_FEATURE_EVENT_REMOVE | \
		 UFFD_FEATURE_MISSING_SHMEM | UFFD_FEATURE_SIGBUS | \
		 UFFD_FEATURE_THREAD_ID | UFFD_FEATURE_MINOR_SHMEM | \
		 UFFD_FEATURE_EXACT_ADDRESS | UFFD_FEATURE_WP_HUGETLBFS_SHMEM)

static char *map(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The VmFlags line of the smaps entry for p, or "". */
static const char *vmflags(void *p)
{
	static char buf[1 << 16], line[256];
	unsigned long a = (unsigned long)p, s, e;
	char *cur, *nl;
	int in = 0;

	line[0] = 0;
	if (read_file("/proc/self/smaps", buf, sizeof(buf)) < 0)
		return line;
	for (cur = buf; *cur; cur = nl + 1) {
		nl = strchr(cur, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (sscanf(cur, "%lx-%lx ", &s, &e) == 2)
			in = s <= a && a < e;
		else if (in && !strncmp(cur, "VmFlags:", 8))
			snprintf(line, sizeof(line), "%.200s ", cur);
	}
	return line;
}

/* fd is on Linux's anonymous inode: mode 0600, anon_inodefs, its
 * /proc/self/fd link named so and not to be opened. */
static void anon_inode(int fd)
{
	char path[64], link[64] = "";
	struct statfs sf;
	struct stat st;
	long n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(!fstat(fd, &st) && st.st_mode == 0600 && !fstatfs(fd, &sf) &&
	       sf.f_type == 0x09041934 && !strcmp(link,
						  "anon_inode:[userfaultfd]") &&
	       open(path, O_RDONLY) == -1 && errno == ENXIO,
	       "an anonymous inode: mode %o, %s, fstatfs ANON_INODE_FS_MAGIC, "
	       "open of the link ENXIO", st.st_mode, link);
}

static void api(void)
{
	struct uffdio_api a = { 0xab, 0, 0 };
	int fd, dev, fd2, fl;
	long r;

	errno = 0;
	r = syscall(SYS_userfaultfd, 0x100);
	tap_ok(r == -1 && errno == EINVAL, "userfaultfd(0x100): EINVAL");
	fd = syscall(SYS_userfaultfd, FLAGS);
	fl = fcntl(fd, F_GETFL);
	tap_ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	       (fl & O_NONBLOCK), "userfaultfd(O_CLOEXEC|O_NONBLOCK|"
	       "UFFD_USER_MODE_ONLY): FD_CLOEXEC and O_NONBLOCK");
	errno = 0;
	r = uffd_register(fd, &a, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
			  NULL);
	tap_ok(r == -EINVAL && read(fd, &a, sizeof(a)) == -1 &&
	       errno == EINVAL, "ioctls and read before UFFDIO_API: EINVAL");
	a = (struct uffdio_api){ 0xab, 5, 0 };
	r = ioctl(fd, UFFDIO_API, &a);
	tap_ok(r == -1 && errno == EINVAL && !a.api && !a.features,
	       "UFFDIO_API with api 0xab: EINVAL, the struct zeroed");
	a = (struct uffdio_api){ UFFD_API, 1ULL << 63, 0 };
	r = ioctl(fd, UFFDIO_API, &a);
	tap_ok(r == -1 && errno == EINVAL, "UFFDIO_API with feature bit 63: "
	       "EINVAL");
	a = (struct uffdio_api){ UFFD_API, 0, 0 };
	r = ioctl(fd, UFFDIO_API, &a);
	tap_ok(r == 0 && a.api == UFFD_API && (a.features & NEED) == NEED &&
	       (a.ioctls & 0x8000000000000003ULL) == 0x8000000000000003ULL,
	       "UFFDIO_API: features %#llx, ioctls %#llx",
	       (unsigned long long)a.features, (unsigned long long)a.ioctls);
	r = ioctl(fd, UFFDIO_API, &a);
	tap_ok(r == -1 && errno == EINVAL, "a second UFFDIO_API: EINVAL");
	anon_inode(fd);
	close(fd);
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	fd2 = dev < 0 ? -1 : ioctl(dev, USERFAULTFD_IOC_NEW, FLAGS);
	a = (struct uffdio_api){ UFFD_API, 0, 0 };
	tap_ok(fd2 >= 0 && ioctl(fd2, UFFDIO_API, &a) == 0 &&
	       ioctl(dev, _IO(0xAA, 1), 0) == -1 && errno == EINVAL,
	       "/dev/userfaultfd: USERFAULTFD_IOC_NEW makes a uffd, other "
	       "ioctls EINVAL");
	close(fd2);
	close(dev);
}

static void registering(void)
{
	int fd = uffd_new(FLAGS, 0), fd2 = uffd_new(FLAGS, 0), exe;
	char *p = map(4), *f;
	uint64_t io = 0;
	long r;

	munmap(p + 2 * PAGE_SIZE, PAGE_SIZE);
	tap_ok(uffd_register(fd, p, PAGE_SIZE, 0, NULL) == -EINVAL &&
	       uffd_register(fd, p, PAGE_SIZE, 8, NULL) == -EINVAL,
	       "REGISTER with mode 0 or 8: EINVAL");
	tap_ok(uffd_register(fd, p + 1, PAGE_SIZE,
			     UFFDIO_REGISTER_MODE_MISSING, NULL) == -EINVAL &&
	       uffd_register(fd, p, 0, UFFDIO_REGISTER_MODE_MISSING,
			     NULL) == -EINVAL,
	       "REGISTER unaligned or of length 0: EINVAL");
	r = uffd_register(fd, p + 2 * PAGE_SIZE, PAGE_SIZE,
			  UFFDIO_REGISTER_MODE_MISSING, NULL);
	tap_ok(r == -EINVAL, "REGISTER of a hole: EINVAL (%ld)", r);
	r = uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MINOR, NULL);
	tap_ok(r == -EINVAL, "MINOR on anonymous memory: EINVAL (%ld)", r);
	exe = open("/proc/self/exe", O_RDONLY);
	f = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE, exe, 0);
	r = uffd_register(fd, f, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
			  NULL);
	tap_ok(r == -EINVAL, "a private mapping of a file: EINVAL (%ld)", r);
	munmap(f, PAGE_SIZE);
	close(exe);
	r = uffd_register(fd, p, 2 * PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
			  &io);
	tap_ok(r == 0 && (io & 0x1c) == 0x1c && !(io & 0xc0),
	       "MISSING: WAKE, COPY, ZEROPAGE, no WRITEPROTECT or CONTINUE "
	       "(%#llx)", (unsigned long long)io);
	tap_ok(strstr(vmflags(p), " um ") && !strstr(vmflags(p), " uw "),
	       "smaps VmFlags: um (%s)", vmflags(p));
	r = uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING |
			  UFFDIO_REGISTER_MODE_WP, &io);
	tap_ok(r == 0 && (io & 0x5c) == 0x5c && strstr(vmflags(p), " uw "),
	       "MISSING|WP: WRITEPROTECT too, VmFlags um uw (%#llx)",
	       (unsigned long long)io);
	r = uffd_register(fd2, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
			  NULL);
	tap_ok(r == -EBUSY, "another uffd on the same range: EBUSY (%ld)", r);
	r = uffd_unregister(fd, p, 2 * PAGE_SIZE);
	tap_ok(r == 0 && !strstr(vmflags(p), " um ") &&
	       !strstr(vmflags(p + PAGE_SIZE), " um "),
	       "UNREGISTER: VmFlags without um (%s)", vmflags(p));
	munmap(p, 4 * PAGE_SIZE);
	close(fd);
	close(fd2);
}

/* A message for a fault: event, address, flags. */
static int is_fault(const struct uffd_msg *m, void *addr, uint64_t flags)
{
	return m->event == UFFD_EVENT_PAGEFAULT &&
	       m->arg.pagefault.address == (uintptr_t)addr &&
	       m->arg.pagefault.flags == flags;
}

static void missing(void)
{
	int fd = uffd_new(FLAGS, 0);
	char *p = map(4), *q, src[PAGE_SIZE];
	struct uffd_toucher t;
	struct uffd_msg m;
	int64_t res;
	long r;

	memset(src, 'A', sizeof(src));
	uffd_register(fd, p, 4 * PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
		      NULL);
	uffd_toucher_start(&t, p + 100, 0, 0);
	r = uffd_read(fd, &m, 5000);
	tap_ok(r == 0 && is_fault(&m, p, 0) && !m.arg.pagefault.ptid,
	       "a read fault: UFFD_EVENT_PAGEFAULT at the page, no flags");
	r = uffd_copy(fd, p, src, PAGE_SIZE, 0, &res);
	uffd_toucher_join(&t);
	tap_ok(r == 0 && res == PAGE_SIZE && t.got == 'A',
	       "UFFDIO_COPY maps the page, the reader goes on ('%c')", t.got);
	r = uffd_copy(fd, p, src, PAGE_SIZE, 0, &res);
	tap_ok(r == -EEXIST && res == -EEXIST, "COPY onto a mapped page: "
	       "EEXIST (%ld, %lld)", r, (long long)res);
	r = uffd_copy(fd, p + PAGE_SIZE, (void *)8, PAGE_SIZE, 0, &res);
	tap_ok(r == -EFAULT && res == -EFAULT, "COPY from a bad address: "
	       "EFAULT (%ld)", r);
	q = map(1);
	r = uffd_copy(fd, q, src, PAGE_SIZE, 0, &res);
	tap_ok(r == -ENOENT, "COPY outside a registered range: ENOENT (%ld)",
	       r);
	munmap(q, PAGE_SIZE);
	uffd_toucher_start(&t, p + PAGE_SIZE, 0, 0);
	uffd_read(fd, &m, 5000);
	r = uffd_zeropage(fd, p + PAGE_SIZE, PAGE_SIZE, &res);
	uffd_toucher_join(&t);
	tap_ok(r == 0 && res == PAGE_SIZE && t.got == 0 &&
	       uffd_zeropage(fd, p + PAGE_SIZE, PAGE_SIZE, &res) == -EEXIST,
	       "UFFDIO_ZEROPAGE: zeros, the reader goes on; again: EEXIST");
	uffd_toucher_start(&t, p + 2 * PAGE_SIZE, 1, 'w');
	uffd_read(fd, &m, 5000);
	r = uffd_copy(fd, p + 2 * PAGE_SIZE, src, PAGE_SIZE,
		      UFFDIO_COPY_MODE_DONTWAKE, NULL);
	uffd_settle(50);
	tap_ok(r == 0 && !t.done && is_fault(&m, p + 2 * PAGE_SIZE,
					     UFFD_PAGEFAULT_FLAG_WRITE),
	       "a write fault is FLAG_WRITE; COPY with DONTWAKE leaves the "
	       "writer asleep");
	r = uffd_wake(fd, p + 2 * PAGE_SIZE, PAGE_SIZE);
	uffd_toucher_join(&t);
	tap_ok(r == 0 && p[2 * PAGE_SIZE] == 'w' &&
	       p[2 * PAGE_SIZE + 1] == 'A', "UFFDIO_WAKE: the write lands "
	       "on the copied page");
	munmap(p, 4 * PAGE_SIZE);
	close(fd);
}

static void features(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_THREAD_ID |
			  UFFD_FEATURE_EXACT_ADDRESS);
	char *p = map(1), src[PAGE_SIZE] = { 0 };
	struct uffd_toucher t;
	struct uffd_msg m;
	long r;

	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	uffd_toucher_start(&t, p + 123, 1, 'x');
	r = uffd_read(fd, &m, 5000);
	uffd_copy(fd, p, src, PAGE_SIZE, 0, NULL);
	uffd_toucher_join(&t);
	tap_ok(r == 0 && is_fault(&m, p + 123, UFFD_PAGEFAULT_FLAG_WRITE) &&
	       (int)m.arg.pagefault.ptid == t.tid, "THREAD_ID and "
	       "EXACT_ADDRESS: ptid %u is the thread's, the exact address",
	       m.arg.pagefault.ptid);
	munmap(p, PAGE_SIZE);
	close(fd);
}

static void polling(void)
{
	int fd = uffd_new(FLAGS, 0), bfd = uffd_new(O_CLOEXEC, 0);
	struct pollfd pf[2] = { { fd, POLLIN, 0 }, { bfd, POLLIN, 0 } };
	char *p = map(1), c[8];
	struct uffd_toucher t;
	struct uffd_msg m;
	long r, r2;

	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	r = poll(pf, 2, 0);
	tap_ok(r == 1 && pf[0].revents == 0 && pf[1].revents == POLLERR,
	       "poll: nothing pending 0, a blocking uffd POLLERR (%#x)",
	       pf[1].revents);
	errno = 0;
	r = read(fd, c, sizeof(c));
	tap_ok(r == -1 && errno == EINVAL, "read of less than a message: "
	       "EINVAL");
	errno = 0;
	r = read(fd, &m, sizeof(m));
	tap_ok(r == -1 && errno == EAGAIN, "read with nothing pending: "
	       "EAGAIN");
	uffd_toucher_start(&t, p, 0, 0);
	r = poll(pf, 1, 5000);
	tap_ok(r == 1 && pf[0].revents == POLLIN, "a fault makes it POLLIN");
	r = uffd_unregister(fd, p, PAGE_SIZE);
	uffd_toucher_join(&t);
	r2 = poll(pf, 1, 0);
	tap_ok(r == 0 && t.got == 0 && r2 == 0, "UNREGISTER wakes the fault: "
	       "it retries as an ordinary one; its message is gone");
	munmap(p, PAGE_SIZE);
	close(fd);
	close(bfd);
}

static void closing(void)
{
	int fd = uffd_new(FLAGS, 0);
	char *p = map(1);
	struct uffd_toucher t;
	struct uffd_msg m;

	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	uffd_toucher_start(&t, p, 1, 'c');
	uffd_read(fd, &m, 5000);
	close(fd);
	uffd_toucher_join(&t);
	tap_ok(p[0] == 'c' && !strstr(vmflags(p), " um "), "closing the uffd "
	       "with a fault read but not resolved: it retries, unregistered");
	munmap(p, PAGE_SIZE);
}

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	_exit(sig == SIGBUS && si->si_code == BUS_ADRERR ? 42 : 1);
}

static void sigbus_child(void *arg)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus,
				.sa_flags = SA_SIGINFO };
	int fd = uffd_new(FLAGS, UFFD_FEATURE_SIGBUS);
	char *p = map(1);

	(void)arg;
	sigaction(SIGBUS, &sa, NULL);
	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	peek(p);
}

/* A process exits while its thread waits in a fault. */
static void exit_child(void *arg)
{
	int fd = uffd_new(O_CLOEXEC | O_NONBLOCK, 0);
	char *p = map(1);
	struct uffd_toucher t;

	(void)arg;
	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	uffd_toucher_start(&t, p, 0, 0);
	uffd_settle(50);
	_exit(0);
}

/* A kernel access of buf: read(fd, buf, 1), or (fd < 0) MADV_POPULATE_READ
 * of its page, which get_user_pages faults in. */
struct reader {
	int fd;
	char *buf;
	long r;
};

/* fd -2: clock_gettime, a plain copy_to_user into the page (the system
 * call: musl's vDSO call would write it in user mode). r: -errno on
 * failure. */
static void *read_into(void *arg)
{
	struct reader *rd = arg;

	if (rd->fd >= 0)
		rd->r = read(rd->fd, rd->buf, 1);
	else if (rd->fd == -2)
		rd->r = syscall(SYS_clock_gettime, CLOCK_MONOTONIC, rd->buf);
	else
		rd->r = madvise(rd->buf, PAGE_SIZE, 22 /* POPULATE_READ */);
	if (rd->r < 0)
		rd->r = -errno;
	return NULL;
}

static volatile int usr1s;

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
}

/*
 * rd's call faults on its page of kfd's range; a handled SIGUSR1 (no
 * SA_RESTART) comes while it waits. Linux's fault_signal_pending gives
 * up a kernel-mode fault only for a fatal signal: the call waits for the
 * page, then returns, and the handler runs after. rd->r: the call's
 * result, or -2 if no fault message came.
 */
static void signal_in_fault(int kfd, struct reader *rd)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	char src[PAGE_SIZE] = { 0 };
	struct uffd_msg m;
	pthread_t th;

	uffd_register(kfd, rd->buf, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
		      NULL);
	sigaction(SIGUSR1, &sa, NULL);
	usr1s = 0;
	pthread_create(&th, NULL, read_into, rd);
	if (uffd_read(kfd, &m, 5000) == 0) {
		pthread_kill(th, SIGUSR1);
		uffd_settle(50);
	}
	uffd_copy(kfd, rd->buf, src, PAGE_SIZE, 0, NULL);
	pthread_join(th, NULL);
	signal(SIGUSR1, SIG_DFL);
}

static void signals_in_faults(int kfd, char *p)
{
	struct reader rd;
	int pp[2];

	pipe(pp);
	write(pp[1], "s", 1);
	rd = (struct reader){ pp[0], p, -2 };
	signal_in_fault(kfd, &rd);
	tap_ok(rd.r == 1 && p[0] == 's' && usr1s == 1, "a handled signal "
	       "while read()'s page waits for the reader: read() returns 1 "
	       "once COPY fills it (%ld), then the handler runs (%d)", rd.r,
	       usr1s);
	rd = (struct reader){ -2, p + PAGE_SIZE, -2 };
	signal_in_fault(kfd, &rd);
	tap_ok(rd.r == 0 && usr1s == 1, "... and while clock_gettime's "
	       "copy_to_user waits: it returns 0 (%ld), then the handler "
	       "runs (%d)", rd.r, usr1s);
	close(pp[0]);
	close(pp[1]);
}

static void kernel_faults(void)
{
	int fd = uffd_new(FLAGS, 0), kfd = uffd_new(O_CLOEXEC | O_NONBLOCK, 0);
	char *p = map(3), src[PAGE_SIZE] = { 0 };
	struct reader rd;
	struct uffd_msg m;
	pthread_t th;
	int pp[2];
	long r;

	pipe(pp);
	write(pp[1], "kk", 2);
	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	errno = 0;
	r = read(pp[0], p, 1);
	tap_ok(r == -1 && errno == EFAULT, "UFFD_USER_MODE_ONLY: a read() "
	       "into a missing page gives EFAULT (%s)", strerror(errno));
	uffd_register(kfd, p + PAGE_SIZE, PAGE_SIZE,
		      UFFDIO_REGISTER_MODE_MISSING, NULL);
	rd = (struct reader){ pp[0], p + PAGE_SIZE, 0 };
	pthread_create(&th, NULL, read_into, &rd);
	r = uffd_read(kfd, &m, 5000);
	tap_ok(r == 0 && is_fault(&m, p + PAGE_SIZE,
				  UFFD_PAGEFAULT_FLAG_WRITE),
	       "without it the kernel's fault in read() comes as a write "
	       "fault");
	uffd_copy(kfd, p + PAGE_SIZE, src, PAGE_SIZE, 0, NULL);
	pthread_join(th, NULL);
	tap_ok(rd.r == 1 && p[PAGE_SIZE] == 'k', "COPY resolves it: read() "
	       "returns 1 and the byte landed (%ld)", rd.r);
	uffd_register(kfd, p + 2 * PAGE_SIZE, PAGE_SIZE,
		      UFFDIO_REGISTER_MODE_MISSING, NULL);
	rd = (struct reader){ -1, p + 2 * PAGE_SIZE, -1 };
	pthread_create(&th, NULL, read_into, &rd);
	r = uffd_read(kfd, &m, 5000);
	uffd_zeropage(kfd, p + 2 * PAGE_SIZE, PAGE_SIZE, NULL);
	pthread_join(th, NULL);
	tap_ok(!r && is_fault(&m, p + 2 * PAGE_SIZE, 0) && rd.r == 0,
	       "MADV_POPULATE_READ's get_user_pages waits for the reader too, "
	       "then goes on (%ld)", rd.r);
	munmap(p, 3 * PAGE_SIZE);
	p = map(2);
	signals_in_faults(kfd, p);
	munmap(p, 2 * PAGE_SIZE);
	close(fd);
	close(kfd);
	close(pp[0]);
	close(pp[1]);
}

/* stress-ng's userfaultfd stressor: a clone sharing the mm, files and
 * handlers faults; the parent reads the fault, never resolves it, and
 * kills the clone, which must die and be reaped. */
static int clone_fault(void *arg)
{
	peek(arg);
	return 0;
}

static void killed_clone(void)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int fd = uffd_new(O_CLOEXEC | O_NONBLOCK, 0), st = -1;
	char *p = map(1);
	struct uffd_msg m;
	pid_t pid;

	uffd_register(fd, p, PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING, NULL);
	pid = clone(clone_fault, stack + sizeof(stack), SIGCHLD | CLONE_VM |
		    CLONE_FILES | CLONE_FS | CLONE_SIGHAND, p);
	tap_ok(pid > 0 && uffd_read(fd, &m, 5000) == 0, "a CLONE_VM|"
	       "CLONE_FILES|CLONE_SIGHAND child's fault is read");
	kill(pid, SIGKILL);
	if (waitpid(pid, &st, 0) != pid)
		st = -1;
	tap_ok(WIFSIGNALED(st) &&
	       WTERMSIG(st) == SIGKILL, "SIGKILL ends its wait in the fault "
	       "and it is reaped (%s)", status_str(st));
	close(fd);
	munmap(p, PAGE_SIZE);
}

int main(void)
{
	int st;

	tap_plan(44);
	api();
	registering();
	missing();
	features();
	polling();
	closing();
	st = in_child(sigbus_child, NULL);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42, "UFFD_FEATURE_SIGBUS: "
	       "the fault is SIGBUS with BUS_ADRERR (%s)", status_str(st));
	kernel_faults();
	killed_clone();
	st = in_child(exit_child, NULL);
	tap_ok(WIFEXITED(st) && !WEXITSTATUS(st), "a process exits while a "
	       "thread waits in a fault of a range still registered (%s)",
	       status_str(st));
	tap_done();
}
