/* zpk/mm_verify.h — the invariant checker: page tables against the RSS
 * counters, and against every page's _mapcount and _refcount. */
#ifndef ZPK_MM_VERIFY_H
#define ZPK_MM_VERIFY_H

#include <zpk/mm_types.h>

/* What a check found: the number of differences and the first, in words. */
struct mm_verify_report {
	int errors;
	char first[160];
};

/* mm_verify=exit (or =warn, the labs' grader) on the command line: run
 * mm_verify_all at each exit. */
extern bool mm_verify_on_exit;

/* mm's counters (each of rss_stat, hiwater_rss) and PTE sanity (none
 * outside a VMA, no writable zero page or COW-shared page). Returns the
 * differences found, added to r; printk's the first few. */
int mm_verify_report(struct mm_struct *mm, struct mm_verify_report *r);
/* Every page's _mapcount equals the PTEs mapping it in mms[0..n), which
 * must be every mm there is, and its _refcount covers them. */
int mm_verify_pages_report(struct mm_struct **mms, int n,
			   struct mm_verify_report *r);
/* BUGs with the first difference if r has any (mm_verify=warn: prints
 * their number instead, for the labs' grader to fail a test, not the
 * kernel). */
void mm_verify_bug(struct mm_verify_report *r);

/* Both checks on mm alone, then BUG on any difference. */
void mm_verify(struct mm_struct *mm);
/* validate_mm (not under =warn) and both checks on every task's mm;
 * BUGs on any difference. */
void mm_verify_all(void);

#endif
