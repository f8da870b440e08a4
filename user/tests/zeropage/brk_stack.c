/* user/tests/zeropage/brk_stack.c — the brk heap and the stack are
 * private anonymous memory too: reads of untouched pages map zeros. */
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	128	/* 512 kB: above Linux's RSS slack */
#define STACK_PAGES 64
#define STACK_GAP 8

/* Reads below the stack pointer: pages the stack has never used. The
 * frame's top STACK_GAP pages are left alone: zp's first sample faults
 * in 16 kB of stack below main's frame. */
static unsigned long stack_read(char **lowp)
{
	volatile char frame[(STACK_PAGES + STACK_GAP + 1) * PAGE_SIZE];
	char *low = (char *)(((uintptr_t)frame + PAGE_SIZE - 1) &
			     ~(uintptr_t)(PAGE_SIZE - 1));

	*lowp = low;
	return zp_read(low, STACK_PAGES);
}

/* musl's brk() refuses; the system call itself returns the break. */
static char *set_brk(char *to)
{
	return (char *)syscall(SYS_brk, to);
}

int main(void)
{
	struct zp_sample s0, s1;
	char *base, *p, *low;
	unsigned long sum;

	need_proc();
	tap_plan(10);
	zp_note_mode();
	/* Grow the break past a 2 MiB boundary's worth so N pages plus an
	 * anchor share one page table. */
	base = set_brk(NULL);
	p = (char *)(((uintptr_t)base + (2UL << 20) - 1) & ~((2UL << 20) - 1));
	if (!tap_ok(set_brk(p + (N + 1) * PAGE_SIZE) == p + (N + 1) * PAGE_SIZE, "brk up by %ld kB",
		    (long)(p + (N + 1) * PAGE_SIZE - base) / 1024))
		tap_done();
	poke(p + N * PAGE_SIZE, 1);
	zp_baseline(&s0);
	sum = zp_read(p, N);
	zp_sample(&s1);
	tap_ok(sum == 0, "the new heap reads zeros");
	zp_check_read(&s0, &s1, N, "heap read");
	zp_check_pfns(p, N, "heap pagemap");
	set_brk(base);

	zp_baseline(&s0);
	sum = stack_read(&low);
	zp_sample(&s1);
	tap_ok(sum == 0, "untouched stack pages read zeros");
	zp_check_pfns(low, STACK_PAGES, "stack pagemap");
	zp_zpk_ok(s1.zero - s0.zero == (zp_mode() == ZP_OFF ? 0 :
					STACK_PAGES * 4),
		  "stack read: RssZero %+lld kB", s1.zero - s0.zero);
	tap_done();
}
