/* block/fops.c — a disk's /dev node as a file (Linux's block/fops.c):
 * read and write at any offset and length, partial sectors through a
 * bounce page, lseek within the disk, fsync as a cache flush. There is
 * no page cache: every call reaches the device before it returns. */
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/string.h>

#include "blk.h"

/* Whole sectors moved by one bio: 15 pages of data cross at most 16
 * page boundaries, whatever the buffer's alignment (BIO_MAX_VECS). */
#define BLK_CHUNK	((BIO_MAX_VECS - 1) * PAGE_SIZE)

static loff_t disk_bytes(const struct gendisk *disk)
{
	return (loff_t)(disk->capacity << SECTOR_SHIFT);
}

/* len (at most BLK_CHUNK, whole sectors) bytes of buf, a direct-map
 * buffer, to or from the disk at sector: one bio, a vec per page piece.
 * Sleeps; 0 or -EIO. */
static int blkdev_rw_direct(struct gendisk *disk, char *buf, size_t len,
			    sector_t sector, enum req_op op)
{
	struct bio bio = { .bi_disk = disk, .bi_opf = op,
			   .bi_sector = sector };

	while (len) {
		unsigned int off = (unsigned long)buf & (PAGE_SIZE - 1);
		size_t k = min(len, PAGE_SIZE - off);

		bio.bi_io_vec[bio.bi_vcnt++] =
			(struct bio_vec){ virt_to_page(buf), k, off };
		buf += k;
		len -= k;
	}
	return submit_bio_wait(&bio);
}

/* Up to the end of pos's sector, through a bounce page: a read copies
 * part of it out, a write reads the sector, changes part and writes it
 * back, alone on the disk (rmw_lock). Bytes moved, or -EIO, -ENOMEM. */
static ssize_t blkdev_rw_partial(struct gendisk *disk, char *buf, size_t len,
				 loff_t pos, enum req_op op)
{
	struct page *bounce = alloc_page(GFP_KERNEL);
	size_t off = pos & (SECTOR_SIZE - 1), k = min(len, SECTOR_SIZE - off);
	sector_t sector = pos >> SECTOR_SHIFT;
	char *b;
	int err;

	if (!bounce)
		return -ENOMEM;
	b = page_address(bounce);
	if (op == REQ_OP_WRITE)
		down_write(&disk->rmw_lock);
	err = blkdev_rw_direct(disk, b, SECTOR_SIZE, sector, REQ_OP_READ);
	if (!err && op == REQ_OP_READ)
		memcpy(buf, b + off, k);
	if (!err && op == REQ_OP_WRITE) {
		memcpy(b + off, buf, k);
		err = blkdev_rw_direct(disk, b, SECTOR_SIZE, sector, op);
	}
	if (op == REQ_OP_WRITE)
		up_write(&disk->rmw_lock);
	__free_page(bounce);
	return err ? err : (ssize_t)k;
}

/* One step of a transfer at pos: a partial sector, or up to BLK_CHUNK
 * whole sectors straight from buf. Bytes moved (> 0) or -errno. */
static ssize_t blkdev_rw_step(struct gendisk *disk, char *buf, size_t len,
			      loff_t pos, enum req_op op)
{
	size_t k;
	int err;

	if ((pos & (SECTOR_SIZE - 1)) || len < SECTOR_SIZE)
		return blkdev_rw_partial(disk, buf, len, pos, op);
	k = min(len, (size_t)BLK_CHUNK) & ~(size_t)(SECTOR_SIZE - 1);
	if (op == REQ_OP_WRITE)
		down_read(&disk->rmw_lock);
	err = blkdev_rw_direct(disk, buf, k, pos >> SECTOR_SHIFT, op);
	if (op == REQ_OP_WRITE)
		up_read(&disk->rmw_lock);
	return err ? err : (ssize_t)k;
}

/*
 * n bytes of the kernel buffer buf at *pos, as Linux's blkdev_read_iter
 * and blkdev_write_iter: a read at or past the end returns 0, a write
 * there -ENOSPC; both stop at the end. Bytes moved (*pos advanced), or
 * -errno if none moved.
 */
static ssize_t blkdev_rw(struct file *f, char *buf, size_t n, loff_t *pos,
			 enum req_op op)
{
	struct gendisk *disk = f->private_data;
	size_t done = 0;

	if (*pos >= disk_bytes(disk))
		return op == REQ_OP_WRITE ? -ENOSPC : 0;
	n = min(n, (size_t)(disk_bytes(disk) - *pos));
	while (done < n) {
		ssize_t r = blkdev_rw_step(disk, buf + done, n - done, *pos,
					   op);

		if (r < 0)
			return done ? (ssize_t)done : r;
		done += r;
		*pos += r;
	}
	return done;
}

static ssize_t blkdev_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	return blkdev_rw(f, buf, n, pos, REQ_OP_READ);
}

static ssize_t blkdev_write(struct file *f, const char *buf, size_t n,
			    loff_t *pos)
{
	if (((struct gendisk *)f->private_data)->read_only)
		return -EPERM;
	return blkdev_rw(f, (char *)buf, n, pos, REQ_OP_WRITE);
}

/* Linux's fixed_size_llseek: anywhere from 0 to the disk's size. */
static loff_t blkdev_llseek(struct file *f, loff_t off, int whence)
{
	loff_t size = disk_bytes(f->private_data), base;

	switch (whence) {
	case 0: base = 0; break;		/* SEEK_SET */
	case 1: base = f->f_pos; break;		/* SEEK_CUR */
	case 2: base = size; break;		/* SEEK_END */
	default: return -EINVAL;
	}
	if (off < -base || off > size - base)
		return -EINVAL;
	f->f_pos = base + off;
	return f->f_pos;
}

/* Writes are done when write returns; what may remain is the device's
 * write cache (QEMU's cache=writeback), which a flush empties. */
static int blkdev_fsync(struct file *f)
{
	return blkdev_issue_flush(f->private_data);
}

/* A read-only disk opens for reading only, as Linux's bdev_open. */
static int blkdev_open(struct file *f)
{
	struct gendisk *disk = get_disk_by_devt(f->f_inode->i_rdev);

	if (!disk)
		return -ENXIO;
	if (disk->read_only && (f->f_flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	f->private_data = disk;
	return 0;
}

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.read = blkdev_read,
	.write = blkdev_write,
	.llseek = blkdev_llseek,
	.fsync = blkdev_fsync,
	.ioctl = blkdev_ioctl,
};
