/* user/bench/huge.h — zpbench's 2 MiB huge pages (THP): smp.c's --huge
 * runs and the thp phase map their regions here. */
#ifndef ZPBENCH_HUGE_H
#define ZPBENCH_HUGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#define HPAGE_SIZE	(2UL << 20)

/* A region of n huge pages, 2 MiB-aligned inside a private anonymous
 * mapping one huge page larger (Linux 6.1 does not align anonymous
 * mappings itself), asked for with MADV_HUGEPAGE. *base and *len are what
 * munmap takes. NULL if mmap refused. */
static inline char *map_huge(long n, char **base, size_t *len)
{
	char *m;

	*len = (n + 1) * HPAGE_SIZE;
	m = mmap(NULL, *len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	*base = m;
	m = (char *)(((uintptr_t)m + HPAGE_SIZE - 1) & ~(HPAGE_SIZE - 1));
	madvise(m, n * HPAGE_SIZE, MADV_HUGEPAGE);
	return m;
}

#endif
