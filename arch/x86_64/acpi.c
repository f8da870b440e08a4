/* arch/x86_64/acpi.c — the CPUs and the IO-APIC, as ACPI lists them: the
 * RSDP (GRUB's copy, else found in the BIOS areas), the RSDT or XSDT, and
 * the MADT's entries (local APICs, IO-APIC, interrupt overrides). */
#include <asm/acpi.h>
#include <asm/io_apic.h>
#include <asm/smp.h>
#include <zpk/compiler.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/multiboot2.h>
#include <zpk/printk.h>
#include <zpk/string.h>

/* Layouts from the ACPI specification (Linux's include/acpi/actbl*.h). */
struct acpi_table_rsdp {
	char signature[8];		/* "RSD PTR " */
	u8 checksum;			/* of the first 20 bytes */
	char oem_id[6];
	u8 revision;			/* 0: ACPI 1.0, 2: 2.0 and later */
	u32 rsdt_physical_address;
	u32 length;			/* 2.0 on: the whole structure */
	u64 xsdt_physical_address;
	u8 extended_checksum;
	u8 reserved[3];
} __packed;

struct acpi_table_header {
	char signature[4];
	u32 length;			/* header included */
	u8 revision;
	u8 checksum;			/* all bytes add up to 0 */
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	char asl_compiler_id[4];
	u32 asl_compiler_revision;
} __packed;

/* The MADT ("APIC"): a header, then variable-length entries. */
struct acpi_table_madt {
	struct acpi_table_header header;
	u32 address;			/* of the local APICs */
	u32 flags;
} __packed;

struct acpi_subtable_header {
	u8 type;
	u8 length;
} __packed;

#define ACPI_MADT_TYPE_LOCAL_APIC	0
#define ACPI_MADT_TYPE_IO_APIC		1
#define ACPI_MADT_TYPE_INTERRUPT_OVERRIDE 2
#define ACPI_MADT_ENABLED		1	/* lapic_flags: usable */

struct acpi_madt_local_apic {
	struct acpi_subtable_header header;
	u8 processor_id;		/* ACPI's number for the CPU */
	u8 id;				/* its local APIC's id */
	u32 lapic_flags;
} __packed;

struct acpi_madt_io_apic {
	struct acpi_subtable_header header;
	u8 id;
	u8 reserved;
	u32 address;
	u32 global_irq_base;
} __packed;

/* An ISA IRQ wired to another GSI, or with other polarity or trigger. */
struct acpi_madt_interrupt_override {
	struct acpi_subtable_header header;
	u8 bus;				/* 0: ISA */
	u8 source_irq;
	u32 global_irq;
	u16 inti_flags;
} __packed;

static u8 acpi_checksum(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum;
}

static bool rsdp_valid(const struct acpi_table_rsdp *r)
{
	return !memcmp(r->signature, "RSD PTR ", 8) && !acpi_checksum(r, 20);
}

/* The ACPI spec's places: the first KiB of the EBDA, then the BIOS ROM
 * area 0xe0000..0xfffff, on 16-byte boundaries. */
static const struct acpi_table_rsdp *acpi_scan_rsdp(void)
{
	phys_addr_t ebda = (phys_addr_t)*(const u16 *)__va(0x40e) << 4;
	phys_addr_t areas[2][2] = { { ebda, ebda + 1024 },
				    { 0xe0000, 0x100000 } };

	for (int i = 0; i < 2; i++)
		for (phys_addr_t p = areas[i][0]; p + 20 <= areas[i][1];
		     p += 16)
			if (rsdp_valid(__va(p)))
				return __va(p);
	return NULL;
}

/* GRUB's copy of the RSDP (multiboot2 tags 14/15), else the scan. */
static const struct acpi_table_rsdp *acpi_find_rsdp(void)
{
	const struct acpi_table_rsdp *r = (const void *)boot_info.rsdp;

	if (boot_info.rsdp_len && rsdp_valid(r))
		return r;
	return acpi_scan_rsdp();
}

/* The table at pa, mapped whole, or NULL if its checksum is wrong. */
static const struct acpi_table_header *acpi_map_table(phys_addr_t pa)
{
	const struct acpi_table_header *h = memremap(pa, sizeof(*h));

	h = memremap(pa, h->length);
	return acpi_checksum(h, h->length) ? NULL : h;
}

/* The first table with signature sig in the XSDT (ACPI 2.0 on, 64-bit
 * pointers) or the RSDT (32-bit pointers); NULL if there is none. */
static const struct acpi_table_header *
acpi_get_table(const struct acpi_table_rsdp *rsdp, const char *sig)
{
	bool xsdt = rsdp->revision >= 2 && rsdp->xsdt_physical_address;
	const struct acpi_table_header *root, *t;
	unsigned int size = xsdt ? 8 : 4, n;
	const u8 *entry;

	root = acpi_map_table(xsdt ? rsdp->xsdt_physical_address
				   : rsdp->rsdt_physical_address);
	if (!root)
		return NULL;
	n = (root->length - sizeof(*root)) / size;
	entry = (const u8 *)(root + 1);
	for (unsigned int i = 0; i < n; i++, entry += size) {
		u64 pa = 0;

		memcpy(&pa, entry, size);
		t = acpi_map_table(pa);
		if (t && !memcmp(t->signature, sig, 4))
			return t;
	}
	return NULL;
}

static void acpi_parse_madt_entry(const struct acpi_subtable_header *e)
{
	const struct acpi_madt_local_apic *lapic = (const void *)e;
	const struct acpi_madt_io_apic *ioapic = (const void *)e;
	const struct acpi_madt_interrupt_override *iso = (const void *)e;

	switch (e->type) {
	case ACPI_MADT_TYPE_LOCAL_APIC:
		pr_info("ACPI: LAPIC (acpi_id[%#04x] lapic_id[%#04x] %s)\n",
			lapic->processor_id, lapic->id,
			lapic->lapic_flags & ACPI_MADT_ENABLED ? "enabled"
							       : "disabled");
		if (lapic->lapic_flags & ACPI_MADT_ENABLED)
			register_lapic(lapic->id);
		break;
	case ACPI_MADT_TYPE_IO_APIC:
		pr_info("ACPI: IOAPIC (id[%#04x] address[%#x] gsi_base[%u])\n",
			ioapic->id, ioapic->address, ioapic->global_irq_base);
		mp_register_ioapic(ioapic->id, ioapic->address,
				   ioapic->global_irq_base);
		break;
	case ACPI_MADT_TYPE_INTERRUPT_OVERRIDE:
		mp_override_legacy_irq(iso->source_irq, iso->global_irq,
				       iso->inti_flags);
		break;
	}
}

/*
 * Reads the MADT and registers each enabled local APIC (a CPU) with
 * register_lapic. 0, or -ENODEV without an RSDP or MADT: then the boot
 * CPU is the only one.
 */
int acpi_boot_init(void)
{
	const struct acpi_table_rsdp *rsdp = acpi_find_rsdp();
	const struct acpi_table_madt *madt;
	const u8 *p, *end;

	if (!rsdp) {
		pr_warn("ACPI: no RSDP found: one CPU\n");
		return -ENODEV;
	}
	pr_info("ACPI: RSDP %.6s revision %u (%s)\n", rsdp->oem_id,
		rsdp->revision, boot_info.rsdp_len ? "from GRUB" : "scanned");
	madt = (const void *)acpi_get_table(rsdp, "APIC");
	if (!madt) {
		pr_warn("ACPI: no MADT: one CPU\n");
		return -ENODEV;
	}
	end = (const u8 *)madt + madt->header.length;
	for (p = (const u8 *)(madt + 1); p + 2 <= end; ) {
		const struct acpi_subtable_header *e = (const void *)p;

		if (e->length < 2)
			break;
		acpi_parse_madt_entry(e);
		p += e->length;
	}
	return 0;
}
