/* user/tests/memfd.c — memfd_create (flags, name checks), its shared and
 * private mappings (RssShmem, and RssAnon for a private write's copy),
 * and fallocate on it: mode 0, FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE
 * with Linux's errnos. */
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

int main(void)
{
	need_proc();
	tap_plan(5 + 4 + 7 + 4);
	create();
	mappings();
	fallocate_modes();
	fallocate_errnos();
	tap_done();
}
