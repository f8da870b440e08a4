/* user/tests/etxtbsy.c — a running program's file cannot change: opening
 * it for writing, truncating it and exec'ing a file open for writing are
 * ETXTBSY, and writes to its private mappings (the program's own text
 * through /proc/self/mem, after mprotect, or an mmap of the file) reach
 * private copies, never the file. The test runs a copy of itself in /tmp. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define COPY	"/tmp/etxtbsy-copy"

static char *image;		/* this program's file, as read at start */
static size_t image_len;

/* Never run: the child overwrites its first bytes in memory. */
__attribute__((noinline)) static int scratch_text(int x)
{
	return x * 3 + 1;
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	ssize_t r;

	while (fd >= 0 && b && (r = read(fd, b + n, cap - n)) > 0)
		if ((n += (size_t)r) == cap)
			b = realloc(b, cap *= 2);
	if (fd >= 0)
		close(fd);
	*len = n;
	return fd < 0 ? NULL : b;
}

static int file_unchanged(void)
{
	size_t len;
	char *now = slurp(COPY, &len);
	int same = now && len == image_len && !memcmp(now, image, len);

	free(now);
	return same;
}

static int make_copy(void)
{
	int fd = open(COPY, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	int ok = fd >= 0 && write(fd, image, image_len) == (ssize_t)image_len;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* The running copy: writes into its own text three ways, each of which
 * must stay in its memory; says 'r' (or 'x' on a failed write) on ready
 * and waits for EOF on go. */
static int child_main(int ready, int go)
{
	unsigned char *fn = (unsigned char *)(unsigned long)scratch_text;
	unsigned long page = (unsigned long)fn & ~4095UL;
	unsigned char cc = 0xcc, c;
	int mem = open("/proc/self/mem", O_RDWR), ok = 1;

	ok &= mem >= 0 && pwrite(mem, &cc, 1, (off_t)(unsigned long)fn) == 1;
	ok &= fn[0] == 0xcc;
	ok &= !mprotect((void *)page, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
	if (ok)
		fn[1] = 0xcc;
	if (write(ready, ok ? "r" : "x", 1) != 1)
		return 2;
	return read(go, &c, 1) == 0 ? 0 : 3;
}

static int open_errno(int flags)
{
	int fd = open(COPY, flags);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : errno;
}

/* Runs COPY (its own text written as above) and checks, while it runs,
 * that the file cannot be opened for writing or truncated. */
static void while_running(void)
{
	int ready[2], go[2], status = -1;
	char c = 0, rs[12], gs[12];
	struct stat st;
	pid_t p;

	if (pipe(ready) || pipe(go))
		return;
	p = fork();
	if (p == 0) {
		close(ready[0]);
		close(go[1]);
		snprintf(rs, sizeof(rs), "%d", ready[1]);
		snprintf(gs, sizeof(gs), "%d", go[0]);
		execl(COPY, COPY, "child", rs, gs, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	close(go[0]);
	tap_ok(read(ready[0], &c, 1) == 1 && c == 'r',
	       "the running copy wrote its text via /proc/self/mem and "
	       "after mprotect (%c)", c ? c : '-');
	tap_ok(open_errno(O_WRONLY) == ETXTBSY, "open O_WRONLY: ETXTBSY");
	tap_ok(open_errno(O_RDWR) == ETXTBSY, "open O_RDWR: ETXTBSY");
	tap_ok(open_errno(O_WRONLY | O_TRUNC) == ETXTBSY &&
	       !stat(COPY, &st) && (size_t)st.st_size == image_len,
	       "open O_WRONLY|O_TRUNC: ETXTBSY, size unchanged");
	tap_ok(truncate(COPY, 0) < 0 && errno == ETXTBSY,
	       "truncate: ETXTBSY");
	tap_ok(open_errno(O_RDONLY) == 0, "open O_RDONLY works");
	close(go[1]);
	close(ready[0]);
	tap_ok(waitpid(p, &status, 0) == p && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0, "the copy ran to its end (%s)",
	       status_str(status));
	tap_ok(file_unchanged(), "the file is unchanged by the copy's writes");
}

/* A private mapping of the file, written: the file stays as it was. */
static void private_mapping(void)
{
	int fd = open(COPY, O_RDONLY);
	char *p = fd < 0 ? MAP_FAILED :
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

	tap_ok(p != MAP_FAILED, "MAP_PRIVATE of the file, writable");
	if (p != MAP_FAILED) {
		memset(p, 0x5a, 64);
		munmap(p, 4096);
	}
	if (fd >= 0)
		close(fd);
	tap_ok(file_unchanged(), "the file is unchanged by the private write");
}

/* Exec of a file that is open for writing: ETXTBSY. */
static void exec_while_open(void)
{
	int fd = open(COPY, O_WRONLY), status = -1;
	pid_t p;

	tap_ok(fd >= 0, "once it has ended, the file opens for writing");
	p = fork();
	if (p == 0) {
		execl(COPY, COPY, "child", "-1", "-1", (char *)NULL);
		_exit(errno == ETXTBSY ? 42 : 43);
	}
	tap_ok(waitpid(p, &status, 0) == p && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 42,
	       "execve of a file open for writing: ETXTBSY (%s)",
	       status_str(status));
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "child"))
		return child_main(atoi(argv[2]), atoi(argv[3]));
	tap_plan(12);
	image = slurp("/proc/self/exe", &image_len);
	if (!image || !make_copy()) {
		tap_ok(0, "copy of /proc/self/exe in " COPY);
		tap_done();
	}
	while_running();
	private_mapping();
	exec_while_open();
	unlink(COPY);
	(void)scratch_text(0);
	tap_done();
}
