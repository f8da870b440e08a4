/* user/tests/zeropage/mprotect_zero.c — mprotect keeps a zero PTE
 * read-only: PROT_READ -> RW and a write still COWs; PROT_NONE and
 * PROT_READ fault with SIGSEGV. */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "ulib.h"
#include "zp.h"

#define N	64

static void read_it(void *p)
{
	peek(p);
}

static void write_it(void *p)
{
	poke(p, 1);
}

static int segv(int st)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV;
}

int main(void)
{
	struct zp_sample s0, s1;
	int i, ok = 1, st, m;
	char *p;

	m = zp_mode();
	p = zp_begin(8, N);
	zp_read(p, N);
	tap_ok(mprotect(p, N * PAGE_SIZE, PROT_READ) == 0 &&
	       mprotect(p, N * PAGE_SIZE, PROT_READ | PROT_WRITE) == 0,
	       "read, mprotect PROT_READ, then PROT_READ|PROT_WRITE");
	zp_check_pfns(p, N, "after mprotect");
	zp_baseline(&s0);
	zp_write(p, N, 5);
	zp_sample(&s1);
	for (i = 0; i < N; i++)
		ok &= p[i * PAGE_SIZE] == 5 &&
		      zp_is_zero(p + i * PAGE_SIZE + 1, PAGE_SIZE - 1);
	tap_ok(ok, "writes after mprotect land, the rest of each page zero");
	zp_ok(kb_near(s1.anon - s0.anon, m == ZP_OFF ? 0 : N * 4LL),
	      "the writes COW: RssAnon %+lld kB (want %+lld)",
	      s1.anon - s0.anon, m == ZP_OFF ? 0 : N * 4LL);
	zp_zpk_ok(s1.zero - s0.zero == (m == ZP_OFF ? 0 : -N * 4), "RssZero "
		  "%+lld kB", s1.zero - s0.zero);
	zp_unmap(p, N);

	p = zp_map(N, PROT_READ);
	zp_read(p, N);
	st = in_child(write_it, p);
	tap_ok(segv(st), "a write to a read-faulted PROT_READ page: SIGSEGV "
	       "(%s)", status_str(st));
	mprotect(p, N * PAGE_SIZE, PROT_NONE);
	st = in_child(read_it, p + PAGE_SIZE);
	tap_ok(segv(st), "a read of a PROT_NONE zero-mapped page: SIGSEGV "
	       "(%s)", status_str(st));
	zp_unmap(p, N);
	tap_done();
}
