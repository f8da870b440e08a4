/* fs/tests/ktest_fs.c — ktests of the VFS on the real allocators: a file
 * in /tmp written, read back and unlinked, /dev/zero, pages returned. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/string.h>

static char buf[2 * PAGE_SIZE + 100];

/* Create, write across a page boundary, read back, unlink: ENOENT after,
 * and every page (data, i_pages, slab) back with the allocator. */
KTEST(fs, tmp_file_roundtrip)
{
	struct file *f;
	unsigned long free0;
	struct inode *ino;

	vfs_init();
	free0 = nr_free_pages();
	KEXPECT_EQ(vfs_open("/tmp/k", O_RDWR | O_CREAT | O_EXCL, 0644, &f), 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7);
	KEXPECT_EQ(vfs_write(f, buf, sizeof(buf)), sizeof(buf));
	KEXPECT_EQ(f->f_inode->i_size, sizeof(buf));
	f->f_pos = 0;
	memset(buf, 0, sizeof(buf));
	KEXPECT_EQ(vfs_read(f, buf, sizeof(buf)), sizeof(buf));
	KEXPECT_EQ(buf[PAGE_SIZE + 1], (char)((PAGE_SIZE + 1) * 7));
	KEXPECT_EQ(vfs_read(f, buf, 1), 0);
	KEXPECT_EQ(vfs_unlink(NULL, "/tmp/k"), 0);
	KEXPECT_EQ(vfs_lookup(NULL, "/tmp/k", &ino), -ENOENT);
	/* Still open: the data stays until the last fput. */
	KEXPECT_NE(nr_free_pages(), free0);
	fput(f);
	KEXPECT_EQ(nr_free_pages(), free0);
}

/* /dev/zero fills the buffer with zeros; /dev/null reads EOF. */
KTEST(fs, dev_zero_null)
{
	struct file *f;

	vfs_init();
	KEXPECT_EQ(vfs_open("/dev/zero", O_RDONLY, 0, &f), 0);
	memset(buf, 0x55, 64);
	KEXPECT_EQ(vfs_read(f, buf, 64), 64);
	for (int i = 0; i < 64; i++)
		KEXPECT_EQ(buf[i], 0);
	KEXPECT_TRUE(S_ISCHR(f->f_inode->i_mode));
	fput(f);
	KEXPECT_EQ(vfs_open("/dev/null", O_RDWR, 0, &f), 0);
	KEXPECT_EQ(vfs_read(f, buf, 64), 0);
	KEXPECT_EQ(vfs_write(f, buf, 64), 64);
	fput(f);
}

/* Lookups with ".", ".." and repeated slashes, and Linux's errors. */
KTEST(fs, lookup)
{
	struct inode *a, *b;

	vfs_init();
	KEXPECT_EQ(vfs_lookup(NULL, "/dev", &a), 0);
	KEXPECT_EQ(vfs_lookup(NULL, "//tmp/../dev/./", &b), 0);
	KEXPECT_EQ(a, b);
	KEXPECT_EQ(vfs_lookup(NULL, "/dev/null/x", &a), -ENOTDIR);
	KEXPECT_EQ(vfs_lookup(NULL, "/nope", &a), -ENOENT);
	KEXPECT_EQ(vfs_mkdir(NULL, "/tmp", 0755), -EEXIST);
}
