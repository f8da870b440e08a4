/* host-test-sources: mm/memory.c mm/huge_memory.c mm/rmap.c mm/mprotect.c mm/mmu_gather.c mm/zero_page.c mm/mmap.c lib/rbtree.c mm/slab.c mm/page_alloc.c mm/vmstat.c lib/string.c lib/vsnprintf.c tests/host/harness.c */
/* tests/host/test_memory.c — mm/memory.c on the real buddy and slab
 * allocators and mm/mmap.c's VMAs: faults, COW, fork, zap, mprotect, OOM. */
#include <zpk/huge_mm.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/errno.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/mmu.h>
#include <zpk/slab.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>

#include "harness.h"

#define NR_PFNS		2048UL

/* arch/x86_64/mmu.c is not linked here: there is no kernel half to copy.
 * mm/zero_page.c is, uninitialised: zero_pfn stays 0, and pfn 0 (always
 * reserved here) plays the zero page. */
pgd_t *init_pgd;

static struct mm_struct mm, child;
static unsigned long ptp0, anon0, free_setup;

#define P	PAGE_SIZE
#define RW	(PROT_READ | PROT_WRITE)
#define ANON	(MAP_PRIVATE | MAP_ANONYMOUS)
#define X	0x40000000UL
#define W	FAULT_FLAG_WRITE
#define R	0u

static int group_setup(void **state)
{
	(void)state;
	return harness_heap_init(NR_PFNS);
}

static void mm_new(struct mm_struct *m)
{
	memset(m, 0, sizeof(*m));
	mm_init_vmas(m);
	assert_non_null(pgd_alloc(m));
}

static int mm_setup(void **state)
{
	(void)state;
	ptp0 = global_vm_stat(NR_PAGE_TABLE_PAGES);
	anon0 = global_vm_stat(NR_ANON_PAGES);
	free_setup = nr_free_pages();
	zero_page_policy = ZERO_PAGE_SPECIAL;	/* the default; tests change it */
	mm_new(&mm);
	memset(&child, 0, sizeof(child));
	return 0;
}

static void mm_done(struct mm_struct *m)
{
	if (!m->pgd)
		return;
	exit_mmap_vmas(m);	/* zaps through unmap_page_range */
	assert_int_equal(get_mm_rss(m), 0);
	assert_int_equal(get_mm_counter(m, MM_ZEROPAGES), 0);
	free_pgtables(m);
	assert_null(m->pgd);
	assert_int_equal(m->nr_ptes, 0);
}

static int mm_teardown(void **state)
{
	(void)state;
	mm_done(&child);
	mm_done(&mm);
	assert_int_equal(global_vm_stat(NR_PAGE_TABLE_PAGES), ptp0);
	assert_int_equal(global_vm_stat(NR_ANON_PAGES), anon0);
	/* every page back: pages, tables, pgds, VMA slabs */
	assert_int_equal(nr_free_pages(), free_setup);
	return 0;
}

static vm_fault_t fault(struct mm_struct *m, unsigned long addr,
			unsigned int flags)
{
	return handle_mm_fault(find_vma(m, addr), addr, flags | FAULT_FLAG_USER);
}

static struct page *page_at(struct mm_struct *m, unsigned long addr)
{
	pte_t *pte = pte_lookup(m, addr);

	if (!pte || !pte_present(*pte))
		return NULL;
	return vm_normal_page(NULL, addr, *pte);
}

static pte_t pte_at(struct mm_struct *m, unsigned long addr)
{
	pte_t *pte = pte_lookup(m, addr);

	return pte ? *pte : __pte(0);
}

static void map(struct mm_struct *m, unsigned long len, unsigned long prot)
{
	assert_int_equal(do_mmap(m, X, len, prot, ANON | MAP_FIXED, NULL, 0),
			 X);
}

/* ---- tests ------------------------------------------------------------ */

static void test_pgd_alloc_free(void **state)
{
	(void)state;
	assert_int_equal(global_vm_stat(NR_PAGE_TABLE_PAGES), ptp0 + 1);
	assert_int_equal(mm.nr_ptes, 0);
	assert_null(pte_lookup(&mm, X));
	assert_non_null(pte_alloc_map(&mm, X));
	assert_int_equal(mm.nr_ptes, 3);	/* pud, pmd, pte */
	assert_non_null(pte_lookup(&mm, X));
	assert_ptr_equal(pte_lookup(&mm, X + P), pte_lookup(&mm, X) + 1);
	assert_null(pte_alloc_map(&mm, TASK_SIZE));	/* not user */
	assert_int_equal(global_vm_stat(NR_PAGE_TABLE_PAGES), ptp0 + 4);
}

static void test_fault_read_write_allocates(void **state)
{
	unsigned long faults0 = global_vm_event(PGFAULT);
	unsigned long free0;
	struct page *pg;
	pte_t e;

	(void)state;
	zero_page_policy = ZERO_PAGE_OFF;	/* 2.6.24: reads allocate too */
	map(&mm, 4 * P, RW);
	free0 = nr_free_pages();
	assert_int_equal(fault(&mm, X + 5, R), 0);
	assert_int_equal(nr_free_pages(), free0 - 4);	/* 3 tables + page */
	pg = page_at(&mm, X);
	assert_non_null(pg);
	assert_true(PageAnon(pg));
	assert_int_equal(atomic_read(&pg->_mapcount), 0);
	assert_int_equal(page_count(pg), 1);
	e = pte_at(&mm, X);
	assert_true(pte_user(e) && pte_write(e) && !pte_exec(e));
	assert_int_equal(fault(&mm, X + P, W), 0);
	assert_true(pte_dirty(pte_at(&mm, X + P)));
	assert_int_equal(nr_free_pages(), free0 - 5);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 2);
	assert_int_equal(get_mm_rss(&mm), 2);
	assert_int_equal(mm.hiwater_rss, 2);
	assert_int_equal(mm.nr_ptes, 3);
	assert_int_equal(global_vm_event(PGFAULT), faults0 + 2);
	assert_int_equal(global_vm_stat(NR_ANON_PAGES), anon0 + 2);
	/* the page is zeroed */
	assert_int_equal(((char *)page_address(pg))[100], 0);
}

static void test_second_fault_no_alloc(void **state)
{
	unsigned long free0;
	struct page *pg;

	(void)state;
	map(&mm, P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	pg = page_at(&mm, X);
	free0 = nr_free_pages();
	assert_int_equal(fault(&mm, X, W), 0);
	assert_int_equal(fault(&mm, X + 8, R), 0);
	assert_int_equal(nr_free_pages(), free0);
	assert_ptr_equal(page_at(&mm, X), pg);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 1);
}

static void test_wp_reuse_after_read(void **state)
{
	unsigned long cow0 = global_vm_event(COW_FAULT), free0;
	struct page *pg;

	(void)state;
	zero_page_policy = ZERO_PAGE_OFF;	/* a real page behind the read */
	map(&mm, P, PROT_READ);
	assert_int_equal(fault(&mm, X, R), 0);
	assert_false(pte_write(pte_at(&mm, X)));
	pg = page_at(&mm, X);
	assert_int_equal(do_mprotect(&mm, X, P, RW), 0);
	/* sole mapper: the mprotect hook made it writable already; take
	 * write away by hand to reach do_wp_page's reuse path */
	assert_true(pte_write(pte_at(&mm, X)));
	set_pte(pte_lookup(&mm, X), pte_wrprotect(pte_at(&mm, X)));
	free0 = nr_free_pages();
	assert_int_equal(fault(&mm, X, W), 0);
	assert_true(pte_write(pte_at(&mm, X)));
	assert_ptr_equal(page_at(&mm, X), pg);
	assert_int_equal(nr_free_pages(), free0);
	assert_int_equal(global_vm_event(COW_FAULT), cow0);
}

static void fork_one(unsigned long len)
{
	mm_new(&child);
	assert_int_equal(do_mmap(&child, X, len, RW, ANON | MAP_FIXED, NULL, 0),
			 X);
	assert_int_equal(copy_page_range(&child, &mm, find_vma(&mm, X)), 0);
}

static void test_fork_shares_then_cow(void **state)
{
	unsigned long cow0 = global_vm_event(COW_FAULT);
	struct page *pg, *np;

	(void)state;
	map(&mm, 2 * P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	((char *)page_address(page_at(&mm, X)))[7] = 42;
	pg = page_at(&mm, X);
	fork_one(2 * P);
	assert_ptr_equal(page_at(&child, X), pg);
	assert_int_equal(page_count(pg), 2);
	assert_int_equal(atomic_read(&pg->_mapcount), 1);
	assert_int_equal(page_mapcount(pg), 2);
	assert_false(pte_write(pte_at(&mm, X)));
	assert_false(pte_write(pte_at(&child, X)));
	assert_true(pte_none(pte_at(&child, X + P)));
	assert_int_equal(get_mm_counter(&child, MM_ANONPAGES), 1);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 1);

	/* child writes: a copy of its own */
	assert_int_equal(fault(&child, X, W), 0);
	np = page_at(&child, X);
	assert_non_null(np);
	assert_ptr_not_equal(np, pg);
	assert_int_equal(((char *)page_address(np))[7], 42);
	assert_true(pte_write(pte_at(&child, X)));
	assert_int_equal(atomic_read(&pg->_mapcount), 0);
	assert_int_equal(page_count(pg), 1);
	assert_int_equal(atomic_read(&np->_mapcount), 0);
	assert_int_equal(global_vm_event(COW_FAULT), cow0 + 1);
	assert_int_equal(get_mm_counter(&child, MM_ANONPAGES), 1);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 1);

	/* parent writes: now sole mapper, reused in place */
	assert_int_equal(fault(&mm, X, W), 0);
	assert_ptr_equal(page_at(&mm, X), pg);
	assert_true(pte_write(pte_at(&mm, X)));
	assert_int_equal(global_vm_event(COW_FAULT), cow0 + 1);
}

static void test_zap_frees_everything(void **state)
{
	unsigned long free0, i;

	(void)state;
	map(&mm, 600 * P, RW);		/* crosses a pte table */
	free0 = nr_free_pages();
	for (i = 0; i < 600; i += 50)
		assert_int_equal(fault(&mm, X + i * P, W), 0);
	assert_int_equal(get_mm_rss(&mm), 12);
	assert_int_equal(mm.nr_ptes, 4);
	assert_int_equal(do_munmap(&mm, X, 300 * P), 0);
	assert_int_equal(get_mm_rss(&mm), 6);
	assert_null(page_at(&mm, X));
	assert_int_equal(mm.hiwater_rss, 12);
	assert_int_equal(mm.nr_ptes, 4);	/* the VMA's rest uses both */
	assert_int_equal(do_munmap(&mm, X + 300 * P, 300 * P), 0);
	assert_int_equal(mm.nr_ptes, 2);	/* free_pgd_range: pud, pmd */
	assert_int_equal(get_mm_rss(&mm), 0);
	exit_mmap_vmas(&mm);
	assert_int_equal(get_mm_rss(&mm), 0);
	free_pgtables(&mm);
	assert_int_equal(mm.nr_ptes, 0);
	assert_true(nr_free_pages() > free0);	/* pgd and VMA slab too */
	assert_int_equal(nr_free_pages(), free_setup);
}

static void test_zap_page_range_direct(void **state)
{
	struct vm_area_struct *vma;

	(void)state;
	map(&mm, 3 * P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	assert_int_equal(fault(&mm, X + 2 * P, W), 0);
	vma = find_vma(&mm, X);
	zap_page_range(vma, X + P, X + 3 * P);
	assert_non_null(page_at(&mm, X));
	assert_true(pte_none(pte_at(&mm, X + 2 * P)));
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 1);
}

static void test_fork_zap_both(void **state)
{
	struct page *pg;

	(void)state;
	map(&mm, P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	pg = page_at(&mm, X);
	fork_one(P);
	assert_int_equal(do_munmap(&mm, X, P), 0);	/* parent lets go */
	assert_int_equal(page_count(pg), 1);
	assert_int_equal(atomic_read(&pg->_mapcount), 0);
	assert_int_equal(get_mm_rss(&mm), 0);
	assert_int_equal(get_mm_rss(&child), 1);
	/* child is sole mapper now: a write reuses */
	assert_int_equal(fault(&child, X, W), 0);
	assert_ptr_equal(page_at(&child, X), pg);
}

static void test_mprotect_keeps_cow_readonly(void **state)
{
	(void)state;
	map(&mm, 2 * P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	assert_int_equal(fault(&mm, X + P, W), 0);
	assert_int_equal(do_mprotect(&mm, X, 2 * P, PROT_READ), 0);
	assert_false(pte_write(pte_at(&mm, X)));
	assert_false(pte_write(pte_at(&mm, X + P)));
	assert_true(pte_user(pte_at(&mm, X)));
	assert_int_equal(fault(&mm, X, W), VM_FAULT_SIGSEGV);
	assert_int_equal(do_mprotect(&mm, X, 2 * P, RW), 0);
	assert_true(pte_write(pte_at(&mm, X)));

	/* after fork, re-enabling write must leave shared pages read-only */
	fork_one(2 * P);
	assert_int_equal(do_mprotect(&mm, X, 2 * P, PROT_READ), 0);
	assert_int_equal(do_mprotect(&mm, X, 2 * P, RW), 0);
	assert_false(pte_write(pte_at(&mm, X)));
	assert_int_equal(fault(&mm, X, W), 0);		/* COWs */
	assert_true(pte_write(pte_at(&mm, X)));
	assert_ptr_not_equal(page_at(&mm, X), page_at(&child, X));

	/* PROT_NONE: still maps the page, but not present to the CPU (the
	 * kernel's uaccess must fault too), and faults SIGSEGV */
	assert_int_equal(do_mprotect(&mm, X, P, PROT_NONE), 0);
	assert_false(pte_user(pte_at(&mm, X)));
	assert_true(pte_protnone(pte_at(&mm, X)));
	assert_false(pte_val(pte_at(&mm, X)) & _PAGE_PRESENT);
	assert_true(pte_present(pte_at(&mm, X)));
	assert_int_equal(get_mm_rss(&mm), 2);
	assert_int_equal(fault(&mm, X, R), VM_FAULT_SIGSEGV);
	/* exec bit follows VM_EXEC */
	assert_int_equal(do_mprotect(&mm, X, P, PROT_READ | PROT_EXEC), 0);
	assert_true(pte_exec(pte_at(&mm, X)) && pte_user(pte_at(&mm, X)));
}

static void test_sigsegv(void **state)
{
	unsigned long free0;

	(void)state;
	map(&mm, P, PROT_READ);
	free0 = nr_free_pages();
	assert_int_equal(fault(&mm, X + P, R), VM_FAULT_SIGSEGV);
	assert_int_equal(fault(&mm, X - P, R), VM_FAULT_SIGSEGV);
	assert_int_equal(handle_mm_fault(NULL, X, R), VM_FAULT_SIGSEGV);
	assert_int_equal(fault(&mm, X, W), VM_FAULT_SIGSEGV);
	assert_int_equal(fault(&mm, X, FAULT_FLAG_INSTRUCTION),
			 VM_FAULT_SIGSEGV);
	assert_int_equal(nr_free_pages(), free0);
	assert_int_equal(get_mm_rss(&mm), 0);
}


/* ---- the zero page under each policy ---------------------------------- */

static bool maps_zero(struct mm_struct *m, unsigned long addr)
{
	pte_t e = pte_at(m, addr);

	return pte_present(e) && pte_pfn(e) == zero_pfn && !pte_write(e);
}

/* special: reads map zero_pfn behind special PTEs, touching no counts but
 * MM_ZEROPAGES; fork copies them; a write gets a fresh zeroed page. */
static void test_zero_special_read_fork_cow_zap(void **state)
{
	unsigned long map0 = global_vm_event(ZERO_PAGE_MAP);
	unsigned long fork0 = global_vm_event(ZERO_PAGE_FORK_COPY);
	unsigned long cow0 = global_vm_event(ZERO_PAGE_COW);
	unsigned long unmap0 = global_vm_event(ZERO_PAGE_UNMAP);
	struct page *zp = pfn_to_page(zero_pfn), *pg;
	int ref0 = page_count(zp);
	unsigned long free0;

	(void)state;
	map(&mm, 4 * P, RW);
	free0 = nr_free_pages();
	assert_int_equal(fault(&mm, X, R), 0);
	assert_int_equal(fault(&mm, X + P, R), 0);
	assert_true(maps_zero(&mm, X) && pte_special(pte_at(&mm, X)));
	assert_null(page_at(&mm, X));		/* vm_normal_page skips it */
	assert_int_equal(nr_free_pages(), free0 - 3);	/* tables only */
	assert_int_equal(get_mm_counter(&mm, MM_ZEROPAGES), 2);
	assert_int_equal(get_mm_rss(&mm), 0);
	assert_int_equal(global_vm_event(ZERO_PAGE_MAP), map0 + 2);
	assert_int_equal(page_count(zp), ref0);
	assert_int_equal(atomic_read(&zp->_mapcount), -1);

	fork_one(4 * P);
	assert_true(maps_zero(&child, X) && maps_zero(&child, X + P));
	assert_int_equal(get_mm_counter(&child, MM_ZEROPAGES), 2);
	assert_int_equal(global_vm_event(ZERO_PAGE_FORK_COPY), fork0 + 2);

	free0 = nr_free_pages();
	assert_int_equal(fault(&child, X + 8, W), 0);
	pg = page_at(&child, X);
	assert_non_null(pg);
	assert_true(PageAnon(pg) && pte_write(pte_at(&child, X)));
	assert_int_equal(((char *)page_address(pg))[8], 0);
	assert_int_equal(nr_free_pages(), free0 - 1);
	assert_int_equal(get_mm_counter(&child, MM_ZEROPAGES), 1);
	assert_int_equal(get_mm_counter(&child, MM_ANONPAGES), 1);
	assert_true(maps_zero(&mm, X));		/* the parent keeps zeros */
	assert_int_equal(global_vm_event(ZERO_PAGE_COW), cow0 + 1);

	mm_done(&child);
	mm_done(&mm);
	assert_int_equal(global_vm_event(ZERO_PAGE_UNMAP), unmap0 + 3);
	assert_int_equal(page_count(zp), ref0);
}

/* refcount: each zero PTE holds a reference and a mapping and counts in
 * MM_FILEPAGES, as 2.6.23; every one is given back. */
static void test_zero_refcount_counts(void **state)
{
	unsigned long ops0 = global_vm_event(ZERO_PAGE_REFCOUNT_OPS);
	struct page *zp = pfn_to_page(zero_pfn);
	int ref0 = page_count(zp);

	(void)state;
	zero_page_policy = ZERO_PAGE_REFCOUNT;
	map(&mm, 4 * P, RW);
	assert_int_equal(fault(&mm, X, R), 0);
	assert_int_equal(fault(&mm, X + P, R), 0);
	assert_true(maps_zero(&mm, X) && !pte_special(pte_at(&mm, X)));
	assert_int_equal(page_count(zp), ref0 + 2);
	assert_int_equal(page_mapcount(zp), 2);
	assert_int_equal(get_mm_counter(&mm, MM_FILEPAGES), 2);
	assert_int_equal(get_mm_counter(&mm, MM_ZEROPAGES), 2);
	fork_one(4 * P);
	assert_int_equal(page_count(zp), ref0 + 4);
	assert_int_equal(get_mm_counter(&child, MM_FILEPAGES), 2);
	assert_int_equal(fault(&child, X, W), 0);	/* COW from zero */
	assert_int_equal(page_count(zp), ref0 + 3);
	assert_int_equal(get_mm_counter(&child, MM_FILEPAGES), 1);
	assert_int_equal(get_mm_counter(&child, MM_ANONPAGES), 1);
	assert_int_equal(global_vm_event(ZERO_PAGE_REFCOUNT_OPS), ops0 + 5);
	mm_done(&child);
	mm_done(&mm);
	assert_int_equal(page_count(zp), ref0);
	assert_int_equal(atomic_read(&zp->_mapcount), -1);
}

/* A zero PTE never becomes writable: mprotect keeps it read-only and the
 * next write copies it away. */
static void test_zero_mprotect_stays_readonly(void **state)
{
	(void)state;
	map(&mm, P, PROT_READ);
	assert_int_equal(fault(&mm, X, R), 0);
	assert_true(maps_zero(&mm, X));
	assert_int_equal(do_mprotect(&mm, X, P, RW), 0);
	assert_true(maps_zero(&mm, X));
	assert_int_equal(fault(&mm, X, W), 0);
	assert_non_null(page_at(&mm, X));
	assert_true(pte_write(pte_at(&mm, X)));
	assert_int_equal(get_mm_counter(&mm, MM_ZEROPAGES), 0);
}

/* PTEs made under one policy stay what they are after a switch. */
static void test_zero_policy_switch(void **state)
{
	struct page *zp = pfn_to_page(zero_pfn);
	int ref0 = page_count(zp);

	(void)state;
	map(&mm, 3 * P, RW);
	zero_page_policy = ZERO_PAGE_REFCOUNT;
	assert_int_equal(fault(&mm, X, R), 0);
	zero_page_policy = ZERO_PAGE_SPECIAL;
	assert_int_equal(fault(&mm, X + P, R), 0);
	zero_page_policy = ZERO_PAGE_OFF;
	assert_int_equal(fault(&mm, X + 2 * P, R), 0);
	assert_false(pte_special(pte_at(&mm, X)));
	assert_true(pte_special(pte_at(&mm, X + P)));
	assert_non_null(page_at(&mm, X + 2 * P));
	assert_int_equal(page_count(zp), ref0 + 1);
	assert_int_equal(get_mm_counter(&mm, MM_ZEROPAGES), 2);
	assert_int_equal(get_mm_counter(&mm, MM_FILEPAGES), 1);
	assert_int_equal(get_mm_counter(&mm, MM_ANONPAGES), 1);
	mm_done(&mm);
	assert_int_equal(page_count(zp), ref0);
}

static struct page *hoard[NR_PFNS];

static unsigned long hoard_all(void)
{
	unsigned long n = 0;
	struct page *p;

	while ((p = alloc_page(GFP_KERNEL)))
		hoard[n++] = p;
	return n;
}

static void unhoard(unsigned long n)
{
	while (n)
		__free_page(hoard[--n]);
}

static void test_oom(void **state)
{
	unsigned long n, free0;

	(void)state;
	zero_page_policy = ZERO_PAGE_OFF;	/* reads need memory too */
	map(&mm, 2 * P, RW);
	free0 = nr_free_pages();
	/* no memory for the page tables */
	n = hoard_all();
	assert_int_equal(fault(&mm, X, W), VM_FAULT_OOM);
	unhoard(n);
	assert_int_equal(fault(&mm, X, W), 0);
	/* tables exist, no memory for the page */
	n = hoard_all();
	assert_int_equal(fault(&mm, X + P, R), VM_FAULT_OOM);
	assert_true(pte_none(pte_at(&mm, X + P)));
	unhoard(n);
	/* no memory for the COW copy: the shared page stays as it was */
	fork_one(2 * P);
	n = hoard_all();
	assert_int_equal(fault(&child, X, W), VM_FAULT_OOM);
	assert_false(pte_write(pte_at(&child, X)));
	assert_int_equal(atomic_read(&page_at(&child, X)->_mapcount), 1);
	unhoard(n);
	assert_int_equal(fault(&child, X, W), 0);
	mm_done(&child);
	mm_done(&mm);
	assert_true(nr_free_pages() > free0);
	assert_int_equal(nr_free_pages(), free_setup);
}

static void test_fork_copy_oom_then_teardown(void **state)
{
	unsigned long n;

	(void)state;
	map(&mm, P, RW);
	assert_int_equal(fault(&mm, X, W), 0);
	mm_new(&child);
	assert_int_equal(do_mmap(&child, X, P, RW, ANON | MAP_FIXED, NULL, 0),
			 X);
	n = hoard_all();
	assert_int_equal(copy_page_range(&child, &mm, find_vma(&mm, X)),
			 -ENOMEM);
	unhoard(n);
	assert_int_equal(atomic_read(&page_at(&mm, X)->_mapcount), 0);
}

/* The C interface /sys/kernel/mm/transparent_hugepage/ calls: Linux's
 * strings and errnos. */
static void test_thp_sysfs_interface(void **state)
{
	enum thp_policy saved = thp_policy;
	char buf[64];

	(void)state;
	assert_int_equal(thp_enabled_store("always\n", 7), 7);
	assert_int_equal(thp_enabled_show(buf, sizeof(buf)), 23);
	assert_string_equal(buf, "[always] madvise never\n");
	assert_int_equal(thp_enabled_store("never", 5), 5);
	thp_enabled_show(buf, sizeof(buf));
	assert_string_equal(buf, "always madvise [never]\n");
	assert_int_equal(thp_enabled_store("sometimes", 9), -EINVAL);
	assert_int_equal(thp_enabled_store("alway", 5), -EINVAL);
	assert_int_equal(thp_enabled_show(buf, 4), 23);	/* cut, counted */
	assert_string_equal(buf, "alw");
	assert_int_equal(thp_use_zero_page_store("0\n", 2), 2);
	thp_use_zero_page_show(buf, sizeof(buf));
	assert_string_equal(buf, "0\n");
	assert_int_equal(thp_use_zero_page_store("2", 1), -EINVAL);
	assert_int_equal(thp_use_zero_page_store("+01\n", 4), 4);
	assert_true(thp_use_zero_page);
	assert_int_equal(thp_defrag_store("defer+madvise\n", 14), 14);
	thp_defrag_show(buf, sizeof(buf));
	assert_string_equal(buf,
			    "always defer [defer+madvise] madvise never\n");
	assert_int_equal(thp_defrag_store("defer+", 6), -EINVAL);
	assert_int_equal(thp_defrag_store("madvise", 7), 7);
	assert_int_equal(shmem_enabled_store("deny", 4), 4);
	shmem_enabled_show(buf, sizeof(buf));
	assert_string_equal(buf,
			    "always within_size advise never [deny] force\n");
	assert_int_equal(shmem_enabled_store("inherit", 7), -EINVAL);
	assert_int_equal(shmem_enabled_store("never", 5), 5);
	thp_policy = saved;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, mm_setup, mm_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_pgd_alloc_free),
		T(test_fault_read_write_allocates),
		T(test_second_fault_no_alloc),
		T(test_wp_reuse_after_read),
		T(test_fork_shares_then_cow),
		T(test_zap_frees_everything),
		T(test_zap_page_range_direct),
		T(test_fork_zap_both),
		T(test_mprotect_keeps_cow_readonly),
		T(test_sigsegv),
		T(test_zero_special_read_fork_cow_zap),
		T(test_zero_refcount_counts),
		T(test_zero_mprotect_stays_readonly),
		T(test_zero_policy_switch),
		T(test_oom),
		T(test_fork_copy_oom_then_teardown),
		T(test_thp_sysfs_interface),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_heap_free);
}
