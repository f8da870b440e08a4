/* zpk/memblock.h — the boot-time allocator, before the buddy allocator runs.
 * It owns the usable RAM ranges until memblock_release_to_buddy(). */
#ifndef ZPK_MEMBLOCK_H
#define ZPK_MEMBLOCK_H

#include <zpk/types.h>

/* size bytes, page-aligned, entirely below limit; panics if none. */
phys_addr_t memblock_alloc(size_t size, phys_addr_t limit);
/* One past the highest usable byte of RAM. */
phys_addr_t memblock_end_of_ram(void);
/* Calls fn for each usable RAM range as the loader reported it. */
void for_each_ram_range(void (*fn)(phys_addr_t start, phys_addr_t end));
extern unsigned long memblock_reserved_pages;
/* Pages handed to the buddy allocator (Linux's totalram_pages): at boot,
 * and by free_reserved_area. */
unsigned long totalram_pages(void);
/*
 * Boot memory done with, [start, end) of the direct map (the initrd's
 * module once unpacked): its whole pages go to the buddy allocator and
 * count in totalram_pages, but for any the kernel image, the boot
 * information or the low MiB shares (Linux's free_reserved_area, without
 * its poison). Prints "Freeing S memory: NK", as Linux. Returns the pages
 * freed. Call once per area, after mm_init.
 */
unsigned long free_reserved_area(void *start, void *end, const char *s);

#endif
