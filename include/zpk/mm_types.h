/* zpk/mm_types.h — struct page, one per physical frame, in the mem_map array.
 * Field names and meanings follow Linux's include/linux/mm_types.h. */
#ifndef ZPK_MM_TYPES_H
#define ZPK_MM_TYPES_H

#include <zpk/atomic.h>
#include <zpk/cpumask.h>
#include <zpk/list.h>
#include <zpk/mempolicy.h>
#include <zpk/rbtree.h>
#include <zpk/rwsem.h>
#include <zpk/spinlock.h>
#include <zpk/types.h>

/* page->flags bits */
enum pageflags {
	PG_reserved,	/* not managed by the buddy allocator */
	PG_buddy,	/* free, head of a buddy block of page->order */
	PG_slab,	/* owned by a kmem_cache */
	PG_zero,	/* the shared zero page */
	PG_anon,	/* mapped as private anonymous memory */
	PG_pgtable,	/* a page-table page */
	PG_locked,
	PG_dirty,
	PG_referenced,
	PG_poisoned,	/* free, filled with PAGE_POISON: checked on alloc */
	PG_swapbacked,	/* shared anonymous (shmem) memory: MM_SHMEMPAGES */
	PG_pcp,		/* free, first page of a block on a CPU's list */
	PG_anon_exclusive,	/* anon, mapped by one mm only and held by no
				 * one else: a write may reuse it */
	PG_head,	/* first page of a compound page (a THP) */
	PG_swapcache,	/* anon, in the swap cache: index is its slot */
	NR_PAGEFLAGS
};

struct kmem_cache;

/* The counts change on several CPUs at once: atomics, as Linux's. */
struct page {
	unsigned long flags;	/* 1UL << PG_*; set and cleared atomically */
	atomic_t _refcount;	/* users of the page; last put_page frees it */
	atomic_t _mapcount;	/* PTEs mapping it, minus one: -1 = unmapped */
	unsigned int order;	/* buddy order while PG_buddy; a block's
				 * order on its first page while allocated */
	/* PG_head: the PMDs mapping the compound page (Linux 6.1 keeps it
	 * minus one, in the first tail: compound_mapcount). Each subpage's
	 * own _mapcount counts the PTEs mapping that 4 KiB. */
	atomic_t compound_mapcount;
	union {
		/* buddy free list, per-CPU list, slab list, or (a PMD
		 * table's) the PTE tables deposited for its huge PMDs */
		struct list_head lru;
		/* a tail page of a compound page: its head's address | 1
		 * (Linux's compound_head, also the first word of lru: a
		 * list pointer never has bit 0 set) */
		unsigned long compound_head;
	};
	union {
		struct {	/* PG_slab */
			struct kmem_cache *slab_cache;
			void *freelist;
			unsigned int inuse;
			int slab_cpu;	/* the CPU it belongs to: its
					 * kmem_cache_cpu holds it */
		};
		struct {	/* mapped pages; PG_swapcache: index is
				 * the swp_entry_t (Linux's page->private) */
			/* a file's page: its inode while the file
			 * holds it; PG_swapcache: the next page in the
			 * swap cache's hash chain */
			void *mapping;
			unsigned long index;
		};
		/* PG_pgtable at the PTE level: the lock of the PTEs in this
		 * page (Linux's split PTE lock, page->ptl): their values, and
		 * the pages, counters and rmap they stand for while a fault,
		 * zap, mprotect, fork or gup changes or follows one. Taken
		 * inside the mmap_lock (and the big kernel lock), one table's
		 * at a time (fork: the parent's; the child's is private);
		 * mm->page_table_lock, a slab cache's lock and zone_lock nest
		 * inside it. docs/smp.md. */
		spinlock_t ptl;
	};
};

static inline bool page_test_flag(const struct page *p, enum pageflags f)
{
	return test_bit(f, &p->flags);
}

/* A tail page of a compound page? (Linux's PageTail.) */
static inline bool PageTail(const struct page *p)
{
	return READ_ONCE(p->compound_head) & 1;
}

/* The head of p's compound page, or p itself (Linux's compound_head). */
static inline struct page *compound_head(const struct page *p)
{
	unsigned long head = READ_ONCE(p->compound_head);

	return (struct page *)(head & 1 ? head - 1 : (unsigned long)p);
}
static inline void page_set_flag(struct page *p, enum pageflags f)
{
	set_bit(f, (unsigned long *)&p->flags);
}
static inline void page_clear_flag(struct page *p, enum pageflags f)
{
	clear_bit(f, (unsigned long *)&p->flags);
}

/* Per-mm RSS counters: Linux's names, plus zpk's MM_ZEROPAGES. */
enum {
	MM_FILEPAGES,	/* file pages mapped (and refcounted zero pages) */
	MM_ANONPAGES,	/* private anonymous pages, COW copies */
	MM_SHMEMPAGES,	/* shared anonymous pages */
	MM_ZEROPAGES,	/* zero-page PTEs: zpk's addition */
	MM_SWAPENTS,	/* swap PTEs (not RSS): VmSwap */
	NR_MM_COUNTERS
};

/* vm_flags: Linux's values. */
/* Words of an auxiliary vector execve builds: 18 pairs, AT_NULL's too. */
#define AT_VECTOR_SIZE	36

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_MAYREAD	0x00000010UL
#define VM_MAYWRITE	0x00000020UL
#define VM_MAYEXEC	0x00000040UL
#define VM_MAYSHARE	0x00000080UL
#define VM_GROWSDOWN	0x00000100UL
#define VM_UFFD_MISSING	0x00000200UL	/* userfaultfd: missing pages */
#define VM_UFFD_WP	0x00001000UL	/* userfaultfd: write protection */
#define VM_LOCKED	0x00002000UL
#define VM_LOCKONFAULT	0x00080000UL	/* mlock2(MLOCK_ONFAULT): not populated */
#define VM_DONTCOPY	0x00020000UL	/* MADV_DONTFORK: not in a fork child */
#define VM_NORESERVE	0x00200000UL	/* MAP_NORESERVE: no overcommit check */
#define VM_WIPEONFORK	0x02000000UL	/* MADV_WIPEONFORK: child gets zeros */
#define VM_SOFTDIRTY	0x08000000UL	/* new since clear_refs: all dirty */
#define VM_HUGEPAGE	0x20000000UL	/* MADV_HUGEPAGE: THP under madvise */
#define VM_NOHUGEPAGE	0x40000000UL	/* MADV_NOHUGEPAGE: never THP */
#define VM_UFFD_MINOR	(1UL << 38)	/* userfaultfd: minor faults */
#define __VM_UFFD_FLAGS	(VM_UFFD_MISSING | VM_UFFD_WP | VM_UFFD_MINOR)

struct mm_struct;
struct file;
struct userfaultfd_ctx;

/* One contiguous range of a process's address space with one protection. */
/* A fault's answer: 0 (the access may run again) or VM_FAULT_* bits
 * (zpk/memory.h). */
typedef unsigned int vm_fault_t;

/* A fault on a VMA with vm_ops, as its ->fault sees it (Linux's). */
struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address;		/* page-aligned */
	unsigned long pgoff;		/* in vma->vm_file, in pages */
	unsigned int flags;		/* FAULT_FLAG_* */
	struct page *page;		/* ->fault's answer */
};

/*
 * What a VMA's memory is, beyond anonymous (Linux's
 * vm_operations_struct): its file's f_op->mmap sets vma->vm_ops. NULL
 * for private anonymous memory, which the fault core serves itself.
 */
struct vm_operations_struct {
	/* The page at vmf->pgoff in vmf->page, with a reference for the
	 * caller (Linux's), taken where the file's own lock keeps truncate
	 * from freeing the page first; page->mapping is the file's inode
	 * while the file holds the page (do_fault checks it). Called by
	 * do_fault with mm's mmap_lock for reading, still held on return,
	 * and no spinlock nor the big kernel lock: it may reclaim. 0, or
	 * VM_FAULT_SIGBUS (beyond EOF) or VM_FAULT_OOM. */
	vm_fault_t (*fault)(struct vm_fault *vmf);
	/* Optional: the VMA goes (munmap, exit), called by remove_vma with
	 * mm's mmap_lock held for writing, before its file's reference is
	 * dropped. */
	void (*close)(struct vm_area_struct *vma);
};

struct vm_area_struct {
	unsigned long vm_start, vm_end;	/* [vm_start, vm_end) */
	unsigned long vm_flags;
	unsigned long vm_pgoff;		/* offset in vm_file, in pages */
	struct file *vm_file;		/* NULL for anonymous memory */
	/* Set by vm_file's f_op->mmap; NULL iff vm_file is. */
	const struct vm_operations_struct *vm_ops;
	struct mempolicy vm_policy;	/* mbind's; MPOL_DEFAULT if none */
	struct mm_struct *vm_mm;
	struct list_head vm_list;	/* in mm->mmap, sorted by address */
	struct rb_node vm_rb;		/* in mm->mm_rb, keyed by vm_start */
	/* The userfaultfd that VM_UFFD_* hand faults to; NULL iff none of
	 * them is set. Not a reference: the uffd's release clears it. */
	struct userfaultfd_ctx *vm_userfaultfd_ctx;
};

/* mm->flags bits (Linux's numbers). MMF_OOM_SKIP: the OOM killer has
 * reaped this mm; it frees nothing more and is never chosen again. */
#define MMF_OOM_SKIP	21
/* Bits 0-1: whether the process may dump core (prctl PR_SET_DUMPABLE;
 * execve sets SUID_DUMP_USER, fork copies it). Without set-id programs
 * only bit 0 is ever set (Linux's 2, SUID_DUMP_ROOT, is not). */
#define MMF_DUMPABLE		0
#define MMF_DUMPABLE_MASK	3UL
#define SUID_DUMP_DISABLE	0
#define SUID_DUMP_USER		1
/* mm holds a reference on the huge zero page (huge_zero_page=per-mm,
 * Linux's since 2016), dropped when the mm goes. */
#define MMF_HUGE_ZERO_PAGE	23
/* prctl(PR_SET_THP_DISABLE): no THP for this mm; fork keeps it. */
#define MMF_DISABLE_THP		24
/* The OOM killer killed this mm's process: exit_mmap counts it off
 * (exit_oom_victim). */
#define MMF_OOM_VICTIM		25

/*
 * A process's address space. The kernel half of pgd is init_pgd's.
 * mmap_lock (for writing: mmap, munmap, mprotect, brk, fork, exec, exit;
 * for reading: faults, get_user_pages, /proc) protects the VMAs and the
 * layout and VM counters; the PTEs have their page's ptl; the RSS counters
 * and the two user counts are atomics. docs/smp.md.
 */
/*
 * One CPU's share of an mm's RSS counters (Linux 6.2's percpu_counter,
 * summed exactly at every read): only that CPU adds to it, so a fault
 * writes no line a fault on another CPU writes.
 */
struct mm_rss_cpu {
	long count[NR_MM_COUNTERS];
} __aligned(64);

struct mm_struct {
	void *pgd;			/* pgd_t *, a page from the buddy */
	/* The VMAs, their tree and list, and the layout (brk, stack):
	 * readers or one writer; zpk/mm.h says who takes it and how. */
	struct rw_semaphore mmap_lock;
	/* Protects filling an empty pgd/pud/pmd entry (a new page table),
	 * and nr_ptes (Linux's mm->page_table_lock). Taken only by
	 * table_populate (mm/memory.c), inside the mmap_lock and maybe a
	 * PTE lock of another mm (fork); nothing but the allocator's locks
	 * nests inside it. */
	spinlock_t page_table_lock;
	struct list_head mmlist;	/* on the list of all mms (mm_verify) */
	/* The CPUs that have pgd loaded (running one of its tasks, or
	 * lazily, idle after one): a TLB flush goes to them (Linux's
	 * mm_cpumask). Bits set and cleared atomically by their CPUs. */
	struct cpumask cpu_bitmap;
	struct list_head mmap;		/* VMAs, sorted, non-overlapping */
	struct rb_root mm_rb;		/* the same VMAs, for find_vma */
	struct vm_area_struct *mmap_cache;	/* last find_vma hit (Linux <=3.14) */
	int map_count;
	atomic_t mm_users;		/* tasks using it: the address space */
	atomic_t mm_count;		/* the struct: 1 for all users, 1 per
					 * /proc file bound to it (mmgrab) */
	unsigned long mmap_base;	/* top-down mmap starts below here */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_brk, brk, start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	/* The auxiliary vector execve gave the program, AT_NULL-ended (a
	 * core dump's NT_AUXV; Linux's saved_auxv). */
	unsigned long saved_auxv[AT_VECTOR_SIZE];
	unsigned long total_vm, locked_vm, data_vm, exec_vm, stack_vm;
	unsigned long hiwater_rss, hiwater_vm;
	unsigned long def_flags;	/* VM_LOCKED (| VM_LOCKONFAULT) after
					 * mlockall(MCL_FUTURE) */
	unsigned long nr_ptes;		/* page-table pages below pgd */
	unsigned long flags;		/* MMF_*: (1UL << MMF_OOM_SKIP) */
	struct file *exe_file;		/* what execve ran: /proc/PID/exe */
	/* The RSS counters, each CPU's share in a line of its own
	 * (zpk/memory.h: mm_rss_add, get_mm_counter). */
	struct mm_rss_cpu rss_stat[NR_CPUS];
};

#define PageReserved(p)	page_test_flag(p, PG_reserved)
#define PageBuddy(p)	page_test_flag(p, PG_buddy)
#define PageSlab(p)	page_test_flag(p, PG_slab)
#define PageZero(p)	page_test_flag(p, PG_zero)
/* Anonymous: a compound page's subpages are as its head is. */
#define PageAnon(p)	page_test_flag(compound_head(p), PG_anon)
#define PageHead(p)	page_test_flag(p, PG_head)
#define PageCompound(p)	(PageHead(p) || PageTail(p))
#define PagePoisoned(p)	page_test_flag(p, PG_poisoned)
#define PageSwapBacked(p) page_test_flag(p, PG_swapbacked)
#define PageAnonExclusive(p) page_test_flag(p, PG_anon_exclusive)
#define PageSwapCache(p) page_test_flag(p, PG_swapcache)

#endif
