/* user/tests/mmap_fops.c — mmap asks the file (Linux's f_op->mmap): a
 * file not open for reading is EACCES first, one with no mmap (a pipe,
 * /proc, a userfaultfd) ENODEV; /dev/zero's own mmap makes a private
 * mapping anonymous and a shared one shared memory, and the access
 * checks apply to it as to any file. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uffd.h"
#include "ulib.h"

#define LEN	4096

/* mmap's errno for fd (0: it mapped, then unmapped). */
static int map_errno(int fd, int prot, int flags)
{
	void *p = mmap(NULL, LEN, prot, flags, fd, 0);

	if (p != MAP_FAILED) {
		munmap(p, LEN);
		return 0;
	}
	return errno;
}

int main(void)
{
	int p[2], zr, zw, uffd, proc, st = -1;
	volatile char *z;
	pid_t pid;

	tap_plan(10);
	tap_ok(pipe(p) == 0, "pipe");
	tap_ok(map_errno(p[0], PROT_READ, MAP_PRIVATE) == ENODEV,
	       "a pipe's read end: ENODEV (no f_op->mmap)");
	tap_ok(map_errno(p[1], PROT_READ, MAP_SHARED) == EACCES,
	       "its write end: EACCES (not open for reading comes first)");
	proc = open("/proc/self/status", O_RDONLY);
	tap_ok(proc >= 0 && map_errno(proc, PROT_READ, MAP_PRIVATE) == ENODEV,
	       "/proc/self/status: ENODEV");
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (uffd < 0)
		tap_skip("userfaultfd: %s (not allowed here)", strerror(errno));
	else
		tap_ok(map_errno(uffd, PROT_READ, MAP_PRIVATE) == ENODEV,
		       "a userfaultfd: ENODEV");
	zr = open("/dev/zero", O_RDONLY);
	zw = open("/dev/zero", O_WRONLY);
	tap_ok(zr >= 0 && zw >= 0 &&
	       map_errno(zw, PROT_READ, MAP_PRIVATE) == EACCES,
	       "/dev/zero open for writing only: EACCES");
	tap_ok(map_errno(zr, PROT_READ | PROT_WRITE, MAP_SHARED) == EACCES,
	       "/dev/zero read-only, MAP_SHARED and PROT_WRITE: EACCES");
	z = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, zr, 0);
	tap_ok(z != MAP_FAILED && z[0] == 0 && (z[1] = 7) == 7,
	       "/dev/zero read-only, MAP_PRIVATE: zeros, and writable");
	z = mmap(NULL, LEN, PROT_READ, MAP_SHARED, zr, 0);
	tap_ok(z != MAP_FAILED && z[LEN - 1] == 0,
	       "/dev/zero read-only, MAP_SHARED and PROT_READ: zeros");
	/* A shared /dev/zero mapping is shared memory: the child's write
	 * shows in the parent. */
	z = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
		 open("/dev/zero", O_RDWR), 0);
	pid = fork();
	if (pid == 0) {
		z[5] = 42;
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(z != MAP_FAILED && st == 0 && z[5] == 42,
	       "/dev/zero O_RDWR, MAP_SHARED: the child's write shows here");
	tap_done();
}
