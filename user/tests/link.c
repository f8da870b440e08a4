/* user/tests/link.c — hard links: link, linkat (AT_SYMLINK_FOLLOW),
 * st_nlink of files and directories, EPERM on directories, EXDEV across
 * file systems, an open file outliving its last name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ulib.h"

static long nlink_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? -1 : (long)st.st_nlink;
}

static void links(void)
{
	struct stat a, b;
	char buf[64];

	write_text(at("f"), "one");
	tap_ok(nlink_of(at("f")) == 1, "a new file has st_nlink 1");
	tap_ok(link(at("f"), at("g")) == 0, "link(f, g)");
	tap_ok(stat(at("f"), &a) == 0 && stat(at("g"), &b) == 0 &&
	       a.st_ino == b.st_ino && a.st_nlink == 2 && b.st_nlink == 2,
	       "both names: one inode, st_nlink 2 (%ld)", (long)a.st_nlink);
	write_text(at("g"), "two");
	tap_ok(read_file(at("f"), buf, sizeof(buf)) >= 0 && !strcmp(buf, "two"),
	       "written through g, read through f (\"%s\")", buf);
	mkdir(at("d"), 0755);
	tap_ok(link(at("f"), at("d/h")) == 0 && nlink_of(at("f")) == 3,
	       "a third name in a subdirectory: st_nlink 3");
	tap_ok(unlink(at("f")) == 0 && nlink_of(at("g")) == 2 &&
	       read_file(at("d/h"), buf, sizeof(buf)) >= 0 &&
	       !strcmp(buf, "two"),
	       "unlink of one name leaves the others (st_nlink 2)");

	tap_fails(link(at("d"), at("d2")), EPERM, "link of a directory");
	tap_fails(link(at("g"), at("d/h")), EEXIST,
		  "link over an existing name");
	tap_fails(link(at("d"), at("g")), EEXIST, "link of a dir over a name");
	tap_fails(link(at("missing"), at("x")), ENOENT,
		  "link of a missing name");
	tap_fails(link(at("g"), at("nodir/x")), ENOENT,
		  "link into a missing dir");
	tap_fails(link(at("g"), at("new/")), ENOENT,
		  "link to a name with a slash");
	tap_fails(link(at("g/"), at("x")), ENOTDIR, "link of \"file/\"");
	/* /proc makes no names (ENOENT before EXDEV); /dev is devtmpfs. */
	tap_fails(link(at("g"), "/proc/zpk-link"), ENOENT, "link into /proc");
	tap_fails(link(at("g"), "/dev/zpk-link"), EXDEV, "link into /dev");
	tap_fails(link("/proc/self/status", at("x")), EXDEV,
		  "link out of /proc");
	tap_fails(linkat(AT_FDCWD, at("g"), AT_FDCWD, at("x"), 0x8000), EINVAL,
	      "linkat with an unknown flag");
}

static void symlinks(void)
{
	struct stat st, f;

	symlink("g", at("sl"));
	tap_ok(link(at("sl"), at("sl2")) == 0 && lstat(at("sl2"), &st) == 0 &&
	       S_ISLNK(st.st_mode) && st.st_nlink == 2,
	       "link of a symlink links the symlink (st_nlink %ld)",
	       (long)st.st_nlink);
	tap_ok(linkat(AT_FDCWD, at("sl"), AT_FDCWD, at("sl3"),
		      AT_SYMLINK_FOLLOW) == 0 && lstat(at("sl3"), &st) == 0 &&
	       stat(at("g"), &f) == 0 && st.st_ino == f.st_ino,
	       "linkat AT_SYMLINK_FOLLOW links its target");
}

static void open_after_unlink(void)
{
	struct stat st;
	char buf[16] = "";
	int fd;

	write_text(at("tmp"), "kept");
	fd = open(at("tmp"), O_RDWR);
	tap_ok(fd >= 0 && unlink(at("tmp")) == 0 && fstat(fd, &st) == 0 &&
	       st.st_nlink == 0, "fstat after the last unlink: st_nlink 0");
	tap_ok(pread(fd, buf, 4, 0) == 4 && !memcmp(buf, "kept", 4) &&
	       pwrite(fd, "more", 4, 4) == 4 && fstat(fd, &st) == 0 &&
	       st.st_size == 8, "the open file is still read and written");
	tap_fails(linkat(fd, "", AT_FDCWD, at("back"), 0), ENOENT,
	      "linkat of \"\" without AT_EMPTY_PATH");
	close(fd);
}

static void dir_nlink(void)
{
	long n = nlink_of(test_dir());

	tap_ok(nlink_of(at("d")) == 2, "an empty directory: st_nlink 2");
	mkdir(at("d/s1"), 0755);
	mkdir(at("d/s2"), 0755);
	tap_ok(nlink_of(at("d")) == 4, "with two subdirectories: 4 (%ld)",
	       nlink_of(at("d")));
	rmdir(at("d/s1"));
	rmdir(at("d/s2"));
	tap_ok(nlink_of(at("d")) == 2 && nlink_of(test_dir()) == n,
	       "back to 2 after rmdir");
}

int main(void)
{
	const char *names[] = { "g", "d/h", "sl", "sl2", "sl3" };

	tap_plan(26);
	if (test_dir_make("link")) {
		tap_ok(0, "mkdir %s", test_dir());
		tap_done();
	}
	links();
	symlinks();
	open_after_unlink();
	dir_nlink();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(at(names[i]));
	rmdir(at("d"));
	tap_ok(rmdir(test_dir()) == 0, "the test's directory is empty at last");
	tap_done();
}
