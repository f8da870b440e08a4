/* user/tests/brk.c — the program break: grow, write, shrink, grow again,
 * refusals.  Raw syscall(SYS_brk): musl's sbrk() refuses to move it. */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define GROW (64 * 1024)

static unsigned long brk_(unsigned long addr)
{
	return syscall(SYS_brk, addr);
}

static int all_zero(const char *p, long n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static void do_read(void *p)
{
	peek(p);
}

static void check_child(void *arg)
{
	char *p = arg;

	/* Inherited break, inherited contents. */
	_exit(brk_(0) == (unsigned long)p + GROW && p[GROW - 1] == 'z' ? 0 : 1);
}

int main(void)
{
	unsigned long cur, r, top, up;
	char *p;
	long i;
	int st, ok;

	tap_plan(15);
	cur = brk_(0);
	tap_ok(cur > 0 && cur < 0x800000000000UL, "brk(0) gives the break "
	       "(%#lx)", cur);
	p = (char *)cur;
	top = cur + GROW;
	r = brk_(top);
	if (!tap_ok(r == top, "brk(+64 KiB) moves the break (%#lx)", r))
		tap_done();
	tap_ok(all_zero(p, GROW), "the new heap reads as zeros");
	for (i = 0; i < GROW; i++)
		p[i] = 'a' + i % 26;
	for (ok = 1, i = 0; i < GROW; i++)
		ok &= p[i] == 'a' + i % 26;
	tap_ok(ok, "64 KiB written and read back");
	tap_ok(brk_(0) == top, "brk(0) reports the new break");
	p[GROW - 1] = 'z';
	st = in_child(check_child, p);
	tap_ok(st == 0, "a forked child has the same break and contents (%s)",
	       status_str(st));

	/* Refusals leave the break where it is. */
	r = brk_(0xffff800000000000UL);
	tap_ok(r == top, "brk into the kernel half is refused, break "
	       "unchanged (%#lx)", r);
	r = brk_(1);
	tap_ok(r == top, "brk below the heap start is refused, break "
	       "unchanged (%#lx)", r);
	r = brk_(cur + (1UL << 46));
	tap_ok(r == top, "brk(+64 TiB) is refused, break unchanged (%#lx)", r);

	/* Shrinking unmaps the pages above the new break. */
	r = brk_(cur);
	tap_ok(r == cur, "brk back to the start shrinks the heap (%#lx)", r);
	up = (cur + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1UL);
	st = in_child(do_read, (void *)(up + PAGE_SIZE));
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	       "a page released by shrinking faults: SIGSEGV (%s)",
	       status_str(st));
	r = brk_(top);
	tap_ok(r == top && all_zero((char *)up, top - up),
	       "growing again gives fresh zeroed pages");

	/* A bigger heap, touched sparsely. */
	r = brk_(cur + (16 << 20));
	ok = r == cur + (16 << 20);
	for (i = 0; ok && i < 16 << 20; i += PAGE_SIZE * 16) {
		p[i] = 1;
		ok = p[i] == 1;
	}
	tap_ok(ok, "brk(+16 MiB), one byte per 64 KiB written");
	r = brk_(cur);
	tap_ok(r == cur, "shrink 16 MiB back to the start (%#lx)", r);
	tap_ok(brk_(0) == cur, "brk(0) agrees");
	tap_done();
}
