/* user/tests/rss_hiwater.c — VmHWM, the peak of VmRSS: writes raise it
 * with the RSS, an unmap lowers the RSS but not the peak, and
 * /proc/self/clear_refs "5" brings the peak down to the RSS (Linux's
 * reset_mm_hiwater_rss). */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ulib.h"

#define N	512	/* pages: well above Linux's 64-fault RSS lag */

static void touch(char *p, int n)
{
	for (int i = 0; i < n; i++)
		p[(long)i * PAGE_SIZE] = 1;
}

static int reset_peak(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	int ok = fd >= 0 && write(fd, "5", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok;
}

int main(void)
{
	long long r0, h0, r1, h1, r2, h2, r3, h3;
	char *p;

	need_proc();
	tap_plan(6);
	r0 = self_kb("VmRSS");
	h0 = self_kb("VmHWM");
	tap_ok(r0 > 0 && h0 >= r0, "VmHWM %lld kB is at least VmRSS %lld kB",
	       h0, r0);
	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap %d pages", N))
		tap_done();
	touch(p, N);
	r1 = self_kb("VmRSS");
	h1 = self_kb("VmHWM");
	tap_ok(kb_near(h1, r1) && r1 - r0 >= N * 4LL,
	       "writing %d pages lifts the peak with the RSS (VmHWM %lld kB, "
	       "VmRSS %lld kB)", N, h1, r1);
	munmap(p, N * PAGE_SIZE);
	r2 = self_kb("VmRSS");
	h2 = self_kb("VmHWM");
	tap_ok(r1 - r2 >= N * 4LL && kb_near(h2, h1), "munmap lowers VmRSS to %lld kB "
	       "and leaves VmHWM at its peak (%lld kB, was %lld)", r2, h2,
	       h1);
	tap_ok(reset_peak(), "clear_refs 5 is accepted");
	r3 = self_kb("VmRSS");
	h3 = self_kb("VmHWM");
	tap_ok(kb_near(h3, r3) && h3 < h1 - N * 2LL, "after clear_refs 5 the "
	       "peak is the RSS again (VmHWM %lld kB, VmRSS %lld kB)", h3, r3);
	tap_done();
}
