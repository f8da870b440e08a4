/* user/tests/zeropage/zero_writers.c — every system call that writes a
 * result into user memory, given memory that maps the zero page (read
 * first, under special and refcount): the kernel's write must copy the
 * page, so the call's data lands in a page of our own and fresh memory
 * still reads zeros. gup_write, dev_zero, mprotect_zero and fork_zero
 * cover read(), /dev/zero, mprotect and fork; these are the rest. */
#include <dirent.h>
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
#include "zp.h"

#define OFF	64	/* inside the page, not at its start */

static int devnull = -1, file = -1, dir = -1;
static char src[64] = "data from our own buffer";

/* Each writes its result at q (OFF bytes into a zero-page page); the
 * raw result, negative on failure. */
static long w_uname(char *q) { return syscall(SYS_uname, q); }
static long w_sysinfo(char *q) { return syscall(SYS_sysinfo, q); }
static long w_getrusage(char *q) { return syscall(SYS_getrusage, 0, q); }
static long w_getrlimit(char *q) { return syscall(SYS_getrlimit, 3, q); }
static long w_prlimit(char *q)
{
	return syscall(SYS_prlimit64, 0, 7, NULL, q);
}
static long w_clock_gettime(char *q)
{
	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, q);
}
static long w_clock_getres(char *q)
{
	return syscall(SYS_clock_getres, CLOCK_MONOTONIC, q);
}
static long w_gettimeofday(char *q)
{
	return syscall(SYS_gettimeofday, q, NULL);
}
static long w_time(char *q) { return syscall(SYS_time, q); }
static long w_stat(char *q) { return syscall(SYS_stat, "/", q); }
static long w_fstat(char *q) { return syscall(SYS_fstat, file, q); }
static long w_fstatat(char *q)
{
	return syscall(SYS_newfstatat, AT_FDCWD, "/tmp", q, 0);
}
static long w_getcwd(char *q) { return syscall(SYS_getcwd, q, 64); }
static long w_readlink(char *q)
{
	return syscall(SYS_readlink, "/proc/self/exe", q, 64);
}
static long w_getdents(char *q)
{
	lseek(dir, 0, SEEK_SET);
	return syscall(SYS_getdents64, dir, q, 1024);
}
static long w_pipe(char *q)
{
	long r = syscall(SYS_pipe, q);

	if (r == 0) {
		close(((int *)q)[0]);
		close(((int *)q)[1]);
	}
	return r;
}
static long w_wait4_status(char *q)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(7);
	return syscall(SYS_wait4, pid, q, 0, NULL);
}
static long w_wait4_rusage(char *q)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(7);
	return syscall(SYS_wait4, pid, NULL, 0, q);
}
static void on_usr1(int sig)
{
	(void)sig;
}
static long w_sigaction_old(char *q)
{
	signal(SIGUSR1, on_usr1);
	return syscall(SYS_rt_sigaction, SIGUSR1, NULL, q, 8);
}
static long w_sigprocmask_old(char *q)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sigprocmask(SIG_BLOCK, &s, NULL);
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, q, 8);
}
static long w_sigpending(char *q)
{
	raise(SIGUSR2);			/* blocked above: pending */
	return syscall(SYS_rt_sigpending, q, 8);
}
static long w_getgroups(char *q)
{
	gid_t g = 5;

	syscall(SYS_setgroups, 1, &g);
	return syscall(SYS_getgroups, 1, q);
}
static long w_getrandom(char *q) { return syscall(SYS_getrandom, q, 16, 0); }
static long w_arch_prctl(char *q)
{
	return syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, q);
}
static long w_prctl(char *q)
{
	return syscall(SYS_prctl, 16 /* PR_GET_NAME */, q, 0, 0, 0);
}
/* The offset is read (0, from the zero page) and written back (16). */
static long w_sendfile_off(char *q)
{
	return syscall(SYS_sendfile, devnull, file, q, 16);
}
static long w_read_pipe(char *q)
{
	int p[2];
	long r;

	if (pipe(p))
		return -1;
	write(p[1], src, sizeof(src));
	r = read(p[0], q, sizeof(src));
	close(p[0]);
	close(p[1]);
	return r;
}
static long w_pread(char *q) { return pread(file, q, 32, 0); }
static long w_readv(char *q)
{
	struct iovec v = { q, 32 };

	lseek(file, 0, SEEK_SET);
	return readv(file, &v, 1);
}
static long w_vm_readv(char *q)
{
	struct iovec l = { q, sizeof(src) }, r = { src, sizeof(src) };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0);
}
static long w_vm_writev(char *q)
{
	struct iovec l = { src, sizeof(src) }, r = { q, sizeof(src) };

	return process_vm_writev(getpid(), &l, 1, &r, 1, 0);
}
static long w_proc_mem(char *q)
{
	int fd = open("/proc/self/mem", O_RDWR);
	long r = fd < 0 ? -1 : pwrite(fd, src, sizeof(src),
				       (off_t)(unsigned long)q);

	if (fd >= 0)
		close(fd);
	return r;
}

static const struct {
	const char *name;
	long (*call)(char *q);
} writers[] = {
	{ "uname", w_uname }, { "sysinfo", w_sysinfo },
	{ "getrusage", w_getrusage }, { "getrlimit", w_getrlimit },
	{ "prlimit64 (old)", w_prlimit }, { "clock_gettime", w_clock_gettime },
	{ "clock_getres", w_clock_getres },
	{ "gettimeofday", w_gettimeofday }, { "time", w_time },
	{ "stat", w_stat }, { "fstat", w_fstat }, { "newfstatat", w_fstatat },
	{ "getcwd", w_getcwd }, { "readlink", w_readlink },
	{ "getdents64", w_getdents }, { "pipe", w_pipe },
	{ "wait4 (the status)", w_wait4_status },
	{ "wait4 (the rusage)", w_wait4_rusage },
	{ "rt_sigaction (the old action)", w_sigaction_old },
	{ "rt_sigprocmask (the old mask)", w_sigprocmask_old },
	{ "rt_sigpending", w_sigpending }, { "getgroups", w_getgroups },
	{ "getrandom", w_getrandom }, { "arch_prctl ARCH_GET_FS", w_arch_prctl },
	{ "prctl PR_GET_NAME", w_prctl },
	{ "sendfile (the offset)", w_sendfile_off },
	{ "read from a pipe", w_read_pipe }, { "pread64", w_pread },
	{ "readv", w_readv }, { "process_vm_readv (local)", w_vm_readv },
	{ "process_vm_writev (remote)", w_vm_writev },
	{ "pwrite to /proc/self/mem", w_proc_mem },
};
#define NW	((int)(sizeof(writers) / sizeof(writers[0])))

/* One fresh page, read in: zeros, whatever was written before. */
static int fresh_zero(void)
{
	char *f = zp_map(1, PROT_READ | PROT_WRITE);
	int ok = f && (zp_read(f, 1), zp_is_zero(f, PAGE_SIZE));

	if (f)
		zp_unmap(f, 1);
	return ok;
}

int main(void)
{
	char *p = zp_begin(NW + 3, NW);
	long zero_left;

	devnull = open("/dev/null", O_WRONLY);
	file = open("/tmp/zero_writers", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(file, src, sizeof(src));
	dir = open("/", O_RDONLY | O_DIRECTORY);
	zp_read(p, NW);		/* every page: the zero page, or fresh */
	zp_check_pfns(p, NW, "the pages read in");
	for (int i = 0; i < NW; i++) {
		char *page = p + i * PAGE_SIZE;
		long r = writers[i].call(page + OFF);

		tap_ok(r >= 0 && !zp_is_zero(page, PAGE_SIZE) &&
		       fresh_zero(), "%s into a zero-page page: %ld, the "
		       "data in a page of our own, fresh memory reads zeros",
		       writers[i].name, r);
	}
	zero_left = zp_count_zero(p, NW, NULL);
	zp_ok(zero_left == 0 || zero_left == -1, "none of the %d pages maps "
	      "the zero page any more (%ld do)", NW, zero_left);
	close(devnull);
	close(file);
	close(dir);
	unlink("/tmp/zero_writers");
	zp_unmap(p, NW);
	tap_done();
}
