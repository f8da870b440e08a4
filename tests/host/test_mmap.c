/* host-test-sources: mm/mmap.c mm/mprotect.c lib/rbtree.c mm/mmu_gather.c mm/slab.c mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_mmap.c — the VMA code of mm/mmap.c on the real slab and
 * buddy allocators: mmap, munmap, mprotect, brk, merging, errnos, counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/printk.h>
#include <zpk/slab.h>

#include "harness.h"

/* 8 MiB of simulated RAM: VMAs are small. */
#define NR_PFNS		2048UL

/* ---- hooks: record what the page-table code would be told ------------ */

/* Shared anonymous maps get a file each: plain counted stand-ins here. */
static struct file shmem_files[64];
static int nr_shmem_files;

/* shmem_zero_setup asks the file's f_op->mmap, as mmap asks any file's. */
static int shmem_mmap(struct file *f, struct vm_area_struct *vma)
{
	(void)f, (void)vma;
	return 0;
}

static const struct file_operations shmem_fops = { .mmap = shmem_mmap };

struct file *shmem_file_setup(const char *name, unsigned long len)
{
	struct file *f = &shmem_files[nr_shmem_files++ % 64];

	(void)name, (void)len;
	atomic_set(&f->f_count, 1);
	f->f_op = &shmem_fops;
	return f;
}

struct file *get_file(struct file *f)
{
	assert_true(atomic_read(&f->f_count) > 0);
	atomic_inc(&f->f_count);
	return f;
}

void fput(struct file *f)
{
	assert_true(atomic_read(&f->f_count) > 0);
	atomic_dec(&f->f_count);
}

static unsigned long unmapped_pages;	/* summed over all hook calls */
static unsigned long last_unmap_start, last_unmap_end;
static unsigned long last_prot_start, last_prot_end, last_prot_flags;
static int prot_calls;

void unmap_page_range(struct mmu_gather *tlb, struct mm_struct *mm,
		      unsigned long start, unsigned long end)
{
	(void)tlb;
	(void)mm;
	assert_true(start < end);
	unmapped_pages += (end - start) >> PAGE_SHIFT;
	last_unmap_start = start;
	last_unmap_end = end;
}

/* mm/mprotect.c's change_protection asks for newflags' PTE bits, then
 * walks [start, end) once: each call records one of its two halves. No
 * PTE exists here, so the walk calls nothing back. */
pgprot_t vm_get_page_prot(unsigned long vm_flags)
{
	last_prot_flags = vm_flags;
	return __pgprot(0);
}

int walk_page_range_pmd(struct mm_struct *mm, unsigned long start,
			unsigned long end, pte_walk_fn fn, pmd_walk_fn pmd_fn,
			void *priv)
{
	(void)mm, (void)fn, (void)pmd_fn, (void)priv;
	last_prot_start = start;
	last_prot_end = end;
	prot_calls++;
	return 0;
}

/* No page tables here, so no huge PMD to split or change, and no huge
 * zero page for an mm to let go of. */
unsigned long huge_zero_pfn = ~0UL;

spinlock_t *pmd_lockptr(pmd_t *pmd)
{
	(void)pmd;
	return NULL;
}

int split_huge_pmd_walk(struct mm_struct *mm, pmd_t *pmd, unsigned long addr,
			unsigned long end, pte_walk_fn fn, void *priv)
{
	(void)mm, (void)pmd, (void)addr, (void)end, (void)fn, (void)priv;
	return 0;
}

void split_huge_pmd_address(struct mm_struct *mm, unsigned long addr)
{
	(void)mm, (void)addr;
}

void mm_put_huge_zero_page(struct mm_struct *mm)
{
	(void)mm;
}

/* No page tables here to free after a munmap. */
void free_pgd_range(struct mmu_gather *tlb, unsigned long addr,
		    unsigned long end, unsigned long floor,
		    unsigned long ceiling)
{
	(void)tlb, (void)addr, (void)end, (void)floor, (void)ceiling;
	assert_true(floor <= addr && end <= ceiling);
}

void pgtable_free(void *table)
{
	(void)table;
	fail();
}

struct page *vm_normal_page(struct vm_area_struct *vma, unsigned long addr,
			    pte_t pte)
{
	(void)vma, (void)addr, (void)pte;
	return NULL;
}

/* ---- setup ------------------------------------------------------------ */

static struct mm_struct mm;
static unsigned long objs0;

static int group_setup(void **state)
{
	(void)state;
	return harness_heap_init(NR_PFNS);
}

static int mm_setup(void **state)
{
	(void)state;
	memset(&mm, 0, sizeof(mm));
	mm_init_vmas(&mm);
	sysctl_max_map_count = DEFAULT_MAX_MAP_COUNT;
	objs0 = kmem_cache_objs_inuse(vm_area_cachep);
	unmapped_pages = 0;
	prot_calls = 0;
	return 0;
}

/* Every test ends with exit_mmap_vmas: all VMAs go back to the cache. */
static int mm_teardown(void **state)
{
	(void)state;
	validate_mm(&mm);
	exit_mmap_vmas(&mm);
	validate_mm(&mm);
	assert_int_equal(mm.map_count, 0);
	assert_int_equal(mm.total_vm, 0);
	assert_true(list_empty(&mm.mmap));
	assert_int_equal(kmem_cache_objs_inuse(vm_area_cachep), objs0);
	return 0;
}

/* ---- helpers ---------------------------------------------------------- */

#define P		PAGE_SIZE
#define RW		(PROT_READ | PROT_WRITE)
#define ANON		(MAP_PRIVATE | MAP_ANONYMOUS)
#define X		0x40000000UL	/* a fixed area for the tests */

static long mmap_v(unsigned long addr, unsigned long len, unsigned long prot,
		   unsigned long flags)
{
	long r = do_mmap(&mm, addr, len, prot, flags, NULL, 0);

	validate_mm(&mm);
	return r;
}

static int munmap_v(unsigned long start, unsigned long len)
{
	int r = do_munmap(&mm, start, len);

	validate_mm(&mm);
	return r;
}

static int mprotect_v(unsigned long start, unsigned long len,
		      unsigned long prot)
{
	int r = do_mprotect(&mm, start, len, prot);

	validate_mm(&mm);
	return r;
}

static unsigned long brk_v(unsigned long brk)
{
	unsigned long r = do_brk(&mm, brk);

	validate_mm(&mm);
	return r;
}

static void map_fixed(unsigned long addr, unsigned long len,
		      unsigned long prot)
{
	assert_int_equal(mmap_v(addr, len, prot, ANON | MAP_FIXED), addr);
}

/* The VMAs are exactly the n ranges in want[] (start, end pairs). */
static void expect_vmas(const unsigned long *want, int n)
{
	struct vm_area_struct *vma;
	int i = 0;

	assert_int_equal(mm.map_count, n);
	list_for_each_entry(vma, &mm.mmap, vm_list) {
		assert_int_equal(vma->vm_start, want[2 * i]);
		assert_int_equal(vma->vm_end, want[2 * i + 1]);
		i++;
	}
	assert_int_equal(i, n);
}
#define EXPECT_VMAS(...) do {						\
	const unsigned long __w[] = { 0, ##__VA_ARGS__ };		\
	expect_vmas(__w + 1, (ARRAY_SIZE(__w) - 1) / 2);		\
} while (0)

static unsigned long prot_at(unsigned long addr)
{
	struct vm_area_struct *vma = find_vma(&mm, addr);

	assert_non_null(vma);
	assert_true(vma->vm_start <= addr);
	return vma->vm_flags & (VM_READ | VM_WRITE | VM_EXEC);
}

/* ---- tests ------------------------------------------------------------ */

/* Without a hint, mappings go top-down from mmap_base, never overlapping. */
static void test_mmap_topdown(void **state)
{
	long a, b, c;

	(void)state;
	a = mmap_v(0, P, RW, ANON);
	assert_int_equal(a, MMAP_BASE - P);
	b = mmap_v(0, 2 * P, PROT_READ, ANON);
	assert_int_equal(b, MMAP_BASE - 3 * P);
	c = mmap_v(0, 3 * P + 1, RW, ANON);	/* rounds up to 4 pages */
	assert_int_equal(c, MMAP_BASE - 7 * P);
	EXPECT_VMAS(c, c + 4 * P, b, b + 2 * P, a, a + P);
	assert_int_equal(mm.total_vm, 7);
	assert_ptr_equal(find_vma(&mm, 0), find_vma(&mm, c));
	assert_int_equal(find_vma(&mm, b + P)->vm_start, b);
	assert_null(find_vma(&mm, MMAP_BASE));
	assert_null(find_vma_intersection(&mm, 0, c));
	assert_non_null(find_vma_intersection(&mm, 0, c + 1));
	/* A hole left by munmap is reused, top-down first fit from above. */
	assert_int_equal(munmap_v(b, 2 * P), 0);
	assert_int_equal(mmap_v(0, P, PROT_EXEC, ANON), b + P);
	EXPECT_VMAS(c, c + 4 * P, b + P, b + 2 * P, a, a + P);
}

/* A free hint is taken (page aligned); a taken one is ignored. */
static void test_mmap_hint(void **state)
{
	(void)state;
	assert_int_equal(mmap_v(X, P, RW, ANON), X);
	assert_int_equal(mmap_v(X, P, PROT_READ, ANON), MMAP_BASE - P);
	assert_int_equal(mmap_v(X + 2 * P + 5, P, PROT_READ, ANON),
			 X + 3 * P);
	/* Below mmap_min_addr a hint is raised to it. */
	assert_int_equal(mmap_v(P, P, PROT_READ, ANON), MMAP_MIN_ADDR);
	assert_int_equal(mm.map_count, 4);
}

/* When nothing is left below mmap_base, search bottom-up above it. */
static void test_mmap_fallback_bottom_up(void **state)
{
	(void)state;
	mm.mmap_base = MMAP_MIN_ADDR + 4 * P;
	map_fixed(MMAP_MIN_ADDR, 4 * P, RW);
	assert_int_equal(mmap_v(0, P, PROT_READ, ANON), TASK_UNMAPPED_BASE);
}

/* MAP_FIXED over the middle of a mapping splits it and replaces the middle. */
static void test_map_fixed_replaces(void **state)
{
	(void)state;
	map_fixed(X, 8 * P, RW);
	map_fixed(X + 3 * P, 2 * P, PROT_READ);
	EXPECT_VMAS(X, X + 3 * P, X + 3 * P, X + 5 * P, X + 5 * P, X + 8 * P);
	assert_int_equal(unmapped_pages, 2);
	assert_int_equal(last_unmap_start, X + 3 * P);
	assert_int_equal(last_unmap_end, X + 5 * P);
	assert_int_equal(prot_at(X + 3 * P), VM_READ);
	assert_int_equal(find_vma(&mm, X + 5 * P)->vm_pgoff, (X >> 12) + 5);
	assert_int_equal(mm.total_vm, 8);
	assert_int_equal(mm.data_vm, 6);
	/* RW again over it: the three merge back into one. */
	map_fixed(X + 2 * P, 4 * P, RW);
	EXPECT_VMAS(X, X + 8 * P);
	assert_int_equal(mm.total_vm, 8);
	/* Over two mappings and the hole between them. */
	map_fixed(X + 10 * P, P, PROT_READ);
	map_fixed(X + 7 * P, 4 * P, PROT_EXEC);
	EXPECT_VMAS(X, X + 7 * P, X + 7 * P, X + 11 * P);
	assert_int_equal(mm.total_vm, 11);
	assert_int_equal(mm.exec_vm, 4);
}

static void test_map_fixed_noreplace(void **state)
{
	(void)state;
	map_fixed(X + P, P, RW);
	assert_int_equal(mmap_v(X, 2 * P, RW, ANON | MAP_FIXED_NOREPLACE),
			 -EEXIST);
	assert_int_equal(mmap_v(X, P, RW, ANON | MAP_FIXED_NOREPLACE), X);
	EXPECT_VMAS(X, X + 2 * P);
	assert_int_equal(unmapped_pages, 0);
}

/* Unmapping the middle, head, tail, and all of a VMA. */
static void test_munmap_pieces(void **state)
{
	(void)state;
	map_fixed(X, 10 * P, RW);
	assert_int_equal(munmap_v(X + 4 * P, 2 * P), 0);	/* middle */
	EXPECT_VMAS(X, X + 4 * P, X + 6 * P, X + 10 * P);
	assert_int_equal(find_vma(&mm, X + 6 * P)->vm_pgoff, (X >> 12) + 6);
	assert_int_equal(munmap_v(X, P), 0);			/* head */
	EXPECT_VMAS(X + P, X + 4 * P, X + 6 * P, X + 10 * P);
	assert_int_equal(munmap_v(X + 9 * P, P + 7), 0);	/* tail */
	EXPECT_VMAS(X + P, X + 4 * P, X + 6 * P, X + 9 * P);
	assert_int_equal(mm.total_vm, 6);
	assert_int_equal(mm.data_vm, 6);
	assert_int_equal(munmap_v(X + 6 * P, 3 * P), 0);	/* whole */
	EXPECT_VMAS(X + P, X + 4 * P);
	assert_int_equal(unmapped_pages, 7);
	assert_int_equal(mm.total_vm, 3);
}

/* One munmap across several VMAs and holes; a pure hole is fine too. */
static void test_munmap_spanning_and_hole(void **state)
{
	(void)state;
	map_fixed(X, 3 * P, RW);
	map_fixed(X + 4 * P, 2 * P, PROT_READ);
	map_fixed(X + 7 * P, 3 * P, RW);
	assert_int_equal(munmap_v(X + 3 * P, P), 0);		/* hole */
	assert_int_equal(munmap_v(0, X), 0);			/* hole */
	assert_int_equal(mm.map_count, 3);
	assert_int_equal(unmapped_pages, 0);
	assert_int_equal(munmap_v(X + P, 7 * P), 0);
	EXPECT_VMAS(X, X + P, X + 8 * P, X + 10 * P);
	assert_int_equal(unmapped_pages, 5);
	assert_int_equal(mm.total_vm, 3);
	assert_int_equal(munmap_v(0, TASK_SIZE), 0);
	EXPECT_VMAS();
	assert_int_equal(mm.total_vm, 0);
}

/* mprotect of the middle splits into three; restoring merges back to one. */
static void test_mprotect_split_merge(void **state)
{
	(void)state;
	map_fixed(X, 6 * P, RW);
	assert_int_equal(mprotect_v(X + 2 * P, 2 * P, PROT_READ), 0);
	EXPECT_VMAS(X, X + 2 * P, X + 2 * P, X + 4 * P, X + 4 * P, X + 6 * P);
	assert_int_equal(prot_at(X + 2 * P), VM_READ);
	assert_int_equal(prot_at(X + 4 * P), VM_READ | VM_WRITE);
	assert_int_equal(last_prot_start, X + 2 * P);
	assert_int_equal(last_prot_end, X + 4 * P);
	assert_true(last_prot_flags & VM_MAYWRITE);
	assert_int_equal(last_prot_flags & (VM_READ | VM_WRITE), VM_READ);
	assert_int_equal(mm.data_vm, 4);
	assert_int_equal(mprotect_v(X + 2 * P, 2 * P, RW), 0);
	EXPECT_VMAS(X, X + 6 * P);
	assert_int_equal(mm.data_vm, 6);
	/* Head, then tail: each merges into the neighbour left behind. */
	assert_int_equal(mprotect_v(X, P, PROT_EXEC), 0);
	assert_int_equal(mprotect_v(X + 5 * P, P, PROT_EXEC), 0);
	EXPECT_VMAS(X, X + P, X + P, X + 5 * P, X + 5 * P, X + 6 * P);
	assert_int_equal(mm.exec_vm, 2);
	/* Across all three at once, unaligned length: one VMA again. */
	assert_int_equal(mprotect_v(X, 5 * P + 1, PROT_EXEC), 0);
	EXPECT_VMAS(X, X + 6 * P);
	assert_int_equal(mm.exec_vm, 6);
	assert_int_equal(mm.data_vm, 0);
	/* The same protection again changes nothing and calls no hook. */
	prot_calls = 0;
	assert_int_equal(mprotect_v(X, 6 * P, PROT_EXEC), 0);
	assert_int_equal(prot_calls, 0);
}

/* mprotect errors; a range with a hole is refused and nothing changes. */
static void test_mprotect_errors(void **state)
{
	struct vm_area_struct *vma;

	(void)state;
	map_fixed(X, 2 * P, RW);
	map_fixed(X + 3 * P, 2 * P, RW);
	assert_int_equal(mprotect_v(X, 5 * P, PROT_READ), -ENOMEM);
	assert_int_equal(mprotect_v(X + 2 * P, P, PROT_READ), -ENOMEM);
	assert_int_equal(mprotect_v(X + 10 * P, P, PROT_READ), -ENOMEM);
	assert_int_equal(mprotect_v(X + 1, P, PROT_READ), -EINVAL);
	assert_int_equal(mprotect_v(X, P, 0x10), -EINVAL);
	assert_int_equal(mprotect_v(X, 0, PROT_READ), 0);
	assert_int_equal(mprotect_v(X, -P, PROT_READ), -ENOMEM);
	assert_int_equal(prot_calls, 0);
	EXPECT_VMAS(X, X + 2 * P, X + 3 * P, X + 5 * P);
	assert_int_equal(prot_at(X + P), VM_READ | VM_WRITE);
	/* A VMA without VM_MAYWRITE cannot be made writable. */
	vma = find_vma(&mm, X);
	vma->vm_flags = VM_READ | VM_MAYREAD;
	mm.data_vm -= 2;
	assert_int_equal(mprotect_v(X, P, RW), -EACCES);
	assert_int_equal(mprotect_v(X, P, PROT_NONE), 0);
	assert_int_equal(mm.map_count, 3);
}

/* Adjacent anonymous maps with equal flags become one VMA. */
static void test_merge_adjacent(void **state)
{
	(void)state;
	map_fixed(X, 2 * P, RW);
	map_fixed(X + 2 * P, 2 * P, RW);		/* after prev */
	EXPECT_VMAS(X, X + 4 * P);
	map_fixed(X - P, P, RW);			/* before next */
	EXPECT_VMAS(X - P, X + 4 * P);
	assert_int_equal(find_vma(&mm, X)->vm_pgoff, (X - P) >> 12);
	map_fixed(X + 6 * P, P, RW);
	map_fixed(X + 4 * P, 2 * P, RW);		/* fills the gap */
	EXPECT_VMAS(X - P, X + 7 * P);
	assert_int_equal(mm.total_vm, 8);
	/* Other flags, and shared anonymous memory, do not merge. */
	map_fixed(X + 7 * P, P, PROT_READ);
	assert_int_equal(mmap_v(X + 8 * P, P, RW,
				MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED),
			 X + 8 * P);
	assert_int_equal(mmap_v(X + 9 * P, P, RW,
				MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED),
			 X + 9 * P);
	assert_int_equal(mm.map_count, 4);
	assert_int_equal(mm.data_vm, 8);	/* shared is not data */
	/* Top-down maps with equal flags merge with the one above. */
	assert_int_equal(mmap_v(0, P, RW, ANON), MMAP_BASE - P);
	assert_int_equal(mmap_v(0, P, RW, ANON), MMAP_BASE - 2 * P);
	assert_int_equal(mm.map_count, 5);
}

/* Every errno do_mmap and do_munmap return for bad arguments. */
static void test_errors(void **state)
{
	(void)state;
	assert_int_equal(mmap_v(0, 0, RW, ANON), -EINVAL);
	assert_int_equal(mmap_v(0, P, RW, MAP_ANONYMOUS), -EINVAL);
	assert_int_equal(mmap_v(0, P, RW, MAP_SHARED | MAP_PRIVATE |
				MAP_ANONYMOUS), -EINVAL);
	assert_int_equal(mmap_v(X + 1, P, RW, ANON | MAP_FIXED), -EINVAL);
	assert_int_equal(mmap_v(0, P, RW, MAP_SHARED | MAP_ANONYMOUS |
				MAP_GROWSDOWN), -EINVAL);
	assert_int_equal(mmap_v(0, TASK_SIZE + P, RW, ANON), -ENOMEM);
	assert_int_equal(mmap_v(0, -1UL, RW, ANON), -ENOMEM);
	assert_int_equal(mmap_v(0, TASK_SIZE - P, RW, ANON), -ENOMEM);
	assert_int_equal(mmap_v(TASK_SIZE - P, 2 * P, RW, ANON | MAP_FIXED),
			 -ENOMEM);
	assert_int_equal(mmap_v(0, P, RW, ANON | MAP_FIXED), -EPERM);
	assert_int_equal(mm.map_count, 0);
	assert_int_equal(mm.total_vm, 0);
	/* The last page of user space is fine. */
	map_fixed(TASK_SIZE - P, P, RW);
	assert_int_equal(munmap_v(X + 1, P), -EINVAL);
	assert_int_equal(munmap_v(X, 0), -EINVAL);
	assert_int_equal(munmap_v(TASK_SIZE - P, 2 * P), -EINVAL);
	assert_int_equal(munmap_v(TASK_SIZE + P, P), -EINVAL);
	assert_int_equal(mm.map_count, 1);
	assert_int_equal(munmap_v(TASK_SIZE - P, P), 0);
	assert_int_equal(mm.map_count, 0);
}

/* brk grows and shrinks its VMA and returns the old break on failure. */
static void test_brk(void **state)
{
	const unsigned long B = 0x600000;

	(void)state;
	mm.start_brk = mm.brk = B;
	assert_int_equal(brk_v(B + 3 * P + 5), B + 3 * P + 5);
	EXPECT_VMAS(B, B + 4 * P);
	assert_int_equal(mm.data_vm, 4);
	assert_int_equal(brk_v(B + 3 * P + 100), B + 3 * P + 100);
	EXPECT_VMAS(B, B + 4 * P);
	assert_int_equal(brk_v(B + P), B + P);		/* shrink */
	EXPECT_VMAS(B, B + P);
	assert_int_equal(unmapped_pages, 3);
	assert_int_equal(brk_v(B - 1), B + P);		/* below start */
	/* A mapping above: brk may come up to a guard page below it. */
	map_fixed(B + 16 * P, P, PROT_READ);
	assert_int_equal(brk_v(B + 16 * P), B + P);
	assert_int_equal(brk_v(B + 15 * P + 1), B + P);
	assert_int_equal(brk_v(B + 15 * P), B + 15 * P);
	EXPECT_VMAS(B, B + 15 * P, B + 16 * P, B + 17 * P);
	assert_int_equal(brk_v(TASK_SIZE + P), B + 15 * P);
	assert_int_equal(mm.brk, B + 15 * P);
	assert_int_equal(brk_v(B), B);			/* all gone */
	EXPECT_VMAS(B + 16 * P, B + 17 * P);
	assert_int_equal(mm.total_vm, 1);
	assert_int_equal(mm.data_vm, 0);
}

/* total/data/exec/stack/locked_vm follow mmap, mprotect and munmap. */
static void test_counters(void **state)
{
	(void)state;
	map_fixed(X, 2 * P, RW);
	assert_int_equal(mmap_v(X + 4 * P, 3 * P, PROT_READ | PROT_EXEC,
				ANON | MAP_FIXED), X + 4 * P);
	assert_int_equal(mmap_v(X + 8 * P, 4 * P, RW,
				ANON | MAP_FIXED | MAP_GROWSDOWN), X + 8 * P);
	assert_int_equal(mmap_v(X + 16 * P, 5 * P, PROT_READ,
				ANON | MAP_FIXED | MAP_LOCKED), X + 16 * P);
	assert_int_equal(mm.map_count, 4);
	assert_int_equal(mm.total_vm, 14);
	assert_int_equal(mm.data_vm, 2);
	assert_int_equal(mm.exec_vm, 3);
	assert_int_equal(mm.stack_vm, 4);
	assert_int_equal(mm.locked_vm, 5);
	assert_int_equal(mprotect_v(X + 4 * P, P, RW), 0);
	assert_int_equal(mm.map_count, 5);
	assert_int_equal(mm.data_vm, 3);
	assert_int_equal(mm.exec_vm, 2);
	assert_int_equal(munmap_v(X + 17 * P, 2 * P), 0);
	assert_int_equal(mm.map_count, 6);
	assert_int_equal(mm.locked_vm, 3);
	assert_int_equal(mm.total_vm, 12);
	assert_int_equal(munmap_v(X + 8 * P, 4 * P), 0);
	assert_int_equal(mm.stack_vm, 0);
	assert_int_equal(mm.total_vm, 8);
}

/* validate_mm catches a corrupted list. */
static void test_validate_catches(void **state)
{
	struct vm_area_struct *a, *b;

	(void)state;
	map_fixed(X, 2 * P, RW);
	map_fixed(X + 4 * P, 2 * P, PROT_READ);
	a = find_vma(&mm, X);
	b = find_vma(&mm, X + 4 * P);
	mm.map_count++;
	expect_bug(validate_mm(&mm));
	assert_bug_says("map_count");
	mm.map_count--;
	a->vm_end = X + 5 * P;
	expect_bug(validate_mm(&mm));
	assert_bug_says("overlaps");
	a->vm_end = X + 2 * P;
	b->vm_start = b->vm_end;
	expect_bug(validate_mm(&mm));
	assert_bug_says("bad vma");
	b->vm_start = X + 4 * P;
	mm.total_vm++;
	expect_bug(validate_mm(&mm));
	assert_bug_says("counters");
	mm.total_vm--;
	validate_mm(&mm);
	/* The tree: a broken rule, a VMA the tree has lost. */
	mm.mm_rb.rb_node->rb_color = RB_RED;
	expect_bug(validate_mm(&mm));
	assert_bug_says("mm_rb: the root is red");
	mm.mm_rb.rb_node->rb_color = RB_BLACK;
	rb_erase(&a->vm_rb, &mm.mm_rb);
	expect_bug(validate_mm(&mm));
	assert_bug_says("mm_rb in order is not the list");
	rb_link_node(&a->vm_rb, &b->vm_rb, &b->vm_rb.rb_left);
	rb_insert_color(&a->vm_rb, &mm.mm_rb);
	validate_mm(&mm);
}

/*
 * Many VMAs (every other page's protection flipped), then find_vma on
 * every page with the cache emptied first: each answer comes from a walk
 * down mm_rb. Then holes punched at random, checking the same way.
 */
static void test_find_vma_tree(void **state)
{
	enum { NP = 1024 };
	struct vm_area_struct *vma;
	unsigned long a;

	(void)state;
	map_fixed(X, NP * P, PROT_READ);
	for (int i = 1; i < NP; i += 2)
		assert_int_equal(do_mprotect(&mm, X + i * P, P, RW), 0);
	validate_mm(&mm);
	assert_int_equal(mm.map_count, NP);
	for (int i = 0; i < NP; i++) {
		mm.mmap_cache = NULL;
		vma = find_vma(&mm, X + i * P + 5);
		assert_non_null(vma);
		assert_int_equal(vma->vm_start, X + i * P);
		assert_ptr_equal(mm.mmap_cache, vma);
	}
	mm.mmap_cache = NULL;
	assert_int_equal(find_vma(&mm, 0)->vm_start, X);
	assert_null(find_vma(&mm, X + NP * P));
	srand(99);
	for (int iter = 0; iter < 300; iter++) {
		a = rand() % NP;
		assert_int_equal(do_munmap(&mm, X + a * P, P), 0);
		mm.mmap_cache = NULL;
		vma = find_vma(&mm, X + a * P);
		assert_true(!vma || vma->vm_start > X + a * P);
	}
	validate_mm(&mm);
}

/*
 * max_map_count as Linux: mmap and brk are refused only above the limit
 * (map_count may reach limit + 1), a split that adds a VMA at the limit,
 * munmap's other splits never.
 */
static void test_max_map_count(void **state)
{
	const unsigned long B = 0x600000;

	(void)state;
	sysctl_max_map_count = 4;
	mm.start_brk = mm.brk = B;
	map_fixed(X, 4 * P, PROT_READ);
	map_fixed(X + 5 * P, P, RW);
	map_fixed(X + 7 * P, P, RW);
	/* Two splits from 3 VMAs: the first is made and kept, as Linux's. */
	assert_int_equal(mprotect_v(X + P, P, RW), -ENOMEM);
	EXPECT_VMAS(X, X + P, X + P, X + 4 * P, X + 5 * P, X + 6 * P,
		    X + 7 * P, X + 8 * P);
	/* At the limit: no split that adds a VMA. */
	assert_int_equal(mprotect_v(X + P, P, RW), -ENOMEM);
	assert_int_equal(munmap_v(X + 2 * P, P), -ENOMEM);
	assert_int_equal(mmap_v(X + 2 * P, P, RW, ANON | MAP_FIXED), -ENOMEM);
	assert_int_equal(mprotect_v(X + 7 * P, P, PROT_READ), 0);
	assert_int_equal(brk_v(B + P), B + P);		/* 5: the last one */
	assert_int_equal(mmap_v(X + 11 * P, P, RW, ANON | MAP_FIXED), -ENOMEM);
	assert_int_equal(brk_v(B + 2 * P), B + P);	/* even a merge */
	/* munmap's head and tail splits add nothing in the end: allowed. */
	assert_int_equal(munmap_v(X + P, P), 0);
	assert_int_equal(munmap_v(X + 3 * P, 3 * P), 0);
	EXPECT_VMAS(B, B + P, X, X + P, X + 2 * P, X + 3 * P, X + 7 * P,
		    X + 8 * P);
}

/*
 * Random mmap/munmap/mprotect in a 64-page window against a per-page model:
 * after each, the VMAs say what the model says, and no two neighbours are
 * left unmerged (private anonymous with equal flags always merge).
 */
static void test_random_against_model(void **state)
{
	enum { NP = 64 };
	static const unsigned long prots[] = { PROT_NONE, PROT_READ, RW,
					       PROT_READ | PROT_EXEC };
	long model[NP];			/* prot, or -1: unmapped */
	unsigned long mapped = 0, a, n, pr;
	struct vm_area_struct *vma, *prev;

	(void)state;
	srand(12345);
	for (int i = 0; i < NP; i++)
		model[i] = -1;
	for (int iter = 0; iter < 3000; iter++) {
		a = rand() % NP;
		n = 1 + rand() % (NP - a);
		pr = prots[rand() % 4];
		switch (rand() % 3) {
		case 0:
			map_fixed(X + a * P, n * P, pr);
			mapped += n;
			for (unsigned long i = a; i < a + n; i++)
				model[i] = pr;
			break;
		case 1:
			assert_int_equal(munmap_v(X + a * P, n * P), 0);
			for (unsigned long i = a; i < a + n; i++)
				model[i] = -1;
			break;
		default: {
			bool hole = false;

			for (unsigned long i = a; i < a + n; i++)
				hole |= model[i] < 0;
			assert_int_equal(mprotect_v(X + a * P, n * P, pr),
					 hole ? -ENOMEM : 0);
			for (unsigned long i = a; i < a + n && !hole; i++)
				model[i] = pr;
		}
		}
		for (int i = 0; i < NP; i++) {
			vma = find_vma_intersection(&mm, X + i * P,
						    X + (i + 1) * P);
			if (model[i] < 0) {
				assert_null(vma);
				continue;
			}
			assert_non_null(vma);
			assert_int_equal(vma->vm_flags & 7, model[i]);
			assert_int_equal(vma->vm_pgoff +
					 ((X + i * P - vma->vm_start) >> 12),
					 (X >> 12) + i);
		}
		prev = NULL;
		list_for_each_entry(vma, &mm.mmap, vm_list) {
			if (prev)
				assert_false(prev->vm_end == vma->vm_start &&
					     prev->vm_flags == vma->vm_flags);
			prev = vma;
		}
	}
	/* Every page mapped is unmapped exactly once, at the latest at exit. */
	exit_mmap_vmas(&mm);
	assert_int_equal(unmapped_pages, mapped);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, mm_setup, mm_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_mmap_topdown),
		T(test_mmap_hint),
		T(test_mmap_fallback_bottom_up),
		T(test_map_fixed_replaces),
		T(test_map_fixed_noreplace),
		T(test_munmap_pieces),
		T(test_munmap_spanning_and_hole),
		T(test_mprotect_split_merge),
		T(test_mprotect_errors),
		T(test_merge_adjacent),
		T(test_errors),
		T(test_brk),
		T(test_counters),
		T(test_validate_catches),
		T(test_random_against_model),
		T(test_find_vma_tree),
		T(test_max_map_count),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_heap_free);
}
