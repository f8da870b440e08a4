/* block/genhd.c — the disks the drivers found, and their nodes in /dev
 * (Linux's add_disk, without partitions: /dev/vda is the whole disk). */
#include <zpk/errno.h>
#include <zpk/string.h>
#include <zpk/swap.h>

#include "blk.h"

#define MAX_DISKS	4

/* Written at boot only, by the drivers' probes; read afterwards. */
static struct gendisk *disks[MAX_DISKS];

int add_disk(struct gendisk *disk)
{
	char path[32] = "/dev/";
	int i, err;

	for (i = 0; i < MAX_DISKS && disks[i]; i++)
		;
	if (i == MAX_DISKS)
		return -ENOSPC;
	strlcpy(path + 5, disk->disk_name, sizeof(path) - 5);
	err = vfs_mknod(NULL, path, S_IFBLK | 0660,
			MKDEV(disk->major, disk->first_minor), &def_blk_fops);
	if (!err)
		disks[i] = disk;
	if (!err && i == 0)	/* swap may go there: reclaim's thread, */
		kswapd_run();	/* at boot, not in a test's swapon */
	return err;
}

struct gendisk *get_disk_by_devt(u32 devt)
{
	for (int i = 0; i < MAX_DISKS && disks[i]; i++)
		if (MKDEV(disks[i]->major, disks[i]->first_minor) == devt)
			return disks[i];
	return NULL;
}

struct gendisk *get_disk_by_name(const char *name)
{
	for (int i = 0; i < MAX_DISKS && disks[i]; i++)
		if (!strcmp(disks[i]->disk_name, name))
			return disks[i];
	return NULL;
}
