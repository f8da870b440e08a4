/* fs/cpio.c — unpacks the initrd, a cpio "newc" archive, into the
 * ramfs: directories, regular files (read-only) and symbolic links; bad
 * archives -EINVAL. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/string.h>

#define CPIO_HDR_LEN	110	/* "070701" and 13 fields of 8 hex digits */
#define CPIO_MODE	1	/* field numbers after the magic */
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

/*
 * Unpacks the archive at cpio[0..len) under the root: names with or
 * without "./" or "/"; directories first (an existing one is fine).
 * Other types (devices, fifos) are skipped. 0, -EINVAL for a
 * malformed archive (bad magic or digits, sizes past the end, no
 * TRAILER!!!), or the error creating a file.
 */
int initrd_unpack(const void *cpio, size_t len)
{
	const char *base = cpio;
	size_t off = 0;

	for (;;) {
		const char *h = base + off, *name, *data;
		long mode, filesize, namesize;
		size_t data_off, next;
		int err = 0;

		if (len - off < CPIO_HDR_LEN || memcmp(h, "070701", 6))
			return -EINVAL;
		mode = hdr_field(h, CPIO_MODE);
		filesize = hdr_field(h, CPIO_FILESIZE);
		namesize = hdr_field(h, CPIO_NAMESIZE);
		if (mode < 0 || filesize < 0 || namesize <= 0)
			return -EINVAL;
		if ((size_t)namesize > len - off - CPIO_HDR_LEN)
			return -EINVAL;
		name = h + CPIO_HDR_LEN;
		if (name[namesize - 1] != '\0' ||
		    strlen(name) != (size_t)namesize - 1)
			return -EINVAL;
		data_off = ALIGN_UP(off + CPIO_HDR_LEN + namesize, 4);
		if (data_off > len || (size_t)filesize > len - data_off)
			return -EINVAL;
		data = base + data_off;
		next = ALIGN_UP(data_off + filesize, 4);
		if (!strcmp(name, "TRAILER!!!"))
			return 0;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		while (name[0] == '/')
			name++;
		/* "." (now "") is the root itself: nothing to make. */
		if (name[0] && strcmp(name, ".") && S_ISDIR(mode))
			err = unpack_dir(name, mode);
		else if (name[0] && S_ISREG(mode))
			err = unpack_file(name, mode, data, filesize);
		else if (name[0] && S_ISLNK(mode))
			err = vfs_symlink(NULL, data, filesize, name);
		if (err)
			return err;
		if (next > len)
			return -EINVAL;	/* no room for the TRAILER!!! */
		off = next;
	}
}
