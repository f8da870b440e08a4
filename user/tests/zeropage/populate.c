/* user/tests/zeropage/populate.c — prefaulting: MAP_POPULATE, mlock,
 * mlockall and MADV_POPULATE_WRITE give real pages on a writable private
 * mapping; MAP_POPULATE of PROT_READ and MADV_POPULATE_READ zero pages. */
#include <string.h>
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define N	128	/* 512 kB: above Linux's RSS slack */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ	22
#define MADV_POPULATE_WRITE	23
#endif

enum how { POP_RW, POP_RO, MLOCK, MLOCKALL, MADV_READ, MADV_WRITE };
static const char *const how_name[] = {
	"MAP_POPULATE of PROT_READ|PROT_WRITE", "MAP_POPULATE of PROT_READ",
	"mlock", "mlockall(MCL_CURRENT)", "MADV_POPULATE_READ",
	"MADV_POPULATE_WRITE",
};

/* Prefault the N pages at p (from zp_map) the way how says: 0 or -1.
 * MAP_POPULATE maps over them (MAP_FIXED) to keep their page table. */
static int prefault(char *p, enum how how)
{
	int prot = how == POP_RW ? PROT_READ | PROT_WRITE : PROT_READ;
	int fl = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE;
	size_t len = N * PAGE_SIZE;

	switch (how) {
	case POP_RW:
	case POP_RO:
		return mmap(p, len, prot, fl, -1, 0) == p ? 0 : -1;
	case MLOCK:
		return mlock(p, len);
	case MLOCKALL:
		return mlockall(MCL_CURRENT);
	case MADV_READ:
		return madvise(p, len, MADV_POPULATE_READ);
	case MADV_WRITE:
		return madvise(p, len, MADV_POPULATE_WRITE);
	}
	return -1;
}

/* 2 checks: what the prefault costs, and that the pages are (not) the
 * zero page.  zero: this kind maps zero pages (unless the mode is off). */
static void one(enum how how, int zero)
{
	struct zp_sample s0, s1;
	long long want;
	long distinct;
	char *p;

	p = zp_map(N, PROT_READ | PROT_WRITE);
	zp_baseline(&s0);
	if (!p || prefault(p, how) < 0) {
		tap_ok(0, "%s failed", how_name[how]);
		tap_skip("%s: pages not checked", how_name[how]);
		return;
	}
	zp_sample(&s1);
	if (zero) {
		zp_check_read(&s0, &s1, N, how_name[how]);
		zp_check_pfns(p, N, how_name[how]);
	} else {
		/* mlockall populates the rest of us too: at least N. */
		want = N * 4LL;
		tap_ok(how == MLOCKALL ? s1.anon - s0.anon >= want -
		       (is_zpk() ? 0 : LINUX_RSS_SLACK_KB) :
		       kb_near(s1.anon - s0.anon, want), "%s: RssAnon %+lld "
		       "kB (want %s%+lld)", how_name[how], s1.anon - s0.anon,
		       how == MLOCKALL ? ">= " : "", want);
		zp_zpk_ok(s1.zero == s0.zero, "%s: RssZero %+lld kB (want +0)",
			  how_name[how], s1.zero - s0.zero);
		distinct = zp_count_distinct(p, N);
		tap_ok(distinct == N, "%s: %d pages of their own (%ld)",
		       how_name[how], N, distinct);
	}
	tap_ok(zp_read(p, N) == 0 && zp_is_zero(p, N * PAGE_SIZE),
	       "%s: reads zeros", how_name[how]);
	if (how == MLOCKALL)
		munlockall();
	zp_unmap(p, N);
}

int main(void)
{
	need_proc();
	tap_plan(4 * 4 + 2 * 6);
	zp_note_mode();
	one(POP_RW, 0);
	one(POP_RO, 1);
	one(MLOCK, 0);
	one(MLOCKALL, 0);
	one(MADV_READ, 1);
	one(MADV_WRITE, 0);
	tap_done();
}
