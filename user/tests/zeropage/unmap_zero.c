/* user/tests/zeropage/unmap_zero.c — munmap and MADV_DONTNEED drop zero
 * PTEs (RssZero back); a later read maps the zero page again. */
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	256
#define H	(N / 2)

int main(void)
{
	struct zp_sample s0, s1, s2, s3, s4;
	long long un0, un1;
	char *p;
	int m;

	m = zp_mode();
	p = zp_begin(11, N);
	zp_baseline(&s0);
	un0 = zp_vmstat("zero_page_unmap");
	zp_read(p, N);
	zp_sample(&s1);
	zp_check_pfns(p, N, "after the reads");
	munmap(p, H * PAGE_SIZE);
	zp_sample(&s2);
	zp_zpk_ok(s2.zero - s1.zero == (m == ZP_OFF ? 0 : -H * 4) &&
		  s2.free - s1.free == (m == ZP_OFF ? H : 0), "munmap of %d "
		  "read pages: RssZero %+lld kB, free pages %+ld", H,
		  s2.zero - s1.zero, s2.free - s1.free);
	zp_ok(kb_near(s2.file - s1.file, m == ZP_REFCOUNT ? -H * 4 : 0) &&
	      kb_near(s2.anon - s1.anon, m == ZP_OFF ? -H * 4 : 0), "munmap: "
	      "RssFile %+lld kB, RssAnon %+lld kB", s2.file - s1.file,
	      s2.anon - s1.anon);
	p += H * PAGE_SIZE;
	tap_ok(madvise(p, H * PAGE_SIZE, MADV_DONTNEED) == 0,
	       "MADV_DONTNEED the other %d", H);
	zp_sample(&s3);
	un1 = zp_vmstat("zero_page_unmap");
	zp_zpk_ok(s3.zero == s0.zero && s3.free - s0.free == 0, "RssZero back "
		  "to %lld kB (%lld), free pages back (%+ld)", s0.zero,
		  s3.zero, s3.free - s0.free);
	zp_ok(kb_near(s3.anon, s0.anon) && kb_near(s3.file, s0.file),
	      "RssAnon and RssFile back (%+lld, %+lld kB)", s3.anon - s0.anon,
	      s3.file - s0.file);
	zp_zpk_ok(un1 - un0 == (m == ZP_OFF ? 0 : N), "vmstat zero_page_unmap "
		  "%+lld (want %d)", un1 - un0, m == ZP_OFF ? 0 : N);
	tap_ok(zp_read(p, H) == 0, "a read after MADV_DONTNEED sees zeros");
	zp_sample(&s4);
	zp_check_pfns(p, H, "... and maps the zero page again");
	zp_zpk_ok(s4.zero - s3.zero == (m == ZP_OFF ? 0 : H * 4), "RssZero "
		  "%+lld kB after reading %d pages again", s4.zero - s3.zero, H);
	zp_unmap(p, H);
	tap_done();
}
