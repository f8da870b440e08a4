/* zpk/mmu.h — the kernel's page tables and their set-up at boot.
 * init_pgd's upper half is copied into every user address space. */
#ifndef ZPK_MMU_H
#define ZPK_MMU_H

#include <asm/pgtable.h>

extern pgd_t *init_pgd;
extern unsigned long nr_boot_pgtables;

/* Builds the direct map and the W^X kernel image map, then switches CR3. */
void paging_init(void);
/* Maps one 4 KiB page at va in init_pgd (user va gets user tables). */
void kernel_map_page(unsigned long va, phys_addr_t pa, pgprot_t prot);
/* Removes a 4 KiB mapping made by kernel_map_page (the frame is kept). */
void kernel_unmap_page(unsigned long va);
extern bool have_smap;
/* Boot only: physical memory outside RAM made reachable at __va(pa), and
 * that address returned; memremap is cached (ACPI tables), ioremap not
 * (device registers such as the local APIC's). */
void *memremap(phys_addr_t pa, unsigned long size);
void *ioremap(phys_addr_t pa, unsigned long size);

enum pg_level { PG_LEVEL_NONE, PG_LEVEL_4K, PG_LEVEL_2M, PG_LEVEL_1G };
/* The entry that maps va in the kernel tables (a pte, or a huge pmd/pud
 * cast to pte_t), with its level; NULL if va is not mapped. */
pte_t *lookup_address(unsigned long va, enum pg_level *level);

#endif
