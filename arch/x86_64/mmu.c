/* arch/x86_64/mmu.c — the kernel's own page tables, built once at boot:
 * a direct map of all RAM at PAGE_OFFSET and the kernel image with W^X. */
#include <asm/io.h>
#include <asm/pgtable.h>
#include <asm/sections.h>
#include <zpk/bug.h>
#include <zpk/memblock.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/string.h>
#include <zpk/mm.h>
#include <zpk/uaccess.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>

pgd_t *init_pgd;		/* the kernel half is shared by every mm */
unsigned long nr_boot_pgtables;	/* page-table pages made here */
static bool have_gbpages;
bool have_smap;			/* uaccess brackets user access with stac */

/* Until the buddy allocator runs, page tables come from memblock, below
 * 1 GiB so that the boot direct map can reach them to clear them. */
static void *alloc_pgtable_page(void)
{
	void *p;

	if (mem_map) {
		p = (void *)get_zeroed_page(GFP_KERNEL);
		BUG_ON(!p);
		inc_vm_stat(NR_PAGE_TABLE_PAGES);
		return p;
	}
	p = __va(memblock_alloc(PAGE_SIZE, 1UL << 30));
	memset(p, 0, PAGE_SIZE);
	nr_boot_pgtables++;
	return p;
}

/* Tables above a user address must allow user access too. */
static u64 table_flags(unsigned long va)
{
	return va < TASK_SIZE ? _PAGE_TABLE : _KERNPG_TABLE;
}

/* Table allocation for init_pgd, the kernel's own (Linux's pud_alloc and pmd_alloc
 * take an mm and return NULL when out of memory; these BUG). */
static pud_t *pud_alloc_kernel(pgd_t *pgd, unsigned long va)
{
	if (pgd_none(*pgd))
		set_pgd(pgd, __pgd(__pa(alloc_pgtable_page()) | table_flags(va)));
	return pud_offset(pgd, va);
}

static pmd_t *pmd_alloc_kernel(pud_t *pud, unsigned long va)
{
	if (pud_none(*pud))
		set_pud(pud, __pud(__pa(alloc_pgtable_page()) | table_flags(va)));
	BUG_ON(pud_leaf(*pud));
	return pmd_offset(pud, va);
}

static pte_t *pte_alloc_kernel(pmd_t *pmd, unsigned long va)
{
	if (pmd_none(*pmd))
		set_pmd(pmd, __pmd(__pa(alloc_pgtable_page()) | table_flags(va)));
	BUG_ON(pmd_leaf(*pmd));
	return pte_offset_kernel(pmd, va);
}

/* Maps one page of size 4 KiB, 2 MiB or 1 GiB at va -> pa. */
static void map_one(unsigned long va, phys_addr_t pa, unsigned long size,
		    pgprot_t prot)
{
	pud_t *pud = pud_alloc_kernel(pgd_offset_k(va), va);
	pmd_t *pmd;

	if (size == PUD_SIZE) {
		set_pud(pud, __pud(pa | pgprot_val(prot) | _PAGE_PSE));
		return;
	}
	pmd = pmd_alloc_kernel(pud, va);
	if (size == PMD_SIZE) {
		set_pmd(pmd, __pmd(pa | pgprot_val(prot) | _PAGE_PSE));
		return;
	}
	set_pte(pte_alloc_kernel(pmd, va), pfn_pte(PHYS_PFN(pa), prot));
}

/* Maps one 4 KiB page in init_pgd (tests, early users); flushes it. */
void kernel_map_page(unsigned long va, phys_addr_t pa, pgprot_t prot)
{
	map_one(va, pa, PAGE_SIZE, prot);
	flush_tlb_page(va);
}

/* Undoes kernel_map_page: clears a 4 KiB mapping at va and flushes it. */
void kernel_unmap_page(unsigned long va)
{
	enum pg_level level;
	pte_t *pte = lookup_address(va, &level);

	if (pte && level == PG_LEVEL_4K)
		pte_clear(pte);
	flush_tlb_page(va);
}

/*
 * Firmware tables and device registers outside RAM (ACPI tables, the local
 * APIC) are reached at their direct-map address too, __va(pa): the pages
 * of [pa, pa + size) that are not mapped yet get 4 KiB mappings with prot.
 * At boot only, before the other CPUs start: nothing locks init_pgd.
 */
static void *map_phys_range(phys_addr_t pa, unsigned long size,
			    pgprot_t prot)
{
	phys_addr_t p;
	enum pg_level level;

	for (p = pa & PAGE_MASK; p < pa + size; p += PAGE_SIZE)
		if (!lookup_address((unsigned long)__va(p), &level))
			kernel_map_page((unsigned long)__va(p), p, prot);
	return __va(pa);
}

/* Memory that is not RAM to the allocator but is cacheable (ACPI). */
void *memremap(phys_addr_t pa, unsigned long size)
{
	return map_phys_range(pa, size, PAGE_KERNEL);
}

/* Device registers: uncached, every access reaches the device. */
void *ioremap(phys_addr_t pa, unsigned long size)
{
	return map_phys_range(pa, size, PAGE_KERNEL_NOCACHE);
}

/* The kernel image's physical pages, whose direct-map alias gets 4 KiB
 * pages so that single pages (the zero page) can be made read-only. */
static phys_addr_t image_start, image_end;

static bool overlaps_image(phys_addr_t pa, unsigned long size)
{
	return pa < image_end && pa + size > image_start;
}

static pgprot_t direct_map_prot(phys_addr_t pa)
{
	if (pa == __pa(empty_zero_page))
		return PAGE_KERNEL_RO;
	return PAGE_KERNEL;
}

/* Direct map of [start, end): the largest page size that fits each step. */
static void map_direct(phys_addr_t start, phys_addr_t end)
{
	phys_addr_t pa = start;

	while (pa < end) {
		unsigned long size = PAGE_SIZE;

		if (have_gbpages && !(pa & (PUD_SIZE - 1)) &&
		    pa + PUD_SIZE <= end && !overlaps_image(pa, PUD_SIZE))
			size = PUD_SIZE;
		else if (!(pa & (PMD_SIZE - 1)) && pa + PMD_SIZE <= end &&
			 !overlaps_image(pa, PMD_SIZE))
			size = PMD_SIZE;
		map_one(PAGE_OFFSET + pa, pa, size,
			size == PAGE_SIZE ? direct_map_prot(pa) : PAGE_KERNEL);
		pa += size;
	}
}

/* W^X: text read-only and executable, rodata read-only, data writable;
 * nothing writable is executable. The zero page is read-only here too. */
static pgprot_t image_prot(unsigned long va)
{
	if (va >= (unsigned long)_text && va < (unsigned long)_etext)
		return PAGE_KERNEL_EXEC;
	if (va < (unsigned long)_data ||
	    va == (unsigned long)empty_zero_page)
		return PAGE_KERNEL_RO;
	return PAGE_KERNEL;
}

static void map_kernel_image(void)
{
	for (unsigned long va = (unsigned long)_text;
	     va < (unsigned long)_end; va += PAGE_SIZE)
		map_one(va, __pa((void *)va), PAGE_SIZE, image_prot(va));
}

pte_t *lookup_address(unsigned long va, enum pg_level *level)
{
	pgd_t *pgd = pgd_offset_k(va);
	pud_t *pud;
	pmd_t *pmd;
	pte_t *pte;

	*level = PG_LEVEL_NONE;
	if (pgd_none(*pgd))
		return NULL;
	pud = pud_offset(pgd, va);
	if (pud_none(*pud))
		return NULL;
	if (pud_leaf(*pud)) {
		*level = PG_LEVEL_1G;
		return (pte_t *)pud;
	}
	pmd = pmd_offset(pud, va);
	if (pmd_none(*pmd))
		return NULL;
	if (pmd_leaf(*pmd)) {
		*level = PG_LEVEL_2M;
		return (pte_t *)pmd;
	}
	pte = pte_offset_kernel(pmd, va);
	if (!pte_present(*pte))
		return NULL;
	*level = PG_LEVEL_4K;
	return pte;
}

void flush_tlb_all(void)
{
	u64 cr4 = read_cr4();

	/* Toggling PGE flushes global entries too; a CR3 write would not. */
	write_cr4(cr4 & ~X86_CR4_PGE);
	write_cr4(cr4);
}

static void cpu_features_init(void)
{
	u32 a, b, c, d;

	cpuid(0x80000001, 0, &a, &b, &c, &d);
	have_gbpages = d & (1U << 26);
	if (!(d & (1U << 20)))
		panic("mmu: CPU lacks NX; zpk's W^X needs it");
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	write_cr4(read_cr4() | X86_CR4_PGE);
	write_cr0(read_cr0() | X86_CR0_WP);	/* ring 0 obeys read-only */
	cpuid(7, 0, &a, &b, &c, &d);
	if (b & (1U << 7))	/* SMEP: never execute user pages in ring 0 */
		write_cr4(read_cr4() | X86_CR4_SMEP);
	if (b & (1U << 20)) {	/* SMAP: touch user pages only via uaccess */
		write_cr4(read_cr4() | X86_CR4_SMAP);
		have_smap = true;
	}
}

void paging_init(void)
{
	cpu_features_init();
	image_start = __pa(_text);
	image_end = __pa(_end);
	init_pgd = alloc_pgtable_page();
	map_direct(0, 0x100000);		/* BIOS area, VGA text */
	for_each_ram_range(map_direct);
	map_kernel_image();
	write_cr3(__pa(init_pgd));	/* the identity map is gone from here */
	flush_tlb_all();
	pr_info("mmu: direct map of %llu MiB at %#lx (%s pages), %lu "
		"page-table pages; W^X image; CR0.WP, EFER.NXE%s%s on\n",
		(unsigned long long)memblock_end_of_ram() >> 20, PAGE_OFFSET,
		have_gbpages ? "1 GiB/2 MiB/4 KiB" : "2 MiB/4 KiB",
		nr_boot_pgtables, read_cr4() & X86_CR4_SMEP ? ", SMEP" : "",
		have_smap ? ", SMAP" : "");
}
