/* zpk/blkdev.h — the block layer (block/): a disk of 512-byte sectors,
 * the bio that asks it for a sector range into or out of pages, and the
 * /dev node of each disk. Linux's bio, gendisk and submit_bio_wait, with
 * one queue per disk and no scheduler, merging or page cache. */
#ifndef ZPK_BLKDEV_H
#define ZPK_BLKDEV_H

#include <zpk/rwsem.h>
#include <zpk/types.h>
#include <zpk/wait.h>

#define SECTOR_SHIFT	9
#define SECTOR_SIZE	(1 << SECTOR_SHIFT)
typedef u64 sector_t;

enum req_op {
	REQ_OP_READ,		/* the device into the pages */
	REQ_OP_WRITE,		/* the pages onto the device */
	REQ_OP_FLUSH,		/* the device's write cache to the medium */
};

/* A piece of one page: bv_len bytes from bv_offset. */
struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

#define BIO_MAX_VECS	16	/* 64 KiB of whole pages */

/*
 * One I/O: bi_opf on the sectors from bi_sector, as many as the vecs
 * hold (their lengths add up to whole sectors; a flush has none). The
 * memory may be anywhere in the direct map: the caller's stack too, as
 * the driver copies what it must keep.
 */
struct bio {
	struct gendisk *bi_disk;
	enum req_op bi_opf;
	sector_t bi_sector;
	unsigned short bi_vcnt;
	struct bio_vec bi_io_vec[BIO_MAX_VECS];
	int bi_status;		/* 0 or -EIO, once bi_done */
	bool bi_done;
};

struct block_device_operations {
	/* Queues bio on the device: returns at once; the driver calls
	 * bio_endio when the device is done (from its interrupt). May
	 * sleep for room in its queue. */
	void (*submit_bio)(struct bio *bio);
};

/* A disk (Linux's gendisk): its name in /dev and its size. */
struct gendisk {
	char disk_name[16];		/* "vda" */
	sector_t capacity;		/* in 512-byte sectors */
	bool read_only;			/* writes fail with -EPERM */
	bool has_flush;			/* REQ_OP_FLUSH reaches a cache */
	u32 major, first_minor;
	const struct block_device_operations *fops;
	void *private_data;		/* the driver's */
	struct wait_queue_head wait;	/* submit_bio_wait's sleepers */
	/* Whole-sector writes hold it for reading, a partial sector's
	 * read-modify-write for writing: no write lands in between. */
	struct rw_semaphore rmw_lock;
	unsigned long ios[2];		/* completed reads, writes */
	unsigned long sectors[2];	/* and their sectors */
};

/*
 * The driver, any context (its interrupt handler): bio is finished with
 * status (0 or -EIO). The submitter may free bio as soon as it sees it
 * done, so bio_endio touches it no more after that.
 */
void bio_endio(struct bio *bio, int status);

/*
 * Process context, may sleep (uninterruptibly: the device writes into
 * the pages until it is done, so no signal may end the wait early).
 * Submits bio and waits for it: 0, or -EIO. bio's sectors must lie on
 * the disk (-EIO otherwise, nothing submitted).
 */
int submit_bio_wait(struct bio *bio);

/* One page to or from the disk at sector (page-sized: 8 sectors): swapon
 * reads an area's header so. 0 or -EIO; sleeps as submit_bio_wait. */
int blkdev_rw_page(struct gendisk *disk, sector_t sector, struct page *page,
		   enum req_op op);
/* The device's write cache to its medium (a no-op without one): 0 or
 * -EIO; sleeps. */
int blkdev_issue_flush(struct gendisk *disk);

/* Boot, from the driver: disk gets its node /dev/NAME (block/genhd.c).
 * 0 or -errno (no node: the disk is not used). */
int add_disk(struct gendisk *disk);
/* The disk of device number devt (a block inode's i_rdev: what swapon
 * finds the disk by), or NULL. */
struct gendisk *get_disk_by_devt(u32 devt);
/* The disk named name ("vda"), or NULL. */
struct gendisk *get_disk_by_name(const char *name);

/* Boot: binds the virtio block device, if QEMU has one
 * (drivers/block/virtio_blk.c). */
void virtio_blk_init(void);
/* Its interrupts that found finished requests. */
unsigned long virtio_blk_irqs(void);

#endif
