/* user/tests/efault.c — bad user pointers given to system calls come back
 * as EFAULT; the kernel neither crashes nor kills the caller. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define KERNEL_HALF ((void *)0xffff800000000000UL)
/* The first address above user space (non-canonical up to the kernel). */
#define NONCANON ((void *)0x0000800000000000UL)

/* Raw system calls: musl's wrappers copy some structures in user space
 * and would fault there instead of letting the kernel say EFAULT. */
static int fails_efault(long r)
{
	return r == -1 && errno == EFAULT;
}

/* The calls that reach memory through get_user_pages. */
static void gup_checks(void *gone)
{
	char buf[16] = "local";
	struct iovec local = { (void *)1, 8 }, remote = { buf, 8 };
	char *none = mmap(NULL, PAGE_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open("/proc/self/mem", O_RDWR);

	tap_ok(fails_efault(process_vm_readv(getpid(), &local, 1, &remote, 1,
					     0)),
	       "process_vm_readv into a bad local buffer: EFAULT");
	local.iov_base = buf;
	remote.iov_base = gone;
	tap_ok(fails_efault(process_vm_readv(getpid(), &local, 1, &remote, 1,
					     0)),
	       "process_vm_readv from an unmapped remote page: EFAULT");
	/* FOLL_FORCE: /proc/PID/mem reads even PROT_NONE memory (zeros). */
	tap_ok(fd >= 0 && pread(fd, buf, 8, (off_t)(unsigned long)none) == 8 &&
	       buf[0] == 0, "/proc/self/mem reads a PROT_NONE page (zeros)");
	close(fd);
	munmap(none, PAGE_SIZE);
}

int main(void)
{
	char *gone, buf[16];
	int p[2], st, err;
	long r;
	pid_t pid;

	tap_plan(23);

	gone = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, PAGE_SIZE);

	r = write(1, (void *)1, 10);
	err = errno;
	tap_ok(r == -1 && err == EFAULT, "write(1, (void *)1, 10): EFAULT (%s)",
	       strerror(err));
	tap_ok(fails_efault(write(1, gone, 10)), "write from an unmapped page: "
	       "EFAULT");
	tap_ok(fails_efault(write(1, KERNEL_HALF, 10)), "write from the kernel "
	       "half: EFAULT");

	pipe(p);
	write(p[1], "0123456789", 10);
	tap_ok(fails_efault(read(p[0], KERNEL_HALF, 10)),
	       "read into 0xffff800000000000: EFAULT");
	tap_ok(fails_efault(read(p[0], NONCANON, 10)),
	       "read into 0x800000000000 (just above user space): EFAULT");
	tap_ok(fails_efault(read(p[0], gone, 10)),
	       "read into an unmapped page: EFAULT");
	tap_ok(fails_efault(read(p[0], (void *)main, 10)), "read into "
	       "read-only program text: EFAULT");
	memset(buf, 0, sizeof(buf));
	r = read(p[0], buf, 10);
	tap_ok(r == 10 && memcmp(buf, "0123456789", 10) == 0,
	       "a failed read consumes nothing: the data is still there");
	close(p[0]);
	close(p[1]);

	r = open((char *)1, O_RDONLY);
	tap_ok(fails_efault(r), "open with path (char *)1: EFAULT");
	tap_ok(fails_efault(open(KERNEL_HALF, O_RDONLY)), "open with a kernel-"
	       "half path: EFAULT");
	tap_ok(fails_efault(syscall(SYS_stat, "/", (void *)1)),
	       "stat(\"/\", (void *)1): EFAULT");
	tap_ok(fails_efault(syscall(SYS_fstat, 0, KERNEL_HALF)),
	       "fstat(0, kernel half): EFAULT");
	tap_ok(fails_efault(syscall(SYS_pipe, KERNEL_HALF)),
	       "pipe(kernel half): EFAULT");
	tap_ok(fails_efault(syscall(SYS_uname, (void *)8)),
	       "uname((void *)8): EFAULT");
	tap_ok(fails_efault(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, gone)),
	       "clock_gettime into an unmapped page: EFAULT");
	tap_ok(fails_efault(syscall(SYS_nanosleep, (void *)1, NULL)),
	       "nanosleep((void *)1): EFAULT");
	tap_ok(fails_efault(syscall(SYS_getcwd, KERNEL_HALF, 64)),
	       "getcwd into the kernel half: EFAULT");
	tap_ok(fails_efault(syscall(SYS_execve, (char *)1, NULL, NULL)),
	       "execve with path (char *)1: EFAULT");
	gup_checks(gone);

	/* Linux reaps the child before it finds the status pointer bad. */
	pid = fork();
	if (pid == 0)
		_exit(3);
	r = syscall(SYS_wait4, pid, KERNEL_HALF, 0, NULL);
	err = errno;
	st = 0;
	tap_ok(r == -1 && err == EFAULT, "wait4 with a kernel-half status "
	       "pointer: EFAULT (%ld, %s)", r, strerror(err));
	r = waitpid(pid, &st, WNOHANG);
	err = errno;
	tap_ok(r == -1 && err == ECHILD, "... and the child was reaped all "
	       "the same: ECHILD (%ld, %s)", r, strerror(err));
	tap_done();
}
