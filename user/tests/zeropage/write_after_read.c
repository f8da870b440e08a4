/* user/tests/zeropage/write_after_read.c — a write to a read-faulted page
 * (do_wp_page on a zero PTE) gives a fresh zeroed page: RssAnon +1,
 * RssZero -1, two faults per page; the zero page stays all zeros. */
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	256

/* Every page holds v at byte 0 and zeros elsewhere. */
static int pages_hold(const char *p, int v)
{
	int i;

	for (i = 0; i < N; i++)
		if (p[i * PAGE_SIZE] != v ||
		    !zp_is_zero(p + i * PAGE_SIZE + 1, PAGE_SIZE - 1))
			return 0;
	return 1;
}

int main(void)
{
	struct zp_sample s0, s1, s2;
	long long cow0, cow1;
	long excl, distinct, want_flt;
	char *p, *q;
	int m;

	m = zp_mode();
	p = zp_begin(9, N);
	zp_baseline(&s0);
	cow0 = zp_vmstat("zero_page_cow");
	zp_read(p, N);
	zp_sample(&s1);
	zp_write(p, N, 7);
	zp_sample(&s2);
	cow1 = zp_vmstat("zero_page_cow");
	tap_ok(pages_hold(p, 7), "each written page holds its byte, the rest "
	       "of it zeros");
	zp_ok(kb_near(s2.anon - s0.anon, N * 4LL) &&
	      kb_near(s2.file - s0.file, 0), "read then write: RssAnon %+lld "
	      "kB (want %+d), RssFile %+lld kB (want +0)", s2.anon - s0.anon,
	      N * 4, s2.file - s0.file);
	zp_zpk_ok(s2.zero == s0.zero, "RssZero back to %lld kB after the "
		  "writes (%lld; %lld after the reads)", s0.zero, s2.zero,
		  s1.zero);
	zp_zpk_ok(s2.free - s0.free == -N, "read then write uses %d pages "
		  "(%ld)", N, s0.free - s2.free);
	want_flt = m == ZP_OFF ? N : 2 * N;
	zp_ok(s2.minflt - s0.minflt >= want_flt &&
	      s2.minflt - s0.minflt <= want_flt + 8, "%ld minor faults for "
	      "%d pages read then written (want %ld)", s2.minflt - s0.minflt,
	      N, want_flt);
	distinct = zp_count_distinct(p, N);
	zp_count_zero(p, N, &excl);
	zp_ok(distinct == N && excl == N, "pagemap: %d pages of their own "
	      "(%ld distinct), all exclusive (%ld)", N, distinct, excl);
	zp_zpk_ok(cow1 - cow0 == (m == ZP_OFF ? 0 : N), "vmstat "
		  "zero_page_cow %+lld (want %d)", cow1 - cow0,
		  m == ZP_OFF ? 0 : N);
	/* The writes went to new pages: the zero page is still zeros. */
	q = zp_map(N, PROT_READ);
	tap_ok(q && zp_read(q, N) == 0 && zp_is_zero(q, N * PAGE_SIZE),
	       "a fresh read-only mapping still reads zeros");
	zp_unmap(q, N);
	zp_unmap(p, N);
	tap_done();
}
