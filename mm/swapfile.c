/* mm/swapfile.c — swapon(2), swapoff(2) and /proc/swaps: a block device
 * that mkswap has written becomes a swap area (its slots: mm/swap_map.c).
 * swapon_rwsem serializes swapon and swapoff (both sleep on the disk) and
 * keeps the areas /proc/swaps lists. */
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/rwsem.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/swap.h>
#include <zpk/syscalls.h>

#define SWAP_FLAG_PREFER	0x8000	/* the low 15 bits are the priority */
#define SWAP_FLAG_PRIO_MASK	0x7fff
#define SWAP_FLAG_DISCARD	0x10000
#define SWAP_FLAG_DISCARD_ONCE	0x20000
#define SWAP_FLAG_DISCARD_PAGES	0x40000
#define SWAP_FLAGS_VALID	(SWAP_FLAG_PRIO_MASK | SWAP_FLAG_PREFER | \
				 SWAP_FLAG_DISCARD | SWAP_FLAG_DISCARD_ONCE | \
				 SWAP_FLAG_DISCARD_PAGES)

static DECLARE_RWSEM(swapon_rwsem);

/*
 * The disk under f (Linux's claim_swapfile and setup_swap_extents): only
 * a block device has one; a ramfs file has no blocks ("holes"). -EBUSY
 * if an area uses it already, -EINVAL otherwise.
 */
static int claim_swapfile(struct file *f, struct gendisk **disk)
{
	struct inode *inode = f->f_inode;

	if (find_swap_info(inode))
		return -EBUSY;
	if (S_ISREG(inode->i_mode)) {
		pr_warn("swapon: swapfile has holes\n");
		return -EINVAL;
	}
	if (!S_ISBLK(inode->i_mode))
		return -EINVAL;
	*disk = get_disk_by_devt(inode->i_rdev);
	return *disk ? 0 : -ENXIO;
}

/*
 * Reads and checks disk's header, and builds the counts of its slots:
 * 0 with *map (kfree it), *maxpages and *pages set, -EINVAL for no swap
 * header or one that does not fit, -EIO, -ENOMEM. Sleeps on the disk.
 */
static int swap_setup(struct gendisk *disk, unsigned char **map,
		      unsigned long *maxpages, int *pages)
{
	struct page *page;
	int err = -EINVAL;

	if (disk->capacity < PAGE_SIZE / SECTOR_SIZE) {
		pr_err("Unable to find swap-space signature\n");
		return -EINVAL;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	if (blkdev_rw_page(disk, 0, page, REQ_OP_READ)) {
		__free_page(page);
		return -EIO;
	}
	*maxpages = read_swap_header(page_address(page),
				     disk->capacity / (PAGE_SIZE / SECTOR_SIZE));
	if (*maxpages) {
		*map = kmalloc(*maxpages, GFP_KERNEL);
		err = *map ? 0 : -ENOMEM;
	}
	if (!err) {
		*pages = setup_swap_map(*map, *maxpages, page_address(page));
		if (*pages < 0) {
			err = *pages;
			kfree(*map);
		}
	}
	__free_page(page);
	return err;
}

/* The area's path, as /proc/swaps and the boot log show it. */
static void swap_name(struct swap_info_struct *si, char *buf, size_t n)
{
	if (d_path(si->swap_file->f_inode, buf, n) < 0)
		strlcpy(buf, "?", n);
}

/* Takes si into use on f's disk; swapon_rwsem held for writing. */
static int swapon_locked(struct swap_info_struct *si, struct file *f,
			 int swap_flags)
{
	struct gendisk *disk;
	unsigned char *map;
	unsigned long maxpages;
	int pages, err = claim_swapfile(f, &disk);
	char name[64];

	if (!err)
		err = swap_setup(disk, &map, &maxpages, &pages);
	if (err)
		return err;
	si->swap_file = f;
	si->swap_inode = f->f_inode;
	si->bdev = disk;
	enable_swap_info(si, swap_flags & SWAP_FLAG_PREFER ?
			 swap_flags & SWAP_FLAG_PRIO_MASK : -1,
			 map, maxpages, pages);
	swap_name(si, name, sizeof(name));
	pr_info("Adding %uk swap on %s.  Priority:%d extents:1 across:%luk\n",
		pages << (PAGE_SHIFT - 10), name, si->prio,
		maxpages << (PAGE_SHIFT - 10));
	return 0;
}

/*
 * swapon(2): the area on specialfile, a block device with a version-1
 * swap header (mkswap's), at the priority SWAP_FLAG_PREFER gives or the
 * next default (-2, -3, ...). Every zpk process is root, so never
 * -EPERM for want of CAP_SYS_ADMIN; -EPERM when MAX_SWAPFILES areas are
 * in use; -EBUSY for a device in use as swap; -EINVAL for bad flags, no
 * swap header, a file that is no block device.
 */
static long sys_swapon(const char __user *specialfile, int swap_flags)
{
	struct swap_info_struct *si;
	struct file *f;
	long err;

	if (swap_flags & ~SWAP_FLAGS_VALID)
		return -EINVAL;
	err = user_file_open(specialfile, O_RDWR, &f);
	if (err)
		return err;
	down_write(&swapon_rwsem);
	err = alloc_swap_info(&si);
	if (!err) {
		err = swapon_locked(si, f, swap_flags);
		if (err)
			free_swap_info(si);
	}
	up_write(&swapon_rwsem);
	if (err)
		fput(f);
	return err;
}
SYSCALL(__NR_swapon, sys_swapon);

/*
 * swapoff(2): the area on specialfile goes out of use. -EINVAL if it is
 * not one; -ENOMEM, with nothing changed, while any of its slots holds
 * a page (nothing swaps out yet, so none does).
 */
static long sys_swapoff(const char __user *specialfile)
{
	struct swap_info_struct *si;
	struct file *f, *swap_file = NULL;
	unsigned char *map = NULL;
	long err = user_file_open(specialfile, O_RDWR, &f);

	if (err)
		return err;
	down_write(&swapon_rwsem);
	si = find_swap_info(f->f_inode);
	err = si && swap_info_get(si->type) ? disable_swap_info(si) : -EINVAL;
	if (!err) {
		map = si->swap_map;
		swap_file = si->swap_file;
		free_swap_info(si);
	}
	up_write(&swapon_rwsem);
	kfree(map);
	if (swap_file)
		fput(swap_file);
	fput(f);
	return err;
}
SYSCALL(__NR_swapoff, sys_swapoff);

/* /proc/swaps, as Linux's swap_show: the path padded to 40 columns,
 * "partition", sizes in kB, the priority. */
static int swaps_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_puts(m, "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	down_read(&swapon_rwsem);
	for (int i = 0; i < MAX_SWAPFILES; i++) {
		struct swap_info_struct *si = swap_info_get(i);
		unsigned long size, used;
		char name[64];
		int len;

		if (!si)
			continue;
		swap_name(si, name, sizeof(name));
		len = strlen(name);
		size = (unsigned long)si->pages << (PAGE_SHIFT - 10);
		used = (unsigned long)si->inuse_pages << (PAGE_SHIFT - 10);
		seq_printf(m, "%s%*s%s\t%lu\t%s%lu\t%s%d\n", name,
			   len < 40 ? 40 - len : 1, " ", "partition", size,
			   size < 10000000 ? "\t" : "", used,
			   used < 10000000 ? "\t" : "", si->prio);
	}
	up_read(&swapon_rwsem);
	return 0;
}

void proc_swaps_init(void)
{
	BUG_ON(proc_create("swaps", 0444, swaps_show, NULL));
}
