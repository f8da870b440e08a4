/* user/tests/mmap_min_addr.c — /proc/sys/vm/mmap_min_addr (Linux's
 * mremap_test reads it) is the floor mmap keeps to: a hint below it is
 * raised to it, and MAP_FIXED below it is EPERM on zpk. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ulib.h"

#define PATH	"/proc/sys/vm/mmap_min_addr"

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long min;
	char buf[32];
	void *p;

	need_proc();
	tap_plan(3);
	min = read_file(PATH, buf, sizeof(buf)) > 0 ? strtoul(buf, NULL, 10) : 0;
	tap_ok(min > 0 && min % page == 0, PATH " reads %lu, a page multiple",
	       min);
	if (!min)
		tap_done();

	/* Linux's round_hint_to_min: a page-aligned hint below the floor
	 * becomes the floor itself (a hint of 0 is no hint). */
	if (min > (unsigned long)page) {
		p = mmap((void *)(min - page), page, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		tap_ok(p == (void *)min, "a hint a page below it maps at it "
		       "(%p)", p);
		if (p != MAP_FAILED)
			munmap(p, page);
	} else {
		tap_skip("no page-aligned hint below %lu", min);
	}

	if (!is_zpk()) {
		tap_skip("MAP_FIXED below it: root may map there on Linux "
			 "(CAP_SYS_RAWIO)");
		tap_done();
	}
	p = mmap((void *)(min - page), page, PROT_READ,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(p == MAP_FAILED && errno == EPERM,
	       "MAP_FIXED a page below it: EPERM (%s)",
	       p == MAP_FAILED ? strerror(errno) : "mapped");
	tap_done();
}
