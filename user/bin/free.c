/* user/bin/free.c — free [-k|-m]: memory use from /proc/meminfo, like
 * procps free; from sysinfo(2) when there is no /proc/meminfo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "procfs.h"

/* All in kB, procps's names. */
struct mem {
	long long total, freem, shared, buffcache, avail;
	long long swap_total, swap_free;
};

/* procps: buff/cache = Buffers + Cached + SReclaimable; used = total -
 * available (procps-ng 4), available = MemFree where it is missing. */
static int from_meminfo(struct mem *m)
{
	long long buf, cached, srecl;
	char *t;

	t = proc_read("/proc/meminfo", NULL);
	if (!t)
		return -1;
	m->total = proc_field(t, NULL, "MemTotal");
	m->freem = proc_field(t, NULL, "MemFree");
	m->shared = proc_field(t, NULL, "Shmem");
	buf = proc_field(t, NULL, "Buffers");
	cached = proc_field(t, NULL, "Cached");
	srecl = proc_field(t, NULL, "SReclaimable");
	m->buffcache = (buf > 0 ? buf : 0) + (cached > 0 ? cached : 0) +
		       (srecl > 0 ? srecl : 0);
	m->avail = proc_field(t, NULL, "MemAvailable");
	m->swap_total = proc_field(t, NULL, "SwapTotal");
	m->swap_free = proc_field(t, NULL, "SwapFree");
	free(t);
	if (m->total < 0 || m->freem < 0) {
		fprintf(stderr, "free: /proc/meminfo lacks MemTotal/MemFree\n");
		exit(1);
	}
	if (m->avail < 0)
		m->avail = m->freem;
	if (m->shared < 0)
		m->shared = 0;
	if (m->swap_total < 0 || m->swap_free < 0)
		m->swap_total = m->swap_free = 0;
	return 0;
}

static void from_sysinfo(struct mem *m)
{
	unsigned long long unit;
	struct sysinfo si;

	if (sysinfo(&si) < 0) {
		perror("free: no /proc/meminfo, and sysinfo");
		exit(1);
	}
	unit = si.mem_unit ? si.mem_unit : 1;
	m->total = si.totalram * unit >> 10;
	m->freem = si.freeram * unit >> 10;
	m->shared = si.sharedram * unit >> 10;
	m->buffcache = si.bufferram * unit >> 10;
	m->avail = m->freem + m->buffcache;
	m->swap_total = si.totalswap * unit >> 10;
	m->swap_free = si.freeswap * unit >> 10;
}

int main(int argc, char **argv)
{
	int shift = 0;
	long long used;
	struct mem m;

	if (argc > 1 && strcmp(argv[1], "-m") == 0)
		shift = 10;
	else if (argc > 1 && strcmp(argv[1], "-k") != 0) {
		fprintf(stderr, "usage: free [-k|-m]\n");
		return 2;
	}
	if (from_meminfo(&m) < 0)
		from_sysinfo(&m);
	used = m.total - m.avail;
	if (used < 0)
		used = 0;
	printf("%-9s%11s %11s %11s %11s %11s %11s\n", "", "total", "used",
	       "free", "shared", "buff/cache", "available");
	printf("%-9s%11lld %11lld %11lld %11lld %11lld %11lld\n", "Mem:",
	       m.total >> shift, used >> shift, m.freem >> shift,
	       m.shared >> shift, m.buffcache >> shift, m.avail >> shift);
	printf("%-9s%11lld %11lld %11lld\n", "Swap:", m.swap_total >> shift,
	       (m.swap_total - m.swap_free) >> shift, m.swap_free >> shift);
	return 0;
}
