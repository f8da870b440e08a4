/* user/tests/proc_fd.c — /proc/PID/fd (its listing, its links' text and
 * modes, opening through them), /proc/PID/cwd, getcwd after removal. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static long rl(const char *path, char *buf, size_t size)
{
	long n = readlink(path, buf, size - 1);

	buf[n >= 0 ? n : 0] = '\0';
	return n;
}

/* readlink of /proc/self/fd/fd. */
static const char *fd_text(int fd)
{
	static char buf[512];
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (rl(path, buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "(%s)", strerror(errno));
	return buf;
}

static unsigned int fd_mode(int fd)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return lstat(path, &st) ? 0 : st.st_mode;
}

/* /proc/self/fd lists exactly the open descriptors, as links. */
static int listing_matches(void)
{
	int seen[64] = { 0 }, ok = 1;
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] == '.' || fd >= 64)
			continue;	/* the host may pass a high one down */
		if (de->d_type != DT_LNK || fd < 0)
			ok = 0;
		else
			seen[fd] = 1;
	}
	for (int fd = 0; fd < 64; fd++)
		if (seen[fd] != (fcntl(fd, F_GETFD) >= 0) && fd != dirfd(d))
			ok = 0;
	closedir(d);
	return ok;
}

static void links(void)
{
	char want[256], buf[16] = "";
	struct stat st, lst;
	int null = open("/dev/null", O_WRONLY), p[2], fd, fd2;

	tap_ok(!strcmp(fd_text(null), "/dev/null"),
	       "/dev/null's link text (%s)", fd_text(null));
	tap_ok((fd_mode(null) & 07777) == 0300 && S_ISLNK(fd_mode(null)),
	       "a write-only descriptor's link: l-wx (%o)", fd_mode(null));
	pipe(p);
	fstat(p[0], &st);
	snprintf(want, sizeof(want), "pipe:[%lu]", (unsigned long)st.st_ino);
	tap_ok(!strcmp(fd_text(p[0]), want) && !strcmp(fd_text(p[1]), want),
	       "a pipe's ends: %s", fd_text(p[0]));
	tap_ok((fd_mode(p[0]) & 07777) == 0500, "a read end's link: lr-x (%o)",
	       fd_mode(p[0]));
	snprintf(want, sizeof(want), "/proc/self/fd/%d", p[1]);
	fd = open(want, O_WRONLY);
	tap_ok(fd >= 0 && write(fd, "via", 3) == 3 && read(p[0], buf, 3) == 3 &&
	       !memcmp(buf, "via", 3), "opening a pipe's link opens the pipe");
	close(fd);

	snprintf(want, sizeof(want), "%s/f", test_dir());
	fd = open(want, O_RDWR | O_CREAT, 0644);
	write(fd, "abc", 3);
	tap_ok(!strcmp(fd_text(fd), want) && (fd_mode(fd) & 07777) == 0700,
	       "a file's link: its path, lrwx (%s)", fd_text(fd));
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
	fd2 = open(buf, O_RDONLY);
	tap_ok(fd2 >= 0 && read(fd2, buf, 3) == 3 && !memcmp(buf, "abc", 3),
	       "opening it opens the file anew, at offset 0");
	snprintf(buf, sizeof(buf), "/proc/self/fd/%d", fd);
	tap_ok(stat(buf, &st) == 0 && fstat(fd, &lst) == 0 &&
	       st.st_ino == lst.st_ino, "stat through it: the file");
	unlink(want);
	strcat(want, " (deleted)");
	tap_ok(!strcmp(fd_text(fd), want), "unlinked: \"%s\"", fd_text(fd));
	tap_ok(listing_matches(), "/proc/self/fd lists the open descriptors");
	close(fd);
	close(fd2);
	tap_ok(!strcmp(fd_text(fd), "(No such file or directory)"),
	       "a closed descriptor's link: ENOENT");
	fd = open(test_dir(), O_RDONLY | O_DIRECTORY);
	tap_ok(!strcmp(fd_text(fd), test_dir()),
	       "a directory's link: its path");
	close(fd);
	close(null);
	close(p[0]);
	close(p[1]);
}

static void cwds(void)
{
	char buf[256], want[256];
	struct stat a, b;
	int status, ready[2], block[2];
	pid_t pid;

	chdir(test_dir());
	tap_ok(rl("/proc/self/cwd", buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, test_dir()),
	       "/proc/self/cwd: the cwd (%s)", buf);
	tap_ok(stat("/proc/self/cwd", &a) == 0 && stat(".", &b) == 0 &&
	       a.st_ino == b.st_ino, "stat through it: the directory");
	pipe(ready);
	pipe(block);
	pid = fork();
	if (pid == 0) {
		chdir("/");
		write(ready[1], "r", 1);
		read(block[0], buf, 1);		/* until killed */
		_exit(0);
	}
	read(ready[0], buf, 1);
	snprintf(want, sizeof(want), "/proc/%d/cwd", pid);
	tap_ok(rl(want, buf, sizeof(buf)) > 0 && !strcmp(buf, "/"),
	       "a child's cwd (%s)", buf);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	close(ready[0]);
	close(ready[1]);
	close(block[0]);
	close(block[1]);

	snprintf(want, sizeof(want), "/proc/%d", getpid());
	tap_ok(chdir("/proc/self") == 0 && getcwd(buf, sizeof(buf)) &&
	       !strcmp(buf, want), "getcwd in /proc/self: %s", buf);
	snprintf(want, sizeof(want), "/proc/%d/fd", getpid());
	tap_ok(chdir("fd") == 0 && getcwd(buf, sizeof(buf)) &&
	       !strcmp(buf, want), "and in /proc/self/fd: %s", buf);

	snprintf(want, sizeof(want), "%s/gone", test_dir());
	mkdir(want, 0755);
	chdir(want);
	rmdir(want);
	errno = 0;
	tap_ok(!getcwd(buf, sizeof(buf)) && errno == ENOENT,
	       "getcwd in a removed directory: ENOENT (%s)", strerror(errno));
	strcat(want, " (deleted)");
	tap_ok(rl("/proc/self/cwd", buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, want), "its /proc/self/cwd: \"%s\"", buf);
	tap_fails(open("new", O_WRONLY | O_CREAT, 0644), ENOENT,
		  "no new file in a removed directory");
	tap_fails(mkdir("sub", 0755), ENOENT, "nor a new directory");
	tap_ok(stat("..", &a) == 0 && stat(test_dir(), &b) == 0 &&
	       a.st_ino == b.st_ino, "\"..\" still leads to its parent");
	tap_ok(chdir("..") == 0 && getcwd(buf, sizeof(buf)) &&
	       !strcmp(buf, test_dir()), "and chdir(\"..\") gets out");
	chdir("/");
}

int main(void)
{
	tap_plan(24);
	need_proc();
	if (test_dir_make("proc_fd")) {
		tap_ok(0, "mkdir %s", test_dir());
		tap_done();
	}
	links();
	cwds();
	tap_ok(rmdir(test_dir()) == 0, "the test's directory is empty at last");
	tap_done();
}
