/* user/tests/rename.c — rename, renameat, renameat2 (RENAME_NOREPLACE,
 * RENAME_EXCHANGE): files, directories, links, Linux's errnos, open files
 * and a cwd surviving it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define RENAME_NOREPLACE	1
#define RENAME_EXCHANGE		2

/* musl's renameat2 is recent: the call itself. */
static long rename2(const char *from, const char *to, unsigned int flags)
{
	return syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
}

static const char *text_of(const char *path)
{
	static char buf[64];
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static unsigned long ino_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? 0 : (unsigned long)st.st_ino;
}

static void files(void)
{
	unsigned long ino;
	struct stat st;
	char buf[8] = "";
	int fd;

	write_text(at("a"), "A");
	ino = ino_of(at("a"));
	tap_ok(rename(at("a"), at("b")) == 0 && access(at("a"), F_OK) &&
	       ino_of(at("b")) == ino && !strcmp(text_of(at("b")), "A"),
	       "rename a file: the old name goes, the inode keeps");
	write_text(at("c"), "C");
	fd = open(at("c"), O_RDONLY);
	tap_ok(rename(at("b"), at("c")) == 0 && !strcmp(text_of(at("c")), "A")
	       && access(at("b"), F_OK), "rename over a file replaces it");
	tap_ok(fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink == 0 &&
	       read(fd, buf, 1) == 1 && buf[0] == 'C',
	       "the replaced file stays readable while open (st_nlink 0)");
	close(fd);
	fd = open(at("c"), O_RDONLY);
	tap_ok(rename(at("c"), at("e")) == 0 && read(fd, buf, 1) == 1 &&
	       buf[0] == 'A', "a file open across a rename reads on");
	close(fd);
	tap_ok(rename(at("e"), at("e")) == 0 && ino_of(at("e")),
	       "rename to itself does nothing");
	link(at("e"), at("e2"));
	tap_ok(rename(at("e"), at("e2")) == 0 && ino_of(at("e")) &&
	       ino_of(at("e2")), "rename between two links of one inode "
	       "does nothing");
	unlink(at("e2"));
	tap_fails(rename(at("missing"), at("x")), ENOENT,
		  "rename a missing name");
	tap_fails(rename(at("e"), at("nodir/x")), ENOENT,
		  "rename into a missing dir");
	tap_fails(rename(at("e"), at("x/")), ENOTDIR,
		  "rename a file to \"x/\"");
	tap_fails(rename(at("e/"), at("x")), ENOTDIR, "rename \"file/\"");
	tap_fails(rename(at("e"), "/dev/zpk-rename"), EXDEV,
		  "rename into /dev");
	tap_fails(rename(at("e"), "/proc/zpk-rename"), EXDEV,
		  "rename into /proc");
	symlink("e", at("sl"));
	tap_ok(rename(at("sl"), at("sl2")) == 0 && readlink(at("sl2"), buf, 8)
	       == 1 && ino_of(at("e")), "rename a link moves the link");
}

static void directories(void)
{
	char cwd[256], buf[256], want[256];
	unsigned long ino;
	struct stat st, p;

	mkdir(at("d"), 0755);
	write_text(at("d/f"), "F");
	mkdir(at("d/sub"), 0755);
	ino = ino_of(at("d"));
	tap_ok(rename(at("d"), at("d2")) == 0 && ino_of(at("d2")) == ino &&
	       !strcmp(text_of(at("d2/f")), "F"),
	       "rename a directory: its contents follow");
	tap_ok(rename(at("d2/"), at("d3")) == 0, "a directory with a slash");
	mkdir(at("empty"), 0755);
	tap_ok(rename(at("d3"), at("empty")) == 0 && ino_of(at("empty")) == ino,
	       "a directory over an empty directory");
	mkdir(at("full"), 0755);
	mkdir(at("full/x"), 0755);
	tap_fails(rename(at("empty"), at("full")), ENOTEMPTY,
	      "a directory over a non-empty one");
	tap_fails(rename(at("empty"), at("e")), ENOTDIR,
		  "a directory over a file");
	tap_fails(rename(at("e"), at("full")), EISDIR,
		  "a file over a directory");
	tap_fails(rename(at("empty"), at("empty/sub/in")), EINVAL,
	      "a directory into itself");
	tap_fails(rename(at("empty"), at("empty/in")), EINVAL,
	      "a directory into itself, one down");
	tap_fails(rename(at("empty/sub"), at("empty")), ENOTEMPTY,
	      "a directory over its parent");
	tap_fails(rename(at("empty/."), at("y")), EBUSY, "rename of \".\"");
	tap_fails(rename(at("e"), at("full/..")), EBUSY, "rename onto \"..\"");

	/* Moved into another directory: ".." and both parents' links. */
	stat(at("full"), &p);
	tap_ok(rename(at("empty/sub"), at("full/sub")) == 0 &&
	       stat(at("full/sub/.."), &st) == 0 && st.st_ino == p.st_ino,
	       "a moved directory's \"..\" is its new parent");
	tap_ok(stat(at("full"), &st) == 0 && st.st_nlink == p.st_nlink + 1 &&
	       stat(at("empty"), &st) == 0 && st.st_nlink == 2,
	       "both parents' st_nlink follow (%ld)", (long)st.st_nlink);

	tap_ok(getcwd(cwd, sizeof(cwd)) && chdir(at("full/sub")) == 0 &&
	       rename(at("full"), at("moved")) == 0 &&
	       getcwd(buf, sizeof(buf)) &&
	       !strcmp(buf, (snprintf(want, sizeof(want), "%s/moved/sub",
				      test_dir()), want)),
	       "getcwd after the cwd's parent is renamed (%s)", buf);
	tap_ok(chdir(cwd) == 0 && rmdir(at("moved/sub")) == 0,
	       "the directory is still there");
}

static void flags(void)
{
	write_text(at("p"), "P");
	write_text(at("q"), "Q");
	tap_fails(rename2(at("p"), at("q"), RENAME_NOREPLACE), EEXIST,
	      "RENAME_NOREPLACE over a name");
	tap_ok(rename2(at("p"), at("r"), RENAME_NOREPLACE) == 0 &&
	       !strcmp(text_of(at("r")), "P"),
	       "RENAME_NOREPLACE to a new name");
	tap_ok(rename2(at("r"), at("q"), RENAME_EXCHANGE) == 0 &&
	       !strcmp(text_of(at("r")), "Q") && !strcmp(text_of(at("q")), "P"),
	       "RENAME_EXCHANGE swaps two files");
	tap_fails(rename2(at("r"), at("missing"), RENAME_EXCHANGE), ENOENT,
	      "RENAME_EXCHANGE with a missing name");
	tap_ok(rename2(at("q"), at("empty"), RENAME_EXCHANGE) == 0 &&
	       ino_of(at("q/f")) && !strcmp(text_of(at("empty")), "P"),
	       "RENAME_EXCHANGE of a file and a directory");
	tap_fails(rename2(at("q"), at("q/f"), RENAME_EXCHANGE), EINVAL,
	      "RENAME_EXCHANGE of a dir with a name inside it");
	tap_fails(rename2(at("r"), at("q"), RENAME_EXCHANGE | RENAME_NOREPLACE),
	      EINVAL, "RENAME_EXCHANGE|RENAME_NOREPLACE");
	tap_fails(rename2(at("r"), at("s"), 8), EINVAL, "an unknown flag");
	tap_ok(renameat(AT_FDCWD, at("r"), AT_FDCWD, at("s")) == 0 &&
	       !strcmp(text_of(at("s")), "Q"), "renameat");
}

int main(void)
{
	const char *gone[] = { "e", "sl2", "s", "empty", "q/f", "p" };
	const char *dirs[] = { "q", "moved/x", "moved" };

	tap_plan(38);
	if (test_dir_make("rename")) {
		tap_ok(0, "mkdir %s", test_dir());
		tap_done();
	}
	files();
	directories();
	flags();
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		unlink(at(gone[i]));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		rmdir(at(dirs[i]));
	tap_ok(rmdir(test_dir()) == 0, "the test's directory is empty at last");
	tap_done();
}
