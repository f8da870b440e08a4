/* zpk/mm_verify.h — the invariant checker: page tables against the RSS
 * counters, and against every page's _mapcount and _refcount. */
#ifndef ZPK_MM_VERIFY_H
#define ZPK_MM_VERIFY_H

#include <zpk/list.h>
#include <zpk/mm_types.h>

/* What a check found: the number of differences and the first, in words. */
struct mm_verify_report {
	int errors;
	char first[160];
	long huge_zero_pmds;	/* huge zero PMDs in the mms seen */
	long huge_zero_pmd_refs;	/* those holding a reference */
};

/*
 * Page references that no page table shows, held outside mm (a pipe's
 * buffers after vmsplice): their owner registers one of these, and
 * mm_verify calls ->tally_pages(-1) to count them out of every page's
 * _refcount before it compares the rest with the mappings, then
 * ->tally_pages(+1) to put them back. Called under the big kernel lock,
 * which the owner's references are under; it must not sleep nor fail.
 */
struct mm_verify_ref_holder {
	const char *name;
	void (*tally_pages)(int delta);
	struct list_head list;		/* LIST_HEAD_INIT'ed: not yet in */
};
/* Adds h once (again is a no-op), for good: a subsystem's init. */
void mm_verify_add_ref_holder(struct mm_verify_ref_holder *h);

/* mm_verify=exit (or =warn, the labs' grader) on the command line: run
 * mm_verify_exit at each exit. */
extern bool mm_verify_on_exit;
/* "exit", "warn" or "off": /proc/sys/vm/mm_verify reads it. */
const char *mm_verify_mode(void);

/* mm_verify_exit_report on an exiting mm, then mm_verify_bug. */
void mm_verify_exit(struct mm_struct *mm);
/* Both full checks on every task's mm, then mm_verify_bug; returns the
 * differences (/proc/sys/vm/mm_verify, written, runs it). */
int mm_verify_all(void);

#endif
