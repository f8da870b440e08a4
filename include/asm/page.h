/* asm/page.h — x86-64 page size and the kernel's virtual address layout.
 * __va/__pa convert through the direct map at PAGE_OFFSET (Linux's value). */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <zpk/types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x)	(((x) + PAGE_SIZE - 1) & PAGE_MASK)

#define PAGE_OFFSET	0xffff888000000000UL	/* direct map of all RAM */
#define KERNEL_VMA	0xffffffff80000000UL	/* kernel image, phys 0 */

#ifdef HOST_TEST
/* Host tests simulate RAM with a buffer: physical 0 is host_ram_base. */
extern char *host_ram_base;
#define __va(pa)	((void *)(host_ram_base + (unsigned long)(pa)))
#define __pa(va)	((phys_addr_t)((char *)(va) - host_ram_base))
#else
#define __va(pa)	((void *)((unsigned long)(pa) + PAGE_OFFSET))
/* __pa accepts direct-map and kernel-image addresses alike. */
static inline phys_addr_t __pa(const void *va)
{
	unsigned long v = (unsigned long)va;

	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - PAGE_OFFSET;
}
#endif

#define PHYS_PFN(pa)	((unsigned long)((pa) >> PAGE_SHIFT))
#define PFN_PHYS(pfn)	((phys_addr_t)(pfn) << PAGE_SHIFT)

#endif
