/* user/tests/soft_dirty.c — /proc/PID/clear_refs and soft-dirty tracking:
 * the types Linux takes (1-3 clear referenced bits, 4 soft-dirty, 5 the
 * VmHWM peak) and refuses; pagemap bit 55 and the VMA's "sd" flag on new
 * memory, after clear_refs, a write, a read, the zero page, mprotect, a
 * shared mapping, mremap, MAP_FIXED, brk, /proc/self/mem and fork. The
 * soft-dirty part skips on a Linux without CONFIG_MEM_SOFT_DIRTY (this
 * host's); Debian's 6.1 passes it all. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define P		PAGE_SIZE
#define SD_CHECKS	19

static char *map(size_t len, int prot, int flags)
{
	char *p = mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* len bytes between two PROT_NONE pages: no mapping made later (malloc's,
 * in proc_read) can merge with it and make it all soft-dirty again. */
static char *map_guarded(size_t len, int flags)
{
	char *p = map(len + 2 * P, PROT_NONE, flags);

	if (!p || mprotect(p + P, len, PROT_READ | PROT_WRITE))
		return NULL;
	return p + P;
}

static void unmap_guarded(char *p, size_t len)
{
	munmap(p - P, len + 2 * P);
}

static int clear_refs(const char *type)
{
	return write_file("/proc/self/clear_refs", type);
}

static uint64_t pme(const void *p)
{
	uint64_t e = 0;

	pagemap_read(0, (unsigned long)p, &e, 1);
	return e;
}

static int sd(const void *p)
{
	return !!(pme(p) & PM_SOFT_DIRTY);
}

/* The pfn at p, or 0 when pagemap hides pfns (no CAP_SYS_ADMIN). */
static unsigned long long pfn(const void *p)
{
	return PM_PFN(pme(p));
}

/* The smaps entry holding p: a "Key: N kB" field, or -1; with flag set,
 * whether VmFlags has it instead. */
static long long smaps_of(const void *p, const char *key, const char *flag)
{
	char *buf = proc_read("/proc/self/smaps", NULL), *cur = buf, *f;
	struct proc_map m;
	long long v = -1;
	char want[8];

	while (buf && proc_maps_next(&cur, &m)) {
		if (m.start > (unsigned long)p || (unsigned long)p >= m.end)
			continue;
		if (!flag) {
			v = proc_field(m.fields, m.fields_end, key);
			break;
		}
		snprintf(want, sizeof(want), " %s ", flag);
		f = strstr(m.fields, "VmFlags:");
		v = f && f < m.fields_end && strstr(f, want) &&
		    strstr(f, want) < m.fields_end;
		break;
	}
	free(buf);
	return v;
}

static void types(void)
{
	struct stat st;
	char c;
	int fd;

	tap_ok(clear_refs("0") == EINVAL, "clear_refs 0: EINVAL");
	tap_ok(clear_refs("6") == EINVAL, "clear_refs 6: EINVAL");
	tap_ok(clear_refs("four") == EINVAL, "clear_refs four: EINVAL");
	tap_ok(clear_refs("99999999999") == ERANGE, "clear_refs of a number "
	       "beyond int: ERANGE");
	tap_ok(clear_refs(" 4\n") == 0, "clear_refs \" 4\\n\": taken");
	tap_ok(stat("/proc/self/clear_refs", &st) == 0 &&
	       (st.st_mode & 07777) == 0200, "clear_refs is mode 0200");
	fd = open("/proc/self/clear_refs", O_RDONLY);
	tap_ok(fd >= 0 && read(fd, &c, 1) < 0 && errno == EINVAL,
	       "reading clear_refs: EINVAL");
	close(fd);
}

/* 5: VmHWM comes down to VmRSS. */
static void hiwater(void)
{
	size_t len = 512 * P;
	char *p = map(len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	long long hwm, rss;

	memset(p, 1, len);
	munmap(p, len);
	hwm = self_kb("VmHWM");
	rss = self_kb("VmRSS");
	tap_ok(hwm - rss >= 1536, "VmHWM %lld kB stays above VmRSS %lld kB "
	       "after a 2 MiB munmap", hwm, rss);
	tap_ok(clear_refs("5") == 0, "clear_refs 5: taken");
	hwm = self_kb("VmHWM");
	rss = self_kb("VmRSS");
	tap_ok(hwm >= rss && kb_near(hwm, rss), "then VmHWM %lld kB is VmRSS "
	       "%lld kB", hwm, rss);
}

/* 1-3: smaps' Referenced drops in the VMAs of the type asked for. */
static void referenced(void)
{
	int fd = memfd_create("refs", 0);
	char *a = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE), *f;

	ftruncate(fd, 4 * P);
	f = mmap(NULL, 4 * P, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memset(a, 1, 4 * P);
	memset(f, 1, 4 * P);
	tap_ok(smaps_of(a, "Referenced", NULL) == 16 &&
	       smaps_of(f, "Referenced", NULL) == 16,
	       "touched anonymous and file pages are Referenced");
	tap_ok(clear_refs("2") == 0 && smaps_of(a, "Referenced", NULL) == 0 &&
	       smaps_of(f, "Referenced", NULL) == 16,
	       "clear_refs 2 clears the anonymous VMA only");
	tap_ok(clear_refs("3") == 0 && smaps_of(f, "Referenced", NULL) == 0,
	       "clear_refs 3 clears the file VMA");
	munmap(a, 4 * P);
	munmap(f, 4 * P);
	a = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	f = mmap(NULL, 4 * P, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	memset(a, 2, 4 * P);
	memset(f, 2, 4 * P);
	tap_ok(clear_refs("1") == 0 && smaps_of(a, "Referenced", NULL) == 0 &&
	       smaps_of(f, "Referenced", NULL) == 0 && a[0] == 2 && f[0] == 2,
	       "clear_refs 1 clears both, the data stays");
	munmap(a, 4 * P);
	munmap(f, 4 * P);
	close(fd);
}

/* Writes, reads and the zero page around a clear_refs 4. */
static void writes(void)
{
	char *p = map_guarded(4 * P, MAP_PRIVATE);
	unsigned long long pf;

	tap_ok(smaps_of(p, NULL, "sd") == 1 && sd(p + 3 * P),
	       "a new mapping: VmFlags sd, an untouched page soft-dirty");
	p[0] = 1;
	(void)*(volatile char *)(p + 2 * P);	/* the zero page, if any */
	tap_ok(clear_refs("4") == 0 && smaps_of(p, NULL, "sd") == 0 &&
	       !sd(p) && !sd(p + 2 * P) && !sd(p + 3 * P),
	       "clear_refs 4: no sd flag, no page soft-dirty");
	pf = pfn(p);
	p[0] = 2;
	tap_ok(sd(p) && !sd(p + P) && pfn(p) == pf && p[0] == 2,
	       "a write marks its page alone, in place (no copy)");
	(void)*(volatile char *)(p + P);
	tap_ok(!sd(p + P), "a first read does not mark (under any zero-page "
	       "policy)");
	p[P] = 3;
	tap_ok(sd(p + P) && p[P] == 3, "a write after the read does");
	pf = pfn(p + 2 * P);
	tap_ok(!sd(p + 2 * P) && p[2 * P] == 0 && pfn(p + 2 * P) == pf,
	       "a page read before clear_refs: still mapped, zero, clean");
	p[2 * P] = 4;
	tap_ok(sd(p + 2 * P) && p[2 * P] == 4, "and its write marks it");
	unmap_guarded(p, 4 * P);
}

/* mprotect keeps the bit off (soft-dirty's own kselftest), a shared
 * mapping tracks as a private one. */
static void protections(void)
{
	char *p = map_guarded(P, MAP_PRIVATE);
	char *s = map_guarded(P, MAP_SHARED);

	p[0] = 1;
	s[0] = 1;
	clear_refs("4");
	mprotect(p, P, PROT_READ);
	mprotect(p, P, PROT_READ | PROT_WRITE);
	tap_ok(!sd(p), "mprotect read-only and back: still clean");
	p[0] = 2;
	tap_ok(sd(p) && p[0] == 2, "the write after it marks the page");
	tap_ok(!sd(s), "shared anonymous page: clean after clear_refs");
	s[0] = 2;
	tap_ok(sd(s) && s[0] == 2, "its write marks it");
	unmap_guarded(p, P);
	unmap_guarded(s, P);
}

/* New VMAs and moved pages are soft-dirty, as Linux's mmap_region,
 * do_brk_flags and move_ptes make them. */
static void new_memory(void)
{
	char *p = map_guarded(6 * P, MAP_PRIVATE), *q;
	unsigned long b = syscall(SYS_brk, 0);

	b = (b + P - 1) & ~(P - 1);
	munmap(p + 4 * P, 2 * P);	/* a hole to move into */
	p[0] = 1;
	clear_refs("4");
	q = mremap(p, P, P, MREMAP_MAYMOVE | MREMAP_FIXED, p + 4 * P);
	tap_ok(q == p + 4 * P && sd(q) && q[0] == 1,
	       "mremap: the moved page is soft-dirty");
	tap_ok(!sd(p + P), "a page not touched stays clean");
	mmap(p + P, P, PROT_READ | PROT_WRITE,
	     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(sd(p + P), "MAP_FIXED over it: soft-dirty again (new memory)");
	unmap_guarded(p, 6 * P);
	syscall(SYS_brk, b + 2 * P);
	*(volatile char *)b = 1;
	clear_refs("4");
	tap_ok(!sd((void *)b), "the heap: clean after clear_refs");
	syscall(SYS_brk, b + 3 * P);
	tap_ok(sd((void *)b), "brk grows it: all of it soft-dirty");
	syscall(SYS_brk, b);
}

static void fork_child(void *arg)
{
	char *p = arg;

	p[0] = 2;
	_exit(sd(p) ? 0 : 1);
}

/* /proc/self/mem's FOLL_FORCE write and fork's COW both mark. */
static void others(void)
{
	char *r = map_guarded(P, MAP_PRIVATE);
	char *p = map_guarded(P, MAP_PRIVATE);
	int fd = open("/proc/self/mem", O_RDWR);
	char c = 5;

	mprotect(r, P, PROT_READ);
	pwrite(fd, &c, 1, (long)r);	/* a private copy, read-only */
	clear_refs("4");
	tap_ok(!sd(r) && r[0] == 5, "a /proc/self/mem copy: clean after "
	       "clear_refs");
	c = 6;
	tap_ok(pwrite(fd, &c, 1, (long)r) == 1 && sd(r) && r[0] == 6,
	       "a /proc/self/mem write to it marks it");
	close(fd);
	p[0] = 1;
	clear_refs("4");
	tap_ok(in_child(fork_child, p) == 0 && !sd(p) && p[0] == 1,
	       "a fork child's write marks its copy, not the parent's page");
	unmap_guarded(r, P);
	unmap_guarded(p, P);
}

int main(void)
{
	char *p;
	int sd_on;

	need_proc();
	tap_plan(14 + SD_CHECKS);
	types();
	hiwater();
	referenced();
	p = map(P, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	sd_on = smaps_of(p, NULL, "sd") == 1;
	munmap(p, P);
	if (!sd_on && !is_zpk()) {
		for (int i = 0; i < SD_CHECKS; i++)
			tap_skip("no soft-dirty on this kernel (new memory has "
				 "no VmFlags sd: CONFIG_MEM_SOFT_DIRTY off)");
		tap_done();
	}
	writes();
	protections();
	new_memory();
	others();
	tap_done();
}
