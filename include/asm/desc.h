/* asm/desc.h — the operand of lgdt/lidt: a table's limit and address.
 * Shared by the GDT and IDT set-up. */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#include <zpk/compiler.h>
#include <zpk/types.h>

struct desc_ptr {
	u16 size;
	u64 address;
} __packed;

#endif
