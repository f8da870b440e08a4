/* user/tests/private_file.c — every way a write can reach a private
 * writable mapping of a file (a store, /proc/self/mem, process_vm_writev,
 * read() from a pipe, from /dev/zero and from the file itself,
 * MADV_POPULATE_WRITE, a fork child's store) lands in a private copy: the
 * mapping sees it, the file never does (issue 15's seventh hole). Each
 * path runs on an untouched page and on one already read in. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PATH	"/tmp/private_file"
#define NPAGES	2
#define LEN	(NPAGES * PAGE_SIZE)
#define MARK	0x5a

static char orig[LEN];

/* Writes the first page at p one way; 0 if the write went through. */
typedef int (*writer_fn)(char *p);

static int by_store(char *p)
{
	memset(p, MARK, PAGE_SIZE);
	return 0;
}

static int by_proc_mem(char *p)
{
	char buf[PAGE_SIZE];
	int fd = open("/proc/self/mem", O_RDWR), ok;

	memset(buf, MARK, sizeof(buf));
	ok = fd >= 0 && pwrite(fd, buf, sizeof(buf),
			       (off_t)(unsigned long)p) == PAGE_SIZE;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int by_process_vm_writev(char *p)
{
	char buf[PAGE_SIZE];
	struct iovec l = { buf, sizeof(buf) }, r = { p, sizeof(buf) };

	memset(buf, MARK, sizeof(buf));
	return process_vm_writev(getpid(), &l, 1, &r, 1, 0) == PAGE_SIZE ?
	       0 : -1;
}

static int by_pipe_read(char *p)
{
	char buf[PAGE_SIZE];
	int fds[2], ok;

	memset(buf, MARK, sizeof(buf));
	if (pipe(fds))
		return -1;
	ok = write(fds[1], buf, sizeof(buf)) == PAGE_SIZE &&
	     read(fds[0], p, PAGE_SIZE) == PAGE_SIZE;
	close(fds[0]);
	close(fds[1]);
	return ok ? 0 : -1;
}

/* /dev/zero: zero_page=refcount's read maps the zero page instead of
 * clearing (2.6.23's zeromap), for anonymous memory only. */
static int by_dev_zero(char *p)
{
	int fd = open("/dev/zero", O_RDONLY), ok;

	ok = fd >= 0 && read(fd, p, PAGE_SIZE) == PAGE_SIZE;
	if (fd >= 0)
		close(fd);
	return ok && p[0] == 0 ? 0 : -1;
}

/* The file's own second page read over its first. */
static int by_file_read(char *p)
{
	int fd = open(PATH, O_RDONLY), ok;

	ok = fd >= 0 && pread(fd, p, PAGE_SIZE, PAGE_SIZE) == PAGE_SIZE;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

static int by_populate_write(char *p)
{
	return madvise(p, PAGE_SIZE, MADV_POPULATE_WRITE);
}

static int by_fork_child(char *p)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		memset(p, MARK, PAGE_SIZE);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && st == 0 ? 0 : -1;
}

/* What the first page must hold after each writer (-1: as before). */
static const struct {
	const char *name;
	writer_fn fn;
	int want;
} writers[] = {
	{ "a store", by_store, MARK },
	{ "pwrite to /proc/self/mem", by_proc_mem, MARK },
	{ "process_vm_writev", by_process_vm_writev, MARK },
	{ "read() from a pipe", by_pipe_read, MARK },
	{ "read() from /dev/zero", by_dev_zero, 0 },
	{ "read() of the file's next page", by_file_read, 'B' },
	{ "MADV_POPULATE_WRITE", by_populate_write, -1 },
	{ "a store by a fork child", by_fork_child, -1 },
};
#define NWRITERS	((int)(sizeof(writers) / sizeof(writers[0])))

static int file_unchanged(void)
{
	char now[LEN];
	int fd = open(PATH, O_RDONLY), ok;

	ok = fd >= 0 && pread(fd, now, LEN, 0) == LEN &&
	     !memcmp(now, orig, LEN);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* A shared read-only mapping made afterwards sees the file as it was. */
static int fresh_map_unchanged(void)
{
	int fd = open(PATH, O_RDONLY);
	char *s = fd < 0 ? MAP_FAILED :
		  mmap(NULL, LEN, PROT_READ, MAP_SHARED, fd, 0);
	int ok = s != MAP_FAILED && !memcmp(s, orig, LEN);

	if (s != MAP_FAILED)
		munmap(s, LEN);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* One writer on a fresh private mapping, its first page read in first
 * (prefault) or untouched: 1 check. */
static void one(int w, int prefault)
{
	int fd = open(PATH, O_RDONLY), r, seen;
	char *p = fd < 0 ? MAP_FAILED :
		  mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	volatile char c;

	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED) {
		tap_ok(0, "%s: mmap: %s", writers[w].name, strerror(errno));
		return;
	}
	if (prefault)
		c = p[0];
	(void)c;
	r = writers[w].fn(p);
	seen = (unsigned char)p[0];
	tap_ok(r == 0 && seen == (writers[w].want < 0 ? 'A' :
				  writers[w].want) &&
	       p[PAGE_SIZE] == 'B' && file_unchanged() &&
	       fresh_map_unchanged(),
	       "%s into a private page (%s): the mapping reads %#x, the "
	       "file is unchanged", writers[w].name,
	       prefault ? "read in first" : "untouched", seen);
	munmap(p, LEN);
}

/* FOLL_FORCE on a read-only private mapping (a debugger's breakpoint):
 * the write lands in a private copy, read-only to the user. */
static void forced(void)
{
	int fd = open(PATH, O_RDONLY), mem = open("/proc/self/mem", O_RDWR);
	char *p = fd < 0 ? MAP_FAILED :
		  mmap(NULL, LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	char m = MARK;

	tap_ok(p != MAP_FAILED && mem >= 0 &&
	       pwrite(mem, &m, 1, (off_t)(unsigned long)p) == 1 &&
	       p[0] == MARK && file_unchanged() && fresh_map_unchanged(),
	       "/proc/self/mem into a PROT_READ private mapping: a private "
	       "copy, the file is unchanged");
	if (p != MAP_FAILED)
		munmap(p, LEN);
	if (fd >= 0)
		close(fd);
	if (mem >= 0)
		close(mem);
}

int main(void)
{
	int fd;

	tap_plan(2 * NWRITERS + 2);
	memset(orig, 'A', PAGE_SIZE);
	memset(orig + PAGE_SIZE, 'B', PAGE_SIZE);
	fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (!tap_ok(fd >= 0 && write(fd, orig, LEN) == LEN, "write " PATH))
		tap_done();
	close(fd);
	for (int w = 0; w < NWRITERS; w++) {
		one(w, 0);
		one(w, 1);
	}
	forced();
	unlink(PATH);
	tap_done();
}
