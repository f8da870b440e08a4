/* zpk/huge_mm.h — transparent huge pages (Linux's include/linux/huge_mm.h):
 * the THP policy and its C interface for /sys/kernel/mm/transparent_hugepage,
 * the huge zero page's lifetimes, and the PMD paths mm/ calls. */
#ifndef ZPK_HUGE_MM_H
#define ZPK_HUGE_MM_H

#include <asm/pgtable.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/mm_types.h>
#include <zpk/types.h>

#define HPAGE_PMD_ORDER	(PMD_SHIFT - PAGE_SHIFT)	/* 9 */
#define HPAGE_PMD_NR	(1UL << HPAGE_PMD_ORDER)	/* 512 */
#define HPAGE_PMD_SIZE	PMD_SIZE
#define HPAGE_PMD_MASK	(~(HPAGE_PMD_SIZE - 1))

/* /sys/kernel/mm/transparent_hugepage/enabled, transparent_hugepage=. */
enum thp_policy { THP_ALWAYS, THP_MADVISE, THP_NEVER };
extern enum thp_policy thp_policy;
/* .../use_zero_page: a read fault maps the huge zero page (default 1). */
extern bool thp_use_zero_page;

/*
 * The huge zero page's lifetime (huge_zero_page= at boot,
 * /proc/sys/vm/huge_zero_page at run time): refcount (2012: a global
 * reference per mapping, the page freed by shrink_huge_zero_page once
 * unused), per-mm (2016, Linux's since: one reference per mm that mapped
 * it, MMF_HUGE_ZERO_PAGE, dropped when the mm goes; the page freed as
 * under refcount), persistent (2025's CONFIG_PERSISTENT_HUGE_ZERO_FOLIO:
 * allocated at boot or at the switch, never freed). A switch changes the
 * mappings to come; each made before gives back what it took, as its
 * PMD's special bit (none of its own) and its mm's flag record.
 */
enum huge_zero_policy { HUGE_ZERO_REFCOUNT, HUGE_ZERO_PER_MM,
			HUGE_ZERO_PERSISTENT };
extern enum huge_zero_policy huge_zero_policy;
/* "refcount [per-mm] persistent\n" into buf of len bytes, NUL-ended;
 * returns its length. No lock. */
ssize_t huge_zero_policy_show(char *buf, size_t len);
/* Switches to "refcount", "per-mm" or "persistent" (a trailing newline
 * allowed): len, -EINVAL, or -ENOMEM (persistent, and no 2 MiB block
 * free to pin). No lock held: it may allocate. */
int huge_zero_set_policy(const char *buf, size_t len);

/*
 * The text of .../transparent_hugepage/enabled ("always [madvise]
 * never\n", the active one bracketed) into buf of len bytes, NUL-ended;
 * returns its length, as a sysfs show. No lock.
 */
ssize_t thp_enabled_show(char *buf, size_t len);
/* Sets the policy from "always", "madvise" or "never" (a trailing
 * newline allowed): returns len, or -EINVAL (Linux's store). New faults
 * follow it; huge pages already mapped stay. */
int thp_enabled_store(const char *buf, size_t len);
/* .../use_zero_page: "1\n" or "0\n"; store takes kstrtoul's 0 or 1,
 * else -EINVAL. 0: a read fault gets a real THP. */
ssize_t thp_use_zero_page_show(char *buf, size_t len);
int thp_use_zero_page_store(const char *buf, size_t len);
/* Linux's single_hugepage_flag_store into *flag: len, or -EINVAL. */
int thp_flag_store(const char *buf, size_t len, bool *flag);

/* .../defrag: Linux's five words, stored and shown; zpk never compacts,
 * so none changes a fault (docs/vm.md). */
enum thp_defrag { THP_DEFRAG_ALWAYS, THP_DEFRAG_DEFER,
		  THP_DEFRAG_DEFER_MADVISE, THP_DEFRAG_MADVISE,
		  THP_DEFRAG_NEVER };
extern enum thp_defrag thp_defrag;
ssize_t thp_defrag_show(char *buf, size_t len);
int thp_defrag_store(const char *buf, size_t len);
/* .../shmem_enabled: Linux's six words (mm/shmem.c's), stored and shown;
 * zpk has no shmem THP, so none changes anything. */
enum shmem_huge { SHMEM_HUGE_ALWAYS, SHMEM_HUGE_WITHIN_SIZE,
		  SHMEM_HUGE_ADVISE, SHMEM_HUGE_NEVER, SHMEM_HUGE_DENY,
		  SHMEM_HUGE_FORCE };
extern enum shmem_huge shmem_huge;
ssize_t shmem_enabled_show(char *buf, size_t len);
int shmem_enabled_store(const char *buf, size_t len);

/* Boot: under huge_zero_page=persistent, the page is allocated now. */
void thp_init(void);
/* Boot, after sysfs_init: /sys/kernel/mm/transparent_hugepage. */
void thp_sysfs_init(void);

/* The huge zero page's pfn range [huge_zero_pfn, +HPAGE_PMD_NR), or
 * ~0UL while there is none. */
extern unsigned long huge_zero_pfn;
static inline bool is_huge_zero_pmd(pmd_t pmd)
{
	return pmd_leaf(pmd) &&
	       ((pmd_val(pmd) & PTE_PFN_MASK) >> PAGE_SHIFT) ==
	       READ_ONCE(huge_zero_pfn);
}
/* The (head) page a huge PMD maps (Linux's pmd_page). */
static inline struct page *pmd_page(pmd_t pmd)
{
	return pfn_to_page((pmd_val(pmd) & PTE_PFN_MASK) >> PAGE_SHIFT);
}
static inline bool is_huge_zero_pfn(unsigned long pfn)
{
	unsigned long z = READ_ONCE(huge_zero_pfn);

	return z != ~0UL && pfn - z < HPAGE_PMD_NR;
}
/* The references held on the huge zero page, 1 its own (0: none). */
int huge_zero_refcount(void);
/* persistent pinned it (at boot or a switch): it is never freed. */
bool huge_zero_page_pinned(void);
/* The shrinker's step: frees the huge zero page if nothing but its own
 * reference holds it (never once pinned). true if it freed it. Takes
 * huge_zero_lock; no other lock needed. */
bool shrink_huge_zero_page(void);
/* mm goes (exit_mmap): drops its per-mm reference, if it took one. */
void mm_put_huge_zero_page(struct mm_struct *mm);

/* fork's dup_mmap, after copy_page_range: vma's huge PMDs from src into
 * dst, shared write-protected (Linux's copy_huge_pmd, each). 0 or
 * -ENOMEM; both mmap_locks held for writing. */
int copy_huge_pmds(struct mm_struct *dst, struct mm_struct *src,
		   struct vm_area_struct *vma);

/* Does mm's VMA allow THP at all (policy, VM_(NO)HUGEPAGE, prctl, kind)?
 * Linux's hugepage_vma_check; smaps' THPeligible. */
bool thp_vma_allowable(struct vm_area_struct *vma);
/* smaps' THPeligible: allowable, no userfaultfd (whose ranges zpk keeps
 * at 4 KiB), and a whole aligned 2 MiB inside (Linux's
 * transhuge_vma_suitable at vm_end - 2 MiB). */
bool thp_vma_eligible(struct vm_area_struct *vma);

#endif
