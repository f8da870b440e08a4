/* user/tests/mempolicy.c — mbind, set_mempolicy and get_mempolicy on a
 * machine with one NUMA node, as Linux answers there: the errnos, a VMA's
 * policy split off and merged back (maps), kept by mremap and fork, the
 * mode flags' node masks, MPOL_MF_STRICT's -EIO and MPOL_MF_MOVE, the
 * thread's policy, and how many mask words get_mempolicy writes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define P	PAGE_SIZE

enum { MPOL_DEFAULT, MPOL_PREFERRED, MPOL_BIND, MPOL_INTERLEAVE, MPOL_LOCAL };
#define MPOL_F_STATIC_NODES	(1 << 15)
#define MPOL_F_RELATIVE_NODES	(1 << 14)
#define MPOL_F_NUMA_BALANCING	(1 << 13)
#define MPOL_F_NODE		(1 << 0)
#define MPOL_F_ADDR		(1 << 1)
#define MPOL_F_MEMS_ALLOWED	(1 << 2)
#define MPOL_MF_STRICT		(1 << 0)
#define MPOL_MF_MOVE		(1 << 1)
#define MPOL_MF_LAZY		(1 << 3)

static unsigned long node0 = 1;

static long mbind_(void *p, size_t len, int mode, const unsigned long *mask,
		   unsigned long maxnode, unsigned int flags)
{
	return syscall(SYS_mbind, p, len, mode, mask, maxnode, flags);
}

static long get_mp(int *mode, unsigned long *mask, unsigned long maxnode,
		   void *addr, unsigned long flags)
{
	return syscall(SYS_get_mempolicy, mode, mask, maxnode, addr, flags);
}

static long set_mp(int mode, const unsigned long *mask, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, mask, maxnode);
}

static int fails(long r, int e)
{
	return r < 0 && errno == e;
}

static char *map(size_t n)
{
	char *p = mmap(NULL, (n + 2) * P, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* Between two guard pages, so that nothing merges with it. */
	mprotect(p + P, n * P, PROT_READ | PROT_WRITE);
	return p + P;
}

/* The policy mode word and node mask of the VMA at p; -1 if it fails. */
static int policy_at(void *p, unsigned long *mask)
{
	int mode = -1;
	unsigned long m = 0;

	if (get_mp(&mode, &m, 65, p, MPOL_F_ADDR))
		return -1;
	if (mask)
		*mask = m;
	return mode;
}

/* How many /proc/self/maps entries lie inside [p, p + len). */
static int vmas_in(const char *p, size_t len)
{
	char *buf = proc_read("/proc/self/maps", NULL), *cur = buf;
	struct proc_map m;
	int n = 0;

	while (buf && proc_maps_next(&cur, &m))
		n += m.start >= (unsigned long)p &&
		     m.end <= (unsigned long)p + len;
	free(buf);
	return n;
}

static void errnos(void)
{
	char *p = map(2);
	unsigned long big[17] = { 0 }, two = 2;

	tap_ok(fails(mbind_(p, P, 99, &node0, 2, 0), EINVAL),
	       "an unknown mode: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_BIND | MPOL_F_STATIC_NODES |
			    MPOL_F_RELATIVE_NODES, &node0, 2, 0), EINVAL),
	       "both node flags: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_INTERLEAVE | MPOL_F_NUMA_BALANCING,
			    &node0, 2, 0), EINVAL),
	       "MPOL_F_NUMA_BALANCING but for MPOL_BIND: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_BIND, &node0, 2, MPOL_MF_LAZY), EINVAL),
	       "MPOL_MF_LAZY (not for users): EINVAL");
	tap_ok(fails(mbind_(p + 1, P, MPOL_BIND, &node0, 2, 0), EINVAL),
	       "an unaligned start: EINVAL");
	tap_ok(mbind_(p, 0, MPOL_BIND, &node0, 2, 0) == 0, "length 0: 0");
	tap_ok(fails(mbind_(p, P, MPOL_BIND, NULL, 0, 0), EINVAL),
	       "MPOL_BIND without nodes: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_BIND, &two, 3, 0), EINVAL) &&
	       fails(mbind_(p, P, MPOL_PREFERRED, &two, 3, 0), EINVAL),
	       "only node 1, which has no memory: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_DEFAULT, &node0, 2, 0), EINVAL) &&
	       fails(mbind_(p, P, MPOL_LOCAL, &node0, 2, 0), EINVAL),
	       "MPOL_DEFAULT or MPOL_LOCAL with nodes: EINVAL");
	tap_ok(fails(mbind_(p, P, MPOL_BIND, (void *)8, 65, 0), EFAULT),
	       "a mask at a bad address: EFAULT");
	tap_ok(fails(mbind_(p, P, MPOL_BIND, &node0, 32770, 0), EINVAL),
	       "more than a page of mask bits: EINVAL");
	big[0] = 1;
	big[16] = 1;			/* node 1024: past MAX_NUMNODES */
	tap_ok(fails(mbind_(p, P, MPOL_BIND, big, 17 * 64 + 1, 0), EINVAL),
	       "a node above 1023: EINVAL");
	munmap(p + P, P);
	tap_ok(fails(mbind_(p, 2 * P, MPOL_BIND, &node0, 2, 0), EFAULT) &&
	       fails(mbind_(p + P, P, MPOL_BIND, &node0, 2, 0), EFAULT),
	       "a range with a hole, or unmapped: EFAULT");
	tap_ok(mbind_(p, 2 * P, MPOL_DEFAULT, NULL, 0, 0) == 0 &&
	       fails(mbind_(p + P, P, MPOL_DEFAULT, NULL, 0, 0), EFAULT),
	       "MPOL_DEFAULT over a hole: 0, over nothing mapped: EFAULT");
	munmap(p - P, 4 * P);
}

static void vma_policy(void)
{
	char *p = map(3), *q;
	unsigned long mask, sixteen = 16, five = 5;
	int st;

	tap_ok(policy_at(p, &mask) == MPOL_DEFAULT && mask == 0,
	       "a new mapping: MPOL_DEFAULT, no nodes");
	tap_ok(mbind_(p + P, P, MPOL_BIND, &node0, 2, 0) == 0 &&
	       policy_at(p + P, &mask) == MPOL_BIND && mask == 1 &&
	       policy_at(p, NULL) == MPOL_DEFAULT &&
	       policy_at(p + 2 * P, NULL) == MPOL_DEFAULT,
	       "mbind of the middle page: MPOL_BIND {0} there alone");
	tap_ok(vmas_in(p, 3 * P) == 3, "its VMA is split in three (maps)");
	tap_ok(mbind_(p + P, P, MPOL_DEFAULT, NULL, 0, 0) == 0 &&
	       vmas_in(p, 3 * P) == 1, "MPOL_DEFAULT again: one VMA again");
	tap_ok(mbind_(p, P, MPOL_PREFERRED, NULL, 0, 0) == 0 &&
	       policy_at(p, &mask) == MPOL_LOCAL && mask == 0,
	       "MPOL_PREFERRED without nodes is MPOL_LOCAL");
	tap_ok(mbind_(p, P, MPOL_BIND | MPOL_F_STATIC_NODES, &five, 4, 0) ==
	       0 && policy_at(p, &mask) == (MPOL_BIND | MPOL_F_STATIC_NODES) &&
	       mask == 5, "MPOL_F_STATIC_NODES keeps the mask given {0,2}");
	tap_ok(mbind_(p, P, MPOL_INTERLEAVE | MPOL_F_RELATIVE_NODES, &sixteen,
		      6, 0) == 0 &&
	       policy_at(p, &mask) == (MPOL_INTERLEAVE | MPOL_F_RELATIVE_NODES)
	       && mask == 16, "MPOL_F_RELATIVE_NODES takes {4}: folded "
	       "onto node 0, shown as given");
	mbind_(p + 2 * P, P, MPOL_BIND, &node0, 2, 0);
	q = mremap(p + 2 * P, P, 2 * P, MREMAP_MAYMOVE);
	tap_ok(q != MAP_FAILED && policy_at(q, NULL) == MPOL_BIND,
	       "mremap moves the policy with the mapping");
	if (fork() == 0)
		_exit(policy_at(q, NULL) == MPOL_BIND ? 0 : 1);
	wait(&st);
	tap_ok(st == 0, "a fork child has it too");
	munmap(q, 2 * P);
	munmap(p - P, 5 * P);
}

static void strict_and_move(void)
{
	char *p = map(2);
	uint64_t e = 0;
	int want;
	long r;

	tap_ok(mbind_(p, 2 * P, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT) == 0,
	       "MPOL_MF_STRICT over pages not there: 0");
	(void)*(volatile char *)(p + P);
	pagemap_read(0, (unsigned long)(p + P), &e, 1);
	/* The zero page is no page to move; a page of its own is. */
	want = e & PM_EXCLUSIVE ? EIO : 0;
	r = mbind_(p + P, P, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT);
	tap_ok(want ? fails(r, EIO) : r == 0,
	       "MPOL_MF_STRICT on a page read: %s", want ? "EIO (a page of "
	       "its own)" : "0 (the zero page)");
	memset(p, 7, P);
	tap_ok(fails(mbind_(p, P, MPOL_LOCAL, NULL, 0, MPOL_MF_STRICT), EIO),
	       "MPOL_LOCAL, MPOL_MF_STRICT on a written page: EIO (its node "
	       "is not in the empty mask)");
	tap_ok(mbind_(p, P, MPOL_BIND, &node0, 2, MPOL_MF_STRICT) == 0,
	       "MPOL_BIND {0}, MPOL_MF_STRICT: 0 (node 0 is in it)");
	mprotect(p, P, PROT_READ);
	tap_ok(mbind_(p, P, MPOL_LOCAL, NULL, 0x7ff, MPOL_MF_MOVE) == 0 &&
	       p[0] == 7 && p[P - 1] == 7,
	       "MPOL_LOCAL, MPOL_MF_MOVE (mkdirty's migration): 0, data kept");
	munmap(p - P, 4 * P);
}

static void task_policy(void)
{
	unsigned long mask = 0;
	char *p = map(1), *gone = map(1);
	int mode = -1, st;

	munmap(gone - P, 3 * P);

	tap_ok(get_mp(&mode, &mask, 65, NULL, 0) == 0 &&
	       mode == MPOL_DEFAULT && mask == 0,
	       "the thread's policy: MPOL_DEFAULT");
	tap_ok(set_mp(MPOL_INTERLEAVE, &node0, 2) == 0 &&
	       get_mp(&mode, &mask, 65, NULL, 0) == 0 &&
	       mode == MPOL_INTERLEAVE && mask == 1,
	       "set_mempolicy(MPOL_INTERLEAVE, {0})");
	tap_ok(get_mp(&mode, NULL, 0, NULL, MPOL_F_NODE) == 0 && mode == 0,
	       "MPOL_F_NODE: the next node to interleave to, 0");
	if (fork() == 0)
		_exit(get_mp(&mode, NULL, 0, NULL, 0) == 0 &&
		      mode == MPOL_INTERLEAVE ? 0 : 1);
	wait(&st);
	tap_ok(st == 0, "a fork child inherits it");
	tap_ok(fails(set_mp(MPOL_BIND, NULL, 0), EINVAL) &&
	       set_mp(MPOL_DEFAULT, NULL, 0) == 0 &&
	       get_mp(&mode, NULL, 0, NULL, 0) == 0 && mode == MPOL_DEFAULT,
	       "set_mempolicy's checks are mbind's; MPOL_DEFAULT again");
	tap_ok(fails(get_mp(&mode, NULL, 0, NULL, MPOL_F_NODE), EINVAL),
	       "MPOL_F_NODE without interleave or an address: EINVAL");
	mode = -1;
	tap_ok(get_mp(&mode, NULL, 0, p, MPOL_F_NODE | MPOL_F_ADDR) == 0 &&
	       mode == 0, "MPOL_F_NODE | MPOL_F_ADDR: the page's node, 0");
	tap_ok(get_mp(&mode, &mask, 65, NULL, MPOL_F_MEMS_ALLOWED) == 0 &&
	       mode == 0 && mask == 1, "MPOL_F_MEMS_ALLOWED: node 0");
	tap_ok(fails(get_mp(&mode, NULL, 0, p, MPOL_F_MEMS_ALLOWED |
			    MPOL_F_ADDR), EINVAL) &&
	       fails(get_mp(&mode, NULL, 0, NULL, 8), EINVAL) &&
	       fails(get_mp(&mode, NULL, 0, p, 0), EINVAL),
	       "get_mempolicy's bad flags, or an address without "
	       "MPOL_F_ADDR: EINVAL");
	tap_ok(fails(get_mp(&mode, NULL, 0, gone, MPOL_F_ADDR), EFAULT) &&
	       fails(get_mp(&mode, &mask, 0, NULL, 0), EINVAL),
	       "an unmapped address: EFAULT; a mask of 0 nodes: EINVAL");
	munmap(p - P, 3 * P);
}

/* get_mempolicy writes the first word and clears the rest of the words
 * maxnode - 1 bits take; with maxnode 1, none. */
static void mask_words(void)
{
	unsigned long m[4] = { 9, 9, 9, 9 };
	int mode;

	set_mp(MPOL_BIND, &node0, 2);
	tap_ok(get_mp(&mode, m, 1, NULL, 0) == 0 && m[0] == 9,
	       "maxnode 1: no word written");
	tap_ok(get_mp(&mode, m, 129, NULL, 0) == 0 && m[0] == 1 && m[1] == 0 &&
	       m[2] == 9, "maxnode 129: two words, the second cleared");
	set_mp(MPOL_DEFAULT, NULL, 0);
}

int main(void)
{
	need_proc();
	tap_plan(40);
	errnos();
	vma_policy();
	strict_and_move();
	task_policy();
	mask_words();
	tap_done();
}
