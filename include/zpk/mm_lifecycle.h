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
/* Drops a user; the last one zaps every VMA and frees the page tables. */
void mmput(struct mm_struct *mm);

#endif
