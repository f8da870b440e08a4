/* user/tests/zeropage/mremap_zero.c — mremap moves PTEs, never pages: a
 * moved zero-page PTE stays one (same pfn, no fault, counters unchanged
 * under each policy), and COWs as before when written; MREMAP_DONTUNMAP
 * leaves the old range empty, so it reads zero pages again. */
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	128
#define H	(N / 2)

static void check_rss(const struct zp_sample *a, const struct zp_sample *b,
		      long anon, long file, long zero, const char *what)
{
	zp_ok(kb_near(b->anon - a->anon, anon * 4) &&
	      kb_near(b->file - a->file, file * 4), "%s: RssAnon %+lld kB, "
	      "RssFile %+lld kB (want %+ld, %+ld)", what, b->anon - a->anon,
	      b->file - a->file, anon * 4, file * 4);
	zp_zpk_ok(b->zero - a->zero == zero * 4, "%s: RssZero %+lld kB (want "
		  "%+ld)", what, b->zero - a->zero, zero * 4);
}

int main(void)
{
	struct zp_sample s0, s1, s2, s3, s4, s5;
	long long map0, map1;
	char *p, *r, *d;
	int m, z;

	p = zp_begin(15, N);
	m = zp_mode();
	z = m != ZP_OFF;
	zp_read(p, H);
	zp_write(p + H * PAGE_SIZE, H, 7);
	zp_baseline(&s0);
	map0 = zp_vmstat("zero_page_map");
	/* The anchor page above p blocks growing in place: this moves. */
	r = mremap(p, N * PAGE_SIZE, 2 * N * PAGE_SIZE, MREMAP_MAYMOVE);
	zp_sample(&s1);
	if (!tap_ok(r != MAP_FAILED && r != p, "MREMAP_MAYMOVE of %d read and "
		    "%d written pages moves them", H, H))
		tap_done();
	check_rss(&s0, &s1, 0, 0, 0, "the move");
	zp_check_pfns(r, H, "moved zero PTEs");
	tap_ok(zp_read(r, H) == 0 && zp_read(r + H * PAGE_SIZE, H) == 7UL * H,
	       "the data moved with them");
	zp_sample(&s2);
	tap_ok(s2.minflt == s1.minflt, "reading the moved pages faults none "
	       "(%+ld)", s2.minflt - s1.minflt);
	map1 = zp_vmstat("zero_page_map");
	zp_zpk_ok(map1 == map0, "vmstat zero_page_map %+lld: no zero page "
		  "mapped anew", map1 - map0);
	zp_write(r, 1, 3);
	zp_sample(&s3);
	check_rss(&s2, &s3, z, m == ZP_REFCOUNT ? -1 : 0, -z,
		  "a write to a moved zero PTE COWs");
	/* MREMAP_DONTUNMAP: the zero PTEs move, the old range stays. */
	d = mremap(r + PAGE_SIZE, (H - 1) * PAGE_SIZE, (H - 1) * PAGE_SIZE,
		   MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
	zp_sample(&s4);
	tap_ok(d != MAP_FAILED, "MREMAP_DONTUNMAP of the other %d zero PTEs",
	       H - 1);
	check_rss(&s3, &s4, 0, 0, 0, "MREMAP_DONTUNMAP");
	zp_read(r + PAGE_SIZE, H - 1);
	zp_sample(&s5);
	check_rss(&s4, &s5, m == ZP_OFF ? H - 1 : 0,
		  m == ZP_REFCOUNT ? H - 1 : 0, z * (H - 1),
		  "reading the emptied old range");
	munmap(d, (H - 1) * PAGE_SIZE);
	munmap(r, 2 * N * PAGE_SIZE);
	munmap(p + N * PAGE_SIZE, PAGE_SIZE);	/* the anchor */
	tap_done();
}
