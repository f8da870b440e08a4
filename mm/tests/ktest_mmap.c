/* mm/tests/ktest_mmap.c — ktests of mm/mmap.c in the kernel: top-down mmap,
 * munmap and mprotect splits and merges, brk, the fork flags of madvise,
 * the VMA tree under many VMAs, and no VMA left behind. */
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include "../internal.h"

#define P	PAGE_SIZE
#define RW	(PROT_READ | PROT_WRITE)
#define ANON	(MAP_PRIVATE | MAP_ANONYMOUS)
#define X	0x40000000UL

/* A bare mm: no pgd, so only the VMA code runs (the hooks are told). */
static struct mm_struct kt_mm;

static void kt_mm_init(void)
{
	memset(&kt_mm, 0, sizeof(kt_mm));
	mm_init_vmas(&kt_mm);
}

KTEST(mmap, topdown_and_errors)
{
	struct mm_struct *mm = &kt_mm;
	unsigned long objs0;

	kt_mm_init();
	objs0 = kmem_cache_objs_inuse(vm_area_cachep);
	KEXPECT_EQ(do_mmap(mm, 0, P, RW, ANON, NULL, 0), MMAP_BASE - P);
	KEXPECT_EQ(do_mmap(mm, 0, P, PROT_READ, ANON, NULL, 0),
		   MMAP_BASE - 2 * P);
	validate_mm(mm);
	KEXPECT_EQ(mm->map_count, 2);
	KEXPECT_EQ(do_mmap(mm, 0, 0, RW, ANON, NULL, 0), -EINVAL);
	KEXPECT_EQ(do_mmap(mm, 0, P, RW, MAP_ANONYMOUS, NULL, 0), -EINVAL);
	KEXPECT_EQ(do_mmap(mm, X + 1, P, RW, ANON | MAP_FIXED, NULL, 0),
		   -EINVAL);
	KEXPECT_EQ(do_mmap(mm, 0, TASK_SIZE, RW, ANON, NULL, 0), -ENOMEM);
	KEXPECT_EQ(do_munmap(mm, X + 1, P), -EINVAL);
	KEXPECT_EQ(do_munmap(mm, X, P), 0);
	validate_mm(mm);
	exit_mmap_vmas(mm);
	KEXPECT_EQ(mm->map_count, 0);
	KEXPECT_EQ(mm->total_vm, 0);
	KEXPECT_EQ(kmem_cache_objs_inuse(vm_area_cachep), objs0);
}

KTEST(mmap, split_and_merge)
{
	struct mm_struct *mm = &kt_mm;
	unsigned long objs0;

	kt_mm_init();
	objs0 = kmem_cache_objs_inuse(vm_area_cachep);
	KEXPECT_EQ(do_mmap(mm, X, 6 * P, RW, ANON | MAP_FIXED, NULL, 0), X);
	KEXPECT_EQ(do_mprotect(mm, X + 2 * P, 2 * P, PROT_READ), 0);
	validate_mm(mm);
	KEXPECT_EQ(mm->map_count, 3);
	KEXPECT_EQ(do_mprotect(mm, X + 2 * P, 2 * P, RW), 0);
	validate_mm(mm);
	KEXPECT_EQ(mm->map_count, 1);
	KEXPECT_EQ(do_munmap(mm, X + P, P), 0);
	validate_mm(mm);
	KEXPECT_EQ(mm->map_count, 2);
	KEXPECT_EQ(mm->total_vm, 5);
	KEXPECT_EQ(do_mmap(mm, X + P, P, RW, ANON | MAP_FIXED, NULL, 0),
		   X + P);
	validate_mm(mm);
	KEXPECT_EQ(mm->map_count, 1);
	KEXPECT_EQ(do_mprotect(mm, X, 7 * P, PROT_READ), -ENOMEM);
	exit_mmap_vmas(mm);
	KEXPECT_EQ(kmem_cache_objs_inuse(vm_area_cachep), objs0);
}

KTEST(mmap, brk)
{
	struct mm_struct *mm = &kt_mm;
	const unsigned long b = 0x600000;

	kt_mm_init();
	mm->start_brk = mm->brk = b;
	KEXPECT_EQ(do_brk(mm, b + 3 * P + 1), b + 3 * P + 1);
	KEXPECT_EQ(mm->total_vm, 4);
	KEXPECT_EQ(do_brk(mm, b - 1), b + 3 * P + 1);
	KEXPECT_EQ(do_brk(mm, b + P), b + P);
	KEXPECT_EQ(mm->total_vm, 1);
	validate_mm(mm);
	exit_mmap_vmas(mm);
	KEXPECT_EQ(mm->map_count, 0);
}

/* MADV_DONTFORK's VM_DONTCOPY splits off its range and merges back when
 * cleared; a fork leaves that VMA out of the child and off its counters,
 * and copies a VM_WIPEONFORK one (flag included). */
KTEST(mmap, fork_flags)
{
	struct mm_struct *mm = mm_alloc(), *child;
	struct vm_area_struct *vma;

	KEXPECT_TRUE(mm != NULL);
	if (!mm)
		return;
	KEXPECT_EQ(do_mmap(mm, X, 6 * P, RW, ANON | MAP_FIXED, NULL, 0), X);
	KEXPECT_EQ(vma_modify_flags(mm, X + 2 * P, 2 * P, VM_DONTCOPY, 0), 0);
	KEXPECT_EQ(mm->map_count, 3);
	KEXPECT_EQ(vma_modify_flags(mm, X + 2 * P, 2 * P, 0, VM_DONTCOPY), 0);
	KEXPECT_EQ(mm->map_count, 1);
	validate_mm(mm);
	KEXPECT_EQ(vma_modify_flags(mm, X, 2 * P, VM_DONTCOPY, 0), 0);
	KEXPECT_EQ(vma_modify_flags(mm, X + 4 * P, 2 * P, VM_WIPEONFORK, 0), 0);
	KEXPECT_EQ(vma_modify_flags(mm, X + 7 * P, P, VM_DONTCOPY, 0), -ENOMEM);
	child = dup_mm(mm);
	KEXPECT_TRUE(child != NULL);
	if (child) {
		validate_mm(child);
		KEXPECT_EQ(child->map_count, 2);
		KEXPECT_EQ(child->total_vm, 4);
		KEXPECT_EQ(child->data_vm, 4);
		vma = find_vma(child, X);
		KEXPECT_TRUE(vma && vma->vm_start == X + 2 * P);
		vma = find_vma(child, X + 4 * P);
		KEXPECT_TRUE(vma && (vma->vm_flags & VM_WIPEONFORK));
		mmput(child);
	}
	mmput(mm);
}

/* 512 VMAs (every other page's protection flipped): find_vma answers for
 * every page from mm_rb alone (the cache emptied first), and a fork's
 * copy links the same VMAs into a valid tree of its own. */
KTEST(mmap, vma_tree)
{
	struct mm_struct *mm = mm_alloc(), *child;
	struct vm_area_struct *vma;
	enum { NP = 512 };
	int i, bad = 0;

	KEXPECT_TRUE(mm != NULL);
	if (!mm)
		return;
	KEXPECT_EQ(do_mmap(mm, X, NP * P, PROT_READ, ANON | MAP_FIXED, NULL,
			   0), X);
	for (i = 1; i < NP; i += 2)
		bad += do_mprotect(mm, X + i * P, P, RW) != 0;
	KEXPECT_EQ(bad, 0);
	KEXPECT_EQ(mm->map_count, NP);
	validate_mm(mm);
	for (i = NP - 1; i >= 0; i--) {
		mm->mmap_cache = NULL;
		vma = find_vma(mm, X + i * P + 1);
		bad += !vma || vma->vm_start != X + i * P;
	}
	KEXPECT_EQ(bad, 0);
	child = dup_mm(mm);
	KEXPECT_TRUE(child != NULL);
	if (child) {
		validate_mm(child);
		KEXPECT_EQ(child->map_count, NP);
		vma = find_vma(child, X + (NP / 2) * P);
		KEXPECT_TRUE(vma && vma->vm_mm == child &&
			     vma->vm_start == X + (NP / 2) * P);
		mmput(child);
	}
	KEXPECT_EQ(do_munmap(mm, X + P, (NP - 2) * P), 0);
	KEXPECT_EQ(mm->map_count, 2);
	validate_mm(mm);
	mmput(mm);
}
