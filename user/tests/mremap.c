/* user/tests/mremap.c — mremap(2): Linux's errnos, shrink, grow in place,
 * MREMAP_MAYMOVE, MREMAP_FIXED, MREMAP_DONTUNMAP, duplicating a shared
 * mapping; a move keeps the pages (same pfns) and COW sharing with a
 * fork child, in both directions. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP	4
#endif

#define P	PAGE_SIZE

static char *map(size_t len, int prot, int flags)
{
	char *p = mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* n pages at a free spot with n free pages above it (a reservation cut
 * in half), so that it can grow in place. */
static char *map_growable(size_t n)
{
	char *p = map(2 * n * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	if (p)
		munmap(p + n * P, n * P);
	return p;
}

static void *mr(void *old, size_t ol, size_t nl, int flags, void *new)
{
	return mremap(old, ol, nl, flags, new);
}

/* mremap's result is -1 with errno e. */
static int fails(void *r, int e)
{
	return r == MAP_FAILED && errno == e;
}

static int is_mapped(const void *p, size_t len)
{
	return madvise((void *)p, len, MADV_NORMAL) == 0;
}

/* The pfn behind p, 0 if not present, -1 if pagemap hides it. */
static long long pfn_of(const void *p)
{
	uint64_t e;

	if (pagemap_read(0, (unsigned long)p, &e, 1) != 1)
		return -1;
	return e & PM_PRESENT ? (long long)PM_PFN(e) : 0;
}

static int filled(const char *p, size_t n, char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i * P] != v || p[i * P + P - 1] != v)
			return 0;
	return 1;
}

static void errnos(void)
{
	char *p = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);

	tap_ok(fails(mr(p, P, P, 8, NULL), EINVAL), "unknown flag: EINVAL");
	tap_ok(fails(mr(p, P, 2 * P, MREMAP_FIXED, p + 2 * P), EINVAL),
	       "MREMAP_FIXED without MREMAP_MAYMOVE: EINVAL");
	tap_ok(fails(mr(p, P, P, MREMAP_DONTUNMAP, NULL), EINVAL),
	       "MREMAP_DONTUNMAP without MREMAP_MAYMOVE: EINVAL");
	tap_ok(fails(mr(p, P, 2 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL),
		     EINVAL), "MREMAP_DONTUNMAP with a new size: EINVAL");
	tap_ok(fails(mr(p + 1, P, P, 0, NULL), EINVAL), "unaligned address: "
	       "EINVAL");
	tap_ok(fails(mr(p, P, 0, MREMAP_MAYMOVE, NULL), EINVAL),
	       "new size 0: EINVAL");
	tap_ok(fails(mr(p, P, P, MREMAP_MAYMOVE | MREMAP_FIXED, p + 1),
		     EINVAL), "unaligned new address: EINVAL");
	tap_ok(fails(mr(p, 2 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_FIXED,
			p + P), EINVAL), "overlapping new range: EINVAL");
	tap_ok(fails(mr(p, 0, P, MREMAP_MAYMOVE, NULL), EINVAL),
	       "old size 0 of a private mapping: EINVAL");
	munmap(p + 3 * P, P);
	tap_ok(fails(mr(p + 3 * P, P, 2 * P, MREMAP_MAYMOVE, NULL), EFAULT),
	       "unmapped address: EFAULT");
	/* Two VMAs: an old range across both is not one mapping. */
	mprotect(p + P, P, PROT_READ);
	tap_ok(fails(mr(p, 2 * P, 4 * P, MREMAP_MAYMOVE, NULL), EFAULT),
	       "old range across two VMAs: EFAULT");
	munmap(p, 4 * P);
	/* Another VMA right above: no room to grow without a move. */
	p = map(3 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	mprotect(p + 2 * P, P, PROT_READ);
	tap_ok(fails(mr(p, 2 * P, 3 * P, 0, NULL), ENOMEM),
	       "grow with a mapping above, no MREMAP_MAYMOVE: ENOMEM");
	munmap(p, 3 * P);
}

static void shrink_and_grow(void)
{
	char *p = map_growable(4), *r;

	memset(p, 0x11, 4 * P);
	r = mr(p, 4 * P, 2 * P, 0, NULL);
	tap_ok(r == p && is_mapped(p, 2 * P) && !is_mapped(p + 2 * P, P) &&
	       filled(p, 2, 0x11), "shrink: same address, the tail unmapped, "
	       "the data kept");
	r = mr(p, 2 * P, 6 * P, 0, NULL);
	tap_ok(r == p && is_mapped(p, 6 * P) && filled(p, 2, 0x11) &&
	       filled(p + 2 * P, 4, 0), "grow in place: same address, old "
	       "data, zeros above");
	tap_ok(mr(p, 6 * P, 6 * P, 0, NULL) == p, "same size: the address");
	munmap(p, 6 * P);
}

static void maymove(void)
{
	char *p = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE), *r, *q;
	long long pfn0, pfn3;

	memset(p, 0x22, 4 * P);
	pfn0 = pfn_of(p);
	pfn3 = pfn_of(p + 3 * P);
	q = mmap(p + 4 * P, P, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
		 MAP_FIXED_NOREPLACE, -1, 0);
	r = mr(p, 4 * P, 16 * P, MREMAP_MAYMOVE, NULL);
	tap_ok(r != MAP_FAILED && r != p && !is_mapped(p, 4 * P) &&
	       filled(r, 4, 0x22) && filled(r + 4 * P, 12, 0),
	       "MREMAP_MAYMOVE: moved, old range unmapped, data and zeros");
	tap_ok(pfn0 != 0 && pfn_of(r) == pfn0 && pfn_of(r + 3 * P) == pfn3,
	       "the moved pages are the same pages (pfn %#llx)", pfn0);
	munmap(q, P);
	munmap(r, 16 * P);
}

static void fixed(void)
{
	char *p = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	char *t = map(8 * P, PROT_READ, MAP_PRIVATE), *r;

	memset(p, 0x33, 4 * P);
	r = mr(p, 4 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_FIXED, t + 2 * P);
	tap_ok(r == t + 2 * P && filled(r, 2, 0x33) && !is_mapped(p, 4 * P),
	       "MREMAP_FIXED: at new_addr, shrunk, the old range unmapped");
	r[0] = 1;	/* writable: the old VMA's protection came along */
	tap_ok(is_mapped(t, 8 * P) && t[0] == 0 && t[6 * P] == 0,
	       "... over the mapping that was there, its neighbours kept");
	munmap(t, 8 * P);
}

static void dontunmap(void)
{
	char *p = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE), *r;
	long long pfn;

	memset(p, 0x44, 4 * P);
	pfn = pfn_of(p + P);
	r = mr(p, 4 * P, 4 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	tap_ok(r != MAP_FAILED && r != p && filled(r, 4, 0x44) &&
	       pfn_of(r + P) == pfn, "MREMAP_DONTUNMAP: the pages moved");
	tap_ok(is_mapped(p, 4 * P) && pfn_of(p) == 0 && filled(p, 4, 0),
	       "... the old range still mapped, empty: reads zeros");
	munmap(p, 4 * P);
	munmap(r, 4 * P);
	/* A shared mapping (Linux 5.13 on): the old range faults the same
	 * shmem pages in again. */
	p = map(2 * P, PROT_READ | PROT_WRITE, MAP_SHARED);
	p[P] = 9;
	r = mr(p, 2 * P, 2 * P, MREMAP_MAYMOVE | MREMAP_DONTUNMAP, NULL);
	tap_ok(r != MAP_FAILED && r[P] == 9 && p[P] == 9 && (r[0] = 8) &&
	       p[0] == 8, "MREMAP_DONTUNMAP of a shared mapping: both ranges "
	       "map its pages");
	munmap(p, 2 * P);
	munmap(r, 2 * P);
}

/* old_size 0 of a shared mapping: a second mapping of the same pages. */
static void duplicate_shared(void)
{
	char *p = map(2 * P, PROT_READ | PROT_WRITE, MAP_SHARED), *r;

	p[P] = 5;
	r = mr(p, 0, 2 * P, MREMAP_MAYMOVE, NULL);
	tap_ok(r != MAP_FAILED && r != p && r[P] == 5, "old size 0 of a "
	       "shared mapping: a second mapping of it");
	r[0] = 6;
	tap_ok(p[0] == 6, "... of the same pages");
	munmap(p, 2 * P);
	munmap(r, 2 * P);
}

/* Parent writes N pages, forks; the child moves them (COW-shared, the
 * same pfns), writes one: the parent's copy is untouched, then the
 * parent writes another: the child's moved one is untouched. */
static void cow_after_fork(void)
{
	char *p = map(4 * P, PROT_READ | PROT_WRITE, MAP_SHARED);
	char *c = map(4 * P, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	int st, *res = (int *)p;
	pid_t pid;

	memset(c, 0x55, 4 * P);
	p[P] = 0;
	pid = fork();
	if (pid == 0) {
		long long pfn = pfn_of(c);
		char *r = mr(c, 4 * P, 8 * P, MREMAP_MAYMOVE, NULL);

		res[0] = r != MAP_FAILED && filled(r, 4, 0x55);
		res[1] = pfn_of(r) == pfn;
		r[0] = 0x66;		/* COW: the parent keeps 0x55 */
		res[2] = 1;
		while (!p[P])		/* the parent has written page 2 */
			usleep(1000);
		res[3] = r[2 * P] == 0x55 && r[0] == 0x66;
		_exit(0);
	}
	while (!res[2])
		usleep(1000);
	tap_ok(res[0], "child: MREMAP_MAYMOVE of COW-shared pages keeps data");
	tap_ok(res[1], "child: the moved PTE maps the parent's pfn (shared)");
	tap_ok(c[0] == 0x55, "child's write after the move: parent unchanged");
	c[2 * P] = 0x77;
	p[P] = 1;
	waitpid(pid, &st, 0);
	tap_ok(res[3] && st == 0, "parent's write: the child's moved page "
	       "unchanged");
	munmap(p, 4 * P);
	munmap(c, 4 * P);
}

int main(void)
{
	need_proc();
	tap_plan(28);
	errnos();
	shrink_and_grow();
	maymove();
	fixed();
	dontunmap();
	duplicate_shared();
	cow_after_fork();
	tap_done();
}
