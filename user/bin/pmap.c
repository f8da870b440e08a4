/* user/bin/pmap.c — pmap [-p] PID: one line per mapping from smaps (size,
 * Rss, Anon, File, Zero kB); -p adds a character per page from pagemap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs.h"

#define ROW	64	/* pages per row of -p */
#define MAXPG	4096	/* pages drawn per mapping; the rest are counted */

static long long zero_pfn = -1;

/* One page as a character: . absent, z zero page, s shared, f file,
 * c anonymous and mapped more than once (COW), a anonymous, ours only. */
static char page_char(const struct proc_map *m, uint64_t e)
{
	long long cnt;
	uint64_t pfn = PM_PFN(e);

	if (!(e & PM_PRESENT))
		return '.';
	if (zero_pfn >= 0 && pfn == (uint64_t)zero_pfn)
		return 'z';
	if (m->perms[3] == 's')
		return 's';
	if (e & PM_FILE)
		return 'f';
	cnt = pfn ? kpagecount(pfn) : -1;
	if (cnt > 1 || (cnt < 0 && !(e & PM_EXCLUSIVE)))
		return 'c';
	return 'a';
}

static void draw(int pid, const struct proc_map *m)
{
	unsigned long npages = (m->end - m->start) / 4096, i, n;
	char row[ROW + 1];
	uint64_t ents[ROW];
	long got;

	for (i = 0; i < npages && i < MAXPG; i += ROW) {
		n = npages - i < ROW ? npages - i : ROW;
		got = pagemap_read(pid, m->start + i * 4096, ents, n);
		if (got <= 0)
			break;
		for (n = 0; n < (unsigned long)got; n++)
			row[n] = page_char(m, ents[n]);
		row[n] = '\0';
		printf("    %s\n", row);
	}
	if (npages > MAXPG)
		printf("    ... %lu more pages\n", npages - MAXPG);
}

static long long kb(const struct proc_map *m, const char *key)
{
	return proc_field(m->fields, m->fields_end, key);
}

int main(int argc, char **argv)
{
	long long size, rss, anon, zero, tot[5] = { 0 };
	int pid, pflag = 0, have_zero = 0;
	char path[64], *t, *cur;
	struct proc_map m;

	if (argc > 1 && strcmp(argv[1], "-p") == 0) {
		pflag = 1;
		argv++;
		argc--;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: pmap [-p] PID\n");
		return 2;
	}
	pid = atoi(argv[1]);
	snprintf(path, sizeof(path), "/proc/%d/smaps", pid);
	t = proc_read(path, NULL);
	if (!t) {
		fprintf(stderr, "pmap: cannot read %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	if (pflag)
		zero_pfn = zero_page_pfn();
	printf("%-16s %8s %8s %8s %8s %8s %-4s %s\n", "Address", "Kbytes",
	       "Rss", "Anon", "File", "Zero", "Mode", "Mapping");
	for (cur = t; proc_maps_next(&cur, &m);) {
		size = (m.end - m.start) >> 10;
		rss = kb(&m, "Rss");
		anon = kb(&m, "Anonymous");
		zero = kb(&m, "ZeroPages");	/* zpk only */
		rss = rss < 0 ? 0 : rss;
		anon = anon < 0 ? 0 : anon;
		have_zero |= zero >= 0;
		printf("%016lx %8lld %8lld %8lld %8lld ", m.start, size, rss,
		       anon, rss - anon);
		if (zero >= 0)
			printf("%8lld", zero);
		else
			printf("%8s", "-");
		printf(" %-4s %s\n", m.perms, *m.name ? m.name : "[ anon ]");
		tot[0] += size;
		tot[1] += rss;
		tot[2] += anon;
		tot[3] += rss - anon;
		tot[4] += zero > 0 ? zero : 0;
		if (pflag)
			draw(pid, &m);
	}
	printf("%-16s %8lld %8lld %8lld %8lld ", "total kB", tot[0], tot[1],
	       tot[2], tot[3]);
	if (have_zero)
		printf("%8lld\n", tot[4]);
	else
		printf("%8s\n", "-");
	if (pflag)
		printf("pages: . absent  z zero page%s  a anon  c anon, COW-"
		       "shared  s shared  f file\n", zero_pfn < 0 ?
		       " (not found: no kpageflags)" : "");
	free(t);
	return 0;
}
