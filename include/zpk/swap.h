/* zpk/swap.h — swap areas in Linux's format (mm/swapfile.c): the header
 * mkswap writes, the areas swapon(2) adds with their priorities, and
 * their slots, each with a count of the users that hold it (Linux's
 * swap_map); the swap cache (mm/swap_state.c), swap I/O (mm/page_io.c)
 * and reclaim (mm/vmscan.c). docs/vm.md, "Swap". */
#ifndef ZPK_SWAP_H
#define ZPK_SWAP_H

#include <asm/page.h>
#include <zpk/atomic.h>
#include <zpk/spinlock.h>
#include <zpk/types.h>

#define MAX_SWAPFILES	8

/* A swap slot: the area's type in the top bits, the page's offset in it
 * below (Linux's swp_entry_t). 0 is no slot: offset 0 is the header. */
typedef struct {
	unsigned long val;
} swp_entry_t;

#define SWP_TYPE_SHIFT	58
#define SWP_OFFSET_MASK	((1UL << SWP_TYPE_SHIFT) - 1)

static inline swp_entry_t swp_entry(unsigned int type, unsigned long offset)
{
	return (swp_entry_t){ ((unsigned long)type << SWP_TYPE_SHIFT) |
			      (offset & SWP_OFFSET_MASK) };
}

static inline unsigned int swp_type(swp_entry_t e)
{
	return e.val >> SWP_TYPE_SHIFT;
}

static inline unsigned long swp_offset(swp_entry_t e)
{
	return e.val & SWP_OFFSET_MASK;
}

/* mkswap's first page (Linux's union swap_header, version 1). */
#define SWAP_MAGIC	"SWAPSPACE2"
union swap_header {
	struct {
		char reserved[PAGE_SIZE - 10];
		char magic[10];			/* SWAP_MAGIC */
	} magic;
	struct {
		char bootbits[1024];		/* room for a disk label */
		u32 version;			/* 1 */
		u32 last_page;			/* the last usable page */
		u32 nr_badpages;
		unsigned char sws_uuid[16];
		unsigned char sws_volume[16];
		u32 padding[117];
		u32 badpages[1];		/* nr_badpages of them */
	} info;
};
#define MAX_SWAP_BADPAGES \
	((PAGE_SIZE - 10 - 1024 - 4 * 3 - 32 - 4 * 117) / 4)

/* A slot's count (swap_map): free, users (1..SWAP_MAP_MAX), or unusable
 * (the header, a bad page). */
#define SWAP_MAP_MAX	0x3e
#define SWAP_MAP_BAD	0x3f

#define SWP_USED	0x1	/* the swap_info is taken */
#define SWP_WRITEOK	0x2	/* slots may be handed out */
#define SWP_NOALLOC	0x4	/* but not now: swapoff empties it */

struct file;
struct gendisk;

/*
 * One swap area. swap_lock (mm/swap_map.c) guards its flags, counts and
 * map; swapon and swapoff, serialized by swapon_rwsem (mm/swapfile.c),
 * set the rest, which stays while the area is in use.
 */
struct swap_info_struct {
	unsigned long flags;		/* SWP_* */
	short prio;			/* higher is used first */
	signed char type;		/* its index, swp_type of its slots */
	unsigned int max;		/* slots: the header's last_page + 1 */
	unsigned int pages;		/* usable: max less header and bad */
	unsigned int inuse_pages;	/* slots with users */
	unsigned int lowest_bit;	/* no free slot below it */
	unsigned int cluster_next;	/* where the next scan starts */
	unsigned char *swap_map;	/* max counts */
	struct file *swap_file;		/* what swapon opened */
	const void *swap_inode;		/* its inode, to find the area by */
	struct gendisk *bdev;		/* its disk (a block device) */
};

/* ---- areas (mm/swapfile.c) ---- */

/* The header's checks (Linux's read_swap_header): the number of slots
 * the area has, at most dev_pages (0: no limit), or 0 if the header is
 * not a version-1 swap header that fits (the reason is logged). */
unsigned long read_swap_header(const union swap_header *h,
			       unsigned long dev_pages);
/* The slots' counts for a checked header: the header and the bad pages
 * marked SWAP_MAP_BAD. The usable slots, or -EINVAL for a bad page out
 * of range or none usable. */
int setup_swap_map(unsigned char *map, unsigned long maxpages,
		   const union swap_header *h);
/* Takes a free swap_info for a new area: -EPERM when MAX_SWAPFILES are
 * in use. */
int alloc_swap_info(struct swap_info_struct **res);
/* The area goes into use with prio (SWAP_FLAG_PREFER's, or -1: the next
 * of Linux's decreasing defaults, -2 first); map and counts are its. */
void enable_swap_info(struct swap_info_struct *si, int prio,
		      unsigned char *map, unsigned long maxpages, int pages);
/* Takes the area out of use (swapoff): -ENOMEM, and nothing changes, if
 * any slot still has users (try_to_unuse brings them back first). Its
 * map is the caller's to free, then free_swap_info. */
int disable_swap_info(struct swap_info_struct *si);
void free_swap_info(struct swap_info_struct *si);
/* swapoff: no slot of si is handed out while try_to_unuse empties it
 * (noalloc), or again (it failed). */
void swap_info_noalloc(struct swap_info_struct *si, bool noalloc);
/* The area (in use, or being added) whose file is on inode, or NULL. */
struct swap_info_struct *find_swap_info(const void *inode);

/* ---- slots ---- */

/* A free slot with one user, from the highest-priority area that has
 * one (Linux's get_swap_page); val 0 if swap is full or there is none. */
swp_entry_t get_swap_page(void);
/* One more user of a slot in use (fork copying a swap PTE): 0, -EINVAL
 * for a slot not in use, -ENOMEM past SWAP_MAP_MAX users. */
int swap_duplicate(swp_entry_t entry);
/* One user fewer; the last frees the slot. */
void swap_free(swp_entry_t entry);
/* The users of a slot (0: free or no such slot). */
int swp_swapcount(swp_entry_t entry);

/* Slots of every area in use, and how many are free (meminfo's
 * SwapTotal and SwapFree, sysinfo's totalswap and freeswap). */
void si_swapinfo(unsigned long *total, unsigned long *free);
/* The same, one word each and without swap_lock (Linux's), for a
 * reader that needs no consistent pair: mmap's overcommit check, and
 * reclaim's "is there a free slot at all". mm/swap_map.c. */
extern unsigned long total_swap_pages, nr_swap_pages;
static inline unsigned long get_total_swap_pages(void)
{
	return READ_ONCE(total_swap_pages);
}
static inline unsigned long get_nr_swap_pages(void)
{
	return READ_ONCE(nr_swap_pages);
}
/* /proc/swaps (mm/swapfile.c), from proc_root_init. */
void proc_swaps_init(void);
/* The area of type i if it is in use (SWP_WRITEOK), else NULL; it stays
 * while the caller holds swapon_rwsem. */
struct swap_info_struct *swap_info_get(int i);

/* entry's area takes new users (not SWP_NOALLOC: no swapoff under way). */
bool swap_entry_writeok(swp_entry_t entry);
/* The disk of entry's area, or NULL if entry is no slot of one. */
struct gendisk *swap_entry_disk(swp_entry_t entry);
/* mm_verify: adds delta to a slot's count as it is (no slot is freed or
 * taken), then swap_tally_check calls bad for each slot whose count is
 * not 0 (as a signed difference). Every mm's mmap_lock held for writing,
 * so that nothing else moves the counts meanwhile. */
void swap_tally(swp_entry_t entry, int delta);
void swap_tally_check(void (*bad)(swp_entry_t entry, int diff, void *priv),
		      void *priv);

/* ---- the swap cache (mm/swap_state.c) ---- */

struct page;
/* Guards the cache, and the _mapcount of the pages in it to and from
 * -1 (docs/vm.md, "Swap"). Inside a PTE lock; swap_lock inside it. */
extern spinlock_t swap_cache_lock;
/* The page cached for entry with a reference for the caller, or NULL. */
struct page *lookup_swap_cache(swp_entry_t entry);
bool swap_cache_has(swp_entry_t entry);
/* Puts page in the cache for entry, PG_locked (the caller's I/O) and
 * PG_dirty if not yet on disk: the cache takes a page reference and a
 * slot reference. 0, -EEXIST if entry has a page already, -EINVAL if
 * the slot is free. Never sleeps. */
int add_to_swap_cache(struct page *page, swp_entry_t entry, bool dirty);
/* Out of the cache whatever its state (swapoff, an exclusive swap-in,
 * a failed read): the caller holds a reference. */
void delete_from_swap_cache(struct page *page);
/* Out of the cache if nothing maps it, no I/O is under way, and the
 * disk has it or no PTE needs it; true if it went. The __ form with
 * swap_cache_lock held. */
bool try_to_free_swap(struct page *page);
bool __try_to_free_swap(struct page *page);
/* A swap PTE goes (zap): its slot reference, and the cached page too
 * if that was the slot's last user but the cache. */
void free_swap_and_cache(swp_entry_t entry);
/* The I/O on a cached page is over (clean: written, or read, without
 * error): PG_locked goes, waiters wake, and an unmapped written page
 * leaves the cache. */
void swap_io_done(struct page *page, bool clean);
/* Sleeps until no I/O is under way on page. Process context, no
 * spinlock held. */
void wait_on_swap_page(struct page *page);
/* swapoff: the cached pages of area type leave the cache (they are
 * mapped, or were never written); 0, or -EBUSY if I/O is under way. */
int swap_cache_drop_type(unsigned int type);
/* meminfo's SwapCached, in pages. */
unsigned long total_swapcache_pages(void);
/* mm_verify: the cache's slot references, counted out (-1) or in. */
void swap_cache_tally(int delta);

/* Starts kswapd (mm/vmscan.c) once, from the kworker: the first disk
 * (add_disk, at boot) and the first swapon call it. */
void kswapd_run(void);

/* ---- swap I/O (mm/page_io.c): sleep, process context ---- */

/* n pages of the swap cache to their slots (page->index), ok[i] whether
 * page i is on the disk now; a page to its slot: 0 or -EIO (a failed
 * read is the faulting process's SIGBUS). pswpout and pswpin count the
 * pages. */
void swap_writepages(struct page **pages, unsigned int n, bool *ok);
int swap_readpage(struct page *page, swp_entry_t entry);

#endif
