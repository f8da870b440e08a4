/* fs/proc/task_mmu.c — /proc/PID/maps, smaps, smaps_rollup, pagemap and
 * clear_refs, as Linux 6.x's fs/proc/task_mmu.c lays them out. */
#include <asm/tlbflush.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/swapops.h>
#include <zpk/zero_page.h>
#include "internal.h"

#define PSS_SHIFT	12	/* Linux's fixed-point Pss */

/* Linux's seq_setwidth(25 + sizeof(void *) * 6 - 1): names start at 74. */
#define MAPS_NAME_COLUMN	72

static void show_vma_header_prefix(struct seq_file *m, unsigned long start,
				   unsigned long end, unsigned long flags,
				   unsigned long long pgoff, u32 dev,
				   unsigned long ino)
{
	seq_setwidth(m, MAPS_NAME_COLUMN);
	seq_printf(m, "%08lx-%08lx %c%c%c%c %08llx %02x:%02x %lu ", start, end,
		   flags & VM_READ ? 'r' : '-', flags & VM_WRITE ? 'w' : '-',
		   flags & VM_EXEC ? 'x' : '-',
		   flags & VM_MAYSHARE ? 's' : 'p', pgoff,
		   (dev >> 8) & 0xfff, dev & 0xff, ino);
}

static bool is_stack(const struct vm_area_struct *vma)
{
	unsigned long sp = vma->vm_mm->start_stack;

	return vma->vm_start <= sp && vma->vm_end >= sp;
}

/* Linux's show_map_vma: the header, then a file's path, [heap], [stack]. */
static void show_map_vma(struct seq_file *m, struct vm_area_struct *vma)
{
	struct mm_struct *mm = vma->vm_mm;
	struct inode *inode = vma->vm_file ? vma->vm_file->f_inode : NULL;
	const char *name = NULL;
	char path[256];

	show_vma_header_prefix(m, vma->vm_start, vma->vm_end, vma->vm_flags,
			       inode ? (u64)vma->vm_pgoff << PAGE_SHIFT : 0,
			       inode ? inode->i_sb->s_dev : 0,
			       inode ? inode->i_ino : 0);
	if (inode) {
		if (d_path(inode, path, sizeof(path)) > 0)
			name = path;
	} else if (vma->vm_start <= mm->brk && vma->vm_end >= mm->start_brk) {
		name = "[heap]";
	} else if (is_stack(vma)) {
		name = "[stack]";
	}
	if (name) {
		seq_pad(m, ' ');
		seq_puts(m, name);
	}
	seq_putc(m, '\n');
}

/*
 * The task's mm, held (mm_users) and its mmap_lock taken for reading, as
 * Linux's proc_mem_open + mmap_read_lock: munmap and mprotect run
 * without the big kernel lock, so the VMA list and page tables are only
 * stable under the mmap_lock. NULL once the task dropped its mm.
 */
static struct mm_struct *proc_mm_lock(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	if (!mm || !mmget_not_zero(mm))
		return NULL;
	mmap_read_lock(mm);
	return mm;
}

static void proc_mm_unlock(struct mm_struct *mm)
{
	mmap_read_unlock(mm);
	mmput(mm);
}

int proc_pid_maps(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = proc_mm_lock(task);
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list)
		show_map_vma(m, vma);
	proc_mm_unlock(mm);
	return 0;
}

/* ---- smaps ------------------------------------------------------------ */

struct mem_size_stats {
	struct vm_area_struct *vma;
	unsigned long resident, shared_clean, shared_dirty;
	unsigned long private_clean, private_dirty, referenced, anonymous;
	unsigned long zero;		/* zpk: zero-page PTEs, bytes */
	unsigned long anonymous_thp;	/* anon mapped by huge PMDs */
	unsigned long swap;		/* swap PTEs, bytes */
	u64 pss, pss_dirty, pss_anon, pss_file, pss_locked, swap_pss;
};

static void smaps_page_accumulate(struct mem_size_stats *mss,
				  struct page *page, u64 pss, bool dirty,
				  bool private)
{
	mss->pss += pss;
	if (PageAnon(page))
		mss->pss_anon += pss;
	else
		mss->pss_file += pss;
	if (mss->vma->vm_flags & VM_LOCKED)
		mss->pss_locked += pss;
	if (dirty) {
		mss->pss_dirty += pss;
		if (private)
			mss->private_dirty += PAGE_SIZE;
		else
			mss->shared_dirty += PAGE_SIZE;
	} else if (private) {
		mss->private_clean += PAGE_SIZE;
	} else {
		mss->shared_clean += PAGE_SIZE;
	}
}

/* A swap PTE: Swap, and SwapPss shared among the slot's users (the
 * swap cache's reference is not one). */
static void smaps_swap(struct mem_size_stats *mss, swp_entry_t entry)
{
	int users = swp_swapcount(entry) - swap_cache_has(entry);

	mss->swap += PAGE_SIZE;
	mss->swap_pss += ((u64)PAGE_SIZE << PSS_SHIFT) / (users > 1 ? users : 1);
}

/* One PTE, as Linux's smaps_pte_entry and smaps_account. */
static int smaps_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct mem_size_stats *mss = priv;
	struct page *page = vm_normal_page(mss->vma, addr, *pte);
	bool dirty = pte_dirty(*pte);
	int mapcount;
	u64 pss = (u64)PAGE_SIZE << PSS_SHIFT;

	if (is_swap_pte(*pte)) {
		smaps_swap(mss, pte_to_swp_entry(*pte));
		return 0;
	}
	if (!page) {
		if (!pte_present(*pte) || !is_zero_pfn(pte_pfn(*pte)))
			return 0;
		mss->zero += PAGE_SIZE;
		if (pte_special(*pte))
			return 0;
		/* zero_page=refcount: a normal, shared page, as 2.6.23 showed
		 * it (and as VmRSS counts it, in RssFile). */
		page = ZERO_PAGE(addr);
	}
	if (PageAnon(page))
		mss->anonymous += PAGE_SIZE;
	if (PageAnon(page) && pte_pmd_mapped(*pte))
		mss->anonymous_thp += PAGE_SIZE;
	mss->resident += PAGE_SIZE;
	if (pte_young(*pte) || page_test_flag(page, PG_referenced))
		mss->referenced += PAGE_SIZE;
	dirty = dirty || page_test_flag(page, PG_dirty);
	if (page_count(page) == 1) {
		smaps_page_accumulate(mss, page, pss, dirty, true);
		return 0;
	}
	mapcount = page_mapcount(page);
	if (mapcount >= 2)
		pss /= mapcount;
	smaps_page_accumulate(mss, page, pss, dirty, mapcount < 2);
	return 0;
}

static void smap_gather_stats(struct vm_area_struct *vma,
			      struct mem_size_stats *mss)
{
	mss->vma = vma;
	walk_page_range_nosplit(vma->vm_mm, vma->vm_start, vma->vm_end,
				smaps_pte, mss);
}

/* "Name:" padded to 16 columns, then %8lu kB: Linux's SEQ_PUT_DEC. */
static void put_smap(struct seq_file *m, const char *name, u64 bytes)
{
	seq_printf(m, "%-16s%8llu kB\n", name, (unsigned long long)bytes >> 10);
}

static void show_smap_common(struct seq_file *m,
			     const struct mem_size_stats *mss, bool rollup)
{
	put_smap(m, "Rss:", mss->resident);
	put_smap(m, "Pss:", mss->pss >> PSS_SHIFT);
	put_smap(m, "Pss_Dirty:", mss->pss_dirty >> PSS_SHIFT);
	if (rollup) {
		put_smap(m, "Pss_Anon:", mss->pss_anon >> PSS_SHIFT);
		put_smap(m, "Pss_File:", mss->pss_file >> PSS_SHIFT);
		put_smap(m, "Pss_Shmem:", 0);
	}
	put_smap(m, "Shared_Clean:", mss->shared_clean);
	put_smap(m, "Shared_Dirty:", mss->shared_dirty);
	put_smap(m, "Private_Clean:", mss->private_clean);
	put_smap(m, "Private_Dirty:", mss->private_dirty);
	put_smap(m, "Referenced:", mss->referenced);
	put_smap(m, "Anonymous:", mss->anonymous);
	put_smap(m, "LazyFree:", 0);
	put_smap(m, "AnonHugePages:", mss->anonymous_thp);
	put_smap(m, "ShmemPmdMapped:", 0);
	put_smap(m, "FilePmdMapped:", 0);
	put_smap(m, "Shared_Hugetlb:", 0);
	seq_printf(m, "Private_Hugetlb: %7u kB\n", 0);	/* Linux's width */
	put_smap(m, "Swap:", mss->swap);
	put_smap(m, "SwapPss:", mss->swap_pss >> PSS_SHIFT);
	put_smap(m, "Locked:", mss->pss_locked >> PSS_SHIFT);
}

static void show_smap_vma_flags(struct seq_file *m, unsigned long flags)
{
	static const struct { unsigned long bit; const char *name; } mn[] = {
		{ VM_READ, "rd" }, { VM_WRITE, "wr" }, { VM_EXEC, "ex" },
		{ VM_SHARED, "sh" }, { VM_MAYREAD, "mr" },
		{ VM_MAYWRITE, "mw" }, { VM_MAYEXEC, "me" },
		{ VM_MAYSHARE, "ms" }, { VM_GROWSDOWN, "gd" },
		{ VM_UFFD_MISSING, "um" }, { VM_UFFD_WP, "uw" },
		{ VM_LOCKED, "lo" }, { VM_DONTCOPY, "dc" },
		{ VM_NORESERVE, "nr" },
		{ VM_WIPEONFORK, "wf" }, { VM_SOFTDIRTY, "sd" },
		{ VM_HUGEPAGE, "hg" }, { VM_NOHUGEPAGE, "nh" },
		{ VM_UFFD_MINOR, "ui" },
	};

	seq_puts(m, "VmFlags: ");
	for (size_t i = 0; i < sizeof(mn) / sizeof(mn[0]); i++)
		if (flags & mn[i].bit)
			seq_printf(m, "%s ", mn[i].name);
	seq_putc(m, '\n');
}

int proc_pid_smaps(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = proc_mm_lock(task);
	struct vm_area_struct *vma;

	if (!mm)
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		struct mem_size_stats mss = { 0 };

		smap_gather_stats(vma, &mss);
		show_map_vma(m, vma);
		put_smap(m, "Size:", vma->vm_end - vma->vm_start);
		put_smap(m, "KernelPageSize:", PAGE_SIZE);
		put_smap(m, "MMUPageSize:", PAGE_SIZE);
		show_smap_common(m, &mss, false);
		seq_printf(m, "THPeligible:    %8u\n", thp_vma_eligible(vma));
		put_smap(m, "ZeroPages:", mss.zero);
		show_smap_vma_flags(m, vma->vm_flags);
	}
	proc_mm_unlock(mm);
	return 0;
}

/* Every VMA summed; the header spans first start to last end. */
int proc_pid_smaps_rollup(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = proc_mm_lock(task);
	struct mem_size_stats mss = { 0 };
	struct vm_area_struct *vma;
	unsigned long start = 0, end = 0;

	if (!mm)
		return -ESRCH;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (!start)
			start = vma->vm_start;
		end = vma->vm_end;
		smap_gather_stats(vma, &mss);
	}
	proc_mm_unlock(mm);
	show_vma_header_prefix(m, start, end, 0, 0, 0, 0);
	seq_pad(m, ' ');
	seq_puts(m, "[rollup]\n");
	show_smap_common(m, &mss, true);
	put_smap(m, "ZeroPages:", mss.zero);
	return 0;
}

/* ---- clear_refs ------------------------------------------------------- */

/* What a write to clear_refs asks (Linux's enum clear_refs_types). */
enum clear_refs_types {
	CLEAR_REFS_ALL = 1,		/* referenced bits of every page */
	CLEAR_REFS_ANON,		/* ... of anonymous VMAs' pages */
	CLEAR_REFS_MAPPED,		/* ... of file VMAs' pages */
	CLEAR_REFS_SOFT_DIRTY,		/* soft-dirty bits */
	CLEAR_REFS_MM_HIWATER_RSS,	/* VmHWM back to VmRSS */
	CLEAR_REFS_LAST,
};

struct clear_refs_walk {
	struct vm_area_struct *vma;
	int type;
};

/*
 * One present PTE (a walk_page_range fn). Soft-dirty: the bit goes and so
 * does write permission, so that the next write faults and sets it again
 * (Linux's clear_soft_dirty); a zero-page PTE is read-only already. Else
 * a normal page is made old and unreferenced, as Linux, with no flush:
 * a stale TLB entry only delays the next accessed bit.
 */
static int clear_refs_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct clear_refs_walk *cw = priv;
	struct page *page;

	if (!pte_present(*pte))
		return 0;
	if (cw->type == CLEAR_REFS_SOFT_DIRTY) {
		pte_t old = ptep_modify_prot_start(pte);

		ptep_modify_prot_commit(pte,
					pte_clear_soft_dirty(pte_wrprotect(old)));
		return 0;
	}
	page = vm_normal_page(cw->vma, addr, *pte);
	if (!page)
		return 0;
	ptep_test_and_clear_young(pte);
	page_clear_flag(page, PG_referenced);
	return 0;
}

/* Types 1 to 4 over mm's VMAs (2: anonymous only, 3: file only); 4 also
 * takes VM_SOFTDIRTY off every VMA, so that its PTEs alone tell, and
 * flushes the write permissions it took. mmap_lock held: for writing
 * for 4 (the VMA flags), as Linux's clear_refs_write. */
static void clear_refs_mm(struct mm_struct *mm, int type)
{
	struct clear_refs_walk cw = { .type = type };
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if ((type == CLEAR_REFS_ANON && vma->vm_file) ||
		    (type == CLEAR_REFS_MAPPED && !vma->vm_file))
			continue;
		if (type == CLEAR_REFS_SOFT_DIRTY)
			vma->vm_flags &= ~VM_SOFTDIRTY;
		cw.vma = vma;
		walk_page_range(mm, vma->vm_start, vma->vm_end, clear_refs_pte,
				&cw);
	}
	if (type == CLEAR_REFS_SOFT_DIRTY)
		flush_tlb_mm(mm);
}

/* Linux's clear_refs_write: a decimal type 1-5 in at most 12 bytes,
 * blanks around it; -EINVAL outside 1-5. A task without an mm (a
 * zombie) takes it and nothing happens. */
ssize_t proc_pid_clear_refs_write(struct task_struct *task, const char *buf,
				  size_t n, loff_t pos)
{
	struct mm_struct *mm;
	char num[PROC_NUMBUF];
	long type;
	int err;

	(void)pos;
	n = min(n, sizeof(num) - 1);
	memcpy(num, buf, n);
	num[n] = 0;
	err = kstrtol(strstrip(num), 10, &type);
	if (err)
		return err;
	if (type != (int)type)
		return -ERANGE;		/* Linux's kstrtoint */
	if (type < CLEAR_REFS_ALL || type >= CLEAR_REFS_LAST)
		return -EINVAL;
	mm = task->mm;
	if (!mm || !mmget_not_zero(mm))
		return (ssize_t)n;
	if (type == CLEAR_REFS_SOFT_DIRTY)
		mmap_write_lock(mm);
	else
		mmap_read_lock(mm);
	if (type == CLEAR_REFS_MM_HIWATER_RSS)
		reset_mm_hiwater_rss(mm);
	else
		clear_refs_mm(mm, (int)type);
	if (type == CLEAR_REFS_SOFT_DIRTY)
		mmap_write_unlock(mm);
	else
		mmap_read_unlock(mm);
	mmput(mm);
	return (ssize_t)n;
}

/* ---- pagemap ---------------------------------------------------------- */

#define PM_ENTRY_BYTES		8
#define PM_PFRAME_MASK		((1ULL << 55) - 1)
#define PM_SOFT_DIRTY		(1ULL << 55)
#define PM_MMAP_EXCLUSIVE	(1ULL << 56)
#define PM_UFFD_WP		(1ULL << 57)
#define PM_FILE			(1ULL << 61)
#define PM_SWAP			(1ULL << 62)
/* SWP_PTE_MARKER (31 on x86-64) | PTE_MARKER_UFFD_WP << 5, as Linux. */
#define PM_MARKER_UFFD_WP	(31ULL | 1ULL << 5)
#define PM_PRESENT		(1ULL << 63)

struct pagemap_walk {
	u64 *out;
	unsigned long start;
	u64 vma_flags;		/* PM_SOFT_DIRTY for a VM_SOFTDIRTY VMA */
};

static int pagemap_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct pagemap_walk *pm = priv;
	struct page *page;
	u64 e;

	/* A slot: its type in bits 0-4, its offset above (Linux's
	 * MAX_SWAPFILES_SHIFT), PM_SWAP. */
	if (is_swap_pte(*pte)) {
		swp_entry_t entry = pte_to_swp_entry(*pte);

		pm->out[(addr - pm->start) >> PAGE_SHIFT] = PM_SWAP |
			((swp_type(entry) | (u64)swp_offset(entry) <<
			  SWP_TYPE_BITS) & PM_PFRAME_MASK) | pm->vma_flags;
		return 0;
	}
	/* A uffd-wp marker, which Linux shows as a swap entry,
	 * PM_MARKER_UFFD_WP its swap type and offset. */
	if (!pte_present(*pte)) {
		if (pte_marker_uffd_wp(*pte))
			pm->out[(addr - pm->start) >> PAGE_SHIFT] =
				PM_SWAP | PM_UFFD_WP | PM_MARKER_UFFD_WP |
				pm->vma_flags;
		return 0;
	}
	e = PM_PRESENT | (pte_pfn(*pte) & PM_PFRAME_MASK) | pm->vma_flags;
	/* The huge zero page's walk copy maps the small one: its own pfn. */
	if (pte_pmd_mapped(*pte) && is_zero_pfn(pte_pfn(*pte)))
		e = PM_PRESENT | pm->vma_flags | ((READ_ONCE(huge_zero_pfn) +
		    ((addr & ~HPAGE_PMD_MASK) >> PAGE_SHIFT)) & PM_PFRAME_MASK);
	if (pte_soft_dirty(*pte))
		e |= PM_SOFT_DIRTY;
	if (pte_uffd_wp(*pte))
		e |= PM_UFFD_WP;
	page = vm_normal_page(NULL, addr, *pte);
	if (page && !PageAnon(page))
		e |= PM_FILE;
	if (page && page_mapcount(page) == 1)
		e |= PM_MMAP_EXCLUSIVE;
	pm->out[(addr - pm->start) >> PAGE_SHIFT] = e;
	return 0;
}

/* The entries of [start, end) in vma: a VM_SOFTDIRTY VMA is soft-dirty
 * everywhere, its holes too (Linux's pagemap_pte_hole), then each PTE. */
static void pagemap_vma(struct mm_struct *mm, struct vm_area_struct *vma,
			struct pagemap_walk *pm, unsigned long end)
{
	unsigned long start = max(pm->start, vma->vm_start);

	end = min(end, vma->vm_end);
	pm->vma_flags = vma->vm_flags & VM_SOFTDIRTY ? PM_SOFT_DIRTY : 0;
	for (unsigned long a = start; a < end; a += PAGE_SIZE)
		pm->out[(a - pm->start) >> PAGE_SHIFT] = pm->vma_flags;
	walk_page_range_nosplit(mm, start, end, pagemap_pte, pm);
}

/* One u64 per virtual page from pos / 8 on; only those asked for are
 * computed. Offsets and sizes not multiples of 8 are -EINVAL, as Linux. */
ssize_t proc_pid_pagemap(struct mm_struct *mm, char *buf, size_t n,
			 loff_t pos)
{
	unsigned long vpn = (unsigned long)pos / PM_ENTRY_BYTES;
	struct pagemap_walk pm = { (u64 *)buf, vpn << PAGE_SHIFT, 0 };
	unsigned long nr = n / PM_ENTRY_BYTES, end;
	struct vm_area_struct *vma;

	if (pos < 0 || pos % PM_ENTRY_BYTES || n % PM_ENTRY_BYTES)
		return -EINVAL;
	if (vpn >= TASK_SIZE >> PAGE_SHIFT)
		return 0;
	nr = min(nr, (TASK_SIZE >> PAGE_SHIFT) - vpn);
	end = pm.start + (nr << PAGE_SHIFT);
	memset(buf, 0, nr * PM_ENTRY_BYTES);
	mmap_read_lock(mm);	/* munmap frees page tables under it */
	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (vma->vm_end > pm.start && vma->vm_start < end)
			pagemap_vma(mm, vma, &pm, end);
	mmap_read_unlock(mm);
	return nr * PM_ENTRY_BYTES;
}
