/* user/bin/zpdemo.c — what the zero page saves: faults, RSS, pages used
 * and TSC cycles of three scenarios under each zero-page policy.
 * zpdemo [PAGES] (default 256); switches /proc/sys/vm/zero_page itself
 * and restores it; without the switch (Linux) only the current kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ulib.h"
#include "zp.h"

#define SPARSE_MIB	16

static unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

/* Run scenario 0 (read n), 1 (read then write n), 2 (sparse scan) and
 * print one row of figures. */
static void scenario(int which, long n)
{
	long pages = which == 2 ? SPARSE_MIB * 256 : n, i;
	struct zp_sample a, b;
	unsigned long long t0, t1;
	char *p;

	p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		printf(" %-44s", "(mmap failed)");
		return;
	}
	zp_sample(&a);
	zp_sample(&a);
	t0 = rdtsc();
	if (which == 2)
		for (i = 0; i < pages; i += 256)
			poke(p + i * PAGE_SIZE, 1);
	zp_read(p, pages);
	if (which == 1)
		zp_write(p, pages, 1);
	t1 = rdtsc();
	zp_sample(&b);
	printf(" %6ld %6lld %6lld %6lld %6ld %10llu", b.minflt - a.minflt,
	       b.anon - a.anon, b.file - a.file,
	       a.zero < 0 ? -1 : b.zero - a.zero, a.free - b.free, t1 - t0);
	munmap(p, pages * PAGE_SIZE);
}

int main(int argc, char **argv)
{
	static const char *const rows[] = { "read N", "read+write N",
					    "sparse scan" };
	long n = argc > 1 ? atol(argv[1]) : 256;
	int orig = zp_policy(), pol[3], np = 0, i, r;

	if (zp_can_switch())
		for (i = 0; i < 3; i++)
			pol[np++] = i;
	else
		pol[np++] = orig;
	printf("N = %ld pages; sparse scan: %d MiB, 1 page in 256 written; "
	       "RSS in kB, time in TSC cycles\n%-13s", n, SPARSE_MIB, "");
	for (i = 0; i < np; i++)	/* the last group needs no padding */
		printf(" %-*s", i + 1 < np ? 44 : 0, zp_can_switch() ?
		       zp_policy_names[pol[i]] :
		       is_zpk() ? zp_policy_name() : "this Linux");
	printf("\n%-13s", "scenario");
	for (i = 0; i < np; i++)
		printf(" %6s %6s %6s %6s %6s %10s", "faults", "anon", "file",
		       "zero", "used", "cycles");
	printf("\n");
	for (r = 0; r < 3; r++) {
		printf("%-13s", rows[r]);
		for (i = 0; i < np; i++) {
			if (zp_can_switch())
				zp_set_policy(zp_policy_names[pol[i]]);
			fflush(stdout);
			scenario(r, n);
		}
		printf("\n");
	}
	if (zp_can_switch())
		zp_set_policy(zp_policy_names[orig]);
	printf("Reads of untouched memory cost no pages under special and "
	       "refcount (only zero PTEs; refcount also counts them as file "
	       "RSS), a page each under off; a write after a read costs a "
	       "second fault.\n");
	return 0;
}
