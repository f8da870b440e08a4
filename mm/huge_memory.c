/* mm/huge_memory.c — transparent huge pages for private anonymous memory
 * (Linux's mm/huge_memory.c): the policy, the PMD fault, split, zap, fork's
 * copy, the walkers' view of a huge PMD, and the huge zero page. */
#include <asm/pgtable.h>
#include <asm/tlb.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/userfaultfd_k.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

/* Debian's default: THP only where MADV_HUGEPAGE asks for it. */
enum thp_policy thp_policy = THP_MADVISE;
bool thp_use_zero_page = true;
/* Linux's lifetime since 2016; /proc/sys/vm/huge_zero_page switches it. */
enum huge_zero_policy huge_zero_policy = HUGE_ZERO_PER_MM;

static const char *const thp_names[] = {
	[THP_ALWAYS] = "always", [THP_MADVISE] = "madvise",
	[THP_NEVER] = "never",
};
static const char *const huge_zero_names[] = {
	[HUGE_ZERO_REFCOUNT] = "refcount", [HUGE_ZERO_PER_MM] = "per-mm",
	[HUGE_ZERO_PERSISTENT] = "persistent",
};

/* The index of name (a trailing newline allowed) in names[0..n), or -1. */
static int match_name(const char *const *names, int n, const char *buf,
		      size_t len)
{
	if (len && buf[len - 1] == '\n')
		len--;
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], buf, len))
			return i;
	return -1;
}

static int __used setup_transparent_hugepage(const char *val)
{
	int i = val ? match_name(thp_names, 3, val, strlen(val)) : -1;

	if (i < 0)
		return -1;
	thp_policy = (enum thp_policy)i;
	return 0;
}
early_param("transparent_hugepage", setup_transparent_hugepage,
	    "always|madvise|never: which private anonymous memory gets "
	    "2 MiB pages (Linux's; default madvise)");

static int __used setup_huge_zero_page(const char *val)
{
	int i = val ? match_name(huge_zero_names, 3, val, strlen(val)) : -1;

	if (i < 0)
		return -1;
	huge_zero_policy = (enum huge_zero_policy)i;
	return 0;
}
early_param("huge_zero_page", setup_huge_zero_page,
	    "refcount|per-mm|persistent: the huge zero page's lifetime "
	    "(2012, 2016, 2025; default per-mm)");

/* Linux's sysfs text of a choice: every name, the chosen one
 * bracketed ("always [madvise] never\n"), cut to len, NUL-ended;
 * returns the whole length. */
static ssize_t show_choice(char *buf, size_t len, const char *const *names,
			   int n, int chosen)
{
	size_t k = 0;

	for (int i = 0; i < n; i++)
		k += (size_t)snprintf(buf + min(k, len), len - min(k, len),
				      i == chosen ? "%s[%s]" : "%s%s",
				      i ? " " : "", names[i]);
	k += (size_t)snprintf(buf + min(k, len), len - min(k, len), "\n");
	return (ssize_t)k;
}

ssize_t thp_enabled_show(char *buf, size_t len)
{
	return show_choice(buf, len, thp_names, 3, (int)READ_ONCE(thp_policy));
}

int thp_enabled_store(const char *buf, size_t len)
{
	int i = match_name(thp_names, 3, buf, len);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(thp_policy, (enum thp_policy)i);
	return (int)len;
}

/* Linux's single_hugepage_flag_store: kstrtoul's number, 0 or 1. */
int thp_flag_store(const char *buf, size_t len, bool *flag)
{
	char num[24];
	unsigned long v;

	if (len >= sizeof(num))
		return -EINVAL;
	memcpy(num, buf, len);
	num[len] = '\0';
	if (kstrtoul(num, 10, &v) || v > 1)
		return -EINVAL;
	WRITE_ONCE(*flag, v == 1);
	return (int)len;
}

ssize_t thp_use_zero_page_show(char *buf, size_t len)
{
	return snprintf(buf, len, "%d\n", READ_ONCE(thp_use_zero_page));
}

int thp_use_zero_page_store(const char *buf, size_t len)
{
	return thp_flag_store(buf, len, &thp_use_zero_page);
}

/* Stored and shown as Linux's; nothing reads it: zpk never compacts. */
enum thp_defrag thp_defrag = THP_DEFRAG_MADVISE;
static const char *const defrag_names[] = {
	[THP_DEFRAG_ALWAYS] = "always", [THP_DEFRAG_DEFER] = "defer",
	[THP_DEFRAG_DEFER_MADVISE] = "defer+madvise",
	[THP_DEFRAG_MADVISE] = "madvise", [THP_DEFRAG_NEVER] = "never",
};

ssize_t thp_defrag_show(char *buf, size_t len)
{
	return show_choice(buf, len, defrag_names, 5,
			   (int)READ_ONCE(thp_defrag));
}

int thp_defrag_store(const char *buf, size_t len)
{
	int i = match_name(defrag_names, 5, buf, len);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(thp_defrag, (enum thp_defrag)i);
	return (int)len;
}

/* Stored and shown as Linux's; nothing reads it: zpk's shmem and tmpfs
 * pages are 4 KiB. */
enum shmem_huge shmem_huge = SHMEM_HUGE_NEVER;
static const char *const shmem_huge_names[] = {
	[SHMEM_HUGE_ALWAYS] = "always",
	[SHMEM_HUGE_WITHIN_SIZE] = "within_size",
	[SHMEM_HUGE_ADVISE] = "advise", [SHMEM_HUGE_NEVER] = "never",
	[SHMEM_HUGE_DENY] = "deny", [SHMEM_HUGE_FORCE] = "force",
};

ssize_t shmem_enabled_show(char *buf, size_t len)
{
	return show_choice(buf, len, shmem_huge_names, 6,
			   (int)READ_ONCE(shmem_huge));
}

int shmem_enabled_store(const char *buf, size_t len)
{
	int i = match_name(shmem_huge_names, 6, buf, len);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(shmem_huge, (enum shmem_huge)i);
	return (int)len;
}

/* ---- the huge zero page -------------------------------------------- */

unsigned long huge_zero_pfn = ~0UL;
static struct page *huge_zero_page;
/* 1 for the page itself while it exists, plus its holders: each huge
 * zero PMD without the special bit, each mm with MMF_HUGE_ZERO_PAGE, and
 * the pin persistent took; 0 when there is none. */
static atomic_t huge_zero_refs;
/* persistent's reference, taken once and never given back. */
static bool huge_zero_pinned;
/* Serialises allocating and freeing it; nothing nests inside but the
 * allocator's zone_lock. */
static DEFINE_SPINLOCK(huge_zero_lock);

int huge_zero_refcount(void)
{
	return atomic_read(&huge_zero_refs);
}

bool huge_zero_page_pinned(void)
{
	return READ_ONCE(huge_zero_pinned);
}

/*
 * A reference on the huge zero page, allocating it if there is none
 * (Linux's get_huge_zero_page, 2012's lazy allocation). Returns false if
 * no order-9 block is free. No lock held on entry: it allocates.
 */
static bool get_huge_zero_page(void)
{
	struct page *page;

	if (atomic_add_unless(&huge_zero_refs, 1, 0))
		return true;
	page = alloc_compound_pages(GFP_KERNEL | __GFP_ZERO, HPAGE_PMD_ORDER);
	if (!page) {
		count_vm_event(THP_ZERO_PAGE_ALLOC_FAILED);
		return false;
	}
	spin_lock(&huge_zero_lock);
	if (!huge_zero_page) {
		huge_zero_page = page;
		WRITE_ONCE(huge_zero_pfn, page_to_pfn(page));
		atomic_set(&huge_zero_refs, 2);	/* its own, and ours */
		count_vm_event(THP_ZERO_PAGE_ALLOC);
		page = NULL;
	} else {
		atomic_inc(&huge_zero_refs);
	}
	spin_unlock(&huge_zero_lock);
	if (page)
		put_page(page);	/* another CPU's won */
	return true;
}

static void put_huge_zero_page(void)
{
	/* Never the last: the page's own reference goes in the shrinker. */
	if (atomic_dec_return(&huge_zero_refs) < 1)
		BUGF("huge zero page: reference dropped below its own");
}

bool shrink_huge_zero_page(void)
{
	struct page *page = NULL;

	spin_lock(&huge_zero_lock);
	if (huge_zero_page && atomic_cmpxchg(&huge_zero_refs, 1, 0) == 1) {
		page = huge_zero_page;
		huge_zero_page = NULL;
		WRITE_ONCE(huge_zero_pfn, ~0UL);
	}
	spin_unlock(&huge_zero_lock);
	if (page)
		put_page(page);
	return page != NULL;
}

/*
 * A reference for *entry, one more huge zero PMD of mm, as the policy
 * counts them: refcount, one per mapping; per-mm, the mm's first takes
 * one (Linux's mm_get_huge_zero_page); persistent, none. A PMD that
 * takes none of its own is marked special, so that its zap gives back
 * what was taken whatever the policy is by then. false if there is no
 * huge zero page and none can be allocated. No lock held, but for
 * fork's copy of a huge zero PMD: there the page is surely there, and a
 * reference is taken without allocating.
 */
static bool mm_get_huge_zero_page(struct mm_struct *mm, pmd_t *entry)
{
	/* LAB(huge-pages) BEGIN task 3: a reference as the lifetime counts */
	switch (READ_ONCE(huge_zero_policy)) {
	case HUGE_ZERO_PERSISTENT:
		*entry = pmd_mkspecial(*entry);
		return huge_zero_page_pinned();
	case HUGE_ZERO_PER_MM:
		*entry = pmd_mkspecial(*entry);
		if (test_bit(MMF_HUGE_ZERO_PAGE, &mm->flags))
			return true;
		if (!get_huge_zero_page())
			return false;
		if (test_and_set_bit(MMF_HUGE_ZERO_PAGE, &mm->flags))
			put_huge_zero_page();
		return true;
	case HUGE_ZERO_REFCOUNT:
		break;
	}
	return get_huge_zero_page();
	/* LAB(huge-pages) END: (void)mm; (void)entry; return get_huge_zero_page(); */
}

/* A huge zero PMD, entry, is gone from some mm: it gives back its own
 * reference, if it took one. */
static void huge_zero_pmd_put(pmd_t entry)
{
	/* LAB(huge-pages) BEGIN task 3: a mapping gives its reference */
	if (!pmd_special(entry))
		put_huge_zero_page();
	/* LAB(huge-pages) END: (void)entry; put_huge_zero_page(); */
}

void mm_put_huge_zero_page(struct mm_struct *mm)
{
	/* LAB(huge-pages) BEGIN task 3: and an mm gives its own */
	if (test_and_clear_bit(MMF_HUGE_ZERO_PAGE, &mm->flags))
		put_huge_zero_page();
	/* LAB(huge-pages) END: (void)mm; */
}

/* persistent's pin: the page now, and for good. false if no 2 MiB block
 * is free. No lock held: it allocates. */
static bool pin_huge_zero_page(void)
{
	if (READ_ONCE(huge_zero_pinned))
		return true;
	if (!get_huge_zero_page())
		return false;
	if (__atomic_exchange_n(&huge_zero_pinned, true, __ATOMIC_SEQ_CST))
		put_huge_zero_page();	/* another switch pinned it */
	return true;
}

void thp_init(void)
{
	if (huge_zero_policy == HUGE_ZERO_PERSISTENT && !pin_huge_zero_page())
		pr_warn("huge_zero_page=persistent: no 2 MiB block free\n");
}

ssize_t huge_zero_policy_show(char *buf, size_t len)
{
	return show_choice(buf, len, huge_zero_names, 3,
			   READ_ONCE(huge_zero_policy));
}

int huge_zero_set_policy(const char *buf, size_t len)
{
	int i = match_name(huge_zero_names, 3, buf, len);

	if (i < 0)
		return -EINVAL;
	if (i == HUGE_ZERO_PERSISTENT && !pin_huge_zero_page())
		return -ENOMEM;
	WRITE_ONCE(huge_zero_policy, (enum huge_zero_policy)i);
	return (int)len;
}

/* ---- PMDs ------------------------------------------------------------ */

spinlock_t *pmd_lockptr(pmd_t *pmd)
{
	return &virt_to_page(pmd)->ptl;
}

/* The PTE table kept for a huge PMD's split (Linux's
 * pgtable_trans_huge_deposit), on the PMD table page's lru list. A
 * table new to the mm is counted in nr_ptes by the caller, as Linux
 * counts it (mm_inc_nr_ptes). PMD lock held. */
static void pgtable_trans_huge_deposit(pmd_t *pmd, void *pgtable)
{
	list_add(&virt_to_page(pgtable)->lru, &virt_to_page(pmd)->lru);
}

static void mm_inc_nr_ptes(struct mm_struct *mm)
{
	spin_lock(&mm->page_table_lock);
	mm->nr_ptes++;
	spin_unlock(&mm->page_table_lock);
}

/* The table deposited for pmd, taken back; still counted in nr_ptes
 * (until pgtable_free_withdrawn, or in use as pmd's table). PMD lock
 * held. */
static pte_t *pgtable_trans_huge_withdraw(pmd_t *pmd)
{
	struct list_head *l = &virt_to_page(pmd)->lru;
	struct page *pt;

	if (list_empty(l))
		BUGF("huge PMD at %p has no deposited table", pmd);
	pt = list_first_entry(l, struct page, lru);
	list_del(&pt->lru);
	return page_address(pt);
}

static void pgtable_free_withdrawn(struct mm_struct *mm, void *pgtable)
{
	spin_lock(&mm->page_table_lock);
	mm->nr_ptes--;
	spin_unlock(&mm->page_table_lock);
	pgtable_free(pgtable);
}

/*
 * A fault's huge PMD goes in where the PMD is still none, with its
 * deposit: under the mm's page_table_lock too, since table_populate
 * fills a none PMD with a table under that lock alone (Linux takes the
 * PMD lock there). false if it is none no more. PMD lock held.
 */
static bool set_huge_pmd_if_none(struct mm_struct *mm, pmd_t *pmd,
				 pmd_t entry, void *pgtable)
{
	bool none;

	spin_lock(&mm->page_table_lock);
	none = pmd_none(*pmd);
	if (none) {
		pgtable_trans_huge_deposit(pmd, pgtable);
		mm->nr_ptes++;
		set_pmd(pmd, entry);
	}
	spin_unlock(&mm->page_table_lock);
	return none;
}

static pmd_t mk_huge_pmd(unsigned long pfn, pgprot_t prot)
{
	return __pmd(pte_val(pfn_pte(pfn, prot)) | _PAGE_PSE);
}

static inline pte_t pmd_pte(pmd_t pmd)
{
	return __pte(pmd_val(pmd) & ~_PAGE_PSE);
}

static inline pmd_t pte_pmd(pte_t pte)
{
	return __pmd(pte_val(pte) | _PAGE_PSE);
}

pte_t huge_pmd_pte(pmd_t pmd, unsigned long addr)
{
	pte_t pte = pmd_pte(pmd);
	unsigned long i = (addr & ~HPAGE_PMD_MASK) >> PAGE_SHIFT;

	if (is_huge_zero_pmd(pmd))
		return __pte(pte_val(pte_mkspecial(pfn_pte(zero_pfn,
			pte_pgprot(pte)))) | _PAGE_PSE);
	return __pte(pte_val(pfn_pte(pte_pfn(pte) + i, pte_pgprot(pte))) |
		     _PAGE_PSE);
}

/* ---- rmap of a PMD-mapped compound page ------------------------------ */

/* The subpages of head that no PTE maps: those a PMD's coming or going
 * maps or unmaps (NR_ANON_PAGES counts 4 KiB pages mapped at all). */
static long pmd_only_subpages(struct page *head)
{
	long n = 0;

	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		n += atomic_read(&head[i]._mapcount) < 0;
	return n;
}

/* A fresh THP's first mapping, by a PMD: this mm's alone. */
static void page_add_new_anon_rmap_pmd(struct page *head)
{
	atomic_set(&head->compound_mapcount, 1);
	page_set_flag(head, PG_anon);
	page_set_flag(head, PG_anon_exclusive);
	mod_vm_stat(NR_ANON_PAGES, HPAGE_PMD_NR);
	inc_vm_stat(NR_ANON_THPS);
}

/* fork: one PMD more maps head; no longer exclusive. */
static void page_dup_rmap_pmd(struct page *head)
{
	atomic_inc(&head->compound_mapcount);
	page_clear_flag(head, PG_anon_exclusive);
}

/* One PMD less maps head (zap). */
static void page_remove_rmap_pmd(struct page *head)
{
	if (atomic_read(&head->compound_mapcount) <= 0)
		BUGF("page_remove_rmap_pmd: pfn %#lx not PMD-mapped",
		     page_to_pfn(head));
	if (!atomic_dec_and_test(&head->compound_mapcount))
		return;
	dec_vm_stat(NR_ANON_THPS);
	mod_vm_stat(NR_ANON_PAGES, -pmd_only_subpages(head));
	page_clear_flag(head, PG_anon_exclusive);
}

/* ---- the fault ------------------------------------------------------- */

/* What any THP in vma needs, whatever the sysfs policy says (Linux's
 * hugepage_vma_check with enforce_sysfs false): private anonymous
 * memory that neither MADV_NOHUGEPAGE nor PR_SET_THP_DISABLE opted out. */
static bool thp_vma_possible(struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	return !vma->vm_file && !vma->vm_ops &&
	       !(f & (VM_SHARED | VM_MAYSHARE | VM_NOHUGEPAGE)) &&
	       !test_bit(MMF_DISABLE_THP, &vma->vm_mm->flags);
}

bool thp_vma_allowable(struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	if (!thp_vma_possible(vma))
		return false;
	switch (READ_ONCE(thp_policy)) {
	case THP_ALWAYS:
		return true;
	case THP_MADVISE:
		return f & VM_HUGEPAGE;
	case THP_NEVER:
		break;
	}
	return false;
}

/* May a fault at address get a huge PMD: allowed, the 2 MiB around it
 * wholly inside vma, and no userfaultfd (whose readers fill 4 KiB pages:
 * zpk falls back there, where Linux 6.1 hands a THP fault to them). */
static bool thp_fault_suitable(struct vm_area_struct *vma,
			       unsigned long address)
{
	unsigned long haddr = address & HPAGE_PMD_MASK;

	return haddr >= vma->vm_start &&
	       haddr + HPAGE_PMD_SIZE <= vma->vm_end &&
	       !(vma->vm_flags & __VM_UFFD_FLAGS) && thp_vma_allowable(vma);
}

bool thp_vma_eligible(struct vm_area_struct *vma)
{
	return vma->vm_end - vma->vm_start >= HPAGE_PMD_SIZE &&
	       thp_fault_suitable(vma, vma->vm_end - HPAGE_PMD_SIZE);
}

/* May MADV_COLLAPSE make THPs in vma: possible, the policy aside (it is
 * the user's explicit ask), a whole aligned 2 MiB inside, and no
 * userfaultfd (whose readers fill 4 KiB pages: zpk keeps huge PMDs out
 * of such VMAs; Linux 6.1 collapses a range with no hole there). */
bool thp_vma_collapsible(struct vm_area_struct *vma)
{
	unsigned long haddr = ALIGN_UP(vma->vm_start, HPAGE_PMD_SIZE);

	return thp_vma_possible(vma) && !(vma->vm_flags & __VM_UFFD_FLAGS) &&
	       haddr + HPAGE_PMD_SIZE <= vma->vm_end;
}

/* A read fault's PMD: the huge zero page, read-only, 512 zero pages in
 * RssZero (Linux's do_huge_pmd_anonymous_page's zero branch). Called
 * with the mmap_lock held for reading and no other lock. Returns 0, or
 * VM_FAULT_FALLBACK (no huge zero page, or no table for its split). */
static vm_fault_t do_huge_zero_pmd(struct vm_area_struct *vma, pmd_t *pmd)
{
	/* LAB(huge-pages) BEGIN task 1: map the huge zero page, read-only */
	struct mm_struct *mm = vma->vm_mm;
	void *pgtable = pgtable_alloc();
	spinlock_t *ptl = pmd_lockptr(pmd);
	pgprot_t prot = __pgprot(pgprot_val(vm_get_page_prot(vma->vm_flags)) &
				 ~_PAGE_RW);
	pmd_t entry = __pmd(0);	/* special, if it takes no reference */

	if (!pgtable)
		return VM_FAULT_FALLBACK;
	if (!mm_get_huge_zero_page(mm, &entry)) {
		pgtable_free(pgtable);
		return VM_FAULT_FALLBACK;
	}
	/* The reference taken keeps huge_zero_pfn what it is. */
	entry = __pmd(pmd_val(entry) |
		      pmd_val(mk_huge_pmd(huge_zero_pfn, prot)));
	spin_lock(ptl);
	if (!set_huge_pmd_if_none(mm, pmd, entry, pgtable)) {
		spin_unlock(ptl);	/* another thread's fault won */
		huge_zero_pmd_put(entry);
		pgtable_free(pgtable);
		return 0;
	}
	add_mm_counter(mm, MM_ZEROPAGES, HPAGE_PMD_NR);
	spin_unlock(ptl);
	return 0;
	/* LAB(huge-pages) END: (void)vma; (void)pmd; return VM_FAULT_FALLBACK; */
}

/* Zeroes the 512 pages of a THP, one clear_page each (counted PGZERO). */
static void clear_huge_page(struct page *head)
{
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		clear_page(page_address(head + i));
}

/*
 * A first touch of a 2 MiB-aligned range (Linux's
 * do_huge_pmd_anonymous_page): the huge zero page for a read, else an
 * order-9 compound page mapped by one PMD, RSS + 512. The page and the
 * table for its split are allocated before the PMD lock is taken, and
 * the PMD checked again under it. Called by handle_huge_pmd_fault with
 * the mmap_lock held for reading, no other lock; the same on return.
 * Returns 0 or VM_FAULT_FALLBACK (no order-9 block: 4 KiB pages).
 */
static vm_fault_t do_huge_pmd_anonymous_page(struct vm_area_struct *vma,
					     pmd_t *pmd, unsigned int flags)
{
	struct mm_struct *mm = vma->vm_mm;
	struct page *page;
	void *pgtable;
	spinlock_t *ptl;
	pmd_t entry;

	if (!(flags & (FAULT_FLAG_WRITE | FAULT_FLAG_NOZERO)) &&
	    READ_ONCE(thp_use_zero_page) &&
	    zero_page_policy != ZERO_PAGE_OFF &&
	    do_huge_zero_pmd(vma, pmd) == 0)
		return 0;
	page = alloc_compound_pages(GFP_HIGHUSER, HPAGE_PMD_ORDER);
	pgtable = page ? pgtable_alloc() : NULL;
	if (!pgtable) {
		if (page)
			put_page(page);
		count_vm_event(THP_FAULT_FALLBACK);
		return VM_FAULT_FALLBACK;
	}
	clear_huge_page(page);
	entry = mk_huge_pmd(page_to_pfn(page), vm_get_page_prot(vma->vm_flags));
	if (flags & FAULT_FLAG_WRITE)
		entry = pte_pmd(pte_mkdirty(pmd_pte(entry)));
	else if (vma_soft_dirty_enabled(vma))
		entry = pte_pmd(pte_wrprotect(pmd_pte(entry)));
	ptl = pmd_lockptr(pmd);
	spin_lock(ptl);
	/* rmap first: the page is mapped the moment the PMD is in */
	page_add_new_anon_rmap_pmd(page);
	if (!set_huge_pmd_if_none(mm, pmd, entry, pgtable)) {
		page_remove_rmap_pmd(page);
		spin_unlock(ptl);
		pgtable_free(pgtable);
		put_page(page);
		return 0;
	}
	add_mm_counter(mm, MM_ANONPAGES, HPAGE_PMD_NR);
	spin_unlock(ptl);
	count_vm_event(THP_FAULT_ALLOC);
	return 0;
}

/*
 * MADV_COLLAPSE's last step (mm/khugepaged.c): hpage, a fresh THP with
 * the range's contents, goes in at pmd, none since the collapse cleared
 * it, dirty and writable if vma is (Linux's collapse_huge_page's end);
 * table, the PTE table that was there, emptied, is kept for its split
 * (nr_ptes counts it already). mmap_lock held for writing; takes and
 * drops the PMD lock.
 */
void set_huge_pmd_collapsed(struct vm_area_struct *vma, pmd_t *pmd,
			    struct page *hpage, pte_t *table)
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	pte_t entry = pfn_pte(page_to_pfn(hpage),
			      vm_get_page_prot(vma->vm_flags));

	entry = pte_mkdirty(entry);
	if (vma->vm_flags & VM_WRITE)
		entry = pte_mkwrite(entry);
	spin_lock(ptl);
	if (!pmd_none(*pmd))
		BUGF("collapse: PMD at %p filled meanwhile", pmd);
	page_add_new_anon_rmap_pmd(hpage);
	pgtable_trans_huge_deposit(pmd, table);
	set_pmd(pmd, pte_pmd(entry));
	spin_unlock(ptl);
}

/* ---- split ----------------------------------------------------------- */

/*
 * The huge zero PMD becomes 512 PTEs of the small zero page, under the
 * current zero_page= policy (special under off too: that policy has no
 * zero PTEs of its own), with RssZero unchanged (Linux's
 * __split_huge_zero_page_pmd). PMD lock held.
 */
static void __split_huge_zero_page_pmd(struct mm_struct *mm, pmd_t *pmd,
				       unsigned long haddr)
{
	pte_t *table = pgtable_trans_huge_withdraw(pmd);
	pmd_t old = *pmd;
	pgprot_t prot = pte_pgprot(pmd_pte(pmd_clear_special(old)));
	/* LAB(huge-pages) BEGIN task 2: 512 small zero PTEs in its place */
	pte_t entry = pte_mkspecial(pfn_pte(zero_pfn, prot));
	long rss[NR_MM_COUNTERS] = { 0 };

	if (zero_page_policy == ZERO_PAGE_REFCOUNT)
		entry = pte_clear_flags(entry, _PAGE_SPECIAL);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		set_pte(&table[i], entry);
		zero_pte_count(rss, entry, 1);
	}
	rss[MM_ZEROPAGES] -= HPAGE_PMD_NR;
	add_mm_rss_vec(mm, rss);
	/* LAB(huge-pages) END:
	 * (void)prot;
	 * add_mm_counter(mm, MM_ZEROPAGES, -HPAGE_PMD_NR);
	 */
	set_pmd(pmd, __pmd(__pa(table) | _PAGE_TABLE));
	flush_tlb_mm_range(mm, haddr, haddr + HPAGE_PMD_SIZE);
	huge_zero_pmd_put(old);
	count_vm_event(THP_SPLIT_PMD);
}

/*
 * A huge PMD becomes a table of 512 PTEs mapping the same subpages with
 * the same bits (Linux's __split_huge_pmd_locked): each subpage's
 * _mapcount takes the PMD's mapping and the head a reference per PTE,
 * exclusivity goes to every subpage, RSS is unchanged. The PMD is
 * write-protected and flushed first, so that no CPU sets Dirty in it
 * after it is read, and it is never none in between (a racing walk
 * would take the hole for empty). PMD lock held; flushes (IPIs).
 */
void __split_huge_pmd_locked(struct mm_struct *mm, pmd_t *pmd,
			     unsigned long haddr)
{
	u64 rw = pmd_val(*pmd) & _PAGE_RW;
	struct page *head;
	pte_t *table, entry;
	bool exclusive;

	if (!pmd_leaf(*pmd))
		return;
	if (is_huge_zero_pmd(*pmd))
		return __split_huge_zero_page_pmd(mm, pmd, haddr);
	__atomic_fetch_and(&pmd->pmd, ~_PAGE_RW, __ATOMIC_SEQ_CST);
	flush_tlb_mm_range(mm, haddr, haddr + HPAGE_PMD_SIZE);
	entry = pte_set_flags(pmd_pte(*pmd), rw);
	head = pmd_page(*pmd);
	exclusive = PageAnonExclusive(head);
	table = pgtable_trans_huge_withdraw(pmd);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		set_pte(&table[i], pfn_pte(page_to_pfn(head) + i,
					   pte_pgprot(entry)));
		atomic_inc(&head[i]._mapcount);
		if (exclusive)
			page_set_flag(head + i, PG_anon_exclusive);
	}
	page_ref_add(head, HPAGE_PMD_NR - 1);
	if (atomic_dec_and_test(&head->compound_mapcount))
		dec_vm_stat(NR_ANON_THPS);
	set_pmd(pmd, __pmd(__pa(table) | _PAGE_TABLE));
	flush_tlb_mm_range(mm, haddr, haddr + HPAGE_PMD_SIZE);
	count_vm_event(THP_SPLIT_PMD);
}

void split_huge_pmd(struct mm_struct *mm, pmd_t *pmd, unsigned long addr)
{
	spinlock_t *ptl = pmd_lockptr(pmd);

	spin_lock(ptl);
	__split_huge_pmd_locked(mm, pmd, addr & HPAGE_PMD_MASK);
	spin_unlock(ptl);
}

void split_huge_pmd_address(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = pmd_lookup(mm, addr);

	if (pmd && pmd_leaf(READ_ONCE(*pmd)))
		split_huge_pmd(mm, pmd, addr);
}

/*
 * A THP that no PMD maps, and whose every mapping is a PTE of table,
 * becomes 512 order-0 pages (Linux's split_huge_page, as MADV_PAGEOUT
 * needs it: zpk swaps 4 KiB pages). Each subpage keeps the references
 * of its PTEs and is anonymous on its own (its exclusive bit it has had
 * since the PMD's split); one that no PTE maps is freed. Refused (false)
 * while anything else holds the THP (a pin, a gather's reference, a PTE
 * in another table or mm), as Linux's can_split_folio. table's PTE lock
 * held: none of its PTEs changes meanwhile, and they are all there are.
 */
bool split_huge_page_table(struct page *head, pte_t *table)
{
	unsigned long pfn = page_to_pfn(head), ptes = 0;
	long maps;

	if (!PageHead(head) || compound_mapcount(head))
		return false;
	maps = total_mapcount(head);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++)
		ptes += pte_present(table[i]) &&
			pte_pfn(table[i]) - pfn < HPAGE_PMD_NR;
	if (ptes != (unsigned long)maps || page_count(head) != maps)
		return false;
	page_clear_flag(head, PG_head);
	for (unsigned long i = 0; i < HPAGE_PMD_NR; i++) {
		struct page *p = head + i;
		int n = atomic_read(&p->_mapcount) + 1;

		WRITE_ONCE(p->compound_head, 0);
		p->order = 0;
		set_page_count(p, n ? n : 1);
		if (n)
			page_set_flag(p, PG_anon);
		else
			__free_pages(p, 0);
	}
	count_vm_event(THP_SPLIT_PAGE);
	return true;
}

/* MADV_PAGEOUT's hook for a huge PMD (a pmd_walk_fn): a THP this mm
 * alone maps is split to PTEs, and its pages go out one by one (as
 * Linux 6.1 splits a THP it cannot swap whole); the huge zero page and
 * a shared THP stay. */
int pageout_huge_pmd(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		     unsigned long end, pte_walk_fn fn, void *priv)
{
	pmd_t orig = READ_ONCE(*pmd);

	(void)end, (void)fn, (void)priv;
	if (!pmd_leaf(orig) || is_huge_zero_pmd(orig) ||
	    compound_mapcount(pmd_page(orig)) != 1)
		return 0;
	split_huge_pmd(mm, pmd, addr);
	return WALK_PTES;
}

/* ---- write faults ---------------------------------------------------- */

/*
 * A write to a read-only huge PMD (Linux 6.1's do_huge_pmd_wp_page): the
 * huge zero page splits into small zero PTEs, and the PTE level copies
 * only the written page; a THP that is this PMD's alone is reused
 * (made writable); a shared one is split, and the PTE level copies the
 * written 4 KiB. PMD lock taken and dropped; mmap_lock held for reading.
 * Returns 0 or VM_FAULT_FALLBACK (go on at the PTE level).
 */
static vm_fault_t do_huge_pmd_wp_page(struct vm_area_struct *vma,
				      unsigned long address, pmd_t *pmd)
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	unsigned long haddr = address & HPAGE_PMD_MASK;
	struct page *head;
	pmd_t orig;

	spin_lock(ptl);
	orig = *pmd;
	if (!pmd_leaf(orig) || is_huge_zero_pmd(orig) ||
	    pmd_val(orig) & _PAGE_UFFD_WP)
		goto split;
	head = pmd_page(orig);
	if (!PageAnonExclusive(head) && page_count(head) != 1)
		goto split;
	page_set_flag(head, PG_anon_exclusive);
	set_pmd(pmd, pte_pmd(pte_mkyoung(pte_mkdirty(
		vma->vm_flags & VM_WRITE ? pte_mkwrite(pmd_pte(orig)) :
					   pmd_pte(orig)))));
	spin_unlock(ptl);
	return 0;
split:
	__split_huge_pmd_locked(vma->vm_mm, pmd, haddr);
	spin_unlock(ptl);
	return VM_FAULT_FALLBACK;
}

/*
 * The PMD level of a fault (Linux's __handle_mm_fault before the PTE
 * level): a none PMD in a range THP may use gets a huge PMD; a huge one
 * is written (do_huge_pmd_wp_page) or was a stale TLB entry (marked
 * young, dirty for a write). Called by __handle_mm_fault with the
 * mmap_lock held for reading and no other lock; the same on return.
 * Returns 0 or VM_FAULT_* (FALLBACK: the PTE level does it; OOM: no
 * table).
 */
vm_fault_t handle_huge_pmd_fault(struct vm_area_struct *vma,
				 unsigned long address, unsigned int flags)
{
	pmd_t *pmd, orig;
	spinlock_t *ptl;

	if (vma->vm_file)
		return VM_FAULT_FALLBACK;
	pmd = pmd_alloc_walk(vma->vm_mm, address);
	if (!pmd)
		return VM_FAULT_OOM;
	orig = READ_ONCE(*pmd);
	if (pmd_none(orig))
		return thp_fault_suitable(vma, address) ?
		       do_huge_pmd_anonymous_page(vma, pmd, flags) :
		       VM_FAULT_FALLBACK;
	if (!pmd_leaf(orig))
		return VM_FAULT_FALLBACK;
	if ((flags & FAULT_FLAG_WRITE) && !(pmd_val(orig) & _PAGE_RW))
		return do_huge_pmd_wp_page(vma, address, pmd);
	ptl = pmd_lockptr(pmd);	/* huge_pmd_set_accessed */
	spin_lock(ptl);
	if (pmd_val(*pmd) == pmd_val(orig))
		set_pmd(pmd, __pmd(pmd_val(orig) | _PAGE_ACCESSED |
			(flags & FAULT_FLAG_WRITE ?
			 _PAGE_DIRTY | _PAGE_SOFT_DIRTY : 0)));
	spin_unlock(ptl);
	return 0;
}

/* ---- zap, fork ------------------------------------------------------- */

/*
 * A huge PMD wholly inside a zap (Linux's zap_huge_pmd): cleared, its
 * deposited table freed, RSS - 512 into rss[]; the THP's reference goes
 * to the gather, freed after the flush. PMD lock taken and dropped;
 * mmap_lock held. Returns 0.
 */
int zap_huge_pmd(struct mmu_gather *tlb, struct mm_struct *mm, pmd_t *pmd,
		 unsigned long haddr, long rss[NR_MM_COUNTERS])
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	pmd_t orig;

	spin_lock(ptl);
	orig = *pmd;
	if (!pmd_leaf(orig)) {
		spin_unlock(ptl);
		return WALK_PTES;	/* a table now */
	}
	orig = __pmd(__atomic_exchange_n(&pmd->pmd, 0, __ATOMIC_SEQ_CST));
	pgtable_free_withdrawn(mm, pgtable_trans_huge_withdraw(pmd));
	__tlb_adjust_range(tlb, haddr, HPAGE_PMD_SIZE);
	if (is_huge_zero_pmd(orig)) {
		rss[MM_ZEROPAGES] -= HPAGE_PMD_NR;
		huge_zero_pmd_put(orig);
	} else {
		struct page *head = pmd_page(orig);

		rss[MM_ANONPAGES] -= HPAGE_PMD_NR;
		page_remove_rmap_pmd(head);
		tlb_remove_page(tlb, head);
	}
	spin_unlock(ptl);
	return 0;
}

/*
 * fork: a huge PMD of src copied into dst (Linux's copy_huge_pmd): both
 * write-protected, the THP shared (a reference and a PMD mapping more,
 * no longer exclusive); the huge zero page shared as the policy counts
 * it. A table is deposited in dst for its split. Called by dup_mmap's
 * copy_huge_pmds with both mmap_locks held for writing; takes src's
 * PMD lock. 0, 1 (src's PMD is no longer huge: copy its PTEs), or
 * -ENOMEM.
 */
static int copy_huge_pmd(struct mm_struct *dst, pmd_t *src_pmd,
			 unsigned long addr)
{
	pmd_t *dst_pmd = pmd_alloc_walk(dst, addr);
	void *pgtable = dst_pmd ? pgtable_alloc() : NULL;
	spinlock_t *ptl = pmd_lockptr(src_pmd);
	pmd_t entry;

	if (!pgtable)
		return -ENOMEM;
	spin_lock(ptl);
	entry = *src_pmd;
	if (!pmd_leaf(entry)) {
		spin_unlock(ptl);
		pgtable_free(pgtable);
		return 1;
	}
	if (is_huge_zero_pmd(entry)) {
		/* The parent's mapping keeps the page there: this takes a
		 * reference and never allocates, so under the lock is safe.
		 * The child's PMD holds what the policy now says. */
		entry = pmd_clear_special(entry);
		mm_get_huge_zero_page(dst, &entry);
		add_mm_counter(dst, MM_ZEROPAGES, HPAGE_PMD_NR);
	} else {
		struct page *head = pmd_page(entry);

		get_page(head);
		page_dup_rmap_pmd(head);
		add_mm_counter(dst, MM_ANONPAGES, HPAGE_PMD_NR);
		if (pmd_val(entry) & _PAGE_RW) {
			__atomic_fetch_and(&src_pmd->pmd, ~_PAGE_RW,
					   __ATOMIC_SEQ_CST);
			entry = __pmd(pmd_val(entry) & ~_PAGE_RW);
		}
	}
	pgtable_trans_huge_deposit(dst_pmd, pgtable);
	mm_inc_nr_ptes(dst);
	set_pmd(dst_pmd, entry);
	spin_unlock(ptl);
	return 0;
}

int copy_huge_pmds(struct mm_struct *dst, struct mm_struct *src,
		   struct vm_area_struct *vma)
{
	unsigned long addr, wp = 0;
	int ret = 0;

	if (vma->vm_file)
		return 0;
	/* split_vma keeps every huge PMD inside one VMA. */
	for (addr = ALIGN_UP(vma->vm_start, HPAGE_PMD_SIZE);
	     addr + HPAGE_PMD_SIZE <= vma->vm_end && !ret;
	     addr += HPAGE_PMD_SIZE) {
		pmd_t *pmd = pmd_lookup(src, addr);

		if (!pmd || !pmd_leaf(READ_ONCE(*pmd)))
			continue;
		ret = copy_huge_pmd(dst, pmd, addr);
		wp = 1;
		if (ret > 0)
			ret = 0;
	}
	if (wp)
		flush_tlb_mm(src);
	return ret;
}

/*
 * mremap: the huge PMD at old_pmd (for addr) goes whole to new_pmd, a
 * none entry, with its deposited table, soft-dirty (Linux's
 * move_huge_pmd); nothing is split or counted again. mmap_lock held for
 * writing, so no fault fills new_pmd meanwhile; takes both PMD locks
 * (nothing else holds two). The old entry is flushed through tlb.
 * Returns 0, or WALK_PTES if old_pmd is no longer huge.
 */
int move_huge_pmd(struct mm_struct *mm, pmd_t *old_pmd, pmd_t *new_pmd,
		  unsigned long addr, struct mmu_gather *tlb)
{
	spinlock_t *old_ptl = pmd_lockptr(old_pmd);
	spinlock_t *new_ptl = pmd_lockptr(new_pmd);
	pte_t *pgtable;
	pmd_t entry;

	(void)mm;
	spin_lock(old_ptl);
	if (!pmd_leaf(*old_pmd)) {
		spin_unlock(old_ptl);
		return WALK_PTES;
	}
	if (new_ptl != old_ptl)
		spin_lock(new_ptl);
	entry = __pmd(__atomic_exchange_n(&old_pmd->pmd, 0, __ATOMIC_SEQ_CST));
	pgtable = pgtable_trans_huge_withdraw(old_pmd);
	pgtable_trans_huge_deposit(new_pmd, pgtable);
	set_pmd(new_pmd, __pmd(pmd_val(entry) | _PAGE_SOFT_DIRTY));
	if (new_ptl != old_ptl)
		spin_unlock(new_ptl);
	spin_unlock(old_ptl);
	__tlb_adjust_range(tlb, addr, HPAGE_PMD_SIZE);
	return 0;
}

/* ---- walkers --------------------------------------------------------- */

int walk_huge_pmd_ptes(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
		       unsigned long end, pte_walk_fn fn, void *priv)
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	int ret = 0;

	(void)mm;
	spin_lock(ptl);
	if (!pmd_leaf(*pmd)) {
		spin_unlock(ptl);
		return WALK_PTES;
	}
	for (; addr < end && !ret; addr += PAGE_SIZE) {
		pte_t pte = huge_pmd_pte(*pmd, addr);

		ret = fn(&pte, addr, priv);
	}
	spin_unlock(ptl);
	return ret;
}

int split_huge_pmd_walk(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
			unsigned long end, pte_walk_fn fn, void *priv)
{
	(void)end;
	(void)fn;
	(void)priv;
	split_huge_pmd(mm, pmd, addr);
	return WALK_PTES;
}
