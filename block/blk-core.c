/* block/blk-core.c — submitting a bio to its disk's driver and sleeping
 * until the driver's interrupt says it is done (Linux's submit_bio_wait,
 * bio_endio). Every waiter of a disk sleeps on the disk's one queue, so
 * that a finished bio is never touched again by its waker. */
#include <zpk/atomic.h>
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/sched.h>

/* The disk's queue, not the bio, is woken: once bi_done is set the
 * waiter may return and free bio, while the disk stays. */
void bio_endio(struct bio *bio, int status)
{
	struct gendisk *disk = bio->bi_disk;

	bio->bi_status = status;
	if (!status && bio->bi_opf != REQ_OP_FLUSH) {
		disk->ios[bio->bi_opf]++;
		for (int i = 0; i < bio->bi_vcnt; i++)
			disk->sectors[bio->bi_opf] +=
				bio->bi_io_vec[i].bv_len >> SECTOR_SHIFT;
	}
	barrier();	/* the status before the flag (x86 keeps stores in order) */
	WRITE_ONCE(bio->bi_done, true);
	wake_up(&disk->wait);
}

/* bio's sectors, from its vecs: -1 if one is not whole sectors. */
static long bio_sectors(const struct bio *bio)
{
	unsigned long bytes = 0;

	for (int i = 0; i < bio->bi_vcnt; i++) {
		const struct bio_vec *v = &bio->bi_io_vec[i];

		if (v->bv_offset + v->bv_len > PAGE_SIZE)
			return -1;
		bytes += v->bv_len;
	}
	return bytes % SECTOR_SIZE ? -1 : (long)(bytes >> SECTOR_SHIFT);
}

static bool bio_valid(const struct bio *bio)
{
	long n = bio_sectors(bio);

	if (bio->bi_opf == REQ_OP_FLUSH)
		return bio->bi_vcnt == 0;
	if (n <= 0 || bio->bi_vcnt > BIO_MAX_VECS)
		return false;
	return bio->bi_sector <= bio->bi_disk->capacity &&
	       (sector_t)n <= bio->bi_disk->capacity - bio->bi_sector;
}

int submit_bio_wait(struct bio *bio)
{
	struct gendisk *disk = bio->bi_disk;
	struct wait_queue_entry e = { .task = current };

	if (!bio_valid(bio))
		return -EIO;
	if (bio->bi_opf == REQ_OP_WRITE && disk->read_only)
		return -EPERM;
	bio->bi_done = false;
	bio->bi_status = 0;
	disk->fops->submit_bio(bio);
	for (;;) {
		prepare_to_wait(&disk->wait, &e, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(bio->bi_done))
			break;
		schedule();
	}
	finish_wait(&disk->wait, &e);
	barrier();	/* bi_status after the flag (x86 keeps loads in order) */
	return bio->bi_status;
}

int blkdev_rw_page(struct gendisk *disk, sector_t sector, struct page *page,
		   enum req_op op)
{
	struct bio bio = {
		.bi_disk = disk, .bi_opf = op, .bi_sector = sector,
		.bi_vcnt = 1,
		.bi_io_vec[0] = { .bv_page = page, .bv_len = PAGE_SIZE },
	};

	if (op == REQ_OP_FLUSH)
		return -EINVAL;
	return submit_bio_wait(&bio);
}

int blkdev_issue_flush(struct gendisk *disk)
{
	struct bio bio = { .bi_disk = disk, .bi_opf = REQ_OP_FLUSH };

	if (!disk->has_flush)
		return 0;
	return submit_bio_wait(&bio);
}
