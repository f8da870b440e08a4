/* asm/acpi.h — the CPUs ACPI lists (arch/x86_64/acpi.c). */
#ifndef ASM_ACPI_H
#define ASM_ACPI_H

/*
 * Reads the MADT and registers each enabled local APIC (a CPU) with
 * register_lapic. 0, or -ENODEV without an RSDP or MADT: then the boot
 * CPU is the only one.
 */
int acpi_boot_init(void);

#endif
