/* user/tests/exhaust.c — memory running out every other way than oom.c's
 * hog: MAP_POPULATE, files in /tmp, page tables, a fork bomb, brk, and the
 * stack (with and without a SIGSEGV handler). Each runs in a child until
 * memory or a limit ends it; the kernel stays up, the child dies cleanly
 * or gets its errno, and on zpk every free page comes back. A ballast
 * process holds most of RAM first (zpk), so each class fills only the
 * rest: the same paths, a fraction of the time under TCG. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define LEFT_PAGES	8192	/* what the ballast leaves: 32 MiB */
#define CHUNK		(4UL << 20)
#define BOMB_PID_MAX	"3000"
#define BOMB_PAGES	16	/* each bomb process's own memory */

static void never_oom_killed(void)
{
	write_file("/proc/self/oom_score_adj", "-1000");
}

static void *map(size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ---- the classes: each is a child's body; it exits 0 when a call said
 * no (the errno it expects), or is killed. ----------------------------- */

static void __attribute__((noreturn)) populate(void)
{
	while (map(CHUNK, MAP_POPULATE))
		;
	_exit(errno == ENOMEM ? 0 : 1);
}

/* Files in /tmp until a write fails: ENOMEM (zpk's ramfs), ENOSPC
 * (tmpfs); EFBIG only ends one file. The test removes them. */
static void __attribute__((noreturn)) tmp_files(void)
{
	static char buf[1 << 20];
	char path[64];

	memset(buf, 'x', sizeof(buf));
	for (int n = 0; n < 4096; n++) {
		int fd;
		ssize_t w;

		snprintf(path, sizeof(path), "/tmp/exhaust.%d", n);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			_exit(errno == ENOMEM || errno == ENOSPC ? 0 : 2);
		while ((w = write(fd, buf, sizeof(buf))) > 0)
			;
		close(fd);
		if (w < 0 && errno != EFBIG)
			_exit(errno == ENOMEM || errno == ENOSPC ? 0 : 3);
	}
	_exit(4);
}

static void remove_tmp_files(void)
{
	char path[64];

	for (int n = 0; n < 4096; n++) {
		snprintf(path, sizeof(path), "/tmp/exhaust.%d", n);
		if (unlink(path) && errno == ENOENT)
			break;
	}
}

/* One byte every 2 MiB: a page-table page each (and a data page, or the
 * zero page for a read under special and refcount). */
static void __attribute__((noreturn)) page_tables(void)
{
	const size_t region = 256UL << 20, step = 2UL << 20;
	char *p;

	while ((p = map(region, MAP_NORESERVE)))
		for (size_t off = 0; off < region; off += step)
			poke(p + off, 1);
	_exit(errno == ENOMEM ? 0 : 1);
}

/* A failed brk returns the old break (musl's sbrk cannot grow it). */
static void __attribute__((noreturn)) brk_grow(void)
{
	unsigned long cur = syscall(SYS_brk, 0), want;

	for (;;) {
		want = cur + CHUNK;
		if ((unsigned long)syscall(SYS_brk, want) != want)
			_exit(0);
		for (unsigned long a = cur; a < want; a += PAGE_SIZE)
			poke((char *)a, 1);
		cur = want;
	}
}

/* Deeper until the stack is gone (the limit is never 0 bytes). */
static int recurse(unsigned long n)
{
	volatile char pad[256];

	pad[0] = (char)n;
	if (n == ~0UL)
		return pad[0];
	return recurse(n + 1) + pad[0];
}

static void __attribute__((noreturn)) stack_overflow(void)
{
	_exit(recurse(0));
}

static int handler_pipe = -1;

static void on_segv(int sig)
{
	(void)sig;
	write(handler_pipe, "h", 1);
	_exit(5);
}

/* The handler cannot run on the stack that overflowed (no alternate
 * stack): the kernel cannot build its frame and kills with SIGSEGV. */
static void __attribute__((noreturn)) stack_overflow_handled(void)
{
	signal(SIGSEGV, on_segv);
	_exit(recurse(0));
}

/* ---- the fork bomb ------------------------------------------------------ */

/* What the bomb's processes share: how many started, how fork said no. */
struct bomb {
	volatile int made, eagain, enomem;
};
static struct bomb *bomb;

/* One process of the bomb: the OOM killer's choice, memory of its own,
 * then it waits for EOF on go. */
static void __attribute__((noreturn)) bomb_child(int go)
{
	char *mem = map(BOMB_PAGES * PAGE_SIZE, 0), c;

	write_file("/proc/self/oom_score_adj", "1000");
	__sync_fetch_and_add(&bomb->made, 1);
	if (mem)
		madvise(mem, BOMB_PAGES * PAGE_SIZE, MADV_POPULATE_WRITE);
	while (read(go, &c, 1) > 0)
		;
	_exit(0);
}

/* The bomb's parent (at oom_score_adj -1000, as this test): forks until
 * fork says no, keeping every child its own to reap, so that none is
 * left to init. Its exit status: 0 if every child exited or was killed
 * by the OOM killer. */
static void __attribute__((noreturn)) bomb_parent(int go)
{
	int st, kids = 0, bad = 0;

	for (;;) {
		pid_t pid = fork();

		if (pid == 0)
			bomb_child(go);
		if (pid < 0) {
			__sync_fetch_and_add(errno == EAGAIN ? &bomb->eagain :
					     &bomb->enomem, 1);
			break;
		}
		kids++;
	}
	while (kids-- > 0 && wait(&st) > 0)
		bad |= st != 0 && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	_exit(bad);
}

/* Processes until pids or memory run out (each holds memory, so the OOM
 * killer takes some on the way); then they all end and are reaped. */
static void fork_bomb(void)
{
	char old_max[32] = "";
	int go[2], st = -1, made;
	long free0, free1;
	pid_t parent;

	/* The counters' page and its page tables are there before and
	 * after: the bomb's own pages are what is counted. */
	bomb = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (bomb != MAP_FAILED)
		bomb->made = 0;
	free0 = sysinfo_free_pages();
	read_file("/proc/sys/kernel/pid_max", old_max, sizeof(old_max));
	if (bomb == MAP_FAILED || pipe(go) ||
	    write_file("/proc/sys/kernel/pid_max", BOMB_PID_MAX)) {
		tap_ok(0, "a fork bomb: set-up (pid_max %s)", BOMB_PID_MAX);
		return;
	}
	parent = fork();
	if (parent == 0) {
		close(go[1]);
		bomb_parent(go[0]);
	}
	close(go[0]);
	do {		/* until fork has said no and no more start */
		made = bomb->made;
		usleep(300000);
	} while (parent > 0 && (bomb->eagain + bomb->enomem == 0 ||
				bomb->made != made));
	close(go[1]);
	waitpid(parent, &st, 0);
	write_file("/proc/sys/kernel/pid_max", old_max);
	free1 = sysinfo_free_pages();
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && bomb->made > 100,
	       "a fork bomb: %d processes until fork said no (EAGAIN %d, "
	       "ENOMEM %d), all gone (%s)", bomb->made, bomb->eagain,
	       bomb->enomem, status_str(st));
	tap_ok(free1 >= free0 - LEAK_SLACK, "... and every page is back "
	       "(free pages %ld -> %ld)", free0, free1);
	munmap(bomb, PAGE_SIZE);
}

/* ---- running the classes ------------------------------------------------ */

struct class {
	const char *what;
	void (*body)(void);
	int zpk_only;		/* exhausts the machine's memory */
	int sig;		/* the signal it may die of (0: none) */
};

static const struct class classes[] = {
	{ "MAP_POPULATE", populate, 1, SIGKILL },
	{ "files in /tmp", tmp_files, 1, SIGKILL },
	{ "page tables", page_tables, 1, SIGKILL },
	{ "brk", brk_grow, 1, SIGKILL },
	{ "the stack, no handler", stack_overflow, 0, SIGSEGV },
	{ "the stack, a SIGSEGV handler", stack_overflow_handled, 0, SIGSEGV },
};
#define NCLASSES	((int)(sizeof(classes) / sizeof(classes[0])))

static void run_class(const struct class *k)
{
	long free0 = sysinfo_free_pages(), free1;
	int st = -1, hp[2], ran;
	char c;
	pid_t pid;

	if (pipe(hp))
		return;
	pid = fork();
	if (pid == 0) {
		close(hp[0]);
		handler_pipe = hp[1];
		/* The victim when memory runs out: not -1000 as we are. */
		write_file("/proc/self/oom_score_adj", "1000");
		k->body();
	}
	close(hp[1]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	if (k->body == tmp_files)
		remove_tmp_files();
	ran = read(hp[0], &c, 1) != 0;
	close(hp[0]);
	free1 = sysinfo_free_pages();
	tap_ok((WIFEXITED(st) && WEXITSTATUS(st) == 0 && k->sig != SIGSEGV) ||
	       (WIFSIGNALED(st) && WTERMSIG(st) == k->sig),
	       "%s until it runs out: %s", k->what, status_str(st));
	if (k->body == stack_overflow_handled)
		tap_ok(!ran, "... the handler never ran");
	if (is_zpk())
		tap_ok(free1 >= free0 - LEAK_SLACK, "... every page is back "
		       "(free pages %ld -> %ld)", free0, free1);
	else
		tap_skip("zpk only: free pages are system-wide on Linux");
}

/* Holds all but LEFT_PAGES of free memory, written, until killed. */
static pid_t ballast(void)
{
	long pages = sysinfo_free_pages() - LEFT_PAGES;
	int ready[2];
	pid_t pid;
	char c;

	if (pages <= 0 || pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *p = map(pages * PAGE_SIZE, 0);

		never_oom_killed();
		if (p)
			madvise(p, pages * PAGE_SIZE, MADV_POPULATE_WRITE);
		write(ready[1], "r", 1);
		for (;;)
			pause();
	}
	if (pid < 0 || read(ready[0], &c, 1) != 1)
		pid = -1;
	close(ready[0]);
	close(ready[1]);
	return pid;
}

int main(void)
{
	int zpk = is_zpk();
	pid_t ball = -1;

	tap_plan(2 * NCLASSES + 1 + 2);
	if (zpk) {
		never_oom_killed();
		ball = ballast();
	}
	for (int i = 0; i < NCLASSES; i++) {
		if (classes[i].zpk_only && !zpk) {
			tap_skip("zpk only: %s until the host's memory runs "
				 "out", classes[i].what);
			tap_skip("zpk only: free pages");
			continue;
		}
		run_class(&classes[i]);
	}
	if (zpk) {
		fork_bomb();
	} else {
		tap_skip("zpk only: a fork bomb on the host");
		tap_skip("zpk only: free pages");
	}
	if (ball > 0) {
		kill(ball, SIGKILL);
		waitpid(ball, NULL, 0);
	}
	tap_done();
}
