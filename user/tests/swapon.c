/* user/tests/swapon.c — swap areas (mm/swapfile.c): swapon and swapoff
 * of /dev/vda with a header written here as mkswap writes it, the area
 * in /proc/swaps, meminfo's SwapTotal and SwapFree and sysinfo, the
 * priorities, and Linux's errnos for a bad header, a busy area, bad
 * flags, a file that is no block device. Only on a scratch disk (first
 * bytes "ZPK-BLK-SCRATCH SIZE", tests/qemu/blk.sh), which it leaves
 * without a swap header; skips otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/swap.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "scratch.h"
#include "ulib.h"

#define DEV		"/dev/vda"
#define PAGE		4096
#define HEAD		"Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"

/* mkswap's header on DEV (scratch.h). */
static int write_header(const char *magic, uint32_t version,
			uint32_t last_page, int nbad, const uint32_t *bad)
{
	return swap_header_write(DEV, magic, version, last_page, nbad, bad);
}

/* meminfo's value of name in kB, or -1. */
static long meminfo_kb(const char *name)
{
	char buf[4096], *p;

	if (read_file("/proc/meminfo", buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, name)))
		return -1;
	return atol(p + strlen(name) + 1);
}

/* The /proc/swaps line of DEV: size and used in kB and the priority;
 * the number of areas listed. */
static int swaps(long *size, long *used, int *prio, char *line, size_t n)
{
	char buf[4096], *l, *save = NULL;
	int areas = 0;

	*size = *used = -1;
	*prio = 0;
	if (read_file("/proc/swaps", buf, sizeof(buf)) < 0)
		return -1;
	if (strncmp(buf, HEAD, strlen(HEAD)))
		return -1;
	for (l = strtok_r(buf + strlen(HEAD), "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		areas++;
		if (strncmp(l, DEV " ", strlen(DEV) + 1))
			continue;
		snprintf(line, n, "%s", l);
		sscanf(l + 40, "partition\t%ld\t%ld\t%d", size, used, prio);
	}
	return areas;
}

static void check_err(int r, int err, const char *what)
{
	int e = errno;

	tap_ok(r == -1 && e == err, "%s: %s (%s)", what, strerror(err),
	       r == -1 ? strerror(e) : "succeeded");
	if (r == 0)
		swapoff(DEV);
}

/* mmap(2) of len bytes, private and writable (Linux's heuristic
 * overcommit checks it against RAM + swap): 0 or the errno. */
static int map_errno(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

static void area(long long bytes)
{
	uint32_t last = bytes / PAGE - 1;
	long size, used, kb = (long)last * 4;
	char line[128] = "";
	struct sysinfo si;
	int prio, n, r;

	n = swaps(&size, &used, &prio, line, sizeof(line));
	tap_ok(n == 0 && meminfo_kb("SwapTotal:") == 0, "no area at first: "
	       "/proc/swaps has its header only, SwapTotal 0");
	r = write_header("SWAPSPACE2", 1, last, 0, NULL) ?: swapon(DEV, 0);
	tap_ok(r == 0, "swapon of a version-1 header of %u pages (%s)",
	       last + 1, r ? strerror(errno) : "ok");
	n = swaps(&size, &used, &prio, line, sizeof(line));
	tap_ok(n == 1 && size == kb && used == 0 && prio == -2 &&
	       line[39] == ' ' && line[38] == ' ', "/proc/swaps: \"%s\" "
	       "(size %ld kB = all but the header, priority -2)", line, size);
	tap_ok(meminfo_kb("SwapTotal:") == kb && meminfo_kb("SwapFree:") == kb,
	       "meminfo: SwapTotal and SwapFree %ld kB", meminfo_kb("SwapTotal:"));
	if (sysinfo(&si))
		memset(&si, 0, sizeof(si));
	tap_ok(si.totalswap * si.mem_unit == kb * 1024UL &&
	       si.freeswap == si.totalswap, "sysinfo: totalswap %lu x %u",
	       si.totalswap, si.mem_unit);
	check_err(swapon(DEV, 0), EBUSY, "swapon of the area in use");
	tap_ok(map_errno(si.totalram * si.mem_unit + kb * 512) == 0,
	       "the heuristic overcommit counts the area: RAM and half of it "
	       "may be mapped");
	r = swapoff(DEV);
	n = swaps(&size, &used, &prio, line, sizeof(line));
	tap_ok(r == 0 && n == 0 && meminfo_kb("SwapTotal:") == 0, "swapoff: "
	       "gone from /proc/swaps and meminfo");
	tap_ok(map_errno(si.totalram * si.mem_unit + kb * 512) == ENOMEM,
	       "... and after swapoff not: ENOMEM");
	check_err(swapoff(DEV), EINVAL, "swapoff of no area");
	r = swapon(DEV, SWAP_FLAG_PREFER | 5);
	swaps(&size, &used, &prio, line, sizeof(line));
	tap_ok(r == 0 && prio == 5, "SWAP_FLAG_PREFER | 5: priority %d", prio);
	swapoff(DEV);
	check_err(swapon(DEV, 0x80000), EINVAL, "an unknown flag");
}

static void bad_headers(long long bytes)
{
	uint32_t last = bytes / PAGE - 1, bad[2] = { 3, 7 }, zero[1] = { 0 };
	long size, used;
	char line[128];
	int prio, r;

	write_header("SWAPSPACE1", 1, last, 0, NULL);
	check_err(swapon(DEV, 0), EINVAL, "no SWAPSPACE2 signature");
	write_header("SWAPSPACE2", 2, last, 0, NULL);
	check_err(swapon(DEV, 0), EINVAL, "header version 2");
	write_header("SWAPSPACE2", 1, last + 1, 0, NULL);
	check_err(swapon(DEV, 0), EINVAL, "a last page past the disk");
	write_header("SWAPSPACE2", 1, 0, 0, NULL);
	check_err(swapon(DEV, 0), EINVAL, "last page 0 (empty)");
	write_header("SWAPSPACE2", 1, last, 1, zero);
	check_err(swapon(DEV, 0), EINVAL, "bad page 0");
	write_header("SWAPSPACE2", 1, last, 2, bad);
	r = swapon(DEV, 0);
	swaps(&size, &used, &prio, line, sizeof(line));
	tap_ok(r == 0 && size == ((long)last - 2) * 4, "two bad pages: the "
	       "area is 8 kB smaller (%ld kB)", size);
	swapoff(DEV);
	write_header(NULL, 0, 0, 0, NULL);
}

static void not_a_disk(void)
{
	int fd = open("/tmp/zpk-swapfile", O_CREAT | O_RDWR | O_TRUNC, 0600);

	if (fd >= 0) {
		ftruncate(fd, 1 << 20);
		close(fd);
	}
	check_err(swapon("/tmp/zpk-swapfile", 0), EINVAL, "a ramfs file");
	unlink("/tmp/zpk-swapfile");
	check_err(swapon("/dev/null", 0), EINVAL, "a character device");
	check_err(swapon("/nonexistent", 0), ENOENT, "no such file");
	check_err(swapon((const char *)8, 0), EFAULT, "a bad pointer");
	check_err(swapoff("/dev/null"), EINVAL, "swapoff of /dev/null");
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV);

	if (bytes < 64 * PAGE) {
		tap_plan(1);
		tap_skip(DEV " is not a scratch disk of 256 KiB or more");
		tap_done();
	}
	need_proc();
	tap_plan(23);
	area(bytes);
	bad_headers(bytes);
	not_a_disk();
	tap_done();
}
