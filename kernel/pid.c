/* kernel/pid.c — process ids: a bitmap of the pids in use, one page per
 * 32768 pids made on demand (Linux 2.6's pidmap), allocated cyclically
 * below pid_max as Linux's alloc_pid does with idr_alloc_cyclic. */
#include <zpk/errno.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/pid.h>
#include <zpk/string.h>

#define BITS_PER_PAGE	((int)PAGE_SIZE * 8)
#define PIDMAP_ENTRIES	(PID_MAX_LIMIT / BITS_PER_PAGE)

struct pidmap {
	int nr_used;			/* bits set in page */
	unsigned long *page;		/* NULL: no pid of this range used */
};

static struct pidmap pidmap[PIDMAP_ENTRIES];
int pid_max = PID_MAX_DEFAULT;
static int pid_cursor;			/* the next pid to try (idr_next) */

/* The pid given last (/proc/loadavg's last field), 0 before any. */
int last_pid(void)
{
	return pid_cursor ? pid_cursor - 1 : 0;
}

static bool pid_in_use(int pid)
{
	struct pidmap *map = &pidmap[pid / BITS_PER_PAGE];
	int bit = pid % BITS_PER_PAGE;

	return map->page && (map->page[bit / 64] >> (bit % 64)) & 1;
}

/* The first free pid in [pid, end), or -1; skips full pages whole. */
static int find_free(int pid, int end)
{
	while (pid < end) {
		struct pidmap *map = &pidmap[pid / BITS_PER_PAGE];
		int stop = min(end, (pid / BITS_PER_PAGE + 1) * BITS_PER_PAGE);

		if (!map->page)
			return pid;
		if (map->nr_used == BITS_PER_PAGE) {
			pid = stop;
			continue;
		}
		for (; pid < stop; pid++) {
			unsigned long w = map->page[pid % BITS_PER_PAGE / 64];

			if (w == ~0UL && pid % 64 == 0) {
				pid += 63;	/* a full word */
				continue;
			}
			if (!pid_in_use(pid))
				return pid;
		}
	}
	return -1;
}

/* Marks pid used, making its page if need be: 0 or -ENOMEM. */
static int set_pid(int pid)
{
	struct pidmap *map = &pidmap[pid / BITS_PER_PAGE];
	int bit = pid % BITS_PER_PAGE;

	if (!map->page) {
		map->page = (unsigned long *)get_zeroed_page(GFP_KERNEL);
		if (!map->page)
			return -ENOMEM;
	}
	map->page[bit / 64] |= 1UL << (bit % 64);
	map->nr_used++;
	return 0;
}

/*
 * A new pid: the first free one from the cursor up to pid_max, else from
 * the bottom (1 until the cursor has passed RESERVED_PIDS, then
 * RESERVED_PIDS, as Linux). -EAGAIN when every pid below pid_max is held,
 * -ENOMEM when the bitmap page cannot be had.
 */
int alloc_pid(void)
{
	int min = pid_cursor > RESERVED_PIDS ? RESERVED_PIDS : 1;
	int start = max(pid_cursor, min), pid, err;

	pid = find_free(start, pid_max);
	if (pid < 0 && start > min)
		pid = find_free(min, pid_max);
	if (pid < 0)
		return -EAGAIN;
	err = set_pid(pid);
	if (err)
		return err;
	pid_cursor = pid + 1;
	return pid;
}

/* Gives pid back; a page with no pid left goes back too. */
void free_pid(int pid)
{
	struct pidmap *map = &pidmap[pid / BITS_PER_PAGE];
	int bit = pid % BITS_PER_PAGE;

	if (pid <= 0 || pid >= PID_MAX_LIMIT || !pid_in_use(pid))
		return;
	map->page[bit / 64] &= ~(1UL << (bit % 64));
	if (--map->nr_used == 0) {
		free_page((unsigned long)map->page);
		map->page = NULL;
	}
}

/* /proc/sys/kernel/pid_max: Linux's bounds, RESERVED_PIDS + 1 up to
 * PID_MAX_LIMIT; pids already above a lowered limit keep running. */
int set_pid_max(long v)
{
	if (v <= RESERVED_PIDS || v > PID_MAX_LIMIT)
		return -EINVAL;
	pid_max = (int)v;
	return 0;
}
