/* mm/memblock.c — the boot-time allocator: free ranges carved out of the
 * multiboot2 map, handed out page by page until the buddy allocator runs. */
#include <asm/page.h>
#include <asm/sections.h>
#include <zpk/bug.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/multiboot2.h>
#include <zpk/printk.h>
#include "internal.h"

#define MAX_FREE 64
#define LOW_RESERVED 0x100000	/* BIOS data, VGA, option ROMs */

struct range {
	phys_addr_t start, end;
};
static struct range free_ranges[MAX_FREE];
static int nr_free;
unsigned long memblock_reserved_pages;

static void add_free(phys_addr_t start, phys_addr_t end)
{
	if (end <= start)
		return;
	if (nr_free == MAX_FREE) {
		pr_warn("memblock: too many ranges, dropping [%#llx-%#llx)\n",
			(unsigned long long)start, (unsigned long long)end);
		return;
	}
	free_ranges[nr_free++] = (struct range){ start, end };
}

/* Removes [start, end) from every free range, splitting where needed. */
static void reserve(phys_addr_t start, phys_addr_t end)
{
	start = start & PAGE_MASK;
	end = PAGE_ALIGN(end);
	for (int i = 0; i < nr_free; i++) {
		struct range r = free_ranges[i];

		if (end <= r.start || start >= r.end)
			continue;
		free_ranges[i] = free_ranges[--nr_free];
		add_free(r.start, start < r.start ? r.start : start);
		add_free(end > r.end ? r.end : end, r.end);
		i = -1;		/* the array changed: look again */
	}
}

void memblock_init(void)
{
	for (int i = 0; i < boot_info.nr_ranges; i++) {
		const struct boot_range *r = &boot_info.ranges[i];

		if (r->type == MB2_MEMORY_AVAILABLE)
			add_free(PAGE_ALIGN(r->start), r->end & PAGE_MASK);
	}
	reserve(0, LOW_RESERVED);
	reserve((phys_addr_t)_boot_start, __pa(_end));
	reserve(boot_info.info_start, boot_info.info_end);
	for (int i = 0; i < boot_info.nr_modules; i++)
		reserve(boot_info.modules[i].start, boot_info.modules[i].end);
}

phys_addr_t memblock_alloc(size_t size, phys_addr_t limit)
{
	size = PAGE_ALIGN(size);
	for (int i = 0; i < nr_free; i++) {
		struct range *r = &free_ranges[i];

		if (r->end - r->start < size || r->start + size > limit)
			continue;
		r->start += size;
		memblock_reserved_pages += size >> PAGE_SHIFT;
		return r->start - size;
	}
	panic("memblock: no %zu bytes free below %#llx", size,
	      (unsigned long long)limit);
}

phys_addr_t memblock_end_of_ram(void)
{
	phys_addr_t end = 0;

	for (int i = 0; i < boot_info.nr_ranges; i++)
		if (boot_info.ranges[i].type == MB2_MEMORY_AVAILABLE &&
		    boot_info.ranges[i].end > end)
			end = boot_info.ranges[i].end;
	return end & PAGE_MASK;
}

void for_each_ram_range(void (*fn)(phys_addr_t start, phys_addr_t end))
{
	for (int i = 0; i < boot_info.nr_ranges; i++) {
		const struct boot_range *r = &boot_info.ranges[i];

		if (r->type == MB2_MEMORY_AVAILABLE)
			fn(r->start & PAGE_MASK, PAGE_ALIGN(r->end));
	}
}

static unsigned long managed_pages;

/* Pages the buddy allocator manages: Linux's totalram_pages(). */
unsigned long totalram_pages(void)
{
	return managed_pages;
}

/* Whether [a, b) and [c, d) share a byte. */
static bool overlaps(phys_addr_t a, phys_addr_t b, phys_addr_t c,
		     phys_addr_t d)
{
	return a < d && c < b;
}

/* Whether the page at pfn must stay reserved after boot: not all usable
 * RAM, or shared with the low MiB, the kernel image or the boot
 * information. */
static bool boot_held(unsigned long pfn)
{
	phys_addr_t a = PFN_PHYS(pfn), b = a + PAGE_SIZE;
	bool ram = false;

	for (int i = 0; i < boot_info.nr_ranges; i++) {
		const struct boot_range *r = &boot_info.ranges[i];

		ram = ram || (r->type == MB2_MEMORY_AVAILABLE &&
			      r->start <= a && b <= r->end);
	}
	return !ram || overlaps(a, b, 0, LOW_RESERVED) ||
	       overlaps(a, b, (phys_addr_t)_boot_start, __pa(_end)) ||
	       overlaps(a, b, boot_info.info_start, boot_info.info_end);
}

unsigned long free_reserved_area(void *start, void *end, const char *s)
{
	unsigned long first = PHYS_PFN(PAGE_ALIGN(__pa(start)));
	unsigned long last = min(PHYS_PFN(__pa(end)), max_pfn);
	unsigned long run = first, freed = 0;

	for (unsigned long pfn = first; pfn <= last; pfn++) {
		if (pfn < last && !boot_held(pfn))
			continue;
		if (pfn > run)
			free_pfn_range(run, pfn);
		freed += pfn - run;
		run = pfn + 1;
	}
	managed_pages += freed;
	pr_info("Freeing %s memory: %luK\n", s, freed << (PAGE_SHIFT - 10));
	return freed;
}

void memblock_release_to_buddy(void)
{
	for (int i = 0; i < nr_free; i++) {
		free_pfn_range(PHYS_PFN(free_ranges[i].start),
			       PHYS_PFN(free_ranges[i].end));
		managed_pages += PHYS_PFN(free_ranges[i].end) -
				 PHYS_PFN(free_ranges[i].start);
	}
	nr_free = 0;
}
