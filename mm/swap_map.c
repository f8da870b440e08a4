/* mm/swap_map.c — swap areas and their slots: the checks of mkswap's
 * header, the areas in priority order, and each slot's count of users
 * (Linux's swap_map in mm/swapfile.c), from which get_swap_page hands
 * out free slots. swapon and swapoff (mm/swapfile.c) add and remove the
 * areas. One lock, swap_lock, guards all of it: an area's flags and
 * counts, every map, and the totals (written under it, read without it
 * by whoever needs one word only: get_nr_swap_pages). */
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/swap.h>

static DEFINE_SPINLOCK(swap_lock);
static struct swap_info_struct swap_info[MAX_SWAPFILES];
unsigned long total_swap_pages;	/* usable slots, areas in use */
unsigned long nr_swap_pages;	/* of them free */
static int least_priority = -1;		/* the last default priority */

unsigned long read_swap_header(const union swap_header *h,
			       unsigned long dev_pages)
{
	unsigned long maxpages;

	if (memcmp(h->magic.magic, SWAP_MAGIC, 10)) {
		pr_err("Unable to find swap-space signature\n");
		return 0;
	}
	if (h->info.version != 1) {
		pr_warn("Unable to handle swap header version %u\n",
			h->info.version);
		return 0;
	}
	if (!h->info.last_page) {
		pr_warn("Empty swap-file\n");
		return 0;
	}
	maxpages = (unsigned long)h->info.last_page + 1;
	if (dev_pages && maxpages > dev_pages) {
		pr_warn("Swap area shorter than signature indicates\n");
		return 0;
	}
	if (h->info.nr_badpages > MAX_SWAP_BADPAGES)
		return 0;
	return maxpages;
}

int setup_swap_map(unsigned char *map, unsigned long maxpages,
		   const union swap_header *h)
{
	int good = maxpages - 1;

	memset(map, 0, maxpages);
	for (u32 i = 0; i < h->info.nr_badpages; i++) {
		u32 bad = h->info.badpages[i];

		if (bad == 0 || bad > h->info.last_page)
			return -EINVAL;
		if (map[bad] != SWAP_MAP_BAD)
			good--;
		map[bad] = SWAP_MAP_BAD;
	}
	map[0] = SWAP_MAP_BAD;		/* the header */
	if (good <= 0) {
		pr_warn("Empty swap-file\n");
		return -EINVAL;
	}
	return good;
}

/* ---- areas ----------------------------------------------------------- */

int alloc_swap_info(struct swap_info_struct **res)
{
	int err = -EPERM;

	spin_lock(&swap_lock);
	for (int i = 0; i < MAX_SWAPFILES; i++)
		if (!swap_info[i].flags) {
			memset(&swap_info[i], 0, sizeof(swap_info[i]));
			swap_info[i].flags = SWP_USED;
			swap_info[i].type = i;
			*res = &swap_info[i];
			err = 0;
			break;
		}
	spin_unlock(&swap_lock);
	return err;
}

void enable_swap_info(struct swap_info_struct *si, int prio,
		      unsigned char *map, unsigned long maxpages, int pages)
{
	spin_lock(&swap_lock);
	si->prio = prio >= 0 ? prio : --least_priority;
	si->swap_map = map;
	si->max = maxpages;
	si->pages = pages;
	si->lowest_bit = si->cluster_next = 1;
	si->flags |= SWP_WRITEOK;
	WRITE_ONCE(total_swap_pages, total_swap_pages + pages);
	WRITE_ONCE(nr_swap_pages, nr_swap_pages + pages);
	spin_unlock(&swap_lock);
}

int disable_swap_info(struct swap_info_struct *si)
{
	spin_lock(&swap_lock);
	if (si->inuse_pages) {
		spin_unlock(&swap_lock);
		return -ENOMEM;
	}
	si->flags &= ~SWP_WRITEOK;
	WRITE_ONCE(total_swap_pages, total_swap_pages - si->pages);
	WRITE_ONCE(nr_swap_pages, nr_swap_pages - si->pages);
	/* Linux keeps the default priorities contiguous: -2, -3, ... */
	if (si->prio < 0) {
		for (int i = 0; i < MAX_SWAPFILES; i++)
			if ((swap_info[i].flags & SWP_WRITEOK) &&
			    swap_info[i].prio < si->prio)
				swap_info[i].prio++;
		least_priority++;
	}
	spin_unlock(&swap_lock);
	return 0;
}

void free_swap_info(struct swap_info_struct *si)
{
	spin_lock(&swap_lock);
	si->swap_map = NULL;
	si->flags = 0;
	spin_unlock(&swap_lock);
}

void swap_info_noalloc(struct swap_info_struct *si, bool noalloc)
{
	spin_lock(&swap_lock);
	if (noalloc)
		si->flags |= SWP_NOALLOC;
	else
		si->flags &= ~SWP_NOALLOC;
	spin_unlock(&swap_lock);
}

struct swap_info_struct *find_swap_info(const void *inode)
{
	struct swap_info_struct *si = NULL;

	spin_lock(&swap_lock);
	for (int i = 0; i < MAX_SWAPFILES && !si; i++)
		if ((swap_info[i].flags & SWP_USED) &&
		    swap_info[i].swap_inode == inode)
			si = &swap_info[i];
	spin_unlock(&swap_lock);
	return si;
}

struct swap_info_struct *swap_info_get(int i)
{
	bool ok;

	spin_lock(&swap_lock);
	ok = swap_info[i].flags & SWP_WRITEOK;
	spin_unlock(&swap_lock);
	return ok ? &swap_info[i] : NULL;
}

/* ---- slots ----------------------------------------------------------- */

/* A free slot of si, from cluster_next on, then from lowest_bit; 0 if
 * none. swap_lock held. */
static unsigned long scan_swap_map(struct swap_info_struct *si)
{
	unsigned long start = si->cluster_next;

	for (unsigned long n = 0; n < si->max; n++) {
		unsigned long off = start + n;

		if (off >= si->max)
			off = si->lowest_bit + (off - si->max);
		if (off < si->max && !si->swap_map[off]) {
			si->cluster_next = off + 1;
			return off;
		}
	}
	return 0;
}

swp_entry_t get_swap_page(void)
{
	struct swap_info_struct *best = NULL;
	unsigned long off = 0;

	spin_lock(&swap_lock);
	for (int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = &swap_info[i];

		if ((si->flags & (SWP_WRITEOK | SWP_NOALLOC)) == SWP_WRITEOK &&
		    si->inuse_pages < si->pages &&
		    (!best || si->prio > best->prio))
			best = si;
	}
	if (best)
		off = scan_swap_map(best);
	if (off) {
		best->swap_map[off] = 1;
		best->inuse_pages++;
		WRITE_ONCE(nr_swap_pages, nr_swap_pages - 1);
	}
	spin_unlock(&swap_lock);
	return off ? swp_entry(best->type, off) : (swp_entry_t){ 0 };
}

/* The count of entry's slot, or NULL if it is no slot of an area.
 * swap_lock held. */
static unsigned char *slot_count(swp_entry_t entry)
{
	unsigned int type = swp_type(entry);
	unsigned long off = swp_offset(entry);
	struct swap_info_struct *si;

	if (type >= MAX_SWAPFILES)
		return NULL;
	si = &swap_info[type];
	if (!(si->flags & SWP_USED) || !si->swap_map || !off ||
	    off >= si->max)
		return NULL;
	return &si->swap_map[off];
}

int swap_duplicate(swp_entry_t entry)
{
	unsigned char *c;
	int err = 0;

	spin_lock(&swap_lock);
	c = slot_count(entry);
	if (!c || !*c || *c == SWAP_MAP_BAD)
		err = -EINVAL;
	else if (*c == SWAP_MAP_MAX)
		err = -ENOMEM;
	else
		(*c)++;
	spin_unlock(&swap_lock);
	return err;
}

void swap_free(swp_entry_t entry)
{
	unsigned char *c;

	spin_lock(&swap_lock);
	c = slot_count(entry);
	if (!c || !*c || *c == SWAP_MAP_BAD) {
		spin_unlock(&swap_lock);
		pr_err("swap_free: bad swap entry %#lx\n", entry.val);
		return;
	}
	if (!--*c) {
		swap_info[swp_type(entry)].inuse_pages--;
		WRITE_ONCE(nr_swap_pages, nr_swap_pages + 1);
	}
	spin_unlock(&swap_lock);
}

int swp_swapcount(swp_entry_t entry)
{
	unsigned char *c;
	int n;

	spin_lock(&swap_lock);
	c = slot_count(entry);
	n = c && *c != SWAP_MAP_BAD ? *c : 0;
	spin_unlock(&swap_lock);
	return n;
}

void si_swapinfo(unsigned long *total, unsigned long *free)
{
	spin_lock(&swap_lock);
	*total = total_swap_pages;
	*free = nr_swap_pages;
	spin_unlock(&swap_lock);
}

/* ---- for swap I/O and mm_verify -------------------------------------- */

bool swap_entry_writeok(swp_entry_t entry)
{
	bool ok;

	spin_lock(&swap_lock);
	ok = slot_count(entry) && (swap_info[swp_type(entry)].flags &
				   (SWP_WRITEOK | SWP_NOALLOC)) == SWP_WRITEOK;
	spin_unlock(&swap_lock);
	return ok;
}

struct gendisk *swap_entry_disk(swp_entry_t entry)
{
	struct gendisk *disk;

	spin_lock(&swap_lock);
	disk = slot_count(entry) ? swap_info[swp_type(entry)].bdev : NULL;
	spin_unlock(&swap_lock);
	return disk;
}

void swap_tally(swp_entry_t entry, int delta)
{
	unsigned char *c;

	spin_lock(&swap_lock);
	c = slot_count(entry);
	if (c)
		*c += delta;
	spin_unlock(&swap_lock);
}

void swap_tally_check(void (*bad)(swp_entry_t entry, int diff, void *priv),
		      void *priv)
{
	spin_lock(&swap_lock);
	for (int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = &swap_info[i];

		if (!(si->flags & SWP_USED) || !si->swap_map)
			continue;
		for (unsigned long off = 1; off < si->max; off++) {
			unsigned char c = si->swap_map[off];

			if (c && c != SWAP_MAP_BAD)
				bad(swp_entry(i, off), (signed char)c, priv);
		}
	}
	spin_unlock(&swap_lock);
}
