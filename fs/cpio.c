/* fs/cpio.c — unpacks the initrd, a cpio "newc" archive, into the
 * ramfs: directories, regular files (read-only) and symbolic links, with
 * their times; bad archives -EINVAL. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/string.h>

#define CPIO_HDR_LEN	110	/* "070701" and 13 fields of 8 hex digits */
#define CPIO_MODE	1	/* field numbers after the magic */
#define CPIO_MTIME	5
#define CPIO_FILESIZE	6
#define CPIO_NAMESIZE	11

/* Field i of the header at h, or -1 if it is not 8 hex digits. */
static long hdr_field(const char *h, int i)
{
	const char *p = h + 6 + 8 * i;
	long v = 0;

	for (int k = 0; k < 8; k++) {
		char c = p[k];
		int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* A read-only regular file at name holding data[0..size). */
static int unpack_file(const char *name, u32 mode, const char *data,
		       size_t size)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(name, O_WRONLY | O_CREAT | O_EXCL, mode, &f);

	if (err)
		return err;
	n = ramfs_write(f->f_inode, data, size, 0);
	if (n >= 0 && (size_t)n != size)
		n = -ENOMEM;
	f->f_inode->i_readonly = true;
	fput(f);
	return n < 0 ? (int)n : 0;
}

/* A directory at name; one already there is fine. */
static int unpack_dir(const char *name, u32 mode)
{
	struct inode *inode;
	int err = vfs_mkdir(NULL, name, mode);

	if (err == -EEXIST && !vfs_lookup(NULL, name, &inode) &&
	    S_ISDIR(inode->i_mode))
		err = 0;
	return err;
}

/* One entry of an archive, its name without "./" or "/" ("" for the
 * root). */
struct cpio_entry {
	const char *name, *data;
	long mode, size, mtime;
};

/* Makes the entry's file; other types (devices, fifos) are skipped. */
static int unpack_entry(const struct cpio_entry *e)
{
	/* "." (now "") is the root itself: nothing to make. */
	if (!e->name[0] || !strcmp(e->name, "."))
		return 0;
	if (S_ISDIR(e->mode))
		return unpack_dir(e->name, e->mode);
	if (S_ISREG(e->mode))
		return unpack_file(e->name, e->mode, e->data, e->size);
	if (S_ISLNK(e->mode))
		return vfs_symlink(NULL, e->data, e->size, e->name);
	return 0;
}

/* The entry's time from the archive, once all are made (a directory's
 * would move as its entries were added), as Linux's initramfs does. */
static int set_entry_time(const struct cpio_entry *e)
{
	struct inode *inode;

	if (!vfs_lookup_nofollow(NULL, e->name[0] ? e->name : "/", &inode))
		inode->i_mtime_ns = (u64)e->mtime * 1000000000ULL;
	return 0;
}

/*
 * Calls fn for each entry of the archive at cpio[0..len), in order,
 * until it returns an error. 0, -EINVAL for a malformed archive (bad
 * magic or digits, sizes past the end, no TRAILER!!!), or fn's error.
 */
static int for_each_entry(const char *base, size_t len,
			  int (*fn)(const struct cpio_entry *e))
{
	size_t off = 0;

	for (;;) {
		const char *h = base + off;
		struct cpio_entry e;
		long namesize;
		size_t data_off, next;
		int err;

		if (len - off < CPIO_HDR_LEN || memcmp(h, "070701", 6))
			return -EINVAL;
		e.mode = hdr_field(h, CPIO_MODE);
		e.mtime = hdr_field(h, CPIO_MTIME);
		e.size = hdr_field(h, CPIO_FILESIZE);
		namesize = hdr_field(h, CPIO_NAMESIZE);
		if (e.mode < 0 || e.mtime < 0 || e.size < 0 || namesize <= 0)
			return -EINVAL;
		if ((size_t)namesize > len - off - CPIO_HDR_LEN)
			return -EINVAL;
		e.name = h + CPIO_HDR_LEN;
		if (e.name[namesize - 1] != '\0' ||
		    strlen(e.name) != (size_t)namesize - 1)
			return -EINVAL;
		data_off = ALIGN_UP(off + CPIO_HDR_LEN + namesize, 4);
		if (data_off > len || (size_t)e.size > len - data_off)
			return -EINVAL;
		e.data = base + data_off;
		next = ALIGN_UP(data_off + e.size, 4);
		if (!strcmp(e.name, "TRAILER!!!"))
			return 0;
		while (e.name[0] == '.' && e.name[1] == '/')
			e.name += 2;
		while (e.name[0] == '/')
			e.name++;
		err = fn(&e);
		if (err)
			return err;
		if (next > len)
			return -EINVAL;	/* no room for the TRAILER!!! */
		off = next;
	}
}

/*
 * Unpacks the archive at cpio[0..len) under the root: names with or
 * without "./" or "/"; directories first (an existing one is fine);
 * then each entry gets its time from the archive. 0, or as
 * for_each_entry (the error creating a file).
 */
int initrd_unpack(const void *cpio, size_t len)
{
	int err = for_each_entry(cpio, len, unpack_entry);

	return err ? err : for_each_entry(cpio, len, set_entry_time);
}
