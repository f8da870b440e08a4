/* asm/io_apic.h — the I/O APIC (arch/x86_64/io_apic.c): device interrupt
 * lines (GSIs) routed to a vector of a CPU's local APIC. The MADT
 * (acpi.c) says where it is and which ISA IRQs are wired elsewhere. */
#ifndef ASM_IO_APIC_H
#define ASM_IO_APIC_H

#include <asm/irq.h>
#include <zpk/types.h>

/* GSI g arrives on vector IO_APIC_FIRST_VECTOR + g: just above the
 * 8259's 32..47, far below the local APIC's own (0xec up). */
#define IO_APIC_FIRST_VECTOR	0x30
#define NR_IO_APIC_PINS		24

/* The MADT's flags of an interrupt source override (ACPI's MPS INTI
 * flags): polarity in bits 0..1, trigger mode in bits 2..3. */
#define ACPI_MADT_POLARITY_MASK		0x3
#define ACPI_MADT_POLARITY_ACTIVE_LOW	0x3
#define ACPI_MADT_TRIGGER_MASK		0xc
#define ACPI_MADT_TRIGGER_LEVEL		0xc

/* From acpi.c, boot: the IO-APIC entry (only the one whose GSIs start at
 * 0 is used) and each override of an ISA IRQ. */
void mp_register_ioapic(u8 id, u32 address, u32 gsi_base);
void mp_override_legacy_irq(u8 bus_irq, u32 gsi, u16 flags);

/*
 * Boot: routes PCI's interrupt line irq (the ISA IRQ number the firmware
 * wrote to PCI_INTERRUPT_LINE, through the MADT's override) to the boot
 * CPU, level-triggered, and calls fn for it, then the EOI. Returns the
 * GSI, or -ENODEV (no IO-APIC), -EINVAL, -EBUSY (the GSI has a handler).
 */
int io_apic_request_pci_irq(u8 irq, irq_handler_t fn);
/* From do_trap for the vectors above: false if no handler took it. */
bool do_io_apic_irq(struct pt_regs *regs);
/* Interrupts taken per GSI (for /proc/interrupts-like reports). */
extern unsigned long io_apic_irq_count[NR_IO_APIC_PINS];

#endif
