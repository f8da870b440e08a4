/* user/tests/proc_links.c — /proc/self and /proc/PID/exe as links:
 * readlink's text and errors, stat vs lstat, re-exec through exe. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

extern char **environ;

/* path made absolute against the cwd, with ".", ".." and "//" resolved
 * (no links on the way: tests live in plain directories). */
static void absolute(const char *path, char *out, size_t size)
{
	char tmp[1024], *s, *e;
	size_t n = 0;

	if (path[0] == '/')
		snprintf(tmp, sizeof(tmp), "%s", path);
	else if (getcwd(tmp, sizeof(tmp)))
		snprintf(tmp + strlen(tmp), sizeof(tmp) - strlen(tmp), "/%s",
			 path);
	out[0] = '\0';
	for (s = tmp; *s; s = e) {
		while (*s == '/')
			s++;
		for (e = s; *e && *e != '/'; e++)
			;
		if (e - s == 2 && s[0] == '.' && s[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else if (e > s && !(e - s == 1 && s[0] == '.') &&
			   n + (size_t)(e - s) + 2 < size) {
			out[n++] = '/';
			memcpy(out + n, s, (size_t)(e - s));
			n += (size_t)(e - s);
		}
		out[n] = '\0';
	}
}

static long rl(const char *path, char *buf, size_t size)
{
	long n = readlink(path, buf, size);

	if (n >= 0 && (size_t)n < size)
		buf[n] = '\0';
	return n;
}

/* Re-executed through /proc/self/exe: the link still names the file. */
static int reexec_check(const char *want)
{
	char buf[1024];

	return rl("/proc/self/exe", buf, sizeof(buf)) > 0 &&
	       strcmp(buf, want) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	char self[1024], buf[1024], path[64];
	struct stat st, lst, prog;
	int fd, status, err;
	long n;
	pid_t pid;

	absolute(argv[0], self, sizeof(self));
	if (argc == 3 && strcmp(argv[1], "reexec") == 0)
		return reexec_check(argv[2]);
	tap_plan(15);
	need_proc();

	n = rl("/proc/self/exe", buf, sizeof(buf));
	tap_ok(n == (long)strlen(self) && strcmp(buf, self) == 0,
	       "readlink /proc/self/exe is argv[0] resolved (%s)",
	       n > 0 ? buf : strerror(errno));
	snprintf(path, sizeof(path), "/proc/%d/exe", getpid());
	n = rl(path, buf, sizeof(buf));
	tap_ok(n > 0 && strcmp(buf, self) == 0, "readlink %s is the same",
	       path);
	n = rl("/proc/self", buf, sizeof(buf));
	tap_ok(n > 0 && atoi(buf) == getpid(),
	       "readlink /proc/self is the pid (%s)", n > 0 ? buf : "error");
	n = readlink("/proc/self/exe", buf, 4);
	tap_ok(n == 4 && memcmp(buf, self, 4) == 0,
	       "a 4-byte buffer gets the first 4 bytes, no NUL (%ld)", n);

	errno = 0;
	n = syscall(SYS_readlink, "/proc/self/exe", buf, 0);	/* not musl's */
	err = errno;
	tap_ok(n == -1 && err == EINVAL, "bufsiz 0 is EINVAL (%s)",
	       strerror(err));
	errno = 0;
	n = readlink(self, buf, sizeof(buf));
	err = errno;
	tap_ok(n == -1 && err == EINVAL,
	       "readlink of a regular file is EINVAL (%s)", strerror(err));
	errno = 0;
	n = readlink("/proc/self/status", buf, sizeof(buf));
	err = errno;
	tap_ok(n == -1 && err == EINVAL,
	       "readlink of /proc/self/status is EINVAL (%s)", strerror(err));
	errno = 0;
	n = readlink("/nonexistent-zpk", buf, sizeof(buf));
	err = errno;
	tap_ok(n == -1 && err == ENOENT, "readlink of a missing name is ENOENT (%s)",
	       strerror(err));

	tap_ok(lstat("/proc/self", &lst) == 0 && S_ISLNK(lst.st_mode),
	       "lstat /proc/self: a link (mode %o)", lst.st_mode);
	tap_ok(stat("/proc/self", &st) == 0 && S_ISDIR(st.st_mode),
	       "stat /proc/self: a directory (mode %o)", st.st_mode);
	tap_ok(lstat("/proc/self/exe", &lst) == 0 && S_ISLNK(lst.st_mode),
	       "lstat /proc/self/exe: a link (mode %o)", lst.st_mode);
	tap_ok(stat("/proc/self/exe", &st) == 0 && stat(self, &prog) == 0 &&
	       st.st_ino == prog.st_ino && st.st_size == prog.st_size,
	       "stat /proc/self/exe: the program file (ino %lu)",
	       (unsigned long)st.st_ino);

	fd = open("/proc/self/exe", O_RDONLY);
	n = fd >= 0 ? read(fd, buf, 4) : -1;
	tap_ok(n == 4 && memcmp(buf, "\177ELF", 4) == 0,
	       "open+read /proc/self/exe gives the ELF header");
	if (fd >= 0)
		close(fd);

	/* A child's exe, read by the parent; then one re-executing itself
	 * through the link as busybox does. */
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = rl(path, buf, sizeof(buf));
	tap_ok(n > 0 && strcmp(buf, self) == 0,
	       "a fork child's exe is the parent's program");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);

	pid = fork();
	if (pid == 0) {
		execve("/proc/self/exe",
		       (char *[]){ argv[0], "reexec", self, NULL }, environ);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "execve(/proc/self/exe) runs the program again, its exe the file (%s)",
	       status_str(status));
	tap_done();
}
