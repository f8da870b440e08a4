/* tools/fuzz/fuzz.c — zpk's system-call fuzzer, run as PID 1: children
 * make random calls (gen.c) under a watchdog, one after the other; then
 * no page may be missing, and fresh memory must still read zeros.
 * docs/robustness.md says how to run it and replay a child. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define STALL_MS	50	/* no call finished for this long: nudged */
#define HANG_S		20	/* not gone this long after SIGKILL: a hang */
#define WARMUP		2	/* children before the free-page baseline */

static struct shared *sh;	/* shared with the child */
static uint64_t seed;
static long calls_per_child = 500;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* SIGCHLD cuts the runner's sleeps short: a child that ended is seen at
 * once. */
static void on_sigchld(int sig)
{
	(void)sig;
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static long free_pages(void)
{
	struct sysinfo si;

	if (sysinfo(&si))
		return -1;
	return (long)(si.freeram * si.mem_unit / 4096);
}

/*
 * One line of the runner's on the console, "fuzz: " first. A newline
 * before it: children write bytes of every kind to the console too, and
 * the line must start a line of its own for the scripts that read it.
 */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	char line[700];
	va_list ap;
	int n = snprintf(line, sizeof(line), "\nfuzz: ");

	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	write(1, line, n);
}

/* ---- the child ---------------------------------------------------------- */

/*
 * One call, by the raw instruction: a call may move the TLS base or the
 * stack, so nothing after it may need either. The child side of fork,
 * vfork and clone returns 0 and exits at once, before touching a stack
 * that may be another's or garbage.
 */
static long raw_call(const struct call *c)
{
	register long r10 asm("r10") = c->arg[3];
	register long r8 asm("r8") = c->arg[4];
	register long r9 asm("r9") = c->arg[5];
	long forks = call_forks(c->nr), ret;

	asm volatile("syscall\n\t"
		     "test %[forks], %[forks]\n\t"
		     "jz 1f\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "mov $60, %%eax\n\t"
		     "xor %%edi, %%edi\n\t"
		     "syscall\n"
		     "1:"
		     : "=a"(ret)
		     : "a"(c->nr), "D"(c->arg[0]), "S"(c->arg[1]),
		       "d"(c->arg[2]), "r"(r10), "r"(r8), "r"(r9),
		       [forks] "r"(forks)
		     : "rcx", "r11", "memory");
	return ret;
}

static void raw_write(int fd, const char *s, long n)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"((long)SYS_write), "D"(fd),
		     "S"(s), "d"(n) : "rcx", "r11", "memory");
}

static void log_call(long i, const struct call *c)
{
	char line[600];
	int n = snprintf(line, 20, "call %ld: ", i);

	call_format(c, line + n, sizeof(line) - n - 1);
	n = (int)strlen(line);
	line[n++] = '\n';
	raw_write(LOG_FD, line, n);
}

static void log_ret(long ret)
{
	char line[40];

	raw_write(LOG_FD, line, snprintf(line, sizeof(line), "  = %ld\n",
					 ret));
}

/* Its own world, then ncalls calls; replay prints each on LOG_FD. */
static void __attribute__((noreturn)) child_main(long index, int replay)
{
	struct call c;
	long ret;

	rnd_seed(child_seed(seed, index));
	setsid();	/* group signals stay in the child's own group */
	world_setup();
	for (long i = 0; i < calls_per_child; i++) {
		call_draw(&c);
		sh->cur = c;
		sh->index = i;
		if (replay)
			log_call(i, &c);
		ret = raw_call(&c);
		sh->calls++;
		if (replay)
			log_ret(ret);
	}
	_exit(0);
}

/* ---- the runner --------------------------------------------------------- */

struct tally {
	long children, calls, exited, signalled, nudged, stalled;
	long sigs[65];
};

static void print_last_call(const char *why, long index)
{
	char buf[600];
	struct call c = sh->cur;

	c.desc = call_desc_of(c.nr);
	call_format(&c, buf, sizeof(buf));
	say("%s: child %ld, call %ld: %s", why, index, sh->index, buf);
}

static void print_replay(long index)
{
	say("replay: fuzz -s %#llx -c %ld -r %ld", (unsigned long long)seed,
	    calls_per_child, index);
}

/* Kills whatever is left (init is spared by kill(-1)) and reaps it all;
 * -1 if something outlives SIGKILL by HANG_S. */
static int reap_all(void)
{
	double t0 = now();
	int st;

	kill(-1, SIGKILL);
	for (;;) {
		pid_t p = waitpid(-1, &st, WNOHANG);

		if (p < 0 && errno == ECHILD)
			return 0;
		if (p > 0)
			continue;
		if (now() - t0 > HANG_S)
			return -1;
		kill(-1, SIGKILL);
		msleep(10);
	}
}

/*
 * Runs child index under the watchdog. A child whose calls stop moving
 * for STALL_MS (a call that blocks, a stopped child) gets SIGUSR1, which
 * its handler takes (the call ends with EINTR and the child goes on);
 * if that does not move it either, SIGKILL. One that outlives SIGKILL is
 * a hang, the kernel's fault. 0, or -1 on a hang.
 */
static int run_child(long index, int replay, struct tally *t)
{
	unsigned long last = 0;
	double moved = now(), killed = 0;
	int st = 0, nudged = 0;
	pid_t pid;

	memset((void *)sh, 0, sizeof(*sh));
	sh->index = -1;
	pid = fork();
	if (pid == 0)
		child_main(index, replay);
	if (pid < 0) {
		say("fork: %s", strerror(errno));
		return 0;
	}
	while (waitpid(pid, &st, WNOHANG) != pid) {
		msleep(10);
		if (sh->calls != last) {
			last = sh->calls;
			moved = now();
			nudged = 0;
		} else if (killed) {
			if (now() - killed < HANG_S)
				continue;
			print_last_call("HANG: still there after SIGKILL",
					index);
			print_replay(index);
			return -1;
		} else if (now() - moved > (nudged + 1) * STALL_MS / 1e3) {
			if (nudged++ == 0) {
				kill(pid, SIGUSR1);
				t->nudged++;
				continue;
			}
			kill(pid, SIGKILL);
			killed = now();
			t->stalled++;
			if (replay)
				print_last_call("stalled, killed", index);
		}
	}
	t->children++;
	t->calls += (long)sh->calls;
	if (WIFSIGNALED(st) && !killed) {
		t->signalled++;
		t->sigs[WTERMSIG(st) & 63]++;
	} else if (!killed) {
		t->exited++;
	}
	if (reap_all()) {
		print_last_call("HANG: a descendant outlived SIGKILL", index);
		print_replay(index);
		return -1;
	}
	return 0;
}

/* ---- keeping every child's world the same ---------------------------------- */

/* The directories whose names a child may add to (a cwd it chdir'ed to),
 * as they were at the start. */
static const char *const watched[] = {
	"/", "/tmp", "/dev", "/bin", "/etc", "/sbin", "/tests", "/proc",
};
#define NWATCHED	((int)(sizeof(watched) / sizeof(watched[0])))
static char before[NWATCHED][4096];	/* "name\0name\0...\0" */

/*
 * The names in dir into list (n bytes), each NUL-terminated, "" last,
 * "." and ".." left out. By getdents64 into the caller's buffers: the
 * runner allocates nothing between children, so that its own heap never
 * shows as a leak.
 */
static void list_dir(const char *dir, char *list, size_t n)
{
	char buf[4096];
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	size_t o = 0;
	long got;

	while (fd >= 0 && (got = syscall(SYS_getdents64, fd, buf,
					 sizeof(buf))) > 0)
		for (long i = 0; i < got;) {
			struct dirent *de = (struct dirent *)(buf + i);
			size_t len = strlen(de->d_name) + 1;

			i += de->d_reclen;
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, "..") || o + len + 1 > n)
				continue;
			memcpy(list + o, de->d_name, len);
			o += len;
		}
	list[o] = 0;
	if (fd >= 0)
		close(fd);
}

static int has_name(const char *list, const char *name)
{
	for (const char *p = list; *p; p += strlen(p) + 1)
		if (!strcmp(p, name))
			return 1;
	return 0;
}

/* rm_rf's buffers, a pair per level, touched once at the start (static,
 * not on the stack, for the same reason as list_dir's). */
#define RM_DEPTH	8
static char rm_names[RM_DEPTH + 1][4096], rm_path[RM_DEPTH + 1][8192];

static void rm_rf(const char *path, int depth)
{
	char *names = rm_names[depth], *sub = rm_path[depth];

	if (unlink(path) == 0 || errno != EISDIR || depth == RM_DEPTH)
		return;
	list_dir(path, names, sizeof(rm_names[0]));
	for (const char *p = names; *p; p += strlen(p) + 1) {
		snprintf(sub, sizeof(rm_path[0]), "%.4000s/%.255s", path, p);
		rm_rf(sub, depth + 1);
	}
	rmdir(path);
}

/* Removes what the last child added; /tmp/fuzz goes whole. */
static void remove_new_names(void)
{
	char names[4096], path[4400];

	for (int i = 0; i < NWATCHED; i++) {
		list_dir(watched[i], names, sizeof(names));
		for (const char *p = names; *p; p += strlen(p) + 1) {
			if (has_name(before[i], p))
				continue;
			snprintf(path, sizeof(path), "%s/%.255s",
				 strcmp(watched[i], "/") ? watched[i] : "", p);
			rm_rf(path, 0);
		}
	}
}

/* The settings a child may change for everyone, as they were. */
static char zero_page[64], pid_max[32];

static void read_setting(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY);
	ssize_t r = fd >= 0 ? read(fd, buf, n - 1) : -1;

	buf[r > 0 ? r : 0] = 0;
	if (fd >= 0)
		close(fd);
}

static void write_setting(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0 && *val) {
		write(fd, val, strlen(val));
		close(fd);
	} else if (fd >= 0) {
		close(fd);
	}
}

/* /proc/1's inodes live as long as the runner (PID 1), made on a child's
 * first lookup: all made now, before the baseline, they are no leak. */
static void fill_proc_1(void)
{
	char names[4096], path[300];
	struct stat st;

	list_dir("/proc/1", names, sizeof(names));
	for (const char *p = names; *p; p += strlen(p) + 1) {
		snprintf(path, sizeof(path), "/proc/1/%.255s", p);
		stat(path, &st);
	}
}

static void save_settings(void)
{
	char *l, *r;

	read_setting("/proc/sys/vm/zero_page", zero_page, sizeof(zero_page));
	l = strchr(zero_page, '[');
	r = l ? strchr(l, ']') : NULL;
	if (l && r) {		/* "special [refcount] off" -> "refcount" */
		memmove(zero_page, l + 1, r - l - 1);
		zero_page[r - l - 1] = 0;
	}
	read_setting("/proc/sys/kernel/pid_max", pid_max, sizeof(pid_max));
	for (int i = 0; i < NWATCHED; i++)
		list_dir(watched[i], before[i], sizeof(before[i]));
	fill_proc_1();
	memset(rm_names, 1, sizeof(rm_names));
	memset(rm_path, 1, sizeof(rm_path));
}

/* After each child: its names gone, the settings back, and (zpk) every
 * mm and page swept by mm_verify, whose complaint under mm_verify=exit
 * stops the kernel with the child's number the last line before it. */
/* System V shared memory outlives its maker, as on Linux: every segment
 * a child left goes (the runner makes none), a buffer's worth of them
 * a pass, until a pass removes none. Static buffer, as above. */
static void remove_shm_segments(void)
{
	static char buf[16384];
	int found = 1;

	/* a removed one still mapped stays listed: a bound on the passes */
	for (int pass = 0; found && pass < 64; pass++) {
		int fd = open("/proc/sysvipc/shm", O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		char *p;

		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = 0;
		found = 0;
		for (p = strchr(buf, '\n'); p && p[1];
		     p = strchr(p + 1, '\n')) {
			int key, id;

			if (sscanf(p + 1, "%d %d", &key, &id) == 2 &&
			    syscall(SYS_shmctl, id, 0 /* IPC_RMID */, NULL) == 0)
				found = 1;
		}
	}
}

/* A flock or OFD lock belongs to the open file: one a child took through
 * a descriptor it inherited from the runner (the console, LOG_FD) stays
 * until the runner lets it go, as on Linux. */
static void unlock_runner_files(void)
{
	struct flock unlock = { .l_type = F_UNLCK, .l_whence = SEEK_SET };
	static const int mine[] = { 0, 1, 2, LOG_FD };

	for (unsigned i = 0; i < sizeof(mine) / sizeof(mine[0]); i++) {
		flock(mine[i], LOCK_UN);
		fcntl(mine[i], F_OFD_SETLK, &unlock);
	}
}

static void restore_world(void)
{
	remove_new_names();
	remove_shm_segments();
	unlock_runner_files();
	write_setting("/proc/sys/vm/zero_page", zero_page);
	write_setting("/proc/sys/kernel/pid_max", pid_max);
	write_setting("/proc/sys/vm/mm_verify", "1");
}

/* Child index, announced first: if the kernel stops, the last line
 * names the child to replay. */
static int run_one(long index, struct tally *t)
{
	int hung;

	say("child %ld", index);
	hung = run_child(index, 0, t);
	restore_world();
	return hung;
}

/* ---- the checks after a run ------------------------------------------------ */

/* Fresh anonymous memory read before any write: the zero page under
 * special and refcount, so it must read all zeros. 1 if it does. */
static int fresh_memory_zeros(void)
{
	const size_t len = 64 * 4096;
	unsigned char *p = mmap(NULL, len, PROT_READ,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok = p != MAP_FAILED;

	for (size_t i = 0; ok && i < len; i++)
		if (p[i]) {
			say("ZERO PAGE: byte %#zx of a fresh "
				"mapping is %#x", i, p[i]);
			ok = 0;
		}
	if (p != MAP_FAILED)
		munmap(p, len);
	return ok;
}

static void report(const struct tally *t, double secs)
{
	say("done: seed %#llx, %ld children, %ld calls in %.1f s, "
		"%.0f calls/s; %ld exited, %ld died of a signal, %ld stalled "
		"and were killed (%ld stalls broken by SIGUSR1)",
		(unsigned long long)seed, t->children, t->calls, secs,
		secs > 0 ? t->calls / secs : 0, t->exited, t->signalled,
		t->stalled, t->nudged);
	for (int s = 1; s < 65; s++)
		if (t->sigs[s])
			say(" signal %d (%s): %ld", s,
				strsignal(s), t->sigs[s]);
}

static void usage(void)
{
	dprintf(2, "usage: fuzz [-s SEED] [-t SECONDS | -n CHILDREN] "
		"[-c CALLS] [-r INDEX] [--any-pid]\n"
		"  runs children of CALLS random system calls each (default "
		"500), as PID 1;\n  -r replays child INDEX of SEED alone, "
		"printing each call\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long secs = 0, children = -1, replay = -1, base, after;
	struct tally t = { 0 };
	int any_pid = 0, hung = 0, ok = 1;
	double t0;

	seed = (uint64_t)time(NULL);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--any-pid"))
			any_pid = 1;
		else if (i + 1 >= argc)
			usage();
		else if (!strcmp(argv[i], "-s"))
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-t"))
			secs = atol(argv[++i]);
		else if (!strcmp(argv[i], "-n"))
			children = atol(argv[++i]);
		else if (!strcmp(argv[i], "-c"))
			calls_per_child = atol(argv[++i]);
		else if (!strcmp(argv[i], "-r"))
			replay = atol(argv[++i]);
		else
			usage();
	}
	/* As PID 1 only, kill(-1) spares the runner and nothing else runs:
	 * never let it loose on a real system by accident. */
	if (getpid() != 1 && !any_pid) {
		dprintf(2, "fuzz: runs as PID 1 (zpk-run fuzz ...); "
			"--any-pid overrides\n");
		return 2;
	}
	if (secs <= 0 && children < 0 && replay < 0)
		secs = 20;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || dup2(1, LOG_FD) != LOG_FD)
		return 2;
	save_settings();
	signal(SIGCHLD, on_sigchld);
	say("seed %#llx, %ld calls per child, %s%ld %s",
		(unsigned long long)seed, calls_per_child,
		replay >= 0 ? "replaying child " : secs ? "for " : "",
		replay >= 0 ? replay : secs ? secs : children,
		replay >= 0 ? "" : secs ? "s" : "children");
	/* The warm-up children take the runner's first-use allocations. */
	for (long i = -WARMUP; i < 0; i++)
		run_one(i, &t);
	memset(&t, 0, sizeof(t));
	base = free_pages();
	t0 = now();
	if (replay >= 0) {	/* the one child, its calls printed */
		hung = run_child(replay, 1, &t);
		restore_world();
	}
	for (long i = 0; !hung && replay < 0; i++) {
		if (secs ? now() - t0 >= secs : i >= children)
			break;
		hung = run_one(i, &t);
	}
	/* Before any new output: printf's first use of a deeper stack
	 * would count as a leak. */
	after = free_pages();
	report(&t, now() - t0);
	if (hung)
		return 3;
	say("free pages %ld before, %ld after", base, after);
	if (after < base) {
		say("LEAK: %ld pages", base - after);
		ok = 0;
	}
	if (!fresh_memory_zeros())
		ok = 0;
	else
		say("fresh mappings read zeros");
	say("%s", ok ? "clean" : "FAILED");
	return ok ? 0 : 1;
}
