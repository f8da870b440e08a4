/* user/tests/max_map_count.c — /proc/sys/vm/max_map_count and Linux's
 * checks of it: mmap and brk are refused only once a process has one VMA
 * more than the limit, a split that adds a VMA (mprotect, a hole punched
 * by munmap or MAP_FIXED) is refused at the limit, munmap's other splits
 * never. On zpk the limit is lowered for the test; the host's is used as
 * it is (65530 mappings natively take a moment). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define MMC_PATH	"/proc/sys/vm/max_map_count"
#define P		PAGE_SIZE

static char maps[8 << 20];	/* /proc/self/maps of 65531 VMAs fits */

/* The process's VMAs: the lines of /proc/self/maps but [vsyscall], which
 * Linux shows and is no VMA. -1 if it cannot be read. */
static long count_vmas(void)
{
	long n = 0;
	char *l, *e;

	if (read_file("/proc/self/maps", maps, sizeof(maps)) < 0)
		return -1;
	for (l = maps; (e = strchr(l, '\n')); l = e + 1) {
		*e = 0;
		n += !strstr(l, "[vsyscall]");
	}
	return n;
}

/* Writes s to max_map_count: 0 or the errno. */
static int write_mmc(const char *s)
{
	return write_file(MMC_PATH, s);
}

static long read_mmc(void)
{
	char buf[32];

	return read_file(MMC_PATH, buf, sizeof(buf)) > 0 ? atol(buf) : -1;
}

static char *map_at(char *addr, long pages, int prot)
{
	return mmap(addr, pages * P, prot, MAP_PRIVATE | MAP_ANONYMOUS |
		    MAP_FIXED, -1, 0);
}

static long brk_to(unsigned long addr)
{
	return syscall(SYS_brk, addr);
}

/*
 * In a window of its own, with a free page at each end so nothing outside
 * merges: a 4-page VMA A at w + P, then single pages of alternating
 * protection after it until mmap fails. Returns the singles mapped; *err
 * the failing mmap's errno.
 */
static long fill(char *w, long room, int *err)
{
	long n;

	*err = 0;
	if (map_at(w + P, 4, PROT_READ) == MAP_FAILED) {
		*err = errno;
		return -1;
	}
	for (n = 0; 5 + n < room - 1; n++)
		if (map_at(w + (5 + n) * P, 1, n % 2 ? PROT_READ :
			   PROT_READ | PROT_WRITE) == MAP_FAILED) {
			*err = errno;
			break;
		}
	return n;
}

int main(void)
{
	long old, lim, base, n, room, cur, vmas;
	char buf[32], *w, *a;
	int err, zpk = is_zpk();

	need_proc();
	tap_plan(14);
	old = read_mmc();
	tap_ok(old > 0 && (!zpk || old == 65530),
	       "max_map_count reads %ld (65530 on zpk: Linux's default)", old);
	base = count_vmas();
	if (zpk) {
		tap_ok(write_mmc("-1\n") == EINVAL && write_mmc("x\n") == EINVAL &&
		       write_mmc("2147483648\n") == EINVAL,
		       "-1, x and 2^31 are EINVAL, as Linux's proc_dointvec");
		lim = base + 40;
		snprintf(buf, sizeof(buf), "%ld\n", lim);
		tap_ok(write_mmc(buf) == 0 && read_mmc() == lim,
		       "max_map_count set to %ld", lim);
	} else {
		/* Never write the host's: other processes share it. */
		tap_skip("writing max_map_count: zpk-only (the host's is shared)");
		tap_skip("lowering max_map_count: zpk-only");
		lim = old;
	}

	room = lim + 8;
	w = mmap(NULL, room * P, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w == MAP_FAILED || munmap(w, room * P))
		tap_done();
	a = w + P;
	base = count_vmas();
	n = fill(w, room, &err);
	vmas = count_vmas();
	tap_ok(err == ENOMEM && base + 1 + n == lim + 1 && vmas == lim + 1,
	       "mmap is ENOMEM once there are max_map_count + 1 VMAs "
	       "(%ld + %ld = %ld of %ld, maps says %ld; %s)", base, 1 + n,
	       base + 1 + n, lim + 1, vmas, strerror(err));

	/* One above the limit. */
	tap_ok(mprotect(a + P, P, PROT_READ | PROT_WRITE) == -1 &&
	       errno == ENOMEM, "mprotect that splits: ENOMEM");
	tap_ok(munmap(a + P, P) == -1 && errno == ENOMEM,
	       "munmap of a hole inside a VMA: ENOMEM");
	cur = brk_to(0);
	tap_ok(brk_to(cur + P) == cur, "brk cannot grow (the break stays)");
	tap_ok(munmap(a, P) == 0, "munmap of a VMA's first page: allowed "
	       "(its split adds no VMA in the end)");
	a += P;		/* A is 3 pages now */
	munmap(w + (5 + n - 1) * P, P);

	/* At the limit. */
	tap_ok(map_at(a + P, 1, PROT_READ | PROT_WRITE) == MAP_FAILED &&
	       errno == ENOMEM, "MAP_FIXED over a VMA's middle: ENOMEM");
	tap_ok(mprotect(a + P, P, PROT_READ | PROT_WRITE) == -1 &&
	       errno == ENOMEM, "mprotect of a VMA's middle: ENOMEM");
	tap_ok(map_at(w + (lim + 6) * P, 1, PROT_READ) != MAP_FAILED &&
	       munmap(w + (lim + 6) * P, P) == 0,
	       "one new mapping is still allowed");
	tap_ok(brk_to(cur + P) == cur + P && brk_to(cur) == cur,
	       "brk can grow (and shrinks back)");

	/* Two below: room for mprotect's two splits. */
	munmap(w + (5 + n - 3) * P, 2 * P);
	tap_ok(mprotect(a + P, P, PROT_READ | PROT_WRITE) == 0,
	       "mprotect of a VMA's middle two below the limit");

	err = munmap(w, room * P);
	if (zpk) {
		snprintf(buf, sizeof(buf), "%ld\n", old);
		err |= write_mmc(buf) || read_mmc() != old;
	}
	tap_ok(err == 0, "all unmapped%s", zpk ? ", max_map_count restored" : "");
	tap_done();
}
