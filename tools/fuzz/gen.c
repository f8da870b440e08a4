/* tools/fuzz/gen.c — a child's world and the values drawn from it: files
 * under /tmp/fuzz, an arena of memory of every kind at fixed addresses,
 * descriptors of every kind, and interesting numbers, all from one seed. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define PAGE		4096UL
/* The arena: fixed addresses, so that a replay sees the same pointers. */
#define ARENA		0x200000000UL
#define A_RW		(ARENA + 0 * PAGE)	/* 16 pages, random bytes */
#define A_RO		(ARENA + 32 * PAGE)	/* 4 pages, read in: zeros */
#define A_NONE		(ARENA + 40 * PAGE)	/* 2 pages PROT_NONE */
#define A_HALF		(ARENA + 48 * PAGE)	/* 1 page, a hole after it */
#define A_UNTOUCHED	(ARENA + 64 * PAGE)	/* 64 pages never touched */
#define A_FPRIV		(ARENA + 160 * PAGE)	/* /tmp/fuzz/f, private */
#define A_FSHARED	(ARENA + 176 * PAGE)	/* /tmp/fuzz/f, shared */
#define A_SHM		(ARENA + 192 * PAGE)	/* shared anonymous */
#define A_DATA		(ARENA + 208 * PAGE)	/* strings and structures */
#define DATA_PAGES	4
#define A_END		(ARENA + 256 * PAGE)

static uint64_t state;

/* splitmix64: every child's sequence follows from its seed alone. */
uint64_t rnd(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rnd_seed(uint64_t seed)
{
	state = seed;
}

uint64_t child_seed(uint64_t seed, long index)
{
	uint64_t keep = state, s;

	state = seed ^ ((uint64_t)index * 0xd1342543de82ef95ULL);
	s = rnd();
	state = keep;
	return s;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

#define PICK(a)	((a)[below(sizeof(a) / sizeof((a)[0]))])

/* ---- the world -------------------------------------------------------- */

static int fds[24], nfds;
static const char *paths[48], *wpaths[24];
static int npaths, nwpaths;
static char *data_next;		/* the bump pointer in A_DATA */

/* A copy of s in the arena, so that path pointers are the arena's. */
static const char *arena_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = data_next;

	if (p + n > (char *)A_DATA + DATA_PAGES * PAGE - 2 * PAGE)
		return "/";
	memcpy(p, s, n);
	data_next += (n + 7) & ~7UL;
	return p;
}

static void add_path(const char *s, int removable)
{
	const char *p = arena_str(s);

	if (npaths < (int)(sizeof(paths) / sizeof(*paths)))
		paths[npaths++] = p;
	if (removable && nwpaths < (int)(sizeof(wpaths) / sizeof(*wpaths)))
		wpaths[nwpaths++] = p;
}

/* Paths: a call that removes names (unlink, rmdir, rename, ...) gets only
 * the child's own (K_PATHW) or ones the kernel must refuse; /bin, /dev,
 * /tests stay, so that every child finds the same world. */
static void make_paths(void)
{
	static char longname[300], longpath[PAGE + 64];
	static const char *const mine[] = {
		FUZZ_DIR "/f", FUZZ_DIR "/new", FUZZ_DIR "/d", FUZZ_DIR "/d/b",
		FUZZ_DIR "/d/", FUZZ_DIR "/exe", FUZZ_DIR "/bad",
		FUZZ_DIR "/d/../f", FUZZ_DIR "//new2", "fz_a", "fz_d",
		"fz_d/fz_b", "/proc/self/status", "/proc/fz_new",
		"/proc/sys/vm/zero_page", "/", ".", "..", "",
	};
	static const char *const theirs[] = {
		"/proc", "/proc/self", "/proc/self/maps", "/proc/self/mem",
		"/proc/self/exe", "/proc/self/pagemap", "/proc/1/status",
		"/proc/meminfo", "/proc/sys/kernel/pid_max",
		"/proc/self/oom_score_adj", "/dev", "/dev/zero", "/dev/null",
		"/dev/console", "/bin/true", "/bin", "/tmp", FUZZ_DIR,
		FUZZ_DIR "/f/x", "////tmp///fuzz//f",
	};

	for (unsigned i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
		add_path(mine[i], 1);
	for (unsigned i = 0; i < sizeof(theirs) / sizeof(theirs[0]); i++)
		add_path(theirs[i], 0);
	memset(longname, 'n', sizeof(longname) - 1);
	snprintf(longpath, sizeof(longpath), FUZZ_DIR "/%s", longname);
	add_path(longpath, 1);
	memset(longpath, '/', PAGE + 10);
	longpath[PAGE + 10] = 0;
	add_path(longpath, 0);
}

static void map_at(unsigned long addr, unsigned long len, int prot,
		   int flags, int fd)
{
	mmap((void *)addr, len, prot, flags | MAP_FIXED_NOREPLACE, fd, 0);
}

static void fill(unsigned long addr, unsigned long len)
{
	for (uint64_t *p = (uint64_t *)addr; len >= 8; len -= 8)
		*p++ = rnd();
}

/* A new file at path holding buf[0..n). */
static void write_file(const char *path, const void *buf, size_t n,
		       int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	if (fd >= 0) {
		write(fd, buf, n);
		close(fd);
	}
}

static void copy_file(const char *from, const char *to)
{
	char buf[PAGE];
	int in = open(from, O_RDONLY);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n;

	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		write(out, buf, n);
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
}

static void make_files(void)
{
	/* An ELF header cut short: execve's ENOEXEC. */
	static const char bad_elf[] = "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\2\0";

	mkdir(FUZZ_DIR, 0755);
	mkdir(FUZZ_DIR "/d", 0755);
	fill(A_RW, 16 * PAGE);
	write_file(FUZZ_DIR "/f", (void *)A_RW, 3 * PAGE, 0644);
	write_file(FUZZ_DIR "/d/b", (void *)A_RW, 100, 0644);
	write_file(FUZZ_DIR "/bad", bad_elf, sizeof(bad_elf), 0755);
	copy_file("/bin/true", FUZZ_DIR "/exe");
}

static void add_fd(int fd)
{
	if (fd >= 0 && fd != LOG_FD && nfds < (int)(sizeof(fds) / sizeof(*fds)))
		fds[nfds++] = fd;
}

/* Descriptors of every kind: files (read-write, read-only, the running
 * program), both ends of a pipe, /proc files, devices, the tty,
 * directories. */
static void make_fds(void)
{
	static const struct { const char *path; int flags; } opens[] = {
		{ FUZZ_DIR "/f", O_RDWR }, { FUZZ_DIR "/d/b", O_RDONLY },
		{ "/proc/self/exe", O_RDONLY }, { "/proc/self/status", O_RDONLY },
		{ "/proc/self/maps", O_RDONLY }, { "/proc/self/mem", O_RDWR },
		{ "/proc/self/pagemap", O_RDONLY }, { "/proc/meminfo", O_RDONLY },
		{ "/proc/sys/vm/zero_page", O_RDWR }, { "/dev/zero", O_RDWR },
		{ "/dev/null", O_RDWR }, { "/dev/console", O_RDWR },
		{ "/", O_RDONLY | O_DIRECTORY }, { "/proc", O_RDONLY },
		{ FUZZ_DIR, O_RDONLY | O_DIRECTORY },
	};
	int p[2], null = open("/dev/null", O_RDWR);

	/* 0, 1 and 2 are /dev/null: a read of the console blocks, and
	 * the pool's own tty descriptor is one of many. */
	for (int fd = 0; fd < 3; fd++)
		dup2(null, fd);
	close(null);
	for (unsigned i = 0; i < sizeof(opens) / sizeof(opens[0]); i++)
		add_fd(open(opens[i].path, opens[i].flags));
	/* Two pipes, one of them O_NONBLOCK; each holds some data. */
	for (int i = 0; i < 2 && pipe2(p, i ? O_NONBLOCK : 0) == 0; i++) {
		add_fd(p[0]);
		add_fd(p[1]);
		write(p[1], (void *)A_RW, 100 + 4000 * i);
	}
}

/* Structures a call may be given whole: a short sleep, iovecs over the
 * arena (one of them bad), a NULL-terminated argv. */
static struct timespec *ts_short, *ts_bad;
static struct iovec *iovs;
static char **argv_ok;

static void *data_alloc(size_t n)
{
	void *p = data_next;

	data_next += (n + 15) & ~15UL;
	return p;
}

static void make_structs(void)
{
	static const unsigned long bad_bases[] = {
		0, 0xffff888000000000UL, A_NONE, A_HALF + PAGE - 8,
	};

	ts_short = data_alloc(sizeof(*ts_short));
	*ts_short = (struct timespec){ 0, 1000 };
	ts_bad = data_alloc(sizeof(*ts_bad));
	*ts_bad = (struct timespec){ 0, 1000000000 };
	iovs = data_alloc(8 * sizeof(*iovs));
	for (int i = 0; i < 8; i++) {
		iovs[i].iov_base = (void *)(A_RW + below(15 * PAGE));
		iovs[i].iov_len = below(PAGE);
	}
	iovs[6].iov_base = (void *)PICK(bad_bases);
	argv_ok = data_alloc(2 * sizeof(char *));
	argv_ok[0] = (char *)arena_str("/bin/true");
	argv_ok[1] = NULL;
}

static void on_signal(int sig)
{
	(void)sig;
}

/* The handler's way back: rt_sigreturn (musl keeps its own private). */
void fuzz_restore_rt(void);
asm(".text\n"
    "fuzz_restore_rt:\n\t"
    "mov $15, %eax\n\t"
    "syscall\n");

/* Linux's struct sigaction as rt_sigaction takes it. */
struct k_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

/*
 * Signals a call sends (kill, a pipe without readers, ...) go to a handler
 * that returns, so that they try the signal frame, not end the child;
 * faults keep their default action: a handler would fault again. By the
 * raw call: musl keeps 32 to 34 for itself. A call may change any of
 * these again.
 */
static void catch_signals(void)
{
	struct k_sigaction sa = { on_signal, 0x04000000 /* SA_RESTORER */,
				  fuzz_restore_rt, 0 };

	for (int sig = 1; sig < 65; sig++)
		if (sig != SIGSEGV && sig != SIGBUS && sig != SIGILL &&
		    sig != SIGFPE && sig != SIGTRAP && sig != SIGSYS)
			syscall(SYS_rt_sigaction, sig, &sa, NULL, 8);
}

int world_setup(void)
{
	int err = 0;

	map_at(A_RW, 16 * PAGE, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1);
	map_at(A_DATA, DATA_PAGES * PAGE, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1);
	data_next = (char *)A_DATA;
	make_files();
	map_at(A_RO, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	for (unsigned long a = A_RO; a < A_RO + 4 * PAGE; a += PAGE)
		err |= *(volatile char *)a;	/* zero-page PTEs */
	map_at(A_NONE, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1);
	map_at(A_HALF, PAGE, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1);
	map_at(A_UNTOUCHED, 64 * PAGE, PROT_READ | PROT_WRITE,
	       MAP_PRIVATE | MAP_ANONYMOUS, -1);
	map_at(A_SHM, 4 * PAGE, PROT_READ | PROT_WRITE,
	       MAP_SHARED | MAP_ANONYMOUS, -1);
	make_fds();
	map_at(A_FPRIV, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fds[0]);
	map_at(A_FSHARED, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
	       fds[0]);
	make_paths();
	make_structs();
	catch_signals();
	chdir(FUZZ_DIR);
	return err;
}

/* ---- values ----------------------------------------------------------- */

static long any_value(void)
{
	static const long special[] = {
		0, 1, -1, 2, 7, 8, 16, 63, 64, 255, 256, 4095, 4096, 4097,
		0x7fffffff, -0x80000000L, 0x80000000L, 0xffffffffL,
		0x100000000L, 0x7fffffffffffffffL, (long)0x8000000000000000UL,
		-4096, (long)0xffff888000000000UL, (long)0xffffffff80100000UL,
		0x0000800000000000L, 0x00007ffffffff000L,
	};

	switch (below(4)) {
	case 0:
		return PICK(special);
	case 1:
		return (long)(1UL << below(64));
	case 2:
		return (long)below(64) - 8;
	default:
		return (long)rnd();
	}
}

/* A pointer: into the arena's kinds of memory, or bad in every way. */
static long buf_value(void)
{
	static const unsigned long bad[] = {
		0, 1, 4095, 4096, 0x400000, A_NONE, A_NONE + 100,
		A_HALF + PAGE - 1, A_HALF + PAGE - 8, A_HALF + PAGE,
		0x00007ffffffff000UL, 0x00007fffffffefffUL,
		0x0000800000000000UL, 0x8000000000000000UL,
		0xdead000000000000UL, 0xffff800000000000UL,
		0xffffffffff600000UL, 0xfffffffffffff000UL, ~0UL,
	};
	static const unsigned long good[] = {
		A_RW, A_RO, A_UNTOUCHED, A_FPRIV, A_FSHARED, A_SHM, A_HALF,
	};

	switch (below(8)) {
	case 0:
	case 1:
		return (long)PICK(bad);
	case 2:		/* the direct map: RAM, kernel data, the zero page */
		return (long)(0xffff888000000000UL + below(64UL << 20));
	case 3:		/* the kernel image */
		return (long)(0xffffffff80100000UL + below(2UL << 20));
	case 4:
		return (long)(A_RW + below(16 * PAGE));
	default:
		return (long)(PICK(good) + (below(2) ? below(2 * PAGE) : 0));
	}
}

static long len_value(void)
{
	static const long sizes[] = {
		0, 1, 2, 7, 8, 15, 16, 64, 100, 4095, 4096, 4097, 8192,
		65536, 1 << 20, 1 << 30, 1L << 31, 1L << 32, -1, -4096,
		0x7ffffffff000L, 0x7fffffffffffffffL,
	};

	return below(3) ? PICK(sizes) : (long)below(3 * PAGE);
}

static long addr_value(void)
{
	static const unsigned long addrs[] = {
		0, 4096, 0x10000, 0x400000, A_RW, A_RO, A_NONE, A_HALF,
		A_HALF + PAGE, A_UNTOUCHED, A_FPRIV, A_SHM, A_END,
		0x00007ffffffff000UL - 4096, 0x00007ffffffff000UL,
		0x0000800000000000UL, 0xffff888000000000UL,
		0xffffffff80100000UL, A_RW + 1,
	};

	switch (below(4)) {
	case 0:
		return (long)(ARENA + below(256) * PAGE);
	case 1:
		return (long)(below(1UL << 35) & ~(PAGE - 1));
	default:
		return (long)PICK(addrs);
	}
}

static long flags_value(void)
{
	switch (below(4)) {
	case 0:
		return 0;
	case 1:
		return (long)(1UL << below(32));
	case 2:
		return (long)((1UL << below(32)) | (1UL << below(32)) |
			      (1UL << below(32)));
	default:
		return any_value();
	}
}

static long pid_value(void)
{
	static const long pids[] = { 0, -1, 1, 2, -2, 99999, 0x7fffffff,
				     -0x80000000L, 32768 };

	return below(3) ? getpid() : PICK(pids);
}

static long time_value(void)
{
	switch (below(5)) {
	case 0:
		return buf_value();
	case 1:
		return (long)ts_bad;
	default:
		return (long)ts_short;
	}
}

static long argv_value(void)
{
	switch (below(3)) {
	case 0:
		return (long)argv_ok;
	case 1:
		return 0;
	default:
		return buf_value();
	}
}

static long map_value(void)
{
	static const long types[] = {
		MAP_PRIVATE, MAP_SHARED, MAP_PRIVATE | MAP_ANONYMOUS,
		MAP_SHARED | MAP_ANONYMOUS, 0, MAP_SHARED | MAP_PRIVATE,
	};
	static const long extra[] = {
		0, MAP_FIXED, MAP_POPULATE, MAP_FIXED_NOREPLACE, MAP_GROWSDOWN,
		MAP_LOCKED, MAP_NORESERVE, 0x40 /* MAP_32BIT */,
	};

	return below(8) ? PICK(types) | PICK(extra) | PICK(extra)
			: flags_value();
}

static long open_value(void)
{
	static const long modes[] = { O_RDONLY, O_WRONLY, O_RDWR, 3 };
	static const long extra[] = {
		0, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NONBLOCK, O_DIRECTORY,
		O_CLOEXEC, O_NOFOLLOW, O_PATH, O_TMPFILE,
	};

	return below(8) ? PICK(modes) | PICK(extra) | PICK(extra)
			: flags_value();
}

static long fd_value(void)
{
	static const long bad[] = { -1, 62, 64, 1000, 0x7fffffff, -100 };

	if (below(8) == 0) {
		long fd = PICK(bad);

		return fd == LOG_FD ? fd - 1 : fd;
	}
	return nfds ? fds[below(nfds)] : 0;
}

static long value_of(int kind)
{
	if (below(10) == 0)	/* now and then, anything at all */
		return any_value();
	switch (kind) {
	case K_FD:
		return fd_value();
	case K_BUF:
		return buf_value();
	case K_LEN:
		return len_value();
	case K_PATH:
		return below(10) ? (long)paths[below(npaths)] : buf_value();
	case K_PATHW:
		return below(10) ? (long)wpaths[below(nwpaths)] : buf_value();
	case K_FLAGS:
		return flags_value();
	case K_PID:
		return pid_value();
	case K_SIG:
		return below(4) ? (long)below(65) : any_value();
	case K_ADDR:
		return addr_value();
	case K_IOV:
		return below(4) ? (long)(iovs + below(8)) : buf_value();
	case K_SMALL:
		return (long)below(20) - 1;
	case K_OFF:
		return below(2) ? (long)below(4 * PAGE) : any_value();
	case K_MODE:
		return below(2) ? 0644 : any_value();
	case K_TIME:
		return time_value();
	case K_ARGV:
		return argv_value();
	case K_PROT:
		return below(6) ? (long)below(8) : flags_value();
	case K_MAP:
		return map_value();
	case K_OPEN:
		return open_value();
	default:
		return any_value();
	}
}

/* ---- calls ------------------------------------------------------------- */

/* Calls that end the child, or stop it until a signal, whatever their
 * arguments: drawn 1 time in 16, so that a child makes more calls than
 * forks and stalls. */
static int ends_child(long nr)
{
	return nr == SYS_exit || nr == SYS_exit_group ||
	       nr == SYS_rt_sigreturn || nr == SYS_pause ||
	       nr == SYS_rt_sigsuspend;
}

/* A described call mostly; now and then any number, or one out of
 * range. */
static long nr_value(void)
{
	static const long odd[] = { -1, 512, 1024, 0x40000000, 0x40000001,
				    0x7fffffff, 0x100000000L, -4096 };
	long nr;

	switch (below(20)) {
	case 0:
	case 1:
		nr = (long)below(464);
		break;
	case 2:
		return PICK(odd);
	default:
		nr = call_table[below(nr_call_table)].nr;
	}
	return ends_child(nr) && below(16) ? SYS_getpid : nr;
}

void call_draw(struct call *c)
{
	const char *kinds;
	int i;

	c->nr = nr_value();
	c->desc = call_desc_of(c->nr);
	kinds = c->desc ? c->desc->args : "xxxxxx";
	/* Past a call's own arguments, garbage: a kernel must not read it. */
	for (i = 0; i < 6; i++)
		c->arg[i] = i < (int)strlen(kinds) ? value_of(kinds[i])
						   : any_value();
	call_fixup(c);
	c->desc = call_desc_of(c->nr);
}

void call_format(const struct call *c, char *buf, unsigned long n)
{
	int len = c->desc ? (int)strlen(c->desc->args) : 6;
	int o;

	if (c->desc)
		o = snprintf(buf, n, "%s(", c->desc->name);
	else
		o = snprintf(buf, n, "syscall_%ld(", c->nr);
	for (int i = 0; i < len && o < (int)n; i++)
		o += snprintf(buf + o, n - o, "%s%#lx", i ? ", " : "",
			      (unsigned long)c->arg[i]);
	if (o < (int)n)
		snprintf(buf + o, n - o, ")");
}
