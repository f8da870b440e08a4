/* mm/swapfile.c — swapon(2), swapoff(2) and /proc/swaps: a block device
 * that mkswap has written becomes a swap area (its slots: mm/swap_map.c).
 * swapon_rwsem serializes swapon and swapoff (both sleep on the disk) and
 * keeps the areas /proc/swaps lists. */
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/rwsem.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/swap.h>
#include <zpk/swapops.h>
#include <zpk/syscalls.h>
#include "internal.h"

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
	kswapd_run();		/* the first area starts reclaim */
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

/* ---- swapoff: every page back in (Linux's try_to_unuse) ------------- */

struct unuse_walk {
	unsigned int type;
	unsigned long addr;	/* the swap PTE found */
};

static int find_swap_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct unuse_walk *uw = priv;

	if (!is_swap_pte(*pte) || swp_type(pte_to_swp_entry(*pte)) != uw->type)
		return 0;
	uw->addr = addr;
	return 1;
}

/* Each swap PTE of area type in vma is faulted in as a read would
 * (do_swap_page, whatever the VMA's protection). mm's mmap_lock held for
 * reading. 0 or -ENOMEM (no page, or the slot could not be read). */
static int unuse_vma(struct vm_area_struct *vma, unsigned int type)
{
	struct unuse_walk uw = { .type = type };
	unsigned long start = vma->vm_start, last = -1UL;
	int tries = 0;

	while (walk_page_range_nosplit(vma->vm_mm, start, vma->vm_end,
				       find_swap_pte, &uw)) {
		spinlock_t *ptl;
		pte_t *pte = pte_lookup_lock(vma->vm_mm, uw.addr, &ptl);
		vm_fault_t ret = 0;

		/* The low reserve is kswapd's and the other tasks': a
		 * swapoff that would eat it fails instead. */
		if (nr_free_pages() < min_wmark)
			ret = VM_FAULT_OOM;
		else if (pte && is_swap_pte(*pte))
			ret = do_swap_page(vma, uw.addr, pte, 0);
		if (pte)
			pte_unmap_unlock(pte, ptl);
		if (ret & (VM_FAULT_OOM | VM_FAULT_SIGBUS))
			return -ENOMEM;
		tries = uw.addr == last ? tries + 1 : 0;
		if (tries > 8)	/* the PTE keeps changing under us */
			return -ENOMEM;
		last = start = uw.addr;
	}
	return 0;
}

/* Every swap PTE of type in mm. 0 or -ENOMEM. */
static int unuse_mm(struct mm_struct *mm, unsigned int type)
{
	struct vm_area_struct *vma;
	int err = 0;

	mmap_read_lock(mm);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		err = unuse_vma(vma, type);
		if (err)
			break;
	}
	mmap_read_unlock(mm);
	return err;
}

/*
 * Brings every page of area si back into memory: each mm's swap PTEs of
 * it in turn (a user taken, so that the mm stays, but not the mmlist
 * lock, since mmput may need it), then the swap cache's pages of it.
 * Passes repeat while slots stay in use (an mm that was exiting, a
 * fork copying a PTE meanwhile). 0 or -ENOMEM; what came in stays in.
 * swapon_rwsem held for writing; sleeps.
 */
static int try_to_unuse(struct swap_info_struct *si)
{
	struct mm_struct *mm, **mms;
	int n, max, err = 0;

	for (int pass = 0; pass < 4 && !err; pass++) {
		down_read(&mmlist_lock);
		max = 0;
		list_for_each_entry(mm, &mmlist, mmlist)
			max++;
		mms = kmalloc(max * sizeof(*mms) + 1, GFP_KERNEL);
		n = 0;
		list_for_each_entry(mm, &mmlist, mmlist)
			if (mms && mmget_not_zero(mm))
				mms[n++] = mm;
		up_read(&mmlist_lock);
		if (!mms)
			return -ENOMEM;
		for (int i = 0; i < n; i++) {
			if (!err)
				err = unuse_mm(mms[i], si->type);
			mmput(mms[i]);
		}
		kfree(mms);
		if (err)
			break;
		swap_cache_drop_type(si->type);	/* -EBUSY: the next pass */
		if (!READ_ONCE(si->inuse_pages))
			return 0;
		schedule();
	}
	return err ? err : -ENOMEM;
}

/*
 * swapoff(2): the area on specialfile goes out of use. -EINVAL if it is
 * not one. Every page in the area comes back in first (try_to_unuse);
 * -ENOMEM, with the area still in use, if its pages do not fit in free
 * memory (swapoff_fits: then nothing has changed) or one cannot come in
 * (no page, the free pages fell under the min watermark, a read error:
 * what came in stays in).
 */
/*
 * Whether si's pages fit in the free memory above the high watermark
 * (what kswapd keeps free for everyone else). Linux's swapoff asks
 * security_vm_enough_memory_mm first (only strict overcommit refuses)
 * and then may OOM-kill; zpk refuses up front instead, so that a swapoff
 * that cannot succeed changes nothing. Slots whose page is already in
 * the swap cache count too: an overestimate. A glance, no lock.
 */
static bool swapoff_fits(struct swap_info_struct *si)
{
	unsigned long free = nr_free_pages();

	return free > high_wmark &&
	       free - high_wmark >= READ_ONCE(si->inuse_pages);
}

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
	err = si && swap_info_get(si->type) ? 0 : -EINVAL;
	if (!err && !swapoff_fits(si))
		err = -ENOMEM;
	if (!err) {
		swap_info_noalloc(si, true);
		err = try_to_unuse(si);
		if (!err)
			err = disable_swap_info(si);
		swap_info_noalloc(si, false);
	}
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
