/* user/tests/memfd.c — memfd_create (flags, name checks), its shared and
 * private mappings (RssShmem, and RssAnon for a private write's copy),
 * fallocate on it: mode 0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE
 * with Linux's errnos; and its seals (F_ADD_SEALS, F_GET_SEALS). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC		1U
#define MFD_ALLOW_SEALING	2U
#endif
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE	1
#define FALLOC_FL_PUNCH_HOLE	2
#endif
#define FALLOC_FL_ZERO_RANGE	0x10
#ifndef F_ADD_SEALS
#define F_ADD_SEALS		1033
#define F_GET_SEALS		1034
#define F_SEAL_SEAL		0x0001
#define F_SEAL_SHRINK		0x0002
#define F_SEAL_GROW		0x0004
#define F_SEAL_WRITE		0x0008
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE	0x0010
#endif

#define N	8
#define LEN	(N * PAGE_SIZE)

static int memfd(const char *name, unsigned int flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

static int fails(long r, int e)
{
	return r < 0 && errno == e;
}

static long long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long long)st.st_size;
}

/* What /proc calls a memfd and shared anonymous memory: Linux's names
 * of unlinked shmem files. */
static void names(void)
{
	char path[64], link[128], maps[8192], want[64];
	int fd = memfd("hello", 0);
	char *p = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	tap_ok(strcmp(link, "/memfd:hello (deleted)") == 0, "/proc/self/fd "
	       "of a memfd: /memfd:NAME (deleted) (%s)", link);
	snprintf(want, sizeof(want), "%lx-", (unsigned long)p);
	read_file("/proc/self/maps", maps, sizeof(maps));
	tap_ok(strstr(maps, want) && strstr(strstr(maps, want),
					   "/dev/zero (deleted)\n"),
	       "/proc/self/maps: MAP_SHARED|MAP_ANONYMOUS is /dev/zero "
	       "(deleted)");
	munmap(p, PAGE_SIZE);
	close(fd);
}

static void create(void)
{
	char name[300];
	int fd;

	fd = memfd("t", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	tap_ok(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
	       size_of(fd) == 0 && (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR,
	       "memfd_create: read-write, size 0, MFD_CLOEXEC sets "
	       "FD_CLOEXEC");
	close(fd);
	tap_ok(fails(memfd("t", 0x100), EINVAL), "an unknown flag: EINVAL");
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	name[250] = 0;
	tap_ok(fails(memfd(name, 0), EINVAL), "a 250-byte name: EINVAL");
	name[249] = 0;
	fd = memfd(name, 0);
	tap_ok(fd >= 0, "a 249-byte name is fine");
	close(fd);
	tap_ok(fails(memfd((char *)16, 0), EFAULT), "a bad name: EFAULT");
	names();
}

static void mappings(void)
{
	int fd = memfd("map", 0), st;
	long long shmem0, shmem1, anon0, anon1;
	char *s, *p, buf[4];
	pid_t pid;

	ftruncate(fd, LEN);
	s = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	shmem0 = self_kb("RssShmem");
	memset(s, 0x5a, LEN);
	shmem1 = self_kb("RssShmem");
	tap_ok(kb_near(shmem1 - shmem0, LEN / 1024) && pread(fd, buf, 4, 100)
	       == 4 && buf[3] == 0x5a, "shared mapping: writes reach the file, "
	       "RssShmem %+lld kB", shmem1 - shmem0);
	pid = fork();
	if (pid == 0) {
		s[5] = 1;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(s[5] == 1, "a fork child's write to the shared mapping shows");
	anon0 = self_kb("RssAnon");
	shmem0 = self_kb("RssShmem");
	tap_ok(p[PAGE_SIZE] == 0x5a, "private mapping reads the file's data");
	p[0] = 7;
	anon1 = self_kb("RssAnon");
	shmem1 = self_kb("RssShmem");
	tap_ok(s[0] == 0x5a && kb_near(anon1 - anon0, 4) &&
	       kb_near(shmem1 - shmem0, 4), "private write: a copy (RssAnon "
	       "%+lld kB), the file unchanged; the read page is RssShmem "
	       "(%+lld kB)", anon1 - anon0, shmem1 - shmem0);
	munmap(s, LEN);
	munmap(p, LEN);
	close(fd);
}

static void fallocate_modes(void)
{
	int fd = memfd("falloc", 0);
	char buf[PAGE_SIZE], *s;

	tap_ok(fallocate(fd, 0, 0, 3 * PAGE_SIZE) == 0 &&
	       size_of(fd) == 3 * PAGE_SIZE, "fallocate mode 0: size %lld",
	       size_of(fd));
	tap_ok(fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, LEN) == 0 &&
	       size_of(fd) == 3 * PAGE_SIZE, "FALLOC_FL_KEEP_SIZE: size kept");
	ftruncate(fd, LEN);
	s = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memset(s, 0x33, LEN);
	tap_ok(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 100,
			 3 * PAGE_SIZE) == 0 && size_of(fd) == LEN,
	       "FALLOC_FL_PUNCH_HOLE | KEEP_SIZE: size kept");
	pread(fd, buf, sizeof(buf), 0);
	tap_ok(buf[99] == 0x33 && buf[100] == 0 && s[2 * PAGE_SIZE] == 0 &&
	       s[3 * PAGE_SIZE + 99] == 0 && s[3 * PAGE_SIZE + 100] == 0x33,
	       "the hole reads as zeros, in read and in the mapping; its "
	       "edges keep their data");
	munmap(s, LEN);
	tap_ok(fails(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 1), EOPNOTSUPP),
	       "PUNCH_HOLE without KEEP_SIZE: EOPNOTSUPP");
	tap_ok(fails(fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, 1), EOPNOTSUPP),
	       "FALLOC_FL_ZERO_RANGE on shmem: EOPNOTSUPP");
	tap_ok(fails(fallocate(fd, 0, 0, 0), EINVAL) &&
	       fails(fallocate(fd, 0, -1, 1), EINVAL), "len 0, offset < 0: "
	       "EINVAL");
	close(fd);
}

static void fallocate_errnos(void)
{
	int p[2], fd = open("/dev/null", O_WRONLY), ro;
	char path[64];

	tap_ok(fails(fallocate(-1, 0, 0, 1), EBADF), "a bad fd: EBADF");
	pipe(p);
	tap_ok(fails(fallocate(p[1], 0, 0, 1), ESPIPE), "a pipe: ESPIPE");
	tap_ok(fails(fallocate(fd, 0, 0, 1), ENODEV), "/dev/null: ENODEV");
	close(fd);
	snprintf(path, sizeof(path), "/tmp/memfd-test.%d", getpid());
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	ro = open(path, O_RDONLY);
	tap_ok(ro >= 0 && fails(fallocate(ro, 0, 0, 1), EBADF),
	       "a file open read-only: EBADF");
	unlink(path);
	close(ro);
	close(fd);
	close(p[0]);
	close(p[1]);
}

/* A sealable memfd of LEN bytes, or -1. */
static int sealable(void)
{
	int fd = memfd("seals", MFD_ALLOW_SEALING);

	if (fd >= 0 && ftruncate(fd, LEN) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void seal_basics(void)
{
	char path[64];
	int fd = memfd("t", 0), ro;

	tap_ok(fcntl(fd, F_GET_SEALS) == F_SEAL_SEAL &&
	       fails(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EPERM),
	       "without MFD_ALLOW_SEALING: F_SEAL_SEAL, and F_ADD_SEALS is "
	       "EPERM");
	close(fd);
	fd = sealable();
	tap_ok(fcntl(fd, F_GET_SEALS) == 0 &&
	       fails(fcntl(fd, F_ADD_SEALS, 0x100), EINVAL),
	       "with it: no seals, an unknown seal EINVAL");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY);
	tap_ok(ro >= 0 && fails(fcntl(ro, F_ADD_SEALS, F_SEAL_GROW), EPERM) &&
	       fcntl(ro, F_GET_SEALS) == 0, "F_ADD_SEALS through a read-only "
	       "descriptor: EPERM");
	close(ro);
	tap_ok(fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL) == 0 &&
	       fails(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), EPERM) &&
	       fcntl(fd, F_GET_SEALS) == F_SEAL_SEAL, "after F_SEAL_SEAL no "
	       "more seals: EPERM");
	close(fd);
	fd = open("/proc/self/status", O_RDONLY);
	tap_ok(fails(fcntl(fd, F_GET_SEALS), EINVAL) &&
	       fails(fcntl(0, F_GET_SEALS), EINVAL), "F_GET_SEALS of a file "
	       "that is not a memfd: EINVAL");
	close(fd);
}

static void seal_sizes(void)
{
	static char buf[2 * PAGE_SIZE];
	int fd = sealable();

	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	tap_ok(fails(ftruncate(fd, LEN - 1), EPERM) &&
	       ftruncate(fd, LEN + PAGE_SIZE) == 0, "F_SEAL_SHRINK: ftruncate "
	       "smaller EPERM, larger fine");
	close(fd);
	fd = sealable();
	fcntl(fd, F_ADD_SEALS, F_SEAL_GROW);
	tap_ok(fails(ftruncate(fd, LEN + 1), EPERM) &&
	       fails(fallocate(fd, 0, LEN - 1, 2), EPERM) &&
	       fallocate(fd, 0, 0, LEN) == 0, "F_SEAL_GROW: ftruncate and "
	       "fallocate past the end EPERM, within fine");
	tap_ok(pwrite(fd, buf, 100, LEN - 100) == 100 &&
	       pwrite(fd, buf, 2 * PAGE_SIZE, LEN - PAGE_SIZE - 10) ==
	       PAGE_SIZE + 10 && fails(pwrite(fd, buf, 1, LEN), EPERM) &&
	       size_of(fd) == LEN, "F_SEAL_GROW: a write up to the end goes, "
	       "one across it stops at the last page, one past it EPERM");
	close(fd);
}

static void seal_write(void)
{
	static char buf[PAGE_SIZE];
	int fd = sealable();
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *r;

	p[0] = 'x';
	tap_ok(fails(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), EBUSY) &&
	       fcntl(fd, F_GET_SEALS) == 0, "F_SEAL_WRITE with a shared "
	       "writable mapping: EBUSY");
	munmap(p, LEN);
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	tap_ok(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == 0 && p[0] == 'x' &&
	       fcntl(fd, F_GET_SEALS) == F_SEAL_WRITE, "once unmapped it "
	       "goes on (a private mapping is no obstacle)");
	p[1] = 'y';	/* a private copy: fine */
	tap_ok(fails(write(fd, buf, 1), EPERM) &&
	       fails(pwrite(fd, buf, 1, 0), EPERM) &&
	       fails(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				0, PAGE_SIZE), EPERM),
	       "F_SEAL_WRITE: write, pwrite, a punched hole: EPERM");
	tap_ok(mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	       MAP_FAILED && errno == EPERM, "... a shared writable mapping: "
	       "EPERM");
	r = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	tap_ok(r != MAP_FAILED && r[0] == 'x' &&
	       fails(mprotect(r, LEN, PROT_READ | PROT_WRITE), EACCES),
	       "a read-only shared mapping is allowed and cannot be made "
	       "writable (EACCES), as Linux 6.6 on (%s)",
	       r == MAP_FAILED ? strerror(errno) : "mapped");
	if (r != MAP_FAILED)
		munmap(r, LEN);
	munmap(p, LEN);
	p = mmap(NULL, LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	tap_ok(p != MAP_FAILED && p[0] == 'x' && p[1] == 0 &&
	       ftruncate(fd, 2 * LEN) == 0, "the file is as it was; it may "
	       "still grow (no F_SEAL_GROW)");
	munmap(p, LEN);
	close(fd);
}

static void seal_future_write(void)
{
	int fd = sealable();
	char *w = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *r;

	tap_ok(fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE) == 0,
	       "F_SEAL_FUTURE_WRITE with a shared writable mapping: allowed");
	w[0] = 'z';	/* the old mapping still writes */
	r = mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	tap_ok(fails(write(fd, "a", 1), EPERM) &&
	       mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) ==
	       MAP_FAILED && r != MAP_FAILED && r[0] == 'z' &&
	       fails(mprotect(r, LEN, PROT_READ | PROT_WRITE), EACCES),
	       "then write and a new writable mapping EPERM; a read-only one "
	       "sees the old one's write and cannot be made writable "
	       "(EACCES)");
	munmap(w, LEN);
	munmap(r, LEN);
	close(fd);
}

int main(void)
{
	need_proc();
	tap_plan(7 + 4 + 7 + 4 + 5 + 3 + 6 + 2);
	create();
	mappings();
	fallocate_modes();
	fallocate_errnos();
	seal_basics();
	seal_sizes();
	seal_write();
	seal_future_write();
	tap_done();
}
