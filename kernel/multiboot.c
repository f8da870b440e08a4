/* kernel/multiboot.c — reads GRUB's multiboot2 information once at boot.
 * Copies the memory map, command line and module list into boot_info. */
#include <asm/page.h>
#include <zpk/multiboot2.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/string.h>
#include <zpk/bug.h>

struct boot_info boot_info;
char boot_command_line[1024];

static void parse_mmap(const struct mb2_tag_mmap *t)
{
	const u8 *p = (const u8 *)t->entries;
	const u8 *end = (const u8 *)t + t->size;

	for (; p + t->entry_size <= end; p += t->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;
		struct boot_range *r;

		if (boot_info.nr_ranges == BOOT_MAX_RANGES) {
			pr_warn("multiboot2: more than %d memory ranges\n",
				BOOT_MAX_RANGES);
			return;
		}
		r = &boot_info.ranges[boot_info.nr_ranges++];
		r->start = e->addr;
		r->end = e->addr + e->len;
		r->type = e->type;
	}
}

static void parse_module(const struct mb2_tag_module *t)
{
	struct boot_module *m;

	if (boot_info.nr_modules == BOOT_MAX_MODULES)
		return;
	m = &boot_info.modules[boot_info.nr_modules++];
	m->start = t->mod_start;
	m->end = t->mod_end;
	strlcpy(m->name, t->cmdline, sizeof(m->name));
}

/* GRUB's copy of the RSDP; ACPI 2.0's (XSDT) wins over 1.0's. */
static void parse_acpi(const struct mb2_tag *t)
{
	u32 len = t->size - sizeof(*t);

	if (len > sizeof(boot_info.rsdp))
		len = sizeof(boot_info.rsdp);
	if (len < boot_info.rsdp_len)
		return;
	memcpy(boot_info.rsdp, t + 1, len);
	boot_info.rsdp_len = len;
}

/* magic and info come from the loader in eax/ebx; info is physical. */
void multiboot2_parse(u32 magic, phys_addr_t info)
{
	const struct mb2_info *mbi = __va(info);
	const u8 *p = (const u8 *)(mbi + 1);

	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC)
		panic("multiboot2: bad magic %x", magic);
	boot_info.info_start = info;
	boot_info.info_end = info + mbi->total_size;
	for (;;) {
		const struct mb2_tag *t = (const void *)p;

		if (t->type == MB2_TAG_END)
			break;
		if (t->type == MB2_TAG_CMDLINE)
			strlcpy(boot_command_line,
				((const struct mb2_tag_string *)t)->string,
				sizeof(boot_command_line));
		else if (t->type == MB2_TAG_LOADER)
			strlcpy(boot_info.loader,
				((const struct mb2_tag_string *)t)->string,
				sizeof(boot_info.loader));
		else if (t->type == MB2_TAG_MMAP)
			parse_mmap((const void *)t);
		else if (t->type == MB2_TAG_MODULE)
			parse_module((const void *)t);
		else if (t->type == MB2_TAG_ACPI_OLD ||
			 t->type == MB2_TAG_ACPI_NEW)
			parse_acpi(t);
		p += ALIGN_UP(t->size, 8);
	}
}

const char *mb2_memory_type_name(u32 type)
{
	switch (type) {
	case MB2_MEMORY_AVAILABLE:	return "usable";
	case MB2_MEMORY_RESERVED:	return "reserved";
	case MB2_MEMORY_ACPI:		return "ACPI data";
	case MB2_MEMORY_NVS:		return "ACPI NVS";
	case MB2_MEMORY_BADRAM:		return "bad RAM";
	default:			return "unknown";
	}
}

void multiboot2_print(void)
{
	u64 usable = 0;

	pr_info("BIOS-provided physical RAM map (from %s):\n",
		boot_info.loader[0] ? boot_info.loader : "the loader");
	for (int i = 0; i < boot_info.nr_ranges; i++) {
		const struct boot_range *r = &boot_info.ranges[i];

		pr_info("  [mem %#018llx-%#018llx] %8llu KiB  %s\n",
			(unsigned long long)r->start,
			(unsigned long long)r->end - 1,
			(unsigned long long)(r->end - r->start) >> 10,
			mb2_memory_type_name(r->type));
		if (r->type == MB2_MEMORY_AVAILABLE)
			usable += r->end - r->start;
	}
	pr_info("Memory: %llu KiB usable RAM in %d ranges\n",
		(unsigned long long)usable >> 10, boot_info.nr_ranges);
	for (int i = 0; i < boot_info.nr_modules; i++)
		pr_info("  module %s: [%#llx-%#llx)\n",
			boot_info.modules[i].name,
			(unsigned long long)boot_info.modules[i].start,
			(unsigned long long)boot_info.modules[i].end);
}
