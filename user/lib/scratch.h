/* user/lib/scratch.h — the scratch disk of tests/qemu/blk.sh, the one
 * disk the tests may write: its first line is "ZPK-BLK-SCRATCH SIZE"
 * (then optional "KEY N" words, such as the slot blk.sh makes fail);
 * and mkswap's version-1 header, written on it as mkswap writes it. */
#ifndef SCRATCH_H
#define SCRATCH_H

#include <stdint.h>

#define SCRATCH_MAGIC	"ZPK-BLK-SCRATCH "

/* The size the first line of the disk open at fd gives, or -1 if it has
 * no such line. */
long long scratch_size(int fd);
/* The same for the disk at path: -1 if it cannot be opened too. */
long long scratch_disk_size(const char *dev);
/* The number after word key ("EIO-SLOT") on dev's first line, or -1. */
long long scratch_word(const char *dev, const char *key);

/* mkswap's header at byte 1024 (version, last_page, the nbad bad pages
 * bad[]) and magic ("SWAPSPACE2") at 4086, synced; the scratch line in
 * the first 1024 bytes stays. magic NULL clears the signature. 0 or -1. */
int swap_header_write(const char *dev, const char *magic, uint32_t version,
		      uint32_t last_page, int nbad, const uint32_t *bad);
/* A plain area over all of a scratch disk of bytes, swapped on (flags
 * 0): 0, or -1 with errno set. */
int scratch_swapon(const char *dev, long long bytes);
/* swapoff of dev, then, if it went, its signature cleared (the disk is
 * a scratch disk again): swapoff's result, errno set if -1. */
int scratch_swapoff(const char *dev);

#endif
