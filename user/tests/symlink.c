/* user/tests/symlink.c — symbolic links: symlink, symlinkat, readlink,
 * lstat, the path walk through links (relative, absolute, in the middle,
 * at the end, dangling), ELOOP after 40, O_NOFOLLOW, AT_SYMLINK_NOFOLLOW. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ulib.h"

/* r is -1 with errno want. */
static long rl(const char *path, char *buf, size_t size)
{
	long n = readlink(path, buf, size - 1);

	buf[n >= 0 ? n : 0] = '\0';
	return n;
}

/* The d_type readdir gives name in dir, or -1. */
static int dtype_of(const char *dir, const char *name)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int t = -1;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, name) == 0)
			t = de->d_type;
	if (d)
		closedir(d);
	return t;
}

static void basics(void)
{
	struct stat st, lst, fst;
	char buf[256];
	int fd;

	tap_ok(symlink("file", at("l")) == 0, "symlink(\"file\", l)");
	tap_ok(lstat(at("l"), &lst) == 0 && S_ISLNK(lst.st_mode) &&
	       lst.st_size == 4 && (lst.st_mode & 0777) == 0777,
	       "lstat: a link, mode 0777, size 4 (mode %o size %ld)",
	       lst.st_mode, (long)lst.st_size);
	tap_ok(rl(at("l"), buf, sizeof(buf)) == 4 && !strcmp(buf, "file"),
	       "readlink gives \"file\" (\"%s\")", buf);
	tap_ok(stat(at("l"), &st) == 0 && stat(at("file"), &fst) == 0 &&
	       S_ISREG(st.st_mode) && st.st_ino == fst.st_ino &&
	       st.st_ino != lst.st_ino,
	       "stat follows it to the file (ino %lu)",
	       (unsigned long)st.st_ino);
	tap_ok(read_file(at("l"), buf, sizeof(buf)) >= 0 &&
	       !strcmp(buf, "hello"),
	       "open+read through the link reads the file (\"%s\")", buf);
	tap_ok(fstatat(AT_FDCWD, at("l"), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISLNK(st.st_mode), "fstatat AT_SYMLINK_NOFOLLOW: the link");
	tap_ok(dtype_of(test_dir(), "l") == DT_LNK, "readdir: DT_LNK");

	fd = open(test_dir(), O_RDONLY | O_DIRECTORY);
	tap_ok(symlinkat("../x/y", fd, "rel") == 0 &&
	       readlinkat(fd, "rel", buf, sizeof(buf)) == 6 &&
	       !memcmp(buf, "../x/y", 6), "symlinkat and readlinkat by dirfd");
	close(fd);

	tap_fails(symlink("other", at("l")), EEXIST, "symlink over a link");
	tap_fails(symlink("other", at("file")), EEXIST, "symlink over a file");
	tap_fails(symlink("", at("empty")), ENOENT, "symlink to \"\"");
	tap_fails(symlink("x", at("nodir/l")), ENOENT,
		  "symlink in a missing dir");
	tap_fails(readlink(at("file"), buf, sizeof(buf)), EINVAL,
	      "readlink of a file");
	tap_fails(readlink(at("missing"), buf, sizeof(buf)), ENOENT,
	      "readlink of a missing name");
}

static void walks(void)
{
	char buf[256], cwd[256], want[256];
	struct stat st;

	mkdir(at("d"), 0755);
	mkdir(at("d/sub"), 0755);
	write_text(at("d/sub/f"), "deep");
	tap_ok(symlink("../file", at("d/up")) == 0 &&
	       read_file(at("d/up"), buf, sizeof(buf)) >= 0 &&
	       !strcmp(buf, "hello"),
	       "a relative link starts from its own directory");
	snprintf(want, sizeof(want), "%s/d", test_dir());
	tap_ok(symlink(want, at("abs")) == 0 &&
	       read_file(at("abs/sub/f"), buf, sizeof(buf)) >= 0 &&
	       !strcmp(buf, "deep"), "an absolute link in a path's middle");
	tap_ok(symlink("d/sub", at("ld")) == 0 && stat(at("ld/f"), &st) == 0 &&
	       S_ISREG(st.st_mode), "a relative link to a directory, then on");
	tap_ok(symlink("abs", at("chain")) == 0 &&
	       read_file(at("chain/sub/f"), buf, sizeof(buf)) >= 0 &&
	       !strcmp(buf, "deep"), "a link to a link to a directory");
	tap_ok(lstat(at("ld/"), &st) == 0 && S_ISDIR(st.st_mode),
	       "lstat with a trailing slash follows the link");
	tap_ok(symlink("ld/..", at("dotdot")) == 0 &&
	       stat(at("dotdot/sub/f"), &st) == 0,
	       "\"..\" after a link is the target's parent");
	tap_fails(stat(at("l/x"), &st), ENOTDIR, "a link to a file, then on");
	tap_fails(stat(at("l/"), &st), ENOTDIR,
		  "a link to a file with a slash");

	snprintf(want, sizeof(want), "%s/d/sub", test_dir());
	tap_ok(getcwd(cwd, sizeof(cwd)) && chdir(at("ld")) == 0 &&
	       getcwd(buf, sizeof(buf)) && !strcmp(buf, want) &&
	       chdir(cwd) == 0,
	       "chdir through a link: getcwd names the directory (%s)", buf);
	tap_ok(access(at("l"), R_OK) == 0 && access(at("dangle"), F_OK) == -1,
	       "access follows links");
	tap_fails(rmdir(at("ld")), ENOTDIR, "rmdir of a link to a directory");
	tap_fails(rmdir(at("ld/")), ENOTDIR, "rmdir of it with a slash");
	tap_fails(mkdir(at("ld"), 0755), EEXIST, "mkdir over a link");
	tap_fails(unlink(at("ld/")), ENOTDIR,
		  "unlink of a link to a dir, slash");
}

static void dangling_and_loops(void)
{
	char buf[256], name[32], target[32];
	struct stat st;
	int fd, i;

	symlink("gone", at("dangle"));
	tap_fails(stat(at("dangle"), &st), ENOENT, "stat of a dangling link");
	tap_ok(lstat(at("dangle"), &st) == 0 && S_ISLNK(st.st_mode),
	       "lstat of it works");
	tap_fails(open(at("dangle"), O_CREAT | O_EXCL | O_WRONLY, 0644), EEXIST,
	      "O_CREAT|O_EXCL on a dangling link");
	fd = open(at("dangle"), O_CREAT | O_WRONLY, 0644);
	tap_ok(fd >= 0 && stat(at("gone"), &st) == 0 && S_ISREG(st.st_mode),
	       "O_CREAT through a dangling link makes its target");
	close(fd);
	symlink("gone/", at("dangle2"));
	tap_fails(open(at("dangle2"), O_CREAT | O_WRONLY, 0644), EISDIR,
	      "O_CREAT through a link to \"gone/\"");

	symlink("loop_b", at("loop_a"));
	symlink("loop_a", at("loop_b"));
	tap_fails(stat(at("loop_a"), &st), ELOOP, "a loop of two links");
	tap_fails(open(at("loop_a/x"), O_RDONLY), ELOOP,
		  "the loop in the middle");

	/* c0 -> c1 -> ... -> c40 -> file: 40 links followed, then 41. */
	for (i = 0; i <= 40; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		snprintf(target, sizeof(target), i < 40 ? "c%d" : "file",
			 i + 1);
		symlink(target, at(name));
	}
	tap_ok(stat(at("c1"), &st) == 0, "a chain of 40 links is followed");
	tap_fails(stat(at("c0"), &st), ELOOP, "a chain of 41 links");
	symlink("c1/", at("cdir"));
	tap_fails(stat(at("cdir"), &st), ELOOP, "41 links, one in the middle");

	tap_fails(open(at("l"), O_RDONLY | O_NOFOLLOW), ELOOP,
	      "O_NOFOLLOW on a link");
	fd = open(at("ld/f"), O_RDONLY | O_NOFOLLOW);
	tap_ok(fd >= 0, "O_NOFOLLOW follows links before the last name");
	close(fd);
	tap_fails(open(at("l"), O_RDONLY | O_NOFOLLOW | O_CREAT, 0644), ELOOP,
	      "O_NOFOLLOW|O_CREAT on a link");

	tap_ok(unlink(at("l")) == 0 && lstat(at("l"), &st) == -1 &&
	       stat(at("file"), &st) == 0,
	       "unlink removes the link, not its target");
	tap_ok(rl(at("dangle"), buf, sizeof(buf)) == 4,
	       "readlink does not care where the link leads");
}

/* rm -r of the test's directory. */
static void clean(const char *path)
{
	char sub[512];
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (lstat(path, &st) || !S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		clean(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

int main(void)
{
	tap_plan(44);
	if (test_dir_make("symlink") || !write_text(at("file"), "hello")) {
		tap_ok(0, "mkdir %s", test_dir());
		tap_done();
	}
	basics();
	walks();
	dangling_and_loops();
	clean(test_dir());
	tap_ok(access(test_dir(), F_OK) == -1, "the test's directory is gone");
	tap_done();
}
