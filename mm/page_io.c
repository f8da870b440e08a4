/* mm/page_io.c — one page to or from its swap slot (Linux's
 * mm/page_io.c, without its bio batching): blkdev_rw_page on the area's
 * disk, slot n at sector n * 8. Sleeps until the disk is done. */
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/ratelimit.h>
#include <zpk/sched.h>
#include <zpk/swap.h>
#include <zpk/vmstat.h>

static DEFINE_RATELIMIT_STATE(swap_error_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

static int swap_rw_page(struct page *page, swp_entry_t entry,
			enum req_op op)
{
	struct gendisk *disk = swap_entry_disk(entry);
	sector_t sector = (sector_t)swp_offset(entry) <<
			  (PAGE_SHIFT - SECTOR_SHIFT);

	might_sleep();
	if (!disk)
		return -EIO;
	if (!blkdev_rw_page(disk, sector, page, op))
		return 0;
	/* Linux's end_swap_bio_read/write line: a failing disk may make
	 * one per fault, hence the limit (pr_alert_ratelimited's). */
	if (__ratelimit(&swap_error_rs))
		printk(KERN_ALERT "%s-error on swap-device (%u:%u:%llu)\n",
		       op == REQ_OP_READ ? "Read" : "Write", disk->major,
		       disk->first_minor, (unsigned long long)sector);
	return -EIO;
}

/* zpk/swap.h. The caller holds a slot reference (the swap cache's), so
 * the area cannot go meanwhile. */
int swap_writepage(struct page *page, swp_entry_t entry)
{
	count_vm_event(PSWPOUT);
	return swap_rw_page(page, entry, REQ_OP_WRITE);
}

int swap_readpage(struct page *page, swp_entry_t entry)
{
	count_vm_event(PSWPIN);
	return swap_rw_page(page, entry, REQ_OP_READ);
}
