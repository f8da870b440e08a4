/* zpk/kallsyms.h — function names for addresses, from the link-time table.
 * scripts/gen-kallsyms.sh writes the table; see the Makefile's two passes. */
#ifndef ZPK_KALLSYMS_H
#define ZPK_KALLSYMS_H

#include <zpk/types.h>

/* Name of the function containing addr, or NULL; *offset, *size if found. */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);
/* "name+0xoff/0xsize" or the bare hex address; returns the length. */
int sprint_symbol(char *buf, size_t n, unsigned long addr);
/* Address of a function by name, or 0. */
unsigned long kallsyms_lookup_name(const char *name);

/* Print a backtrace by walking the frame-pointer chain from rbp. */
void show_stack(unsigned long rip, unsigned long rbp);
/* The same from the caller's own frame. */
void dump_stack(void);

#endif
