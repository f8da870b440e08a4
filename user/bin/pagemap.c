/* user/bin/pagemap.c — pagemap ADDR LEN [PID]: each page's pagemap entry
 * (present, pfn, file/exclusive bits) and, with root, its kpageflags. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

static void show(unsigned long va, uint64_t e)
{
	char names[512] = "";
	long long fl = -1, cnt = -1;
	uint64_t pfn = PM_PFN(e);

	/* Without root Linux reads the pfn as 0: no flags to look up. */
	if ((e & PM_PRESENT) && pfn) {
		fl = kpageflags(pfn);
		cnt = kpagecount(pfn);
	}
	if (fl >= 0)
		kpf_names(fl, names, sizeof(names));
	printf("%016lx %c %10llx %-4s %-4s", va, e & PM_PRESENT ? 'P' : '-',
	       (unsigned long long)pfn, e & PM_FILE ? "file" : "-",
	       e & PM_EXCLUSIVE ? "excl" : "-");
	if (cnt >= 0)
		printf(" %5lld", cnt);
	else
		printf(" %5s", "-");
	printf(" %s\n", fl >= 0 ? names : (e & PM_PRESENT) ? "(no kpageflags)"
							  : "");
}

int main(int argc, char **argv)
{
	unsigned long addr, len, i, n;
	uint64_t ents[512];
	int pid = 0;
	long got;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pagemap ADDR LEN [PID]\n");
		return 2;
	}
	addr = strtoul(argv[1], NULL, 0) & ~4095UL;
	len = strtoul(argv[2], NULL, 0);
	if (argc == 4)
		pid = atoi(argv[3]);
	for (i = 0; i < (len + 4095) / 4096; i += n) {
		n = (len + 4095) / 4096 - i;
		if (n > 512)
			n = 512;
		got = pagemap_read(pid, addr + i * 4096, ents, n);
		if (got < 0) {
			fprintf(stderr, "pagemap: cannot read /proc/%s/pagemap:"
				" %s\n", argv[3] ? argv[3] : "self",
				strerror(errno));
			return 1;
		}
		if (got == 0)
			break;
		if (i == 0)
			printf("%-16s %c %10s %-4s %-4s %5s %s\n", "VADDR", 'P',
			       "PFN", "FILE", "EXCL", "COUNT", "KPAGEFLAGS");
		n = got;
		for (got = 0; got < (long)n; got++)
			show(addr + (i + got) * 4096, ents[got]);
	}
	return 0;
}
