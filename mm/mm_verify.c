/* mm/mm_verify.c — the invariant checker: recomputes every RSS counter and
 * every mapped page's _mapcount/_refcount from the page tables themselves:
 * an exiting mm and its pages at each exit, every mm on demand. */
#include <zpk/bug.h>
#include <zpk/fs.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mm_verify.h>
#include <zpk/mman.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/smp_lock.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/swapops.h>
#include <zpk/userfaultfd_k.h>
#include <zpk/zero_page.h>
#include "internal.h"

bool mm_verify_on_exit;
static bool mm_verify_warn;	/* mm_verify=warn: report, do not BUG */

static int __used setup_mm_verify(const char *val)
{
	if (!val)
		return -1;
	mm_verify_warn = !strcmp(val, "warn");
	if (!strcmp(val, "exit") || mm_verify_warn)
		mm_verify_on_exit = true;
	else if (!strcmp(val, "off"))
		mm_verify_on_exit = false;
	else
		return -1;
	return 0;
}
early_param("mm_verify", setup_mm_verify,
	    "exit: check each exiting mm's counters and pages, and all of "
	    "them when /proc/sys/vm/mm_verify is written (warn: the same, "
	    "printing differences instead of BUG)");

static const char *const counter_name[NR_MM_COUNTERS] = {
	[MM_FILEPAGES] = "MM_FILEPAGES", [MM_ANONPAGES] = "MM_ANONPAGES",
	[MM_SHMEMPAGES] = "MM_SHMEMPAGES", [MM_ZEROPAGES] = "MM_ZEROPAGES",
	[MM_SWAPENTS] = "MM_SWAPENTS",
};

/* Records one difference: the first is kept for the caller, a few are
 * printed, the rest only counted. */
static void __printf(2, 3) report(struct mm_verify_report *r,
				  const char *fmt, ...)
{
	char line[sizeof(r->first)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!r->errors)
		strlcpy(r->first, line, sizeof(r->first));
	if (r->errors++ < 8)
		pr_err("mm_verify: %s\n", line);
}

/* A PTE that holds a page reference: normal pages, and zero-page PTEs
 * made under zero_page=refcount (not special). */
static struct page *counted_page(struct vm_area_struct *vma,
				 unsigned long addr, pte_t pte)
{
	struct page *page = vm_normal_page(vma, addr, pte);

	if (!page && pte_present(pte) && is_zero_pfn(pte_pfn(pte)) &&
	    !pte_special(pte))
		page = pfn_to_page(zero_pfn);
	return page;
}

/* ---- one mm: counters and PTE sanity ----------------------------------- */

struct walk_ctx {
	struct mm_struct *mm;
	struct vm_area_struct *vma;	/* cursor: the VMA at or after addr */
	long rss[NR_MM_COUNTERS];
	long huge_zero_pmds;		/* the huge zero page's PMDs */
	long huge_zero_pmd_refs;	/* those not special: a reference */
	struct mm_verify_report *r;
};

/* The VMA containing addr, moving the cursor forward (PTEs come in
 * address order), or NULL for a PTE outside every VMA. */
static struct vm_area_struct *vma_at(struct walk_ctx *c, unsigned long addr)
{
	while (c->vma && c->vma->vm_end <= addr)
		c->vma = c->vma->vm_list.next == &c->mm->mmap ? NULL :
			 list_entry(c->vma->vm_list.next,
				    struct vm_area_struct, vm_list);
	return c->vma && c->vma->vm_start <= addr ? c->vma : NULL;
}

/* The first 4 KiB of a huge PMD (seen whole by the walk, which keeps it):
 * a THP, anonymous, its head PMD-mapped, within one VMA. */
static void count_pmd_mapped(struct walk_ctx *c, unsigned long addr,
			     struct page *page)
{
	struct page *head = compound_head(page);
	struct vm_area_struct *vma = vma_at(c, addr);

	if (addr & ~HPAGE_PMD_MASK)
		return;
	if (!PageHead(head) || head->order != HPAGE_PMD_ORDER ||
	    page != head || !PageAnon(head) ||
	    atomic_read(&head->compound_mapcount) <= 0)
		report(c->r, "huge PMD at %#lx: pfn %#lx not a PMD-mapped "
		       "anonymous THP head", addr, page_to_pfn(page));
	if (vma && addr + HPAGE_PMD_SIZE > vma->vm_end)
		report(c->r, "huge PMD at %#lx straddles its VMA's end %#lx",
		       addr, vma->vm_end);
}

/* A swap PTE: MM_SWAPENTS, in private memory only, naming a slot in
 * use (that its count is exact is the all-mm check's: swap_refs). */
static int count_swap_pte(struct walk_ctx *c, struct vm_area_struct *vma,
			  unsigned long addr, pte_t pte)
{
	swp_entry_t entry = pte_to_swp_entry(pte);

	c->rss[MM_SWAPENTS]++;
	if (vma && (vma->vm_flags & VM_SHARED))
		report(c->r, "swap PTE at %#lx in a shared VMA", addr);
	if (swp_swapcount(entry) <= 0)
		report(c->r, "swap PTE at %#lx names slot %u:%lu, which is free",
		       addr, swp_type(entry), swp_offset(entry));
	return 0;
}

static int count_pte(pte_t *ptep, unsigned long addr, void *priv)
{
	struct walk_ctx *c = priv;
	struct vm_area_struct *vma = vma_at(c, addr);
	pte_t pte = *ptep;
	struct page *page, *ex;

	if (!vma)
		report(c->r, "PTE %#lx at %#lx outside every VMA",
		       (unsigned long)pte_val(pte), addr);
	/* A userfaultfd write protection where the PTE is not the VMA's. */
	if (is_swap_pte(pte))
		return count_swap_pte(c, vma, addr, pte);
	if (pte_uffd_wp(pte) && vma && (!userfaultfd_wp(vma) ||
					(pte_present(pte) && pte_write(pte)) ||
					(!pte_present(pte) && !vma->vm_file)))
		report(c->r, "uffd-wp PTE %#lx at %#lx: VMA not uffd-wp, "
		       "writable, or a marker in anonymous memory",
		       (unsigned long)pte_val(pte), addr);
	if (pte_marker_uffd_wp(pte))
		return 0;
	if (!pte_present(pte)) {
		report(c->r, "non-present PTE %#lx at %#lx: not swap, not a "
		       "marker", (unsigned long)pte_val(pte), addr);
		return 0;
	}
	/* PROT_NONE must be invisible to the CPU, and only there. */
	if (vma && pte_protnone(pte) !=
		   !(vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC)))
		report(c->r, "PTE %#lx at %#lx: PROT_NONE bit disagrees with "
		       "its VMA", (unsigned long)pte_val(pte), addr);
	/* Soft-dirty sees a write only through its fault. */
	if (vma && pte_write(pte) && !pte_soft_dirty(pte) &&
	    vma_soft_dirty_enabled(vma))
		report(c->r, "PTE at %#lx writable but not soft-dirty in a VMA "
		       "that tracks soft-dirty", addr);
	if (is_zero_pfn(pte_pfn(pte))) {
		if (pte_write(pte))
			report(c->r, "zero page mapped writable at %#lx", addr);
		if (pte_pmd_mapped(pte) && !(addr & ~HPAGE_PMD_MASK))
			c->huge_zero_pmds++;
		c->rss[MM_ZEROPAGES]++;
		if (!pte_special(pte))
			c->rss[MM_FILEPAGES]++;	/* refcount: as 2.6.23 */
		return 0;
	}
	page = vm_normal_page(vma, addr, pte);
	if (!page) {
		report(c->r, "PTE at %#lx maps pfn %#lx outside mem_map", addr,
		       pte_pfn(pte));
		return 0;
	}
	if (PageBuddy(page) || page_count(page) <= 0)
		report(c->r, "PTE at %#lx maps free pfn %#lx", addr,
		       page_to_pfn(page));
	if (pte_pmd_mapped(pte))
		count_pmd_mapped(c, addr, page);
	/* A file's page is unmapped before the file lets it go (truncate),
	 * and a fault maps only the file's page (do_fault). */
	if (vma && vma->vm_ops && !PageAnon(page) &&
	    inode_find_page(vma->vm_file->f_inode,
			    linear_page_index(vma, addr)) != page)
		report(c->r, "PTE at %#lx maps pfn %#lx, not its file's page "
		       "there", addr, page_to_pfn(page));
	/* A PMD's exclusivity is its head's, a PTE's its own page's. */
	ex = pte_pmd_mapped(pte) ? compound_head(page) : page;
	if (pte_write(pte) && PageAnon(page) && page_mapcount(page) > 1)
		report(c->r, "COW-shared pfn %#lx writable at %#lx",
		       page_to_pfn(page), addr);
	else if (pte_write(pte) && PageAnon(page) && !PageAnonExclusive(ex))
		report(c->r, "pfn %#lx writable at %#lx but not "
		       "PageAnonExclusive", page_to_pfn(page), addr);
	if (PageAnonExclusive(ex) && page_mapcount(page) > 1)
		report(c->r, "PageAnonExclusive pfn %#lx has %d mappings",
		       page_to_pfn(page), page_mapcount(page));
	c->rss[mm_counter(page)]++;
	return 0;
}

/* A huge PMD: its reference, if it is the huge zero page's and holds
 * one; then each 4 KiB of it, to count_pte. */
static int count_pmd(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		     unsigned long end, pte_walk_fn fn, void *priv)
{
	struct walk_ctx *c = priv;
	pmd_t entry = READ_ONCE(*pmd);

	if (is_huge_zero_pmd(entry) && !pmd_special(entry))
		c->huge_zero_pmd_refs++;
	return walk_huge_pmd_ptes(mm, pmd, addr, end, fn, priv);
}

int mm_verify_report(struct mm_struct *mm, struct mm_verify_report *r)
{
	struct walk_ctx c = { .mm = mm, .r = r };
	int errors = r->errors;

	if (!list_empty(&mm->mmap))
		c.vma = list_first_entry(&mm->mmap, struct vm_area_struct,
					 vm_list);
	walk_page_range_pmd(mm, 0, TASK_SIZE, count_pte, count_pmd, &c);
	r->huge_zero_pmds += c.huge_zero_pmds;
	r->huge_zero_pmd_refs += c.huge_zero_pmd_refs;
	/* A PMD without a reference of its own lives on its mm's, or on
	 * persistent's pin. */
	if (c.huge_zero_pmds > c.huge_zero_pmd_refs &&
	    !test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags) &&
	    !huge_zero_page_pinned())
		report(r, "mm %p maps the huge zero page without a reference "
		       "(its own, its mm's, or the pin)", mm);
	for (int i = 0; i < NR_MM_COUNTERS; i++)
		if (c.rss[i] != mm_counter_sum(mm, i))
			report(r, "mm %p: %s is %ld but the page tables map %ld",
			       mm, counter_name[i], mm_counter_sum(mm, i),
			       c.rss[i]);
	if (mm->hiwater_rss < get_mm_rss(mm))
		report(r, "mm %p: hiwater_rss %lu below rss %lu", mm,
		       mm->hiwater_rss, get_mm_rss(mm));
	return r->errors - errors;
}

/* ---- every mm at once: _mapcount and _refcount of each page ------------ */

/*
 * _mapcount is used as the tally itself: every counted PTE takes one off,
 * so a page the page tables account for exactly ends at -1; a second walk
 * puts every one back. No allocation, and exact whatever max_pfn is.
 */
static int tally_pte(pte_t *ptep, unsigned long addr, void *priv)
{
	struct page *page = counted_page(NULL, addr, *ptep);

	if (page)
		atomic_add(*(int *)priv, &page->_mapcount);
	return 0;
}

static void tally(struct mm_struct **mms, int n, int delta)
{
	for (int i = 0; i < n; i++)
		walk_page_range_nosplit(mms[i], 0, TASK_SIZE, tally_pte,
					&delta);
}

/* The references a page must hold besides its mappings: a page-cache
 * page one (its file's), the reserved zero page one (its own), an
 * anonymous page one if it is in the swap cache. */
static int base_refs(struct page *page)
{
	return PageAnon(page) ? PageSwapCache(page) : 1;
}

/* A THP's one _refcount against every mapping of it: each PMD, and each
 * PTE of a subpage, holds one on the head (Linux's). */
static void check_compound_refs(struct mm_verify_report *r,
				struct page *head)
{
	long maps = total_mapcount(head);

	if (maps > 0 && page_count(head) != maps)
		report(r, "THP pfn %#lx: _refcount %d but %ld mappings",
		       page_to_pfn(head), page_count(head), maps);
}

/* One page's _refcount against its _mapcount (the zero page's too):
 * right once the _mapcounts are. A THP is checked at its head. */
static void check_page_refs(struct mm_verify_report *r, struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	int maps = page_mapcount(page);

	if (PageCompound(page)) {
		if (PageHead(page) && !is_huge_zero_pfn(pfn))
			check_compound_refs(r, page);
		return;
	}
	if (maps > 0 && page_count(page) < maps + base_refs(page))
		report(r, "pfn %#lx: _refcount %d below its %d mappings + %d",
		       pfn, page_count(page), maps, base_refs(page));
	if (is_zero_pfn(pfn) && page_count(page) != 1 + maps)
		report(r, "zero page: _refcount %d, want 1 + its %d refcounted mappings",
		       page_count(page), maps);
	if (maps > 0 && PageAnon(page) &&
	    page_count(page) != maps + base_refs(page))
		report(r, "anon pfn %#lx: _refcount %d but %d mappings + %d",
		       pfn, page_count(page), maps, base_refs(page));
}

/* The registered holders of references without a mapping (zpk/mm_verify.h);
 * added to at init, read under the big kernel lock. */
static LIST_HEAD(ref_holders);

void mm_verify_add_ref_holder(struct mm_verify_ref_holder *h)
{
	if (list_empty(&h->list))
		list_add_tail(&h->list, &ref_holders);
}

/* Each holder's references counted in (+1) or out (-1) of _refcount. Big
 * kernel lock held. */
static void tally_holders(int delta)
{
	struct mm_verify_ref_holder *h;

	list_for_each_entry(h, &ref_holders, list)
		h->tally_pages(delta);
}

/* per-mm's references: the mms that took one. */
static int mms_holding_huge_zero(struct mm_struct **mms, int n)
{
	int held = 0;

	for (int i = 0; i < n; i++)
		held += test_bit(MMF_HUGE_ZERO_PAGE, &mms[i]->flags);
	return held;
}

/* The huge zero page's references: its own, each PMD's that took one
 * (not special), each mm's (per-mm), and persistent's pin; whatever the
 * policy is now, as a switch leaves each holder what it took (the PMDs
 * were counted into r by mm_verify_report, for every mm). */
static void check_huge_zero_refs(struct mm_verify_report *r,
				 struct mm_struct **mms, int n)
{
	int refs = huge_zero_refcount(), want = 0, held = 0;
	bool there = READ_ONCE(huge_zero_pfn) != ~0UL;

	if (r->huge_zero_pmds && !there)
		report(r, "%ld huge zero PMDs but no huge zero page",
		       r->huge_zero_pmds);
	if (there) {
		held = mms_holding_huge_zero(mms, n);
		want = 1 + (int)r->huge_zero_pmd_refs + held +
		       huge_zero_page_pinned();
	}
	if (refs != want)
		report(r, "huge zero page: %d references, want %d (its own, "
		       "%ld PMDs', %d mms', %d pinned)", refs, want,
		       r->huge_zero_pmd_refs, held, huge_zero_page_pinned());
}

/* ---- every mm at once: each swap slot's count ------------------------ */

/* The slots' counts are the tally, as _mapcount is above: each swap PTE
 * and each swap cache page takes its one off, and every slot in use
 * must end at 0 (Linux's swap_map has no such check). */
static int tally_swap_pte(pte_t *ptep, unsigned long addr, void *priv)
{
	(void)addr;
	if (is_swap_pte(*ptep))
		swap_tally(pte_to_swp_entry(*ptep), *(int *)priv);
	return 0;
}

static void bad_slot(swp_entry_t entry, int diff, void *priv)
{
	report(priv, "swap slot %u:%lu: count %d %s than its PTEs and the "
	       "swap cache hold", swp_type(entry), swp_offset(entry),
	       diff < 0 ? -diff : diff, diff < 0 ? "less" : "more");
}

static void swap_refs(struct mm_struct **mms, int n,
		      struct mm_verify_report *r)
{
	int delta = -1;

	for (int i = 0; i < n; i++)
		walk_page_range_nosplit(mms[i], 0, TASK_SIZE, tally_swap_pte,
					&delta);
	swap_cache_tally(-1);
	swap_tally_check(bad_slot, r);
	delta = 1;
	for (int i = 0; i < n; i++)
		walk_page_range_nosplit(mms[i], 0, TASK_SIZE, tally_swap_pte,
					&delta);
	swap_cache_tally(1);
}

int mm_verify_pages_report(struct mm_struct **mms, int n,
			   struct mm_verify_report *r)
{
	int errors = r->errors;
	unsigned long pfn;

	lock_kernel();		/* the holders' references hold */
	tally(mms, n, -1);
	tally_holders(-1);	/* vmsplice: references held by pipes */
	for (pfn = 0; pfn < max_pfn; pfn++) {
		struct page *page = pfn_to_page(pfn);

		if (page_mapcount(page))
			report(r, "pfn %#lx: _mapcount says %d mappings more than the page tables hold",
			       pfn, page_mapcount(page));
	}
	tally(mms, n, +1);
	swap_refs(mms, n, r);
	for (pfn = 0; pfn < max_pfn; pfn++)
		check_page_refs(r, pfn_to_page(pfn));
	tally_holders(+1);
	unlock_kernel();
	check_huge_zero_refs(r, mms, n);
	return r->errors - errors;
}

/*
 * Every mm there is is on the mmlist (kernel/fork.c), which holds an mm
 * from mm_alloc until its pages are gone: a dying mm's mappings still
 * count. The checks hold mmlist_lock, then every mm's mmap_lock for
 * writing, in list order: no fault, zap, fork or get_user_pages is half
 * done anywhere meanwhile, on any CPU, so every count must add up
 * exactly. No allocation: the exit check runs when memory has run out.
 */
static void lock_all_mms(void)
{
	struct mm_struct *mm;

	down_write(&mmlist_lock);
	list_for_each_entry(mm, &mmlist, mmlist)
		mmap_write_lock(mm);
}

static void unlock_all_mms(void)
{
	struct mm_struct *mm;

	list_for_each_entry(mm, &mmlist, mmlist)
		mmap_write_unlock(mm);
	up_write(&mmlist_lock);
}

/* ---- the exiting mm: its pages, without the other mms ---------------- */

/* The pages mm maps whose _mapcount, once mm's own PTEs are taken off,
 * is below -1: fewer mappings than mm alone holds (a walk fn). */
static int mapcount_below_own(pte_t *ptep, unsigned long addr, void *priv)
{
	struct page *page = counted_page(NULL, addr, *ptep);

	if (page && page_mapcount(page) < 0)
		report(priv, "pfn %#lx: _mapcount is %d short of the mappings "
		       "the exiting mm alone holds", page_to_pfn(page),
		       -page_mapcount(page));
	return 0;
}

/* A page mm maps: its references cover its mappings (a walk fn). */
static int refs_cover_maps(pte_t *ptep, unsigned long addr, void *priv)
{
	struct page *page = counted_page(NULL, addr, *ptep);

	if (page && !is_zero_pfn(page_to_pfn(page)))
		check_page_refs(priv, page);
	return 0;
}

int mm_verify_exit_report(struct mm_struct *mm, struct mm_verify_report *r)
{
	int errors = r->errors;

	mm_verify_report(mm, r);
	tally(&mm, 1, -1);
	walk_page_range_nosplit(mm, 0, TASK_SIZE, mapcount_below_own, r);
	tally(&mm, 1, +1);
	lock_kernel();		/* the holders' references hold */
	tally_holders(-1);	/* vmsplice: references held by pipes */
	walk_page_range_nosplit(mm, 0, TASK_SIZE, refs_cover_maps, r);
	tally_holders(+1);
	unlock_kernel();
	check_page_refs(r, pfn_to_page(zero_pfn));
	return r->errors - errors;
}

/* The exit check holds every mm's mmap_lock too (lock_all_mms): another
 * CPU's fault, zap or get_user_pages on a page this mm shares (a COW
 * page, the zero page under refcount) changes its counts one at a time,
 * and the exact checks (an anonymous page's references, the zero page's)
 * would see it half done. The locks cost a step per mm; the check stays
 * linear in this one. */
void mm_verify_exit(struct mm_struct *mm)
{
	struct mm_verify_report r = { 0 };

	lock_all_mms();
	mm_verify_exit_report(mm, &r);
	unlock_all_mms();
	mm_verify_bug(&r);
}

void mm_verify_bug(struct mm_verify_report *r)
{
	if (r->errors && (mm_verify_warn || !mm_verify_on_exit))
		pr_err("mm_verify: %d difference%s (mm_verify=%s: going on)\n",
		       r->errors, r->errors == 1 ? "" : "s", mm_verify_mode());
	else if (r->errors)
		BUGF("mm_verify: %d difference%s, first: %s", r->errors,
		     r->errors == 1 ? "" : "s", r->first);
}

const char *mm_verify_mode(void)
{
	return !mm_verify_on_exit ? "off" : mm_verify_warn ? "warn" : "exit";
}

int mm_verify_all(void)
{
	struct mm_verify_report r = { 0 };
	struct mm_struct *mm, **mms;
	int max = 0, n = 0;

	lock_all_mms();
	list_for_each_entry(mm, &mmlist, mmlist)
		max++;
	mms = kmalloc(max * sizeof(*mms) + 1, GFP_KERNEL);
	if (!mms) {
		unlock_all_mms();
		pr_warn("mm_verify: no memory for the check, skipped\n");
		return 0;
	}
	list_for_each_entry(mm, &mmlist, mmlist)
		mms[n++] = mm;
	/* The VMA list and tree (validate_mm BUGs: not under =warn, which
	 * promises to go on). */
	for (int i = 0; i < n && !mm_verify_warn; i++)
		validate_mm(mms[i]);
	for (int i = 0; i < n; i++)
		mm_verify_report(mms[i], &r);
	mm_verify_pages_report(mms, n, &r);
	unlock_all_mms();
	kfree(mms);
	/* The sweep stands for memory pressure too: the huge zero page's
	 * shrinker frees it if no one holds it (so a test's leak check
	 * balances under refcount and per-mm). */
	shrink_huge_zero_page();
	mm_verify_bug(&r);
	return r.errors;
}
