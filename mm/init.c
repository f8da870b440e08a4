/* mm/init.c — bringing memory management up at boot, in order:
 * memblock, the kernel page tables, mem_map, the zero page, the buddy lists
 * (and huge_zero_page=persistent's page). */
#include <asm/sections.h>
#include <zpk/huge_mm.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/slab.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

static void print_layout(void)
{
	pr_info("Virtual kernel memory layout:\n");
	pr_info("  direct map  : %#018lx - %#018lx (%5llu MiB)\n",
		PAGE_OFFSET, PAGE_OFFSET + (unsigned long)memblock_end_of_ram(),
		(unsigned long long)memblock_end_of_ram() >> 20);
	pr_info("  mem_map     : %#018lx - %#018lx (%5lu KiB)\n",
		(unsigned long)mem_map, (unsigned long)(mem_map + max_pfn),
		max_pfn * sizeof(struct page) >> 10);
	pr_info("  kernel text : %#018lx - %#018lx (r-x)\n",
		(unsigned long)_text, (unsigned long)_etext);
	pr_info("  rodata      : %#018lx - %#018lx (r--)\n",
		(unsigned long)_rodata, (unsigned long)_erodata);
	pr_info("  data, bss   : %#018lx - %#018lx (rw-)\n",
		(unsigned long)_data, (unsigned long)_end);
	pr_info("  zero page   : %#018lx pfn %#lx (r--, also in the direct map)\n",
		(unsigned long)empty_zero_page, zero_pfn);
}

void mm_init(void)
{
	phys_addr_t map;

	memblock_init();
	paging_init();
	max_pfn = PHYS_PFN(memblock_end_of_ram());
	map = memblock_alloc(max_pfn * sizeof(struct page), ~0ULL);
	mem_map_init(__va(map), max_pfn);
	zero_page_init();
	memblock_release_to_buddy();
	mod_vm_stat(NR_PAGE_TABLE_PAGES, nr_boot_pgtables);
	kmalloc_init();
	print_layout();
	pr_info("Memory: %lu KiB free of %lu KiB RAM (%lu KiB taken at boot "
		"for mem_map and page tables)\n",
		nr_free_pages() << (PAGE_SHIFT - 10),
		totalram_pages() << (PAGE_SHIFT - 10),
		memblock_reserved_pages << (PAGE_SHIFT - 10));
	thp_init();
}
