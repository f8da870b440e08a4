/* mm/zero_page.c — empty_zero_page: one page of zeros shared by every
 * zero-page mapping; read-only in both its kernel mappings (see mmu.c). */
#include <zpk/bug.h>
#include <zpk/zero_page.h>

/* Its own section so the linker gives it a page alone: mmu.c maps exactly
 * this page read-only in the image map and in the direct map. */
char empty_zero_page[PAGE_SIZE]
	__section(".bss..zero_page") __aligned(PAGE_SIZE);
unsigned long zero_pfn;

void zero_page_init(void)
{
	struct page *page;

	zero_pfn = PHYS_PFN(__pa(empty_zero_page));
	page = pfn_to_page(zero_pfn);
	page_set_flag(page, PG_zero);
	page_set_flag(page, PG_reserved);
}

long zero_page_first_nonzero(void)
{
	const u64 *p = (const u64 *)empty_zero_page;

	for (unsigned long i = 0; i < PAGE_SIZE / 8; i++)
		if (p[i])
			for (unsigned long b = i * 8; b < i * 8 + 8; b++)
				if (empty_zero_page[b])
					return (long)b;
	return -1;
}

void zero_page_verify(void)
{
	long off = zero_page_first_nonzero();

	if (off >= 0)
		BUGF("zero page (pfn %#lx) corrupted: byte %#lx is %#x",
		     zero_pfn, off, (u8)empty_zero_page[off]);
}
