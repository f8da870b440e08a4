/* user/bin/free.c — free [-k|-m]: memory use from sysinfo, like procps free.
 * KiB by default, MiB with -m; used = total - free - buffers. */
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

int main(int argc, char **argv)
{
	unsigned long long unit, total, freem, shared, buffers, used;
	struct sysinfo si;
	int shift = 10;

	if (argc > 1 && strcmp(argv[1], "-m") == 0)
		shift = 20;
	else if (argc > 1 && strcmp(argv[1], "-k") != 0) {
		fprintf(stderr, "usage: free [-k|-m]\n");
		return 2;
	}
	if (sysinfo(&si) < 0) {
		perror("free: sysinfo");
		return 1;
	}
	unit = si.mem_unit ? si.mem_unit : 1;
	total = si.totalram * unit >> shift;
	freem = si.freeram * unit >> shift;
	shared = si.sharedram * unit >> shift;
	buffers = si.bufferram * unit >> shift;
	used = total - freem - buffers;
	printf("%-7s %12s %12s %12s %12s %12s\n", "", "total", "used", "free",
	       "shared", "buffers");
	printf("%-7s %12llu %12llu %12llu %12llu %12llu\n", "Mem:", total,
	       used, freem, shared, buffers);
	printf("%-7s %12llu %12llu %12llu\n", "Swap:",
	       si.totalswap * unit >> shift,
	       (si.totalswap - si.freeswap) * unit >> shift,
	       si.freeswap * unit >> shift);
	return 0;
}
