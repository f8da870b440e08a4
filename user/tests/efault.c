/* user/tests/efault.c — bad user pointers given to system calls come back
 * as EFAULT; the kernel neither crashes nor kills the caller. Every call
 * that takes a user pointer is given kernel ones too: EFAULT, and the
 * memory behind them unchanged. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"
#include "zp.h"

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
	{
		struct iovec big[2] = { { buf, INT64_MAX }, { buf, INT64_MAX } };

		remote.iov_base = buf + 8;
		tap_ok(fails_efault(process_vm_readv(getpid(), big, 2, &remote,
						     1, 0)),
		       "process_vm_readv with local lengths that overflow "
		       "({buf, LONG_MAX} twice): EFAULT, as Linux's "
		       "import_iovec");
	}
	/* FOLL_FORCE: /proc/PID/mem reads even PROT_NONE memory (zeros). */
	tap_ok(fd >= 0 && pread(fd, buf, 8, (off_t)(unsigned long)none) == 8 &&
	       buf[0] == 0, "/proc/self/mem reads a PROT_NONE page (zeros)");
	close(fd);
	munmap(none, PAGE_SIZE);
}

/* ---- kernel pointers to every call that takes a user pointer ---------- */

#define PAGE_OFFSET	0xffff888000000000UL	/* zpk's direct map */

static int devnull = -1, devzero = -1, tmpfd = -1, dirfd_ = -1;
static pid_t child;

static pid_t new_child(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return pid;
}

/* Each calls one system call with p where its user pointer goes and
 * sane values elsewhere; the raw result (-1 and errno on failure). */
static long c_write(void *p) { return write(devnull, p, 16); }
static long c_read(void *p) { return read(devzero, p, 16); }
static long c_pread(void *p) { return pread(tmpfd, p, 16, 0); }
static long c_pwrite(void *p) { return pwrite(tmpfd, p, 16, 0); }
static long c_readv_iov(void *p) { return syscall(SYS_readv, devzero, p, 1); }
static long c_readv_buf(void *p)
{
	struct iovec v = { p, 16 };

	return syscall(SYS_readv, devzero, &v, 1);
}
static long c_writev_buf(void *p)
{
	struct iovec v = { p, 16 };

	return syscall(SYS_writev, devnull, &v, 1);
}
static long c_open(void *p) { return syscall(SYS_open, p, O_RDONLY); }
static long c_openat(void *p) { return syscall(SYS_openat, AT_FDCWD, p, 0); }
static long c_stat_path(void *p) { return syscall(SYS_stat, p, p); }
static long c_stat_buf(void *p) { return syscall(SYS_stat, "/", p); }
static long c_lstat_buf(void *p) { return syscall(SYS_lstat, "/", p); }
static long c_fstat(void *p) { return syscall(SYS_fstat, devnull, p); }
static long c_fstatat(void *p)
{
	return syscall(SYS_newfstatat, AT_FDCWD, "/", p, 0);
}
static long c_access(void *p) { return syscall(SYS_access, p, F_OK); }
static long c_faccessat(void *p)
{
	return syscall(SYS_faccessat, AT_FDCWD, p, F_OK);
}
static long c_chdir(void *p) { return syscall(SYS_chdir, p); }
static long c_mkdir(void *p) { return syscall(SYS_mkdir, p, 0755); }
static long c_rmdir(void *p) { return syscall(SYS_rmdir, p); }
static long c_unlink(void *p) { return syscall(SYS_unlink, p); }
static long c_creat(void *p) { return syscall(SYS_creat, p, 0644); }
static long c_truncate(void *p) { return syscall(SYS_truncate, p, 0); }
static long c_readlink_path(void *p)
{
	char buf[16];

	return syscall(SYS_readlink, p, buf, sizeof(buf));
}
static long c_readlink_buf(void *p)
{
	return syscall(SYS_readlink, "/proc/self/exe", p, 16);
}
static long c_getcwd(void *p) { return syscall(SYS_getcwd, p, 64); }
static long c_getdents(void *p)
{
	lseek(dirfd_, 0, SEEK_SET);
	return syscall(SYS_getdents64, dirfd_, p, 4096);
}
static long c_pipe(void *p) { return syscall(SYS_pipe, p); }
static long c_pipe2(void *p) { return syscall(SYS_pipe2, p, 0); }
static long c_uname(void *p) { return syscall(SYS_uname, p); }
static long c_sysinfo(void *p) { return syscall(SYS_sysinfo, p); }
static long c_getrusage(void *p) { return syscall(SYS_getrusage, 0, p); }
static long c_getrlimit(void *p) { return syscall(SYS_getrlimit, 0, p); }
static long c_setrlimit(void *p) { return syscall(SYS_setrlimit, 4, p); }
static long c_prlimit_old(void *p)
{
	return syscall(SYS_prlimit64, 0, 0, NULL, p);
}
static long c_clock_gettime(void *p)
{
	return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, p);
}
static long c_clock_getres(void *p)
{
	return syscall(SYS_clock_getres, CLOCK_MONOTONIC, p);
}
static long c_gettimeofday(void *p)
{
	return syscall(SYS_gettimeofday, p, NULL);
}
static long c_time(void *p) { return syscall(SYS_time, p); }
static long c_nanosleep(void *p) { return syscall(SYS_nanosleep, p, NULL); }
static long c_clock_nanosleep(void *p)
{
	return syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, p, NULL);
}
static long c_sigaction_new(void *p)
{
	return syscall(SYS_rt_sigaction, SIGUSR2, p, NULL, 8);
}
static long c_sigaction_old(void *p)
{
	return syscall(SYS_rt_sigaction, SIGUSR2, NULL, p, 8);
}
static long c_sigprocmask_new(void *p)
{
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, p, NULL, 8);
}
static long c_sigprocmask_old(void *p)
{
	return syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, p, 8);
}
static long c_sigpending(void *p)
{
	return syscall(SYS_rt_sigpending, p, 8);
}
static long c_getgroups(void *p)
{
	gid_t g = 0;

	syscall(SYS_setgroups, 1, &g);	/* one group to copy out */
	return syscall(SYS_getgroups, 1, p);
}
static long c_setgroups(void *p) { return syscall(SYS_setgroups, 1, p); }
static long c_getrandom(void *p) { return syscall(SYS_getrandom, p, 16, 0); }
static long c_execve_path(void *p)
{
	char *argv[] = { "x", NULL };

	return syscall(SYS_execve, p, argv, argv + 1);
}
static long c_execve_argv(void *p)
{
	return syscall(SYS_execve, "/bin/true", p, NULL);
}
static long c_wait4_status(void *p)
{
	return syscall(SYS_wait4, child = new_child(), p, 0, NULL);
}
static long c_wait4_rusage(void *p)
{
	return syscall(SYS_wait4, child = new_child(), NULL, 0, p);
}
static long c_sendfile(void *p)
{
	return syscall(SYS_sendfile, devnull, tmpfd, p, 16);
}
static long c_vm_readv_liov(void *p)
{
	char buf[16];
	struct iovec r = { buf, 16 };

	return syscall(SYS_process_vm_readv, getpid(), p, 1, &r, 1, 0);
}
static long c_vm_readv_buf(void *p)
{
	char buf[16];
	struct iovec l = { p, 16 }, r = { buf, 16 };

	return syscall(SYS_process_vm_readv, getpid(), &l, 1, &r, 1, 0);
}
static long c_vm_writev_buf(void *p)
{
	char buf[16] = "";
	struct iovec l = { buf, 16 }, r = { p, 16 };

	return syscall(SYS_process_vm_writev, getpid(), &l, 1, &r, 1, 0);
}
static long c_futex(void *p) { return syscall(SYS_futex, p, 1, 1, 0, 0, 0); }
static long c_arch_prctl(void *p) { return syscall(SYS_arch_prctl, 0x1003, p); }
static long c_prctl_get(void *p) { return syscall(SYS_prctl, 16, p, 0, 0, 0); }
static long c_prctl_set(void *p) { return syscall(SYS_prctl, 15, p, 0, 0, 0); }
static long c_clone3(void *p) { return syscall(SYS_clone3, p, 88); }

static const struct {
	const char *name;
	long (*call)(void *p);
} ptr_calls[] = {
	{ "write", c_write }, { "read", c_read }, { "pread64", c_pread },
	{ "pwrite64", c_pwrite }, { "readv (the iovec)", c_readv_iov },
	{ "readv (a buffer)", c_readv_buf },
	{ "writev (a buffer)", c_writev_buf }, { "open", c_open },
	{ "openat", c_openat }, { "stat (the path)", c_stat_path },
	{ "stat (the buffer)", c_stat_buf }, { "lstat", c_lstat_buf },
	{ "fstat", c_fstat }, { "newfstatat", c_fstatat },
	{ "access", c_access }, { "faccessat", c_faccessat },
	{ "chdir", c_chdir }, { "mkdir", c_mkdir }, { "rmdir", c_rmdir },
	{ "unlink", c_unlink }, { "creat", c_creat },
	{ "truncate", c_truncate }, { "readlink (the path)", c_readlink_path },
	{ "readlink (the buffer)", c_readlink_buf }, { "getcwd", c_getcwd },
	{ "getdents64", c_getdents }, { "pipe", c_pipe }, { "pipe2", c_pipe2 },
	{ "uname", c_uname }, { "sysinfo", c_sysinfo },
	{ "getrusage", c_getrusage }, { "getrlimit", c_getrlimit },
	{ "setrlimit", c_setrlimit }, { "prlimit64 (old)", c_prlimit_old },
	{ "clock_gettime", c_clock_gettime },
	{ "clock_getres", c_clock_getres },
	{ "gettimeofday", c_gettimeofday }, { "time", c_time },
	{ "nanosleep", c_nanosleep },
	{ "clock_nanosleep", c_clock_nanosleep },
	{ "rt_sigaction (new)", c_sigaction_new },
	{ "rt_sigaction (old)", c_sigaction_old },
	{ "rt_sigprocmask (new)", c_sigprocmask_new },
	{ "rt_sigprocmask (old)", c_sigprocmask_old },
	{ "rt_sigpending", c_sigpending }, { "getgroups", c_getgroups },
	{ "setgroups", c_setgroups }, { "getrandom", c_getrandom },
	{ "execve (the path)", c_execve_path },
	{ "execve (argv)", c_execve_argv },
	{ "wait4 (the status)", c_wait4_status },
	{ "wait4 (the rusage)", c_wait4_rusage },
	{ "sendfile (the offset)", c_sendfile },
	{ "process_vm_readv (the iovec)", c_vm_readv_liov },
	{ "process_vm_readv (a local buffer)", c_vm_readv_buf },
	{ "process_vm_writev (a remote buffer)", c_vm_writev_buf },
	{ "futex", c_futex }, { "arch_prctl ARCH_GET_FS", c_arch_prctl },
	{ "prctl PR_GET_NAME", c_prctl_get },
	{ "prctl PR_SET_NAME", c_prctl_set }, { "clone3", c_clone3 },
};
#define NPTR_CALLS	((int)(sizeof(ptr_calls) / sizeof(ptr_calls[0])))

static unsigned long direct_map_of(const void *p)
{
	uint64_t e = 0;

	if (pagemap_read(0, (unsigned long)p, &e, 1) != 1 || !PM_PFN(e))
		return 0;
	return PAGE_OFFSET + (PM_PFN(e) << 12);
}

/*
 * Every call above with kernel addresses where its user pointer goes:
 * the direct-map alias of a page of ours (zpk: found from pagemap; a
 * write through it would show in the page), the zero page's alias, the
 * kernel image, the first address past user space and a non-canonical
 * one. Each must be EFAULT, and our page and the zero page unchanged.
 */
static void kernel_pointers(void)
{
	unsigned char *mine = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long zpfn = zp_zero_pfn();
	void *ptrs[5];
	int bad = 0, same = 1;

	memset(mine, 0xa5, PAGE_SIZE);
	ptrs[0] = (void *)(direct_map_of(mine) ?: PAGE_OFFSET + 0x100000);
	ptrs[1] = (void *)(PAGE_OFFSET + (zpfn > 0 ? zpfn << 12 : 0x200000));
	ptrs[2] = (void *)0xffffffff80100000UL;
	ptrs[3] = (void *)0x00007ffffffff000UL;
	ptrs[4] = NONCANON;
	devnull = open("/dev/null", O_RDWR);
	devzero = open("/dev/zero", O_RDONLY);
	tmpfd = open("/tmp/efault.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(tmpfd, "0123456789abcdefghijklmnop", 26);
	dirfd_ = open("/", O_RDONLY | O_DIRECTORY);
	for (int i = 0; i < NPTR_CALLS; i++) {
		char why[64] = "";

		for (int k = 0; k < 5; k++) {
			long r;
			int err;

			child = 0;
			errno = 0;
			r = ptr_calls[i].call(ptrs[k]);
			err = errno;
			if (child > 0)
				waitpid(child, NULL, WNOHANG);
			/* clone3: zpk's is -ENOSYS (musl falls back) */
			if (ptr_calls[i].call == c_clone3 && is_zpk() &&
			    r == -1 && err == ENOSYS)
				continue;
			if ((r != -1 || err != EFAULT) && !*why)
				snprintf(why, sizeof(why), "%p: %ld, %s",
					 ptrs[k], r, strerror(err));
		}
		bad += tap_ok(!*why, "%s given kernel and non-canonical "
			      "pointers: EFAULT%s%s", ptr_calls[i].name,
			      *why ? " # " : "", why) ? 0 : 1;
	}
	for (int i = 0; i < PAGE_SIZE; i++)
		same &= mine[i] == 0xa5;
	tap_ok(same, "our page, written through its direct-map alias by "
	       "none of them, is unchanged");
	tap_ok(zp_is_zero(zp_map(1, PROT_READ), PAGE_SIZE),
	       "fresh memory still reads zeros (the zero page's alias)");
	close(devnull);
	close(devzero);
	close(tmpfd);
	close(dirfd_);
	unlink("/tmp/efault.tmp");
	munmap(mine, PAGE_SIZE);
	(void)bad;
}

int main(void)
{
	char *gone, buf[16];
	int p[2], st, err;
	long r;
	pid_t pid;

	tap_plan(24 + NPTR_CALLS + 2);

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
	kernel_pointers();

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
