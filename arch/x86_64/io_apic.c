/* arch/x86_64/io_apic.c — the I/O APIC: a redirection entry per input pin
 * (GSI) says which vector, which CPU, edge or level. The 8259s keep the
 * ISA lines zpk had (COM1 through the boot CPU's LINT0); the IO-APIC
 * carries the PCI lines, which it may deliver level-triggered. */
#include <asm/apic.h>
#include <asm/io_apic.h>
#include <asm/percpu.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/spinlock.h>

/* Two registers: write a register number to IOREGSEL, then read or
 * write it through IOWIN (82093AA datasheet). */
#define IO_APIC_IOREGSEL	0x00
#define IO_APIC_IOWIN		0x10
#define IO_APIC_VER		0x01	/* bits 16..23: pins - 1 */
#define IO_APIC_REDTBL(pin)	(0x10 + 2 * (pin))	/* low, then high */

#define IO_APIC_LEVEL		(1U << 15)
#define IO_APIC_ACTIVE_LOW	(1U << 13)
#define IO_APIC_MASKED		(1U << 16)

static volatile u32 *ioapic;		/* NULL: the MADT listed none */
static phys_addr_t ioapic_phys;
static unsigned int ioapic_pins;
/* IOREGSEL then IOWIN is a pair: no other CPU between them. */
static DEFINE_SPINLOCK(ioapic_lock);
static irq_handler_t gsi_handlers[NR_IO_APIC_PINS];
unsigned long io_apic_irq_count[NR_IO_APIC_PINS];

/* The MADT's overrides, per ISA IRQ: the GSI and flags, if present. */
static struct {
	bool valid;
	u32 gsi;
	u16 flags;
} isa_override[16];

void mp_register_ioapic(u8 id, u32 address, u32 gsi_base)
{
	(void)id;
	if (gsi_base == 0 && !ioapic_phys)
		ioapic_phys = address;
}

void mp_override_legacy_irq(u8 bus_irq, u32 gsi, u16 flags)
{
	if (bus_irq >= 16)
		return;
	isa_override[bus_irq].valid = true;
	isa_override[bus_irq].gsi = gsi;
	isa_override[bus_irq].flags = flags;
}

static void io_apic_write(u32 reg, u32 v)
{
	ioapic[IO_APIC_IOREGSEL / 4] = reg;
	ioapic[IO_APIC_IOWIN / 4] = v;
}

static u32 io_apic_read(u32 reg)
{
	ioapic[IO_APIC_IOREGSEL / 4] = reg;
	return ioapic[IO_APIC_IOWIN / 4];
}

/* Maps the registers on first use (boot: ioremap works only then). */
static int io_apic_map(void)
{
	if (ioapic)
		return 0;
	if (!ioapic_phys)
		return -ENODEV;
	ioapic = ioremap(ioapic_phys, PAGE_SIZE);
	ioapic_pins = ((io_apic_read(IO_APIC_VER) >> 16) & 0xff) + 1;
	if (ioapic_pins > NR_IO_APIC_PINS)
		ioapic_pins = NR_IO_APIC_PINS;
	return 0;
}

/* Fixed delivery, physical destination: the boot CPU's APIC id. */
static void io_apic_route(u32 gsi, u32 low)
{
	unsigned long flags;

	spin_lock_irqsave(&ioapic_lock, flags);
	io_apic_write(IO_APIC_REDTBL(gsi) + 1, per_cpu(lapic_id, 0) << 24);
	io_apic_write(IO_APIC_REDTBL(gsi), low);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

/*
 * Without an override, a PCI line is what the PCI spec says, level and
 * active low (an override's 0 bits mean the ISA bus's edge and high); QEMU's MADT overrides IRQ 5, 9, 10 and 11 (the lines its
 * firmware gives PCI) as level, active high, which is how its PIIX
 * drives them into the IO-APIC.
 */
int io_apic_request_pci_irq(u8 irq, irq_handler_t fn)
{
	u32 gsi = irq, low;
	u16 fl = ACPI_MADT_TRIGGER_LEVEL | ACPI_MADT_POLARITY_ACTIVE_LOW;

	if (io_apic_map())
		return -ENODEV;
	if (irq < 16 && isa_override[irq].valid) {
		gsi = isa_override[irq].gsi;
		fl = isa_override[irq].flags;
	}
	if (gsi >= ioapic_pins || !fn)
		return -EINVAL;
	if (gsi_handlers[gsi])
		return -EBUSY;
	gsi_handlers[gsi] = fn;
	low = IO_APIC_FIRST_VECTOR + gsi;
	if ((fl & ACPI_MADT_TRIGGER_MASK) == ACPI_MADT_TRIGGER_LEVEL)
		low |= IO_APIC_LEVEL;
	if ((fl & ACPI_MADT_POLARITY_MASK) == ACPI_MADT_POLARITY_ACTIVE_LOW)
		low |= IO_APIC_ACTIVE_LOW;
	io_apic_route(gsi, low);
	return gsi;
}

/*
 * The handler first, the EOI after: a level-triggered line stays
 * asserted until the handler has made the device drop it (virtio's ISR
 * read), and an EOI before that would deliver it again at once. The
 * local APIC's EOI reaches the IO-APIC for a level vector (its
 * remote-IRR bit clears), so the line may interrupt again.
 */
bool do_io_apic_irq(struct pt_regs *regs)
{
	u64 gsi = regs->vector - IO_APIC_FIRST_VECTOR;

	if (regs->vector < IO_APIC_FIRST_VECTOR || gsi >= NR_IO_APIC_PINS ||
	    !gsi_handlers[gsi])
		return false;
	io_apic_irq_count[gsi]++;
	gsi_handlers[gsi](regs);
	ack_APIC_irq();
	return true;
}
