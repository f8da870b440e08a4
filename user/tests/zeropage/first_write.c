/* user/tests/zeropage/first_write.c — a first write to a fresh page takes
 * one fault and one page, the zero page never involved. */
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	256

int main(void)
{
	struct zp_sample s0, s1;
	long long map0, map1;
	long excl, distinct;
	char *p;

	p = zp_begin(6, N);
	zp_baseline(&s0);
	map0 = zp_vmstat("zero_page_map");
	zp_write(p, N, 3);
	zp_sample(&s1);
	map1 = zp_vmstat("zero_page_map");
	tap_ok(kb_near(s1.anon - s0.anon, N * 4LL) &&
	       kb_near(s1.file - s0.file, 0), "first writes: RssAnon %+lld kB "
	       "(want %+d), RssFile %+lld", s1.anon - s0.anon, N * 4,
	       s1.file - s0.file);
	zp_zpk_ok(s1.zero == s0.zero && s1.free - s0.free == -N, "RssZero "
		  "unchanged (%+lld kB), %d pages used (%ld)",
		  s1.zero - s0.zero, N, s0.free - s1.free);
	tap_ok(s1.minflt - s0.minflt >= N && s1.minflt - s0.minflt <= N + 8,
	       "one minor fault per page (%ld for %d)", s1.minflt - s0.minflt,
	       N);
	distinct = zp_count_distinct(p, N);
	zp_count_zero(p, N, &excl);
	tap_ok(distinct == N && excl == N, "pagemap: %d distinct pfns (%ld), "
	       "all exclusive (%ld)", N, distinct, excl);
	zp_zpk_ok(map1 == map0, "vmstat zero_page_map unchanged (%+lld)",
		  map1 - map0);
	zp_unmap(p, N);
	tap_done();
}
