/* kernel/kallsyms.c — looks up function names in the generated table.
 * The table is sorted by address; lookups are a binary search. */
#include <asm/sections.h>
#include <zpk/kallsyms.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>

extern const unsigned long kallsyms_num;
extern const unsigned long kallsyms_addresses[];
extern const unsigned int kallsyms_offsets[];
extern const char kallsyms_names[];

static long kallsyms_index(unsigned long addr)
{
	long lo = 0, hi = (long)kallsyms_num - 1, found = -1;

	if (addr < (unsigned long)_text || addr >= (unsigned long)_etext)
		return -1;
	while (lo <= hi) {
		long mid = (lo + hi) / 2;

		if (kallsyms_addresses[mid] <= addr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	long i = kallsyms_index(addr);
	unsigned long end;

	if (i < 0)
		return NULL;
	/* Aliases share an address: the next *different* address ends it. */
	end = (unsigned long)_etext;
	for (unsigned long j = i + 1; j < kallsyms_num; j++)
		if (kallsyms_addresses[j] > kallsyms_addresses[i]) {
			end = kallsyms_addresses[j];
			break;
		}
	if (size)
		*size = end - kallsyms_addresses[i];
	if (offset)
		*offset = addr - kallsyms_addresses[i];
	return kallsyms_names + kallsyms_offsets[i];
}

int sprint_symbol(char *buf, size_t n, unsigned long addr)
{
	unsigned long size, off;
	const char *name = kallsyms_lookup(addr, &size, &off);

	if (!name)
		return snprintf(buf, n, "%#lx", addr);
	return snprintf(buf, n, "%s+%#lx/%#lx", name, off, size);
}

unsigned long kallsyms_lookup_name(const char *name)
{
	for (unsigned long i = 0; i < kallsyms_num; i++)
		if (!strcmp(kallsyms_names + kallsyms_offsets[i], name))
			return kallsyms_addresses[i];
	return 0;
}
