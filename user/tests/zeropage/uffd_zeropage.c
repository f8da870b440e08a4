/* user/tests/zeropage/uffd_zeropage.c — UFFDIO_ZEROPAGE maps what a read
 * fault maps, under each policy: the zero page (special: uncounted;
 * refcount: a reference, RssFile) or, under off, a zeroed page of its
 * own; with no fault counted, and a write COWs as after a read fault. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uffd.h"
#include "ulib.h"
#include "zp.h"

#define N	64

int main(void)
{
	struct zp_sample s0, s1, s2, s3;
	long long map0, map1;
	int fd, m, z;
	int64_t res;
	char *p;
	long r;

	p = zp_begin(14, N);
	m = zp_mode();
	z = m != ZP_OFF;
	fd = uffd_new(O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY, 0);
	r = uffd_register(fd, p, N * PAGE_SIZE, UFFDIO_REGISTER_MODE_MISSING,
			  NULL);
	if (!tap_ok(fd >= 0 && r == 0, "a uffd registered for missing pages "
		    "over the %d pages", N))
		tap_done();
	zp_baseline(&s0);
	map0 = zp_vmstat("zero_page_map");
	r = uffd_zeropage(fd, p, N * PAGE_SIZE, &res);
	zp_sample(&s1);
	map1 = zp_vmstat("zero_page_map");
	tap_ok(r == 0 && res == N * PAGE_SIZE, "UFFDIO_ZEROPAGE of %d pages "
	       "(%lld bytes)", N, (long long)res);
	zp_check_read(&s0, &s1, N, "UFFDIO_ZEROPAGE");
	zp_check_pfns(p, N, "pagemap");
	tap_ok(s1.minflt == s0.minflt, "no fault counted (%+ld)",
	       s1.minflt - s0.minflt);
	zp_zpk_ok(map1 - map0 == z * N, "vmstat zero_page_map %+lld (want "
		  "%+d)", map1 - map0, z * N);
	tap_ok(zp_read(p, N) == 0 && zp_is_zero(p, N * PAGE_SIZE),
	       "the pages read zero, without a fault");
	zp_sample(&s2);
	zp_write(p, 1, 5);
	zp_sample(&s3);
	zp_ok(kb_near(s3.anon - s2.anon, z * 4) &&
	      kb_near(s3.file - s2.file, m == ZP_REFCOUNT ? -4 : 0),
	      "a write COWs the zero page, as after a read fault: RssAnon "
	      "%+lld kB, RssFile %+lld kB", s3.anon - s2.anon,
	      s3.file - s2.file);
	zp_zpk_ok(s3.zero - s2.zero == -z * 4, "RssZero %+lld kB (want %+d)",
		  s3.zero - s2.zero, -z * 4);
	close(fd);
	zp_unmap(p, N);
	zp_sample(&s3);
	zp_zpk_ok(s3.zero == s0.zero && s3.zp_refcount == s0.zp_refcount,
		  "munmap: RssZero and the zero page's refcount back");
	tap_done();
}
