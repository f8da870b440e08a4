/* user/tests/proc_readonly.c — /proc's names are the kernel's: creating
 * gives ENOENT (EEXIST for a name it has), removing EPERM, EACCES in
 * /proc/sys, EBUSY for /proc itself; files without write say EIO/EINVAL.
 * /dev stays an ordinary directory. Errnos are the host Linux's. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ulib.h"

/* call's result as 0 or an errno */
#define ERR(call)	((call) < 0 ? errno : 0)

static void expect(int got, int want, const char *what)
{
	tap_ok(got == want, "%s: %s (want %s)", what,
	       got ? strerror(got) : "0", want ? strerror(want) : "0");
}

/* open, then close at once: 0 or the errno */
static int try_open(const char *path, int flags)
{
	int fd = open(path, flags, 0644);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* a write of one byte to path opened O_WRONLY: its errno, -1 if it worked */
static int write_err(const char *path)
{
	int fd = open(path, O_WRONLY), err;

	if (fd < 0)
		return errno;
	err = write(fd, "1", 1) < 0 ? errno : -1;
	close(fd);
	return err;
}

int main(void)
{
	struct stat st;

	need_proc();
	tap_plan(33);
	expect(try_open("/proc/newfile", O_CREAT | O_WRONLY), ENOENT,
	       "open O_CREAT /proc/newfile");
	expect(try_open("/proc/self/newfile", O_CREAT | O_RDWR), ENOENT,
	       "open O_CREAT /proc/self/newfile");
	expect(try_open("/proc/sys/kernel/newfile", O_CREAT | O_RDWR), ENOENT,
	       "open O_CREAT /proc/sys/kernel/newfile");
	expect(try_open("/proc/uptime", O_CREAT | O_EXCL | O_WRONLY), EEXIST,
	       "open O_CREAT|O_EXCL /proc/uptime");
	expect(try_open("/proc/self/status", O_CREAT | O_EXCL | O_RDWR), EEXIST,
	       "open O_CREAT|O_EXCL /proc/self/status");
	expect(try_open("/proc/sys/kernel", O_CREAT | O_RDWR), EISDIR,
	       "open O_CREAT /proc/sys/kernel");
	expect(write_err("/proc/uptime"), EIO, "write /proc/uptime");
	expect(write_err("/proc/self/status"), EINVAL, "write /proc/self/status");

	expect(ERR(mkdir("/proc/newdir", 0755)), ENOENT, "mkdir /proc/newdir");
	expect(ERR(mkdir("/proc/self/newdir", 0755)), ENOENT,
	       "mkdir /proc/self/newdir");
	expect(ERR(mkdir("/proc/sys/kernel/newdir", 0755)), ENOENT,
	       "mkdir /proc/sys/kernel/newdir");
	expect(ERR(mkdir("/proc", 0755)), EEXIST, "mkdir /proc");
	expect(ERR(mkdir("/proc/sys", 0755)), EEXIST, "mkdir /proc/sys");
	expect(ERR(mkdir("/proc/uptime", 0755)), EEXIST, "mkdir /proc/uptime");
	expect(ERR(mkdir("/proc/self", 0755)), EEXIST, "mkdir /proc/self");
	expect(ERR(mkdir("/proc/1", 0755)), EEXIST, "mkdir /proc/1");
	expect(ERR(mkdir("/proc/self/status", 0755)), EEXIST,
	       "mkdir /proc/self/status");

	expect(ERR(unlink("/proc/uptime")), EPERM, "unlink /proc/uptime");
	expect(ERR(unlink("/proc/self/status")), EPERM,
	       "unlink /proc/self/status");
	expect(ERR(unlink("/proc/nonexist")), ENOENT, "unlink /proc/nonexist");
	expect(ERR(unlink("/proc/sys")), EISDIR, "unlink /proc/sys");
	expect(ERR(unlink("/proc/1")), EPERM, "unlink /proc/1");
	expect(ERR(unlink("/proc/sys/kernel/pid_max")), EACCES,
	       "unlink /proc/sys/kernel/pid_max");
	expect(ERR(rmdir("/proc/sys")), EPERM, "rmdir /proc/sys");
	expect(ERR(rmdir("/proc/sys/kernel")), EACCES, "rmdir /proc/sys/kernel");
	expect(ERR(rmdir("/proc/uptime")), ENOTDIR, "rmdir /proc/uptime");
	expect(ERR(rmdir("/proc/1")), EPERM, "rmdir /proc/1");
	expect(ERR(rmdir("/proc")), EBUSY, "rmdir /proc");

	expect(ERR(truncate("/proc/uptime", 100)), 0, "truncate /proc/uptime");
	tap_ok(stat("/proc/uptime", &st) == 0 && st.st_size == 0 &&
	       stat("/proc/newfile", &st) < 0 && stat("/proc/newdir", &st) < 0,
	       "/proc/uptime is still there with size 0; nothing was made");

	/* /dev is an ordinary directory to root, on Linux a devtmpfs. */
	expect(ERR(mkdir("/dev/zpk_proc_ro", 0755)), 0, "mkdir in /dev");
	expect(ERR(rmdir("/dev/zpk_proc_ro")), 0, "rmdir in /dev");
	expect(ERR(unlink("/dev/zpk_nonexist")), ENOENT, "unlink in /dev");
	tap_done();
}
