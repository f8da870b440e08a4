/* user/tests/hostile_signals.c — signal frames a handler made hostile
 * before rt_sigreturn (ring-0 selectors, non-canonical or kernel rip and
 * rsp, IOPL and other system flags, bad FPU state), a frame of garbage,
 * nested handlers until the stack runs out, and a storm of signals from
 * several senders: each ends in a signal or runs on at CPL 3 without the
 * privilege asked for, as on Linux, and the kernel stays up. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "ulib.h"

#define EFL_TF		0x100UL
#define EFL_IOPL	0x3000UL
#define EFL_NT		0x4000UL
#define EFL_VM		0x20000UL
#define EFL_AC		0x40000UL
#define EFL_ID		0x200000UL

/* How a case may end: killed by one of two signals, or alive at CPL 3. */
enum { DIES, LIVES, EITHER };

struct frame_case {
	const char *what;
	void (*edit)(ucontext_t *uc);
	int how, sig, sig2;	/* sig2: another signal Linux may give */
};

static void rip_noncanon(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_RIP] = 0x0000800000000000L;
}

static void rip_direct_map(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_RIP] = (long)0xffff888000100000UL;
}

static void rip_image(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_RIP] = (long)0xffffffff80100000UL;
}

static void rsp_noncanon(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_RSP] = 0x0000800000000000L;
}

static void rsp_kernel(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_RSP] = (long)0xffff888000100000UL;
}

static void cs_ring0(ucontext_t *uc)
{
	greg_t *csgsfs = &uc->uc_mcontext.gregs[REG_CSGSFS];

	*csgsfs = (*csgsfs & ~0xffffL) | 0x08;	/* a kernel code selector */
}

static void ss_ring0(ucontext_t *uc)
{
	greg_t *csgsfs = &uc->uc_mcontext.gregs[REG_CSGSFS];

	*csgsfs = (*csgsfs & ~(0xffffL << 48)) | (0x10L << 48);
}

static void iopl3(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_EFL] |= EFL_IOPL;
}

static void system_flags(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_EFL] |= EFL_NT | EFL_VM | EFL_ID;
}

static void trap_flag(ucontext_t *uc)
{
	uc->uc_mcontext.gregs[REG_EFL] |= EFL_TF;
}

static void mxcsr_reserved(ucontext_t *uc)
{
	((unsigned int *)uc->uc_mcontext.fpregs)[6] = 0xffffffff;
}

static void fxsave_garbage(ucontext_t *uc)
{
	memset(uc->uc_mcontext.fpregs, 0xff, 512);
}

static void fpstate_kernel(ucontext_t *uc)
{
	uc->uc_mcontext.fpregs = (void *)0xffff888000100000UL;
}

static const struct frame_case cases[] = {
	{ "rip non-canonical (0x800000000000)", rip_noncanon, DIES, SIGSEGV, 0 },
	{ "rip in the direct map", rip_direct_map, DIES, SIGSEGV, 0 },
	{ "rip in the kernel image", rip_image, DIES, SIGSEGV, 0 },
	/* Linux's #SS is SIGBUS; TCG raises #GP: SIGSEGV */
	{ "rsp non-canonical", rsp_noncanon, DIES, SIGSEGV, SIGBUS },
	{ "rsp in the direct map", rsp_kernel, DIES, SIGSEGV, 0 },
	/* Linux loads the selector (#GP: SIGSEGV); zpk keeps its own */
	{ "cs a ring-0 selector", cs_ring0, EITHER, SIGSEGV, 0 },
	{ "ss a ring-0 selector", ss_ring0, EITHER, SIGSEGV, 0 },
	{ "eflags IOPL 3", iopl3, LIVES, 0, 0 },
	{ "eflags NT, VM, ID", system_flags, LIVES, 0, 0 },
	{ "eflags TF", trap_flag, DIES, SIGTRAP, 0 },
	{ "MXCSR with reserved bits", mxcsr_reserved, DIES, SIGSEGV, 0 },
	{ "FXSAVE area all ones", fxsave_garbage, DIES, SIGSEGV, 0 },
	{ "fpstate pointing into the kernel", fpstate_kernel, DIES, SIGSEGV,
	  0 },
};
#define NCASES	((int)(sizeof(cases) / sizeof(cases[0])))

static void (*edit)(ucontext_t *uc);

static void edit_frame(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si;
	edit(uc);
}

/* What a child that came back from its handler saw. */
struct alive {
	unsigned long rflags;
	unsigned short cs;
	int cli_ran;
};

/* The child: its frame edited, then (if alive) it reports its cs and
 * rflags and tries cli, which must #GP at CPL 3 with IOPL 0. */
static void __attribute__((noreturn)) frame_child(int c, int fd)
{
	struct sigaction sa = { .sa_sigaction = edit_frame,
				.sa_flags = SA_SIGINFO };
	struct alive a = { 0 };

	edit = cases[c].edit;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	asm volatile("pushf; pop %0; mov %%cs, %1" : "=r"(a.rflags),
		     "=r"(a.cs));
	write(fd, &a, sizeof(a));
	if (cases[c].edit == iopl3) {
		asm volatile("cli");
		a.cli_ran = 1;
		write(fd, &a, sizeof(a));
	}
	_exit(0);
}

static int ended_as(int st, const struct frame_case *k)
{
	return WIFSIGNALED(st) &&
	       (WTERMSIG(st) == k->sig || (k->sig2 && WTERMSIG(st) == k->sig2));
}

static void frame_case(int c)
{
	const struct frame_case *k = &cases[c];
	struct alive a = { 0 }, b = { 0 };
	int p[2], st = -1, got = 0, lived, ok;
	pid_t pid;

	if (pipe(p))
		return;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		frame_child(c, p[1]);
	}
	close(p[1]);
	got = read(p[0], &a, sizeof(a)) == sizeof(a);
	if (got && read(p[0], &b, sizeof(b)) == sizeof(b))
		a.cli_ran = b.cli_ran;
	close(p[0]);
	waitpid(pid, &st, 0);
	/* Alive means at CPL 3, IOPL 0, no NT or VM: nothing raised. */
	lived = got && (a.cs & 3) == 3 && !(a.rflags & (EFL_IOPL | EFL_NT |
							EFL_VM));
	if (k->how == DIES)
		ok = !got && ended_as(st, k);
	else if (k->how == LIVES)
		ok = lived && !a.cli_ran &&
		     (k->edit == iopl3 ? WIFSIGNALED(st) &&
		      WTERMSIG(st) == SIGSEGV : st == 0);
	else
		ok = got ? lived && st == 0 : ended_as(st, k);
	tap_ok(ok, "rt_sigreturn, %s: %s (%s%s)", k->what,
	       k->how == DIES ? "killed" : k->how == LIVES ?
	       "runs on at CPL 3 with no privilege" : "killed, or runs on at CPL 3",
	       got ? "came back, then " : "", status_str(st));
}

/* rt_sigreturn with no handler's frame at all: the stack is garbage. */
static void garbage_frame(void)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		unsigned long junk[256];

		for (int i = 0; i < 256; i++)
			junk[i] = 0x5a5a5a5a5a5a5a5aUL * (i + 1) ^ i;
		asm volatile("mov %0, %%rsp; mov $15, %%eax; syscall"
			     : : "r"(junk + 128) : "memory");
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st), "rt_sigreturn onto a stack of garbage: "
	       "killed (%s)", status_str(st));
}

static volatile int depth;

static void nest(int sig)
{
	depth++;
	raise(sig);
}

/* SA_NODEFER: every raise nests another frame until the stack is gone. */
static void nested_until_overflow(void)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		struct sigaction sa = { .sa_handler = nest,
					.sa_flags = SA_NODEFER };

		sigaction(SIGUSR2, &sa, NULL);
		raise(SIGUSR2);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "nested handlers (SA_NODEFER) until the stack runs out: "
	       "SIGSEGV (%s)", status_str(st));
}

/* ---- a storm ------------------------------------------------------------ */

#define SENDERS		4
#define PER_SENDER	400

static volatile long caught;
static volatile int stop;

static void count(int sig)
{
	(void)sig;
	caught++;
}

static void end_storm(int sig)
{
	(void)sig;
	stop = 1;
}

/* The target: counts what it catches while it makes calls and sleeps;
 * says so on ready once its handlers are in place. */
static void __attribute__((noreturn)) storm_target(int ready)
{
	struct sigaction sa = { .sa_handler = count };
	struct timespec ts = { 0, 1000000 };

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGRTMIN, &sa, NULL);
	sa.sa_handler = end_storm;
	sigaction(SIGTERM, &sa, NULL);
	write(ready, "r", 1);
	while (!stop) {
		getppid();
		nanosleep(&ts, NULL);
	}
	_exit(caught > 0 ? 0 : 1);
}

static void storm(void)
{
	const int sigs[] = { SIGUSR1, SIGUSR2, SIGRTMIN };
	int st = -1, senders_ok = 1, ready[2];
	pid_t target, s[SENDERS];
	char c;

	if (pipe(ready))
		return;
	target = fork();
	if (target == 0)
		storm_target(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		senders_ok = 0;
	for (int i = 0; i < SENDERS; i++) {
		s[i] = fork();
		if (s[i] == 0) {
			for (int n = 0; n < PER_SENDER; n++)
				if (kill(target, sigs[(n + i) % 3]))
					_exit(1);
			_exit(0);
		}
	}
	for (int i = 0; i < SENDERS; i++)
		if (waitpid(s[i], &st, 0) != s[i] || st != 0)
			senders_ok = 0;
	kill(target, SIGTERM);
	waitpid(target, &st, 0);
	tap_ok(senders_ok && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a storm of %d signals from %d senders: caught, and the "
	       "target ends when told (%s)", SENDERS * PER_SENDER, SENDERS,
	       status_str(st));
}

int main(void)
{
	tap_plan(NCASES + 3);
	for (int c = 0; c < NCASES; c++)
		frame_case(c);
	garbage_frame();
	nested_until_overflow();
	storm();
	tap_done();
}
