/* user/tests/segv_child.c — children that fault die of the right signal
 * (SIGSEGV, SIGILL, SIGFPE, SIGTRAP) and the parent goes on. */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static void null_write(void *a)
{
	(void)a;
	poke(NULL, 1);
}

static void null_read(void *a)
{
	(void)a;
	peek((void *)16);
}

static void null_call(void *a)
{
	void (*volatile fn)(void) = NULL;

	(void)a;
	fn();
}

static void kernel_read(void *a)
{
	(void)a;
	peek((void *)0xffffffff80100000UL);	/* where zpk's text is */
}

static void noncanon_read(void *a)
{
	(void)a;
	peek((void *)0x8000000000000000UL);
}

static void text_write(void *a)
{
	(void)a;
	poke((void *)null_write, 0xc3);
}

/* Data pages are not executable (NX). */
static void exec_data(void *a)
{
	unsigned char *p = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void (*volatile fn)(void) = (void (*)(void))p;

	(void)a;
	p[0] = 0xc3;	/* ret */
	fn();
}

static void privileged(void *a)
{
	(void)a;
	__asm__ volatile("hlt");
}

static void ud2(void *a)
{
	(void)a;
	__asm__ volatile("ud2");
}

static void int3(void *a)
{
	(void)a;
	__asm__ volatile("int3");
}

static void divide(void *a)
{
	volatile int zero = 0, x = 1;

	(void)a;
	x /= zero;
}

static void nothing(void *a)
{
	(void)a;
}

static const struct {
	void (*fn)(void *);
	int sig;
	const char *what;
} cases[] = {
	{ null_write, SIGSEGV, "write to NULL" },
	{ null_read, SIGSEGV, "read from address 16" },
	{ null_call, SIGSEGV, "call through a NULL function pointer" },
	{ kernel_read, SIGSEGV, "read of kernel text (0xffffffff80100000)" },
	{ noncanon_read, SIGSEGV, "read of a non-canonical address (#GP)" },
	{ text_write, SIGSEGV, "write to our own code" },
	{ exec_data, SIGSEGV, "jump into a writable data page (NX)" },
	{ privileged, SIGSEGV, "hlt in user mode (#GP)" },
	{ ud2, SIGILL, "ud2 (#UD)" },
	{ int3, SIGTRAP, "int3 (#BP)" },
	{ divide, SIGFPE, "divide by zero (#DE)" },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

int main(void)
{
	struct rlimit nocore = { 0, 0 };
	int i, st, ok;

	tap_plan(NCASES + 3);
	/* No core dumps: the status must not depend on the host's setup. */
	setrlimit(RLIMIT_CORE, &nocore);

	for (i = 0; i < NCASES; i++) {
		st = in_child(cases[i].fn, NULL);
		tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == cases[i].sig &&
		       !WCOREDUMP(st), "%s: want signal %d, got %s",
		       cases[i].what, cases[i].sig, status_str(st));
	}

	/* Many in a row, and the parent is none the worse. */
	for (ok = 0, i = 0; i < 20; i++) {
		st = in_child(null_write, NULL);
		ok += WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
	}
	tap_ok(ok == 20, "20 more NULL writers all die of SIGSEGV (%d)", ok);
	st = in_child(nothing, NULL);
	tap_ok(st == 0, "a well-behaved child afterwards exits 0 (%s)",
	       status_str(st));
	tap_ok(getppid() > 0, "the parent is still running normally");
	tap_done();
}
