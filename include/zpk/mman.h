/* zpk/mman.h — mmap's ABI (PROT_*, MAP_*, MADV_*, Linux x86-64 values) and
 * the user address-space layout. The VMA interface is in zpk/mm.h. */
#ifndef ZPK_MMAN_H
#define ZPK_MMAN_H

#include <asm/page.h>
#include <zpk/types.h>

#define PROT_NONE	0x0
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define PROT_EXEC	0x4

#define MAP_SHARED		0x01
#define MAP_PRIVATE		0x02
#define MAP_TYPE		0x0f	/* the SHARED/PRIVATE field */
#define MAP_FIXED		0x10
#define MAP_ANONYMOUS		0x20
#define MAP_ANON		MAP_ANONYMOUS
#define MAP_GROWSDOWN		0x0100
#define MAP_DENYWRITE		0x0800
#define MAP_EXECUTABLE		0x1000
#define MAP_LOCKED		0x2000
#define MAP_NORESERVE		0x4000
#define MAP_POPULATE		0x8000
#define MAP_NONBLOCK		0x10000
#define MAP_STACK		0x20000
#define MAP_FIXED_NOREPLACE	0x100000

#define MADV_NORMAL	0
#define MADV_RANDOM	1
#define MADV_SEQUENTIAL	2
#define MADV_WILLNEED	3
#define MADV_DONTNEED	4
#define MADV_FREE	8
#define MADV_REMOVE	9	/* punch the hole in a shared file mapping */
#define MADV_DONTFORK	10	/* VM_DONTCOPY */
#define MADV_HUGEPAGE	14	/* VM_HUGEPAGE: THP under "madvise" */
#define MADV_NOHUGEPAGE	15	/* VM_NOHUGEPAGE: no THP */
#define MADV_DOFORK	11
#define MADV_WIPEONFORK	18	/* VM_WIPEONFORK: private anonymous only */
#define MADV_COLD	20	/* reclaim it first: the accessed bit goes */
#define MADV_PAGEOUT	21	/* reclaim it now: anonymous pages to swap */
#define MADV_KEEPONFORK	19
#define MADV_POPULATE_READ	22	/* fault in for read: zero pages */
#define MADV_POPULATE_WRITE	23	/* fault in for write: real pages */
#define MADV_COLLAPSE	25	/* small pages into a THP, now */

#define MREMAP_MAYMOVE		1	/* may move the mapping */
#define MREMAP_FIXED		2	/* ... to new_addr exactly */
#define MREMAP_DONTUNMAP	4	/* ... and leave the old VMA, empty */

#define MLOCK_ONFAULT	1	/* mlock2: lock pages as they fault in */

#define MCL_CURRENT	1	/* mlockall: lock what is mapped now */
#define MCL_FUTURE	2	/* ... and what will be mapped */
#define MCL_ONFAULT	4

/* Layout: user space ends one page below the canonical-address hole. */
#define TASK_SIZE		0x00007ffffffff000UL
#define STACK_TOP		TASK_SIZE	/* stack grows down from here */
#define MMAP_BASE		0x00007f0000000000UL	/* top-down below */
#define TASK_UNMAPPED_BASE	PAGE_ALIGN(TASK_SIZE / 3)	/* bottom-up */
#define MMAP_MIN_ADDR		0x10000UL	/* Linux's mmap_min_addr */
#define DEFAULT_MAX_MAP_COUNT	65530		/* Linux's max_map_count */

#endif
