/* asm/pgtable.h — x86-64 four-level page tables: entry types, bits, and the
 * one family of helpers (Linux's names) every page-table user goes through. */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <asm/page.h>

/*
 * A 48-bit virtual address picks one entry at each level:
 *   47..39 pgd | 38..30 pud | 29..21 pmd | 20..12 pte | 11..0 offset
 * Each table is one 4 KiB page of 512 eight-byte entries.
 */
#define PGDIR_SHIFT	39
#define PUD_SHIFT	30
#define PMD_SHIFT	21
#define PTRS_PER_TABLE	512
#define PUD_SIZE	(1UL << PUD_SHIFT)
#define PMD_SIZE	(1UL << PMD_SHIFT)
#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)

typedef struct { u64 pgd; } pgd_t;
typedef struct { u64 pud; } pud_t;
typedef struct { u64 pmd; } pmd_t;
typedef struct { u64 pte; } pte_t;
typedef struct { u64 pgprot; } pgprot_t;

#define pgd_val(x)	((x).pgd)
#define pud_val(x)	((x).pud)
#define pmd_val(x)	((x).pmd)
#define pte_val(x)	((x).pte)
#define pgprot_val(x)	((x).pgprot)
#define __pgd(x)	((pgd_t){ (x) })
#define __pud(x)	((pud_t){ (x) })
#define __pmd(x)	((pmd_t){ (x) })
#define __pte(x)	((pte_t){ (x) })
#define __pgprot(x)	((pgprot_t){ (x) })

/* Entry bits; bits 9-11 are free for software: Linux x86 calls 9 SPECIAL
 * and 11 SOFT_DIRTY. */
#define _PAGE_PRESENT	(1ULL << 0)
#define _PAGE_RW	(1ULL << 1)
#define _PAGE_USER	(1ULL << 2)
#define _PAGE_PWT	(1ULL << 3)
#define _PAGE_PCD	(1ULL << 4)
#define _PAGE_ACCESSED	(1ULL << 5)
#define _PAGE_DIRTY	(1ULL << 6)
#define _PAGE_PSE	(1ULL << 7)	/* pud/pmd: 1 GiB / 2 MiB page */
#define _PAGE_GLOBAL	(1ULL << 8)
#define _PAGE_SPECIAL	(1ULL << 9)	/* no struct page behind it */
#define _PAGE_SOFT_DIRTY (1ULL << 11)	/* written since clear_refs (docs/vm.md) */
#define _PAGE_UFFD_WP	(1ULL << 10)	/* userfaultfd write-protected */
#define _PAGE_NX	(1ULL << 63)
/* PROT_NONE (Linux's _PAGE_PROTNONE): a user PTE with P clear, so that
 * every access faults, kernel uaccess included, yet still mapping its
 * page. Bit 8 is free there: the CPU ignores G when P is clear. */
#define _PAGE_PROTNONE	_PAGE_GLOBAL
#define PTE_PFN_MASK	0x000ffffffffff000ULL

#define _PAGE_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED)
#define _KERNPG_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED)

#define PAGE_KERNEL	__pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | \
				 _PAGE_DIRTY | _PAGE_GLOBAL | _PAGE_NX)
/* Device registers: cache disabled, write-through (PCD | PWT). */
#define PAGE_KERNEL_NOCACHE __pgprot(pgprot_val(PAGE_KERNEL) | _PAGE_PCD | \
				     _PAGE_PWT)
#define PAGE_KERNEL_RO	__pgprot(_PAGE_PRESENT | _PAGE_ACCESSED | \
				 _PAGE_GLOBAL | _PAGE_NX)
#define PAGE_KERNEL_EXEC __pgprot(_PAGE_PRESENT | _PAGE_ACCESSED | \
				  _PAGE_GLOBAL)		/* read-only text */

static inline unsigned long pgd_index(unsigned long a)
{
	return (a >> PGDIR_SHIFT) & (PTRS_PER_TABLE - 1);
}
static inline unsigned long pud_index(unsigned long a)
{
	return (a >> PUD_SHIFT) & (PTRS_PER_TABLE - 1);
}
static inline unsigned long pmd_index(unsigned long a)
{
	return (a >> PMD_SHIFT) & (PTRS_PER_TABLE - 1);
}
static inline unsigned long pte_index(unsigned long a)
{
	return (a >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1);
}

/* Upper levels: present, a leaf (huge page), and the next table down. */
static inline bool pgd_none(pgd_t e) { return !(pgd_val(e) & _PAGE_PRESENT); }
static inline bool pud_none(pud_t e) { return !(pud_val(e) & _PAGE_PRESENT); }
static inline bool pmd_none(pmd_t e) { return !(pmd_val(e) & _PAGE_PRESENT); }
static inline bool pud_leaf(pud_t e) { return pud_val(e) & _PAGE_PSE; }
static inline bool pmd_leaf(pmd_t e) { return pmd_val(e) & _PAGE_PSE; }
/* A huge zero PMD that holds no reference of its own (huge_zero_page=
 * per-mm or persistent), as a special zero PTE holds none. */
static inline bool pmd_special(pmd_t e) { return pmd_val(e) & _PAGE_SPECIAL; }
static inline pmd_t pmd_mkspecial(pmd_t e)
{
	return __pmd(pmd_val(e) | _PAGE_SPECIAL);
}
static inline pmd_t pmd_clear_special(pmd_t e)
{
	return __pmd(pmd_val(e) & ~_PAGE_SPECIAL);
}

static inline pgd_t *pgd_offset_pgd(pgd_t *pgd, unsigned long a)
{
	return pgd + pgd_index(a);
}
/* Linux's spellings: an mm's table, and the kernel's (init_pgd). */
#define pgd_offset(mm, a)	pgd_offset_pgd((pgd_t *)(mm)->pgd, (a))
#define pgd_offset_k(a)		pgd_offset_pgd(init_pgd, (a))

static inline pud_t *pud_offset(pgd_t *pgd, unsigned long a)
{
	return (pud_t *)__va(pgd_val(*pgd) & PTE_PFN_MASK) + pud_index(a);
}
static inline pmd_t *pmd_offset(pud_t *pud, unsigned long a)
{
	return (pmd_t *)__va(pud_val(*pud) & PTE_PFN_MASK) + pmd_index(a);
}
static inline pte_t *pte_offset_kernel(pmd_t *pmd, unsigned long a)
{
	return (pte_t *)__va(pmd_val(*pmd) & PTE_PFN_MASK) + pte_index(a);
}

/* PTE predicates. */
static inline bool pte_none(pte_t p) { return !pte_val(p); }
/* Maps a page, to the hardware or (PROT_NONE) only to the kernel's
 * walkers; pte_protnone: mapped, but every access faults. */
static inline bool pte_present(pte_t p)
{
	return pte_val(p) & (_PAGE_PRESENT | _PAGE_PROTNONE);
}
static inline bool pte_protnone(pte_t p)
{
	return (pte_val(p) & (_PAGE_PRESENT | _PAGE_PROTNONE)) ==
	       _PAGE_PROTNONE;
}
static inline bool pte_write(pte_t p) { return pte_val(p) & _PAGE_RW; }
static inline bool pte_user(pte_t p) { return pte_val(p) & _PAGE_USER; }
static inline bool pte_dirty(pte_t p) { return pte_val(p) & _PAGE_DIRTY; }
static inline bool pte_young(pte_t p) { return pte_val(p) & _PAGE_ACCESSED; }
static inline bool pte_special(pte_t p) { return pte_val(p) & _PAGE_SPECIAL; }
static inline bool pte_soft_dirty(pte_t p)
{
	return pte_val(p) & _PAGE_SOFT_DIRTY;
}
static inline bool pte_exec(pte_t p) { return !(pte_val(p) & _PAGE_NX); }
static inline bool pte_uffd_wp(pte_t p) { return pte_val(p) & _PAGE_UFFD_WP; }

/* PTE modifiers: each returns a new value; set_pte() installs it. */
static inline pte_t pte_set_flags(pte_t p, u64 f) { return __pte(pte_val(p) | f); }
static inline pte_t pte_clear_flags(pte_t p, u64 f) { return __pte(pte_val(p) & ~f); }
static inline pte_t pte_mkwrite(pte_t p) { return pte_set_flags(p, _PAGE_RW); }
static inline pte_t pte_wrprotect(pte_t p) { return pte_clear_flags(p, _PAGE_RW); }
/* Written: soft-dirty too, as x86 Linux's pte_mkdirty. */
static inline pte_t pte_mkdirty(pte_t p)
{
	return pte_set_flags(p, _PAGE_DIRTY | _PAGE_SOFT_DIRTY);
}
static inline pte_t pte_mkclean(pte_t p) { return pte_clear_flags(p, _PAGE_DIRTY); }
static inline pte_t pte_mkyoung(pte_t p) { return pte_set_flags(p, _PAGE_ACCESSED); }
static inline pte_t pte_mkold(pte_t p) { return pte_clear_flags(p, _PAGE_ACCESSED); }
static inline pte_t pte_mkspecial(pte_t p) { return pte_set_flags(p, _PAGE_SPECIAL); }
static inline pte_t pte_mkexec(pte_t p) { return pte_clear_flags(p, _PAGE_NX); }
static inline pte_t pte_mksoft_dirty(pte_t p)
{
	return pte_set_flags(p, _PAGE_SOFT_DIRTY);
}
static inline pte_t pte_clear_soft_dirty(pte_t p)
{
	return pte_clear_flags(p, _PAGE_SOFT_DIRTY);
}
/* userfaultfd-wp: a write faults to the uffd's reader, so never RW. */
static inline pte_t pte_mkuffd_wp(pte_t p)
{
	return pte_wrprotect(pte_set_flags(p, _PAGE_UFFD_WP));
}
static inline pte_t pte_clear_uffd_wp(pte_t p)
{
	return pte_clear_flags(p, _PAGE_UFFD_WP);
}

/*
 * A PTE marker (Linux's PTE_MARKER_UFFD_WP): not present, maps nothing,
 * and remembers that a shared file page zapped from here was
 * write-protected, so that the page comes back protected when it
 * faults in again. It is the uffd-wp bit alone.
 */
static inline pte_t make_pte_marker_uffd_wp(void)
{
	return __pte(_PAGE_UFFD_WP);
}
static inline bool pte_marker_uffd_wp(pte_t p)
{
	return pte_val(p) == _PAGE_UFFD_WP;
}
/* None, or only a marker: no page is mapped (Linux's pte_none_mostly). */
static inline bool pte_none_mostly(pte_t p)
{
	return pte_none(p) || pte_marker_uffd_wp(p);
}

/* The PTE a fault read before it dropped the lock is still there. */
static inline bool pte_same(pte_t a, pte_t b)
{
	return pte_val(a) == pte_val(b);
}

static inline unsigned long pte_pfn(pte_t p)
{
	return (pte_val(p) & PTE_PFN_MASK) >> PAGE_SHIFT;
}
static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte(((u64)pfn << PAGE_SHIFT & PTE_PFN_MASK) |
		     pgprot_val(prot));
}
static inline pgprot_t pte_pgprot(pte_t p)
{
	return __pgprot(pte_val(p) & ~PTE_PFN_MASK);
}

static inline void set_pte(pte_t *ptep, pte_t p) { *(volatile u64 *)&ptep->pte = pte_val(p); }
static inline void set_pmd(pmd_t *pmdp, pmd_t p) { *(volatile u64 *)&pmdp->pmd = pmd_val(p); }
static inline void set_pud(pud_t *pudp, pud_t p) { *(volatile u64 *)&pudp->pud = pud_val(p); }
static inline void set_pgd(pgd_t *pgdp, pgd_t p) { *(volatile u64 *)&pgdp->pgd = pgd_val(p); }
static inline void pte_clear(pte_t *ptep) { set_pte(ptep, __pte(0)); }

/*
 * Changes to a present PTE that another CPU's MMU may be using: it sets
 * Accessed and Dirty with locked cycles of its own, so these are atomic
 * too, or a bit it sets between a read and a write here is lost (Linux's
 * x86 ptep_* helpers). The PTE lock, held by every caller, keeps other
 * CPUs' software out, not their MMUs.
 */
static inline pte_t ptep_get_and_clear(pte_t *ptep)
{
	return __pte(__atomic_exchange_n(&ptep->pte, 0, __ATOMIC_SEQ_CST));
}
static inline void ptep_set_wrprotect(pte_t *ptep)
{
	__atomic_fetch_and(&ptep->pte, ~_PAGE_RW, __ATOMIC_SEQ_CST);
}
/* Was it accessed since the last call? Now it is old. */
static inline bool ptep_test_and_clear_young(pte_t *ptep)
{
	return __atomic_fetch_and(&ptep->pte, ~_PAGE_ACCESSED,
				  __ATOMIC_SEQ_CST) & _PAGE_ACCESSED;
}
/* The same of a huge PMD (its lock held). */
static inline bool pmdp_test_and_clear_young(pmd_t *pmdp)
{
	return __atomic_fetch_and(&pmdp->pmd, ~_PAGE_ACCESSED,
				  __ATOMIC_SEQ_CST) & _PAGE_ACCESSED;
}
/* A change of several bits: not present in between, so the hardware
 * cannot set a bit in the old entry after start has read it (an access
 * then faults, and waits for the PTE lock). */
static inline pte_t ptep_modify_prot_start(pte_t *ptep)
{
	return ptep_get_and_clear(ptep);
}
static inline void ptep_modify_prot_commit(pte_t *ptep, pte_t p)
{
	set_pte(ptep, p);
}

#ifndef HOST_TEST
static inline void flush_tlb_page(unsigned long addr)
{
	asm volatile("invlpg (%0)" : : "r"(addr) : "memory");
}
void flush_tlb_all(void);
#endif

#endif
