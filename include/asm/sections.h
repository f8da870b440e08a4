/* asm/sections.h — the image's parts, as linker.ld names their bounds
 * (Linux's asm-generic/sections.h): the boot code from _boot_start, text,
 * read-only data and data, and the end of the image. Addresses only:
 * nothing may be read or written through them but what lies there. */
#ifndef ASM_SECTIONS_H
#define ASM_SECTIONS_H

extern const char _boot_start[];
extern const char _text[], _etext[];
extern const char _rodata[], _erodata[];
extern const char _data[], _end[];

#endif
