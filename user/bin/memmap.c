/* user/bin/memmap.c — memmap [--plain] [-p PID] [-w WIDTH]: every physical
 * page as one character, from /proc/kpageflags and /proc/kpagecount, with
 * a legend that counts each kind (WeensyOS's memory viewer, for zpk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

#define CHUNK	4096

/* The kinds, in the order a page is tested for them. */
enum kind { FREE, ZERO, KERNEL, PGTABLE, SLAB, SHARED, ANON, FILE_MAPPED,
	    OTHER, NR_KINDS };

static const struct {
	char c;
	const char *colour, *what;
} kinds[NR_KINDS] = {
	[FREE]		= { '.', "2", "free (buddy allocator)" },
	[ZERO]		= { 'Z', "1;33", "the zero page" },
	[KERNEL]	= { 'K', "1;34", "reserved: kernel image, boot, firmware" },
	[PGTABLE]	= { 'T', "35", "page tables" },
	[SLAB]		= { 'S', "36", "slab" },
	[SHARED]	= { '*', "1;31", "mapped more than once" },
	[ANON]		= { 'A', "32", "anonymous, mapped once" },
	[FILE_MAPPED]	= { 'F', "33", "file page, mapped once" },
	[OTHER]		= { '-', "37", "other in use: page cache, kernel stacks" },
};

static enum kind kind_of(uint64_t fl, uint64_t count)
{
	if (fl & (1ULL << KPF_BUDDY))
		return FREE;
	if (fl & (1ULL << KPF_ZERO_PAGE))
		return ZERO;
	if (fl & (1ULL << KPF_RESERVED))
		return KERNEL;
	if (fl & (1ULL << KPF_PGTABLE))
		return PGTABLE;
	if (fl & (1ULL << KPF_SLAB))
		return SLAB;
	if (count > 1)
		return SHARED;
	if (fl & (1ULL << KPF_ANON))
		return ANON;
	if (fl & (1ULL << KPF_MMAP))
		return FILE_MAPPED;
	return OTHER;
}

/* The pfns PID maps (from its maps and pagemap), as a bitmap; NULL on
 * error. */
static unsigned char *pid_pages(int pid, uint64_t npfn)
{
	unsigned char *bits = calloc(npfn / 8 + 1, 1);
	char path[64], *maps, *cur;
	struct proc_map m;
	uint64_t ents[CHUNK];

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = cur = proc_read(path, NULL);
	if (!bits || !maps)
		return NULL;
	while (proc_maps_next(&cur, &m))
		for (unsigned long va = m.start; va < m.end;) {
			size_t n = (m.end - va) / 4096;
			long got;

			n = n > CHUNK ? CHUNK : n;
			got = pagemap_read(pid, va, ents, n);
			if (got <= 0)
				break;
			for (long i = 0; i < got; i++) {
				uint64_t pfn = PM_PFN(ents[i]);

				if ((ents[i] & PM_PRESENT) && pfn < npfn)
					bits[pfn / 8] |= 1 << (pfn % 8);
			}
			va += got * 4096UL;
		}
	free(maps);
	return bits;
}

static void put(enum kind k, int marked, int plain)
{
	char c = marked ? '#' : kinds[k].c;

	if (plain)
		putchar(c);
	else
		printf("\033[%sm%c\033[0m", marked ? "1;7" : kinds[k].colour, c);
}

/* Every pfn's kpageflags and kpagecount; their number, 0 on error. */
static uint64_t read_all(uint64_t **fl, uint64_t **cnt)
{
	uint64_t n = 0, room = 0;

	for (;;) {
		long got;

		if (n + CHUNK > room) {
			room = room ? 2 * room : 1 << 16;
			*fl = realloc(*fl, room * 8);
			*cnt = realloc(*cnt, room * 8);
			if (!*fl || !*cnt)
				return 0;
		}
		got = kpage_read("/proc/kpageflags", n, *fl + n, CHUNK);
		if (got <= 0 ||
		    kpage_read("/proc/kpagecount", n, *cnt + n, got) != got)
			return n;
		n += got;
	}
}

int main(int argc, char **argv)
{
	long counts[NR_KINDS] = { 0 }, marked = 0;
	int plain = 0, pid = 0, width = 64;
	uint64_t *fl = NULL, *cnt = NULL, npfn;
	unsigned char *mine = NULL;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--plain") == 0)
			plain = 1;
		else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
			pid = atoi(argv[++i]);
		else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc)
			width = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: memmap [--plain] [-p PID] "
				"[-w WIDTH]\n");
			return 2;
		}
	}
	if (width < 1)
		width = 64;
	npfn = read_all(&fl, &cnt);
	if (!npfn) {
		perror("memmap: /proc/kpageflags");
		return 1;
	}
	if (pid && !(mine = pid_pages(pid, npfn))) {
		perror("memmap: /proc/PID/maps or pagemap");
		return 1;
	}
	for (uint64_t pfn = 0; pfn < npfn; pfn++) {
		enum kind k = kind_of(fl[pfn], cnt[pfn]);
		int m = mine && (mine[pfn / 8] >> (pfn % 8) & 1);

		if (fl[pfn] & (1ULL << KPF_NOPAGE))
			k = KERNEL;
		if (pfn % width == 0)
			printf("%s%08llx ", pfn ? "\n" : "",
			       (unsigned long long)pfn);
		put(k, m, plain);
		counts[k]++;
		marked += m;
	}
	printf("\n\n%llu pages of 4 KiB:\n", (unsigned long long)npfn);
	for (int k = 0; k < NR_KINDS; k++) {
		printf("  ");
		put(k, 0, plain);
		printf(" %8ld  %8ld kB  %s\n", counts[k], counts[k] * 4,
		       kinds[k].what);
	}
	if (mine)
		printf("  # %8ld  %8ld kB  mapped by pid %d\n", marked,
		       marked * 4, pid);
	printf("MemFree (/proc/meminfo): %lld kB\n",
	       proc_kb("/proc/meminfo", "MemFree"));
	return 0;
}
