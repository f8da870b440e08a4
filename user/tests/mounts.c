/* user/tests/mounts.c — /proc/mounts (a link to self/mounts), its lines
 * in Linux's format, and statfs/fstatfs with Linux's magic numbers. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define PROC_SUPER_MAGIC	0x9fa0
#define TMPFS_MAGIC		0x01021994
#define PIPEFS_MAGIC		0x50495045

static char text[16384];

/* Every line is "source mountpoint type options 0 0", every mount point
 * answers statfs; *proc is set if /proc is there as type proc. */
static int lines_ok(int *proc)
{
	char *save, *line;
	int n = 0;

	*proc = 0;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char src[256], dir[256], type[64], opts[512];
		int a, b;
		struct statfs st;

		if (sscanf(line, "%255s %255s %63s %511s %d %d", src, dir, type,
			   opts, &a, &b) != 6 || a || b)
			return 0;
		if (strncmp(opts, "rw", 2) && strncmp(opts, "ro", 2))
			return 0;
		if (!strchr(dir, '\\') && statfs(dir, &st))
			return 0;	/* \040: a blank in a host's path */
		*proc |= !strcmp(dir, "/proc") && !strcmp(type, "proc");
		n++;
	}
	return n;
}

int main(void)
{
	char other[16384], buf[64], path[64];
	struct statfs st, st2;
	struct stat lst;
	int n, proc, fd, p[2];
	long r;

	tap_plan(16);
	need_proc();
	r = readlink("/proc/mounts", buf, sizeof(buf) - 1);
	buf[r > 0 ? r : 0] = '\0';
	tap_ok(lstat("/proc/mounts", &lst) == 0 && S_ISLNK(lst.st_mode) &&
	       !strcmp(buf, "self/mounts"), "/proc/mounts -> %s", buf);
	tap_ok(read_file("/proc/mounts", text, sizeof(text)) > 0 &&
	       read_file("/proc/self/mounts", other, sizeof(other)) > 0 &&
	       !strcmp(text, other), "it reads as /proc/self/mounts");
	snprintf(path, sizeof(path), "/proc/%d/mounts", getpid());
	tap_ok(read_file(path, other, sizeof(other)) > 0 &&
	       !strcmp(text, other), "and as %s", path);
	n = lines_ok(&proc);
	tap_ok(n > 0, "%d lines \"source dir type options 0 0\", each dir "
	       "answers statfs", n);
	tap_ok(proc, "/proc is mounted, type proc");

	tap_ok(statfs("/proc", &st) == 0 && st.f_type == PROC_SUPER_MAGIC &&
	       st.f_bsize == 4096 && st.f_namelen == 255,
	       "statfs /proc: PROC_SUPER_MAGIC, bsize 4096, namelen 255");
	tap_ok(statfs("/proc/self/status", &st2) == 0 &&
	       st2.f_type == PROC_SUPER_MAGIC, "a file in /proc: the same");
	tap_ok(statfs("/dev", &st) == 0 && st.f_type == TMPFS_MAGIC &&
	       st.f_blocks > 0 && st.f_bfree <= st.f_blocks &&
	       st.f_bavail <= st.f_bfree && st.f_files > 0,
	       "statfs /dev: devtmpfs, TMPFS_MAGIC, %llu blocks, %llu free",
	       (unsigned long long)st.f_blocks,
	       (unsigned long long)st.f_bfree);
	fd = open("/dev/null", O_RDONLY);
	tap_ok(fstatfs(fd, &st2) == 0 && st2.f_type == st.f_type &&
	       st2.f_blocks == st.f_blocks, "fstatfs of /dev/null: the same");
	close(fd);
	pipe(p);
	tap_ok(fstatfs(p[0], &st) == 0 && st.f_type == PIPEFS_MAGIC,
	       "fstatfs of a pipe: PIPEFS_MAGIC (%lx)", (long)st.f_type);
	close(p[0]);
	close(p[1]);
	tap_fails(statfs("/nonexistent-zpk", &st), ENOENT,
		  "statfs of a missing path");
	tap_fails(fstatfs(-1, &st), EBADF, "fstatfs of a bad fd");
	tap_fails(syscall(SYS_statfs, "/", (void *)8), EFAULT,
	      "statfs into a bad buffer");

	if (is_zpk()) {
		char *root = strstr(text, "rootfs / rootfs rw,size=");

		tap_ok(root == text, "zpk: the first line is rootfs on /");
		tap_ok(statfs("/tmp", &st) == 0 && st.f_type == TMPFS_MAGIC,
		       "zpk: /tmp is on the root, TMPFS_MAGIC");
		fd = open("/tmp/mounts.fill", O_WRONLY | O_CREAT | O_TRUNC,
			  0644);
		for (int i = 0; i < 16; i++)
			write(fd, text, 4096);
		close(fd);
		tap_ok(statfs("/tmp", &st2) == 0 &&
		       st2.f_bfree == st.f_bfree - 16 &&
		       st2.f_ffree == st.f_ffree - 1,
		       "zpk: a 64 KiB file takes 16 blocks and an inode "
		       "(%llu -> %llu)", (unsigned long long)st.f_bfree,
		       (unsigned long long)st2.f_bfree);
		unlink("/tmp/mounts.fill");
	} else {
		tap_skip("the root's type is the host's");
		tap_skip("/tmp is the host's");
		tap_skip("the host's free blocks move on their own");
	}
	tap_done();
}
