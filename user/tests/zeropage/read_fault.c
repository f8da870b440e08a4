/* user/tests/zeropage/read_fault.c — reading N pages of a fresh private
 * anonymous mapping: the zero page (special, refcount) or N pages (off). */
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	256

int main(void)
{
	struct zp_sample s0, s1, s2;
	unsigned long sum;
	char *p;

	p = zp_begin(11, N);
	zp_baseline(&s0);
	sum = zp_read(p, N);
	zp_sample(&s1);
	tap_ok(sum == 0 && zp_is_zero(p, N * PAGE_SIZE), "all %d pages read "
	       "zero", N);
	zp_check_read(&s0, &s1, N, "read of 256 pages");
	zp_check_pfns(p, N, "pagemap");
	tap_ok(s1.minflt - s0.minflt >= N && s1.minflt - s0.minflt <= N + 8,
	       "one minor fault per page (%ld for %d)", s1.minflt - s0.minflt,
	       N);
	zp_zpk_ok(s1.map - s0.map == (zp_mode() == ZP_OFF ? 0 : N),
		  "vmstat zero_page_map %+lld (want %d)", s1.map - s0.map,
		  zp_mode() == ZP_OFF ? 0 : N);
	if (zp_mode() == ZP_REFCOUNT)
		zp_zpk_ok(s1.refcount_ops - s0.refcount_ops >= N &&
			  (s1.zp_refcount < 0 ||
			   s1.zp_refcount - s0.zp_refcount == N),
			  "refcount: zero_page_refcount_ops %+lld (>= %d), the "
			  "zero page's refcount %+lld", s1.refcount_ops -
			  s0.refcount_ops, N, s1.zp_refcount - s0.zp_refcount);
	else
		zp_zpk_ok(s1.refcount_ops == s0.refcount_ops, "%s: no "
			  "zero_page_refcount_ops (%+lld)", zp_policy_name(),
			  s1.refcount_ops - s0.refcount_ops);
	zp_unmap(p, N);
	zp_sample(&s2);
	zp_zpk_ok(s2.zero == s0.zero && s2.zp_refcount == s0.zp_refcount,
		  "munmap: RssZero back to %lld kB (%lld), zero page refcount "
		  "back (%lld -> %lld)", s0.zero, s2.zero, s0.zp_refcount,
		  s2.zp_refcount);
	tap_done();
}
