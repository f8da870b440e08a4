/* zpk/mm_lifecycle.h — creating, copying and dropping whole address spaces
 * (Linux's mm_alloc, dup_mmap, mmput), for fork, exec and exit. */
#ifndef ZPK_MM_LIFECYCLE_H
#define ZPK_MM_LIFECYCLE_H

#include <zpk/mm_types.h>

/* An empty address space with its own pgd (kernel half shared), or NULL. */
struct mm_struct *mm_alloc(void);
/* fork: a copy of oldmm, its private pages shared copy-on-write; NULL if
 * out of memory (nothing is left allocated). */
struct mm_struct *dup_mm(struct mm_struct *oldmm);
/* mm's exe_file (Linux's): a reference and a deny_write_access. */
void set_mm_exe_file(struct mm_struct *mm, struct file *new);

/* Drops a user; the last one zaps every VMA and frees the page tables.
 * Never called with an mmap_lock held. */
void mmput(struct mm_struct *mm);
/* Every mm that may still map pages, and its lock (kernel/fork.c). */
extern struct list_head mmlist;
extern struct rw_semaphore mmlist_lock;

/* Linux's two counts: mmgrab/mmdrop keep the struct (not its memory),
 * for /proc files bound to an mm at open; mmget_not_zero takes a user
 * only while the address space still exists (false once it is torn down). */
static inline void mmgrab(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_count);
}
void mmdrop(struct mm_struct *mm);
static inline bool mmget_not_zero(struct mm_struct *mm)
{
	return atomic_add_unless(&mm->mm_users, 1, 0);
}
/* Another user of an address space it already has one of (CLONE_VM). */
static inline void mmget(struct mm_struct *mm)
{
	atomic_inc(&mm->mm_users);
}

#endif
