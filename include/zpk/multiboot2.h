/* zpk/multiboot2.h — the parts of the multiboot2 boot information zpk reads.
 * Layouts from the Multiboot2 specification, section 3.6. */
#ifndef ZPK_MULTIBOOT2_H
#define ZPK_MULTIBOOT2_H

#include <zpk/types.h>

#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289

#define MB2_TAG_END	0
#define MB2_TAG_CMDLINE	1
#define MB2_TAG_LOADER	2
#define MB2_TAG_MODULE	3
#define MB2_TAG_MMAP	6
#define MB2_TAG_ACPI_OLD 14	/* a copy of the ACPI 1.0 RSDP */
#define MB2_TAG_ACPI_NEW 15	/* a copy of the ACPI 2.0+ RSDP */

#define MB2_MEMORY_AVAILABLE	1
#define MB2_MEMORY_RESERVED	2
#define MB2_MEMORY_ACPI		3
#define MB2_MEMORY_NVS		4
#define MB2_MEMORY_BADRAM	5

struct mb2_info {
	u32 total_size;
	u32 reserved;
};

struct mb2_tag {
	u32 type;
	u32 size;
};

struct mb2_tag_string {		/* CMDLINE, LOADER */
	u32 type, size;
	char string[];
};

struct mb2_tag_module {
	u32 type, size;
	u32 mod_start, mod_end;
	char cmdline[];
};

struct mb2_mmap_entry {
	u64 addr, len;
	u32 type, zero;
};

struct mb2_tag_mmap {
	u32 type, size;
	u32 entry_size, entry_version;
	struct mb2_mmap_entry entries[];
};

/* What zpk keeps of the boot information, parsed once at boot. */
#define BOOT_MAX_RANGES 64
#define BOOT_MAX_MODULES 8
struct boot_range {
	u64 start, end;		/* [start, end) */
	u32 type;
};
struct boot_module {
	u64 start, end;
	char name[64];
};
struct boot_info {
	phys_addr_t info_start, info_end;
	int nr_ranges;
	struct boot_range ranges[BOOT_MAX_RANGES];
	int nr_modules;
	struct boot_module modules[BOOT_MAX_MODULES];
	char loader[64];
	u8 rsdp[36];		/* the ACPI RSDP GRUB found, if any */
	u32 rsdp_len;		/* 0: none, 20: ACPI 1.0, 36: 2.0+ */
};
extern struct boot_info boot_info;

void multiboot2_parse(u32 magic, phys_addr_t info);
void multiboot2_print(void);
const char *mb2_memory_type_name(u32 type);

#endif
