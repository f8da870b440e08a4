/* zpk/sysfs.h — /sys: the kernel's objects as small text files, one value
 * each, served by /proc's machinery (fs/proc/generic.c) on a file system
 * of their own, as Linux's sysfs. */
#ifndef ZPK_SYSFS_H
#define ZPK_SYSFS_H

#include <zpk/proc_fs.h>

/* /sys, empty but for its directories; before the initrd is unpacked. */
void sysfs_init(void);
/* /sys/devices/system/cpu, once the CPUs are up. */
void sysfs_cpu_init(void);
/* A text file /sys/PATH (its directory must exist): show writes it,
 * store (NULL: read-only) takes a write whole, n or -errno. 0, -EEXIST,
 * -ENOENT or -ENOMEM. */
int sysfs_create_file(const char *path, u32 mode, proc_show_fn show,
		      proc_write_fn store);
/* A directory /sys/PATH. */
int sysfs_mkdir(const char *path);

#endif
