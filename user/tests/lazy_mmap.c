/* user/tests/lazy_mmap.c — demand paging: mmap, brk and a file mapping
 * cost no memory until a page is touched, and then one page and one minor
 * fault per page; only MAP_POPULATE, MAP_LOCKED and mlockall(MCL_FUTURE)
 * ask for the pages at once (Linux's do_mmap and mm_populate). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define KB	1024L
#define MB	(1024 * KB)
#define BIG	(64 * MB)

static long long rss(void)
{
	return self_kb("VmRSS");
}

/* 64 MiB mapped and untouched, then one page in 16 written. */
static void anon_lazy(void)
{
	long long r0 = rss(), r1, r2;
	long f0, f1;
	char *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!tap_ok(p != MAP_FAILED, "mmap 64 MiB"))
		tap_done();
	r1 = rss();
	tap_ok(r1 - r0 < 256, "64 MiB mapped and untouched add no memory "
	       "(VmRSS %+lld kB)", r1 - r0);
	f0 = self_minflt();
	for (long i = 0; i < BIG; i += 16 * PAGE_SIZE)
		p[i] = 1;
	f1 = self_minflt();
	r2 = rss();
	tap_ok(f1 - f0 >= BIG / PAGE_SIZE / 16 && f1 - f0 <= BIG / PAGE_SIZE /
	       16 + 8, "1024 pages written: 1024 minor faults (%ld)", f1 - f0);
	tap_ok(r2 - r1 >= 4 * 1024 && r2 - r1 < 4 * 1024 + 256,
	       "and 4 MiB of memory, one page each (VmRSS %+lld kB)", r2 - r1);
	munmap(p, BIG);
}

/* MAP_POPULATE: the pages come with the mapping; touching them is free. */
static void populate(void)
{
	long long r0 = rss(), r1;
	long f0;
	char *p = mmap(NULL, MB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (!tap_ok(p != MAP_FAILED, "mmap 1 MiB MAP_POPULATE"))
		return;
	r1 = rss();
	tap_ok(r1 - r0 >= 1024 && r1 - r0 < 1024 + 256, "MAP_POPULATE maps "
	       "1 MiB at once (VmRSS %+lld kB)", r1 - r0);
	f0 = self_minflt();
	for (long i = 0; i < MB; i += PAGE_SIZE)
		p[i] = 2;
	tap_ok(self_minflt() - f0 <= 8, "and writing it faults no more (%ld)",
	       self_minflt() - f0);
	munmap(p, MB);
}

/* MAP_LOCKED and mlockall(MCL_FUTURE): locked memory is resident. */
static void locked(void)
{
	long long r0 = rss(), l0 = self_kb("VmLck"), r1;
	char *p = mmap(NULL, 256 * KB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);

	if (!tap_ok(p != MAP_FAILED, "mmap 256 kB MAP_LOCKED"))
		return;
	r1 = rss();
	tap_ok(r1 - r0 >= 256 && self_kb("VmLck") - l0 == 256, "MAP_LOCKED "
	       "maps its pages at once (VmRSS %+lld kB, VmLck %+lld kB)",
	       r1 - r0, self_kb("VmLck") - l0);
	munmap(p, 256 * KB);
	if (mlockall(MCL_FUTURE)) {
		tap_skip("mlockall(MCL_FUTURE): not allowed here");
		return;
	}
	r0 = rss();
	p = mmap(NULL, 256 * KB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r1 = rss();
	munlockall();
	tap_ok(p != MAP_FAILED && r1 - r0 >= 256, "after mlockall(MCL_FUTURE) "
	       "a new mapping is resident at once (VmRSS %+lld kB)", r1 - r0);
	if (p != MAP_FAILED)
		munmap(p, 256 * KB);
}

/* brk: the heap grows by address space, not memory. */
static void heap(void)
{
	char *old = (char *)syscall(SYS_brk, 0);
	long long r0 = rss(), d0 = self_kb("VmData"), r1;

	if (!tap_ok((char *)syscall(SYS_brk, old + 4 * MB) == old + 4 * MB,
		    "brk grows the heap 4 MiB"))
		return;
	r1 = rss();
	tap_ok(r1 - r0 < 128 && self_kb("VmData") - d0 == 4096, "a 4 MiB "
	       "heap is 4 MiB more VmData, no more VmRSS (%+lld kB)", r1 - r0);
	memset(old, 3, PAGE_SIZE);
	tap_ok(rss() - r1 >= 4 && rss() - r1 < 128, "a page of it written is "
	       "one page (VmRSS %+lld kB)", rss() - r1);
	syscall(SYS_brk, old);
}

/* A file's pages come in as they are read, no sooner. */
static void file_lazy(void)
{
	static char buf[MB];
	long long f0, f1, f2;
	volatile char *p;
	int fd;

	fd = test_dir_make("lazy_mmap") ? -1 :
	     open(at("f"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(buf, 'f', sizeof(buf));
	if (!tap_ok(fd >= 0 && write(fd, buf, MB) == MB, "a 1 MiB file"))
		return;
	f0 = self_kb("RssFile");
	p = mmap(NULL, MB, PROT_READ, MAP_PRIVATE, fd, 0);
	if (!tap_ok(p != MAP_FAILED, "mapped private, read-only"))
		return;
	f1 = self_kb("RssFile");
	tap_ok(f1 - f0 < 64, "untouched, it adds no RssFile (%+lld kB)",
	       f1 - f0);
	tap_ok(p[5 * PAGE_SIZE] == 'f', "a read sees the file");
	f2 = self_kb("RssFile");
	/* Linux maps up to 64 kB around the fault (fault_around_bytes). */
	tap_ok(f2 - f1 >= 4 && f2 - f1 <= 64, "one read maps at least its "
	       "page, not the file (RssFile %+lld kB)", f2 - f1);
	munmap((void *)p, MB);
	close(fd);
	unlink(at("f"));
	rmdir(test_dir());
}

int main(void)
{
	need_proc();
	tap_plan(18);
	anon_lazy();
	populate();
	locked();
	heap();
	file_lazy();
	tap_done();
}
