/* mm/tests/ktest_memory.c — ktests of mm/memory.c in the kernel: a real pgd
 * with init_pgd's kernel half, anonymous faults, fork COW, zap, teardown.
 * The mm is never loaded into CR3: its pages are reached by the direct map. */
#include <zpk/errno.h>
#include <zpk/gup.h>
#include <zpk/ktest.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/mm_verify.h>
#include <zpk/mmu.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "../internal.h"

#define P	PAGE_SIZE
#define X	0x40000000UL
#define ANONF	(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED)

static struct mm_struct kt_parent, kt_child;

static struct page *kt_page(struct mm_struct *mm, unsigned long addr)
{
	pte_t *pte = pte_lookup(mm, addr);

	return pte ? vm_normal_page(NULL, addr, *pte) : NULL;
}

KTEST(memory, fault_fork_cow_teardown)
{
	struct mm_struct *mm = &kt_parent, *ch = &kt_child;
	unsigned long free0 = nr_free_pages();
	unsigned long ptp0 = global_vm_stat(NR_PAGE_TABLE_PAGES);
	struct page *pg, *np;
	pgd_t *pgd;

	memset(mm, 0, sizeof(*mm));
	memset(ch, 0, sizeof(*ch));
	mm_init_vmas(mm);
	mm_init_vmas(ch);
	pgd = pgd_alloc(mm);
	KEXPECT_NOT_NULL(pgd);
	if (!pgd)
		return;
	KEXPECT_EQ(pgd_val(pgd[511]), pgd_val(init_pgd[511]));
	KEXPECT_EQ(pgd_val(pgd[0]), 0);
	KEXPECT_NOT_NULL(pgd_alloc(ch));
	KEXPECT_EQ(do_mmap(mm, X, 2 * P, PROT_READ | PROT_WRITE, ANONF,
			   NULL, 0), X);
	KEXPECT_EQ(do_mmap(ch, X, 2 * P, PROT_READ | PROT_WRITE, ANONF,
			   NULL, 0), X);
	KEXPECT_EQ(handle_mm_fault(find_vma(mm, X), X, FAULT_FLAG_WRITE |
				   FAULT_FLAG_USER), 0);
	pg = kt_page(mm, X);
	KEXPECT_NOT_NULL(pg);
	if (!pg)
		goto out;
	((char *)page_address(pg))[1] = 7;
	KEXPECT_EQ(copy_page_range(ch, mm, find_vma(mm, X)), 0);
	KEXPECT_EQ(page_count(pg), 2);
	KEXPECT_EQ(page_mapcount(pg), 2);
	KEXPECT_EQ(handle_mm_fault(find_vma(ch, X), X, FAULT_FLAG_WRITE |
				   FAULT_FLAG_USER), 0);
	np = kt_page(ch, X);
	KEXPECT_TRUE(np && np != pg);
	if (np)
		KEXPECT_EQ(((char *)page_address(np))[1], 7);
	KEXPECT_EQ(page_mapcount(pg), 1);
	KEXPECT_EQ(get_mm_counter(ch, MM_ANONPAGES), 1);
	KEXPECT_EQ(handle_mm_fault(find_vma(mm, X + 2 * P), X + 2 * P,
				   FAULT_FLAG_USER), VM_FAULT_SIGSEGV);
out:
	exit_mmap_vmas(ch);
	exit_mmap_vmas(mm);
	KEXPECT_EQ(get_mm_rss(mm) + get_mm_rss(ch), 0);
	free_pgtables(ch);
	free_pgtables(mm);
	KEXPECT_EQ(global_vm_stat(NR_PAGE_TABLE_PAGES), ptp0);
	KEXPECT_EQ(nr_free_pages(), free0);
}

/* The checker itself: clean on a correct mm, and it names a counter or a
 * page count that was corrupted on purpose (then put back). */
KTEST(memory, mm_verify_catches_corruption)
{
	struct mm_struct *mm = &kt_parent;
	struct mm_verify_report r = { 0 };
	struct page *pg;

	memset(mm, 0, sizeof(*mm));
	mm_init_vmas(mm);
	KEXPECT_NOT_NULL(pgd_alloc(mm));
	if (!mm->pgd)
		return;
	KEXPECT_EQ(do_mmap(mm, X, 2 * P, PROT_READ | PROT_WRITE, ANONF,
			   NULL, 0), X);
	KEXPECT_EQ(handle_mm_fault(find_vma(mm, X), X, FAULT_FLAG_WRITE |
				   FAULT_FLAG_USER), 0);
	KEXPECT_EQ(mm_verify_report(mm, &r), 0);
	KEXPECT_EQ(mm_verify_pages_report(&mm, 1, &r), 0);

	mm_rss_add(mm, MM_ANONPAGES, 1);	/* above hiwater too */
	KEXPECT_EQ(mm_verify_report(mm, &r), 2);
	KEXPECT_TRUE(strstr(r.first, "MM_ANONPAGES is 2 but the page tables map 1") != NULL);
	mm_rss_add(mm, MM_ANONPAGES, -1);

	pg = kt_page(mm, X);
	KEXPECT_NOT_NULL(pg);
	if (pg) {
		r.errors = 0;
		atomic_inc(&pg->_mapcount);
		KEXPECT_TRUE(mm_verify_pages_report(&mm, 1, &r) >= 1);
		KEXPECT_TRUE(strstr(r.first, "_mapcount says 1 mappings more") != NULL);
		atomic_dec(&pg->_mapcount);
		/* The exit check, on this mm alone: a page it maps once
		 * whose _mapcount says no mapping at all. */
		r.errors = 0;
		KEXPECT_EQ(mm_verify_exit_report(mm, &r), 0);
		atomic_dec(&pg->_mapcount);
		KEXPECT_TRUE(mm_verify_exit_report(mm, &r) >= 1);
		KEXPECT_TRUE(strstr(r.first, "_mapcount is 1 short of the mappings the exiting mm alone holds") != NULL);
		atomic_inc(&pg->_mapcount);
		r.errors = 0;
		set_pte(pte_lookup(mm, X), pte_mkwrite(pfn_pte(zero_pfn,
			vm_get_page_prot(VM_READ | VM_WRITE))));
		KEXPECT_TRUE(mm_verify_report(mm, &r) >= 1);
		KEXPECT_TRUE(strstr(r.first, "zero page mapped writable at 0x40000000") != NULL);
		set_pte(pte_lookup(mm, X), pfn_pte(page_to_pfn(pg),
			vm_get_page_prot(VM_READ | VM_WRITE)));
		/* Writable but not soft-dirty, once the VMA tracks it. */
		r.errors = 0;
		find_vma(mm, X)->vm_flags &= ~VM_SOFTDIRTY;
		KEXPECT_EQ(mm_verify_report(mm, &r), 1);
		KEXPECT_TRUE(strstr(r.first, "writable but not soft-dirty"));
		find_vma(mm, X)->vm_flags |= VM_SOFTDIRTY;
	}
	r.errors = 0;
	KEXPECT_EQ(mm_verify_report(mm, &r), 0);
	KEXPECT_EQ(mm_verify_pages_report(&mm, 1, &r), 0);
	KEXPECT_EQ(mm_verify_exit_report(mm, &r), 0);
	exit_mmap_vmas(mm);
	free_pgtables(mm);
}

/* get_user_pages at a zero PTE: a read returns the zero page (a counted
 * reference only under refcount), FOLL_NOZERO a real page in its place,
 * FOLL_FORCE|FOLL_WRITE a private copy in a read-only mapping. */
KTEST(memory, gup_and_the_zero_page)
{
	struct mm_struct *mm = &kt_parent;
	enum zero_page_policy policy = zero_page_policy;
	struct page *zp = ZERO_PAGE(0), *pg = NULL;
	int ref0 = page_count(zp);
	pte_t *pte;

	memset(mm, 0, sizeof(*mm));
	mm_init_vmas(mm);
	KEXPECT_NOT_NULL(pgd_alloc(mm));
	if (!mm->pgd)
		return;
	KEXPECT_EQ(do_mmap(mm, X, 4 * P, PROT_READ | PROT_WRITE, ANONF,
			   NULL, 0), X);
	KEXPECT_EQ(do_mmap(mm, X + 8 * P, P, PROT_READ, ANONF, NULL, 0),
		   X + 8 * P);
	zero_page_policy = ZERO_PAGE_SPECIAL;
	KEXPECT_EQ(get_user_pages(mm, X, 1, 0, &pg), 1);
	KEXPECT_EQ(pg, zp);
	KEXPECT_EQ(page_count(zp), ref0 + 1);	/* special: gup's alone */
	put_user_page(pg);
	KEXPECT_EQ(page_count(zp), ref0);

	zero_page_policy = ZERO_PAGE_REFCOUNT;
	KEXPECT_EQ(get_user_pages(mm, X + P, 1, 0, &pg), 1);
	KEXPECT_EQ(page_count(zp), ref0 + 2);	/* the PTE's and gup's */
	put_user_page(pg);
	KEXPECT_EQ(page_count(zp), ref0 + 1);

	KEXPECT_EQ(get_user_pages(mm, X, 1, FOLL_NOZERO, &pg), 1);
	KEXPECT_TRUE(pg != zp && PageAnon(pg));
	KEXPECT_EQ(get_mm_counter(mm, MM_ZEROPAGES), 1);
	KEXPECT_EQ(get_mm_counter(mm, MM_ANONPAGES), 1);
	put_user_page(pg);

	KEXPECT_EQ(get_user_pages(mm, X + 8 * P, 1, FOLL_WRITE, &pg), -EFAULT);
	KEXPECT_EQ(get_user_pages(mm, X + 8 * P, 1, FOLL_WRITE | FOLL_FORCE,
				  &pg), 1);
	KEXPECT_TRUE(pg != zp && PageAnon(pg));
	pte = pte_lookup(mm, X + 8 * P);
	KEXPECT_TRUE(pte && pte_present(*pte) && !pte_write(*pte));
	put_user_page(pg);
	zero_page_policy = policy;

	exit_mmap_vmas(mm);
	free_pgtables(mm);
	KEXPECT_EQ(page_count(zp), ref0);
}
