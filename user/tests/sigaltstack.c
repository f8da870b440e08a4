/* user/tests/sigaltstack.c — the alternate signal stack as Linux keeps it:
 * sigaltstack's answers and errors (MINSIGSTKSZ 2048, ENOMEM; EPERM while
 * on it), SA_ONSTACK handlers run on it (nested ones below the first),
 * SS_AUTODISARM, one per thread, kept by fork, cleared by execve, a full
 * alternate stack is SIGSEGV (nothing written below it), and a main-stack
 * overflow caught on it. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "ulib.h"

#define KMINSIGSTKSZ	2048		/* the kernel's, x86's MINSIGSTKSZ */
#ifndef SS_AUTODISARM
#define SS_AUTODISARM	(1U << 31)
#endif
#define ALT_SIZE	(16 * PAGE_SIZE)

static char *alt;			/* ALT_SIZE bytes */
static volatile unsigned long h_sp, h_sp2;	/* a local's address */
static volatile int h_flags, h_eperm, h_depth, h_uc_flags, set_inside = 1;
static volatile size_t h_uc_size;
static void *volatile h_uc_sp;

/* sigaltstack by the raw call: -errno or 0 (libc wrappers may check). */
static long altstack(void *sp, int flags, size_t size, stack_t *old)
{
	stack_t ss = { .ss_sp = sp, .ss_flags = flags, .ss_size = size };

	return syscall(SYS_sigaltstack, sp || flags || size ? &ss : NULL,
		       old) ? -errno : 0;
}

static int on_alt(unsigned long sp)
{
	return sp > (unsigned long)alt && sp <= (unsigned long)alt + ALT_SIZE;
}

static void on_usr1(int sig, siginfo_t *si, void *ucp)
{
	ucontext_t *uc = ucp;
	stack_t old;
	volatile char here;

	(void)sig;
	(void)si;
	h_sp = (unsigned long)&here;
	h_uc_sp = uc->uc_stack.ss_sp;
	h_uc_size = uc->uc_stack.ss_size;
	h_uc_flags = uc->uc_stack.ss_flags;
	altstack(NULL, 0, 0, &old);
	h_flags = old.ss_flags;
	if (set_inside)
		h_eperm = altstack(alt, 0, ALT_SIZE, NULL);
}

/* SIGUSR2 raised from inside SIGUSR1's handler: its frame goes below. */
static void on_usr2(int sig)
{
	volatile char here;

	(void)sig;
	h_sp2 = (unsigned long)&here;
}

static void on_usr1_nest(int sig)
{
	volatile char here;

	(void)sig;
	h_sp = (unsigned long)&here;
	raise(SIGUSR2);
}

static void handle(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(sig, &sa, NULL);
}

static void handle_plain(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void check_calls(void)
{
	stack_t old;
	long r;

	memset(&old, 0x55, sizeof(old));
	r = altstack(NULL, 0, 0, &old);
	tap_ok(r == 0 && old.ss_flags == SS_DISABLE &&
	       old.ss_sp == NULL && old.ss_size == 0,
	       "at first there is none: SS_DISABLE, NULL, 0 (%d %p %zu)",
	       old.ss_flags, old.ss_sp, old.ss_size);
	tap_ok(altstack(alt, 0, KMINSIGSTKSZ - 1, NULL) == -ENOMEM,
	       "a size under MINSIGSTKSZ (2048) is ENOMEM");
	tap_ok(altstack(alt, 4, ALT_SIZE, NULL) == -EINVAL &&
	       altstack(alt, SS_ONSTACK | SS_DISABLE, ALT_SIZE, NULL) == -EINVAL,
	       "flags other than 0, SS_ONSTACK, SS_DISABLE are EINVAL");
	tap_ok(syscall(SYS_sigaltstack, (void *)8, NULL) == -1 &&
	       errno == EFAULT, "a bad new stack_t is EFAULT");
	r = altstack(alt, 0, KMINSIGSTKSZ, NULL);
	r |= altstack(NULL, 0, 0, &old);
	tap_ok(r == 0 && old.ss_sp == alt &&
	       old.ss_size == KMINSIGSTKSZ && old.ss_flags == 0,
	       "MINSIGSTKSZ itself is accepted, and read back (flags %d)",
	       old.ss_flags);
	tap_ok(altstack(alt, SS_ONSTACK, ALT_SIZE, &old) == 0 &&
	       old.ss_size == KMINSIGSTKSZ && altstack(NULL, 0, 0, &old) == 0 &&
	       old.ss_size == ALT_SIZE && old.ss_flags == 0,
	       "SS_ONSTACK as a flag sets it as 0 does; the old one is returned");
	tap_ok(altstack(alt, SS_DISABLE, 12345, NULL) == 0 &&
	       altstack(NULL, 0, 0, &old) == 0 && old.ss_flags == SS_DISABLE &&
	       old.ss_sp == NULL && old.ss_size == 0,
	       "SS_DISABLE clears it (sp NULL, size 0, whatever was passed)");
	errno = 0;
	tap_ok(syscall(SYS_sigaltstack, &(stack_t){ .ss_sp = alt,
			.ss_size = ALT_SIZE }, (void *)8) == -1 &&
	       errno == EFAULT && altstack(NULL, 0, 0, &old) == 0 &&
	       old.ss_size == ALT_SIZE,
	       "a bad old stack_t is EFAULT, after the new one is set");
}

static void check_delivery(void)
{
	stack_t old;

	altstack(alt, 0, ALT_SIZE, NULL);
	handle(SIGUSR1, on_usr1, SA_ONSTACK);
	raise(SIGUSR1);
	tap_ok(on_alt(h_sp), "an SA_ONSTACK handler runs on it (sp %#lx)",
	       h_sp);
	tap_ok(h_flags == SS_ONSTACK,
	       "inside, sigaltstack says SS_ONSTACK (%d)", h_flags);
	tap_ok(h_eperm == -EPERM, "changing it from on it is EPERM (%ld)",
	       (long)h_eperm);
	tap_ok(h_uc_sp == alt && h_uc_size == ALT_SIZE && h_uc_flags == 0,
	       "uc_stack holds it (%p %zu %d)", h_uc_sp, h_uc_size, h_uc_flags);
	altstack(NULL, 0, 0, &old);
	tap_ok(old.ss_flags == 0 && old.ss_size == ALT_SIZE,
	       "after the handler it is off it again (flags %d)", old.ss_flags);

	handle(SIGUSR1, on_usr1, 0);
	raise(SIGUSR1);
	tap_ok(!on_alt(h_sp) && h_flags == 0,
	       "a handler without SA_ONSTACK stays on the stack it interrupted");

	handle_plain(SIGUSR1, on_usr1_nest, SA_ONSTACK);
	handle_plain(SIGUSR2, on_usr2, 0);
	h_sp = h_sp2 = 0;
	raise(SIGUSR1);
	tap_ok(on_alt(h_sp) && on_alt(h_sp2) && h_sp2 < h_sp - 512,
	       "a signal taken on it goes on it, below the first frame "
	       "(%#lx, then %#lx)", h_sp, h_sp2);

	altstack(alt, SS_AUTODISARM, ALT_SIZE, NULL);
	handle(SIGUSR1, on_usr1, SA_ONSTACK);
	set_inside = 0;
	raise(SIGUSR1);
	altstack(NULL, 0, 0, &old);
	tap_ok(on_alt(h_sp) && h_flags == SS_DISABLE &&
	       h_uc_flags == (int)SS_AUTODISARM,
	       "SS_AUTODISARM: disarmed inside (%d), uc_stack has the flag",
	       h_flags);
	tap_ok(old.ss_sp == alt && old.ss_size == ALT_SIZE &&
	       old.ss_flags == (int)SS_AUTODISARM,
	       "sigreturn puts it back from uc_stack (%#x)",
	       (unsigned)old.ss_flags);
	/* Linux restores uc_stack as if from the frame's stack: the one a
	 * handler set there holds (EPERM, squashed). */
	set_inside = 1;
	h_eperm = 1;
	raise(SIGUSR1);
	altstack(NULL, 0, 0, &old);
	tap_ok(h_eperm == 0 && old.ss_flags == 0 && old.ss_sp == alt,
	       "a stack set inside the disarmed handler stays after it (%#x)",
	       (unsigned)old.ss_flags);
	altstack(NULL, SS_DISABLE, 0, NULL);
}

static void *thread_fn(void *arg)
{
	stack_t old;
	char *mine = arg;

	altstack(NULL, 0, 0, &old);
	if (old.ss_flags != SS_DISABLE)
		return (void *)1;
	altstack(mine, 0, ALT_SIZE, NULL);
	raise(SIGUSR1);		/* to this thread: raise is tgkill */
	return (void *)(long)(h_sp > (unsigned long)mine &&
			      h_sp <= (unsigned long)mine + ALT_SIZE ? 0 : 2);
}

static void check_threads(void)
{
	char *mine = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t t;
	void *ret = (void *)-1;
	stack_t old;

	altstack(alt, 0, ALT_SIZE, NULL);
	handle(SIGUSR1, on_usr1, SA_ONSTACK);
	if (pthread_create(&t, NULL, thread_fn, mine) == 0)
		pthread_join(t, &ret);
	altstack(NULL, 0, 0, &old);
	tap_ok(ret == NULL && old.ss_sp == alt,
	       "a thread starts with none, and its own is its own (%ld)",
	       (long)ret);
	munmap(mine, ALT_SIZE);
}

static void fork_child(void *arg)
{
	stack_t old;

	(void)arg;
	altstack(NULL, 0, 0, &old);
	if (old.ss_sp != alt || old.ss_size != ALT_SIZE || old.ss_flags)
		_exit(1);
	raise(SIGUSR1);
	_exit(on_alt(h_sp) ? 0 : 2);
}

static void check_fork_exec(const char *self)
{
	int st;
	pid_t pid;

	st = in_child(fork_child, NULL);
	tap_ok(st == 0, "fork's child keeps it, and its handlers use it (%s)",
	       status_str(st));
	pid = fork();
	if (pid == 0) {
		execl(self, self, "--exec-child", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "execve clears it (%s)", status_str(st));
}

/* The child execve started: no alternate stack. */
static int exec_child(void)
{
	stack_t old;

	altstack(NULL, 0, 0, &old);
	return old.ss_flags == SS_DISABLE && old.ss_sp == NULL &&
	       old.ss_size == 0 ? 0 : 1;
}

/* A handler that raises its own signal (SA_NODEFER) until the
 * alternate stack is full. */
static void on_usr1_deep(int sig)
{
	h_depth++;
	raise(sig);
}

/* The alternate stack's top half, the pattern below it in the same
 * shared mapping: the kernel must not write a frame below it. */
static void fill_child(void *arg)
{
	char *area = arg;

	altstack(area + ALT_SIZE, 0, ALT_SIZE, NULL);
	handle_plain(SIGUSR1, on_usr1_deep, SA_ONSTACK | SA_NODEFER);
	raise(SIGUSR1);
	_exit(0);
}

static void check_full(void)
{
	char *area = mmap(NULL, 2 * ALT_SIZE, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st, intact = 1;

	memset(area, 0xa5, ALT_SIZE);
	st = in_child(fill_child, area);
	for (int i = 0; i < ALT_SIZE; i++)
		intact &= (unsigned char)area[i] == 0xa5;
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "handlers nested until it is full: SIGSEGV (%s)",
	       status_str(st));
	tap_ok(intact, "and nothing was written below it");
	munmap(area, 2 * ALT_SIZE);
}

static volatile int seg_code;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	volatile char here;

	(void)sig;
	(void)uc;
	seg_code = si->si_code;
	_exit(on_alt((unsigned long)&here) ? 42 : 43);
}

static volatile int depth_max = 1 << 30;	/* never reached */

/* Recurses with 16 KiB frames: the stack reaches its limit. */
static int recurse(int n)
{
	volatile char buf[16384];

	buf[0] = (char)n;
	buf[sizeof(buf) - 1] = (char)n;
	if (n >= depth_max)
		return 0;
	return recurse(n + 1) + buf[0] + buf[sizeof(buf) - 1];
}

static void overflow_child(void *arg)
{
	struct rlimit lim = { 8 << 20, RLIM_INFINITY };

	setrlimit(RLIMIT_STACK, &lim);	/* the host's may be unlimited */
	if (arg) {
		altstack(alt, 0, ALT_SIZE, NULL);
		handle(SIGSEGV, on_segv, SA_ONSTACK);
	} else {
		handle(SIGSEGV, on_segv, 0);
	}
	_exit(recurse(0) ? 1 : 2);
}

static void check_overflow(void)
{
	int st;

	st = in_child(overflow_child, (void *)1);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "a stack overflow's SIGSEGV is caught on it (%s)",
	       status_str(st));
	st = in_child(overflow_child, NULL);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "without SA_ONSTACK the handler has no stack: SIGSEGV (%s)",
	       status_str(st));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--exec-child") == 0)
		return exec_child();
	tap_plan(25);
	alt = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check_calls();
	check_delivery();
	check_threads();
	check_fork_exec(argv[0]);
	check_full();
	check_overflow();
	tap_done();
}
