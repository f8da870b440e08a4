/* host-test-sources: fs/ramfs.c fs/namei.c fs/anon_inodes.c fs/open.c fs/file.c fs/cpio.c fs/devices.c mm/slab.c mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_fs.c — the VFS-lite over the real buddy and slab on
 * simulated RAM: cpio, lookup, file data, open flags, fd tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/console.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/slab.h>

#include "harness.h"

#define NR_PFNS		4096UL		/* 16 MiB of simulated RAM */

static char console_seen[64];
static size_t console_len;

void console_write(const char *s, size_t n)
{
	n = min(n, sizeof(console_seen) - 1 - console_len);
	memcpy(console_seen + console_len, s, n);
	console_len += n;
}

/* No process maps a file here: truncate and a punched hole have nothing
 * to unmap. */
void unmap_mapping_range(struct inode *inode, loff_t holebegin)
{
	(void)inode, (void)holebegin;
}

void unmap_mapping_pages(struct inode *inode, unsigned long first,
			 unsigned long nr, bool even_cows)
{
	(void)inode, (void)first, (void)nr, (void)even_cows;
}

/* No process takes a lock or an epoll item here (fs/locks.c and
 * fs/eventpoll.c sleep and signal): nothing to drop. */
void locks_remove_posix(struct file *f, struct files_struct *files)
{
	(void)f, (void)files;
}

void locks_remove_file(struct file *f)
{
	(void)f;
}

void locks_free_lock_context(struct inode *inode)
{
	(void)inode;
}

void eventpoll_release_file(struct file *f)
{
	(void)f;
}

/* No scheduler here: descriptor calls use the boot table. */
struct files_struct *current_files(void)
{
	return &init_files;
}

static int group_setup(void **state)
{
	(void)state;
	if (harness_heap_init(NR_PFNS))
		return -1;
	vfs_init();
	return 0;
}

/* ---- helpers --------------------------------------------------------- */

static struct file *open_ok(const char *path, int flags)
{
	struct file *f = NULL;

	assert_int_equal(vfs_open(path, flags, 0644, &f), 0);
	assert_non_null(f);
	return f;
}

static int open_err(const char *path, int flags)
{
	struct file *f = NULL;
	int err = vfs_open(path, flags, 0644, &f);

	if (!err)
		fput(f);
	return err;
}

static struct inode *lookup(const char *path)
{
	struct inode *inode = NULL;

	assert_int_equal(vfs_lookup(NULL, path, &inode), 0);
	return inode;
}

static int lookup_err(const char *path)
{
	struct inode *inode;

	return vfs_lookup(NULL, path, &inode);
}

/* An archive being built: newc records with 4-byte padding. */
#define CPIO_TEST_MTIME	1234567890	/* every entry's time */

struct cpio {
	char buf[16384];
	size_t len;
};

static void cpio_add(struct cpio *c, const char *name, unsigned int mode,
		     const void *data, size_t size)
{
	size_t namesize = strlen(name) + 1;

	c->len += sprintf(c->buf + c->len,
			  "070701%08X%08X%08X%08X%08X%08X%08zX"
			  "%08X%08X%08X%08X%08zX%08X",
			  1, mode, 0, 0, 1, CPIO_TEST_MTIME, size, 0, 0, 0, 0,
			  namesize, 0);
	memcpy(c->buf + c->len, name, namesize);
	c->len += namesize;
	while (c->len % 4)
		c->buf[c->len++] = 0;
	memcpy(c->buf + c->len, data, size);
	c->len += size;
	while (c->len % 4)
		c->buf[c->len++] = 0;
}

static void cpio_trailer(struct cpio *c)
{
	cpio_add(c, "TRAILER!!!", 0, "", 0);
}

static void read_all(const char *path, char *buf, size_t n, size_t want)
{
	struct file *f = open_ok(path, O_RDONLY);

	assert_int_equal(vfs_read(f, buf, n), want);
	fput(f);
}

/* ---- cpio ------------------------------------------------------------ */

/* Nested directories, "./" and bare names, a file of three pages,
 * symbolic links. */
static void test_cpio_unpack(void **state)
{
	static struct cpio c;
	static char big[3 * 4096 + 5], got[sizeof(big) + 10];
	struct inode *inode, *link;
	struct file *f;

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(i % 251);
	cpio_add(&c, ".", S_IFDIR | 0755, "", 0);
	cpio_add(&c, "./etc", S_IFDIR | 0755, "", 0);
	cpio_add(&c, "etc/motd", S_IFREG | 0644, "hello\n", 6);
	cpio_add(&c, "./bin", S_IFDIR | 0755, "", 0);
	cpio_add(&c, "bin/sub", S_IFDIR | 0755, "", 0);
	cpio_add(&c, "./bin/sub/big", S_IFREG | 0755, big, sizeof(big));
	cpio_add(&c, "./bin/sub/empty", S_IFREG | 0644, "", 0);
	cpio_add(&c, "./link", 0120777, "etc", 3);
	cpio_add(&c, "bin/motd", 0120777, "/etc/motd", 9);
	cpio_trailer(&c);
	assert_int_equal(initrd_unpack(c.buf, c.len), 0);

	read_all("/etc/motd", got, sizeof(got), 6);
	assert_memory_equal(got, "hello\n", 6);
	read_all("/bin/sub/big", got, sizeof(got), sizeof(big));
	assert_memory_equal(got, big, sizeof(big));
	read_all("/bin/sub/empty", got, sizeof(got), 0);
	inode = lookup("/bin/sub/big");
	assert_true(inode->i_readonly);
	assert_int_equal(inode->i_mode, S_IFREG | 0755);
	assert_true(S_ISDIR(lookup("/bin/sub")->i_mode));
	/* Links: followed by a lookup, the link itself without. */
	assert_ptr_equal(lookup("/link/motd"), lookup("/etc/motd"));
	read_all("/bin/motd", got, sizeof(got), 6);
	assert_int_equal(vfs_lookup_nofollow(NULL, "/link", &link), 0);
	assert_true(S_ISLNK(link->i_mode));
	assert_int_equal(link->i_size, 3);
	/* Every entry has the archive's time, directories too. */
	assert_int_equal(link->i_mtime_ns, CPIO_TEST_MTIME * 1000000000ULL);
	assert_int_equal(lookup("/bin/sub")->i_mtime_ns,
			 CPIO_TEST_MTIME * 1000000000ULL);
	assert_int_equal(lookup("/etc/motd")->i_mtime_ns,
			 CPIO_TEST_MTIME * 1000000000ULL);
	/* Read-only: no writing, no truncation; beyond EOF no page. */
	assert_int_equal(open_err("/etc/motd", O_WRONLY), -EROFS);
	assert_int_equal(open_err("/etc/motd", O_RDONLY | O_TRUNC), -EROFS);
	assert_non_null(inode_get_page(inode, 3));
	assert_null(inode_get_page(inode, 4));
	f = open_ok("/etc/motd", O_RDONLY);
	assert_int_equal(vfs_write(f, "x", 1), -EBADF);
	fput(f);
}

/* Truncated, corrupt and unterminated archives: -EINVAL, no crash. */
static void test_cpio_malformed(void **state)
{
	static struct cpio c;
	static char bad[sizeof(c.buf)];
	unsigned long free0 = nr_free_pages();

	(void)state;
	cpio_add(&c, "zz", S_IFREG | 0644, "data", 4);
	cpio_trailer(&c);
	memcpy(bad, c.buf, c.len);

	assert_int_equal(initrd_unpack(bad, 50), -EINVAL);	/* short */
	bad[0] = '1';						/* magic */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	memcpy(bad, c.buf, c.len);
	bad[6 + 8 * 6] = 'g';					/* digit */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	memcpy(bad, c.buf, c.len);
	memcpy(bad + 6 + 8 * 6, "7FFFFFFF", 8);			/* filesize */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	memcpy(bad, c.buf, c.len);
	memcpy(bad + 6 + 8 * 11, "00100000", 8);		/* namesize */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	memcpy(bad, c.buf, c.len);
	memcpy(bad + 6 + 8 * 11, "00000002", 8);	/* name not NUL-ended */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	memcpy(bad, c.buf, c.len);
	memcpy(bad + 6 + 8 * 11, "00000000", 8);		/* no name */
	assert_int_equal(initrd_unpack(bad, c.len), -EINVAL);
	assert_int_equal(nr_free_pages(), free0);
	assert_int_equal(lookup_err("/zz"), -ENOENT);
	/* Without its TRAILER!!!: the file is made, then -EINVAL. */
	assert_int_equal(initrd_unpack(c.buf, c.len - 112 - 12), -EINVAL);
	assert_int_equal(lookup_err("/zz"), 0);
	assert_int_equal(initrd_unpack(c.buf, 0), -EINVAL);
}

/* ---- lookup ---------------------------------------------------------- */

static void test_lookup_paths(void **state)
{
	struct inode *tmp = lookup("/tmp"), *cwd, *got;

	(void)state;
	assert_ptr_equal(lookup("/"), vfs_root);
	assert_ptr_equal(lookup("//"), vfs_root);
	assert_ptr_equal(lookup("/.."), vfs_root);
	assert_ptr_equal(lookup("/../../tmp"), tmp);
	assert_ptr_equal(lookup("///tmp//./"), tmp);
	assert_ptr_equal(lookup("/dev/../tmp/."), tmp);
	assert_int_equal(vfs_mkdir(NULL, "/tmp/a", 0755), 0);
	assert_int_equal(vfs_mkdir(NULL, "/tmp/a/b/", 0755), 0);
	cwd = lookup("/tmp/a/b");
	assert_int_equal(vfs_lookup(cwd, "..", &got), 0);
	assert_ptr_equal(got, lookup("/tmp/a"));
	assert_int_equal(vfs_lookup(cwd, "../../a/b/.", &got), 0);
	assert_ptr_equal(got, cwd);
	assert_int_equal(vfs_lookup(cwd, "/tmp", &got), 0);
	assert_ptr_equal(got, tmp);
	assert_int_equal(vfs_rmdir(NULL, "/tmp/a"), -ENOTEMPTY);
	assert_int_equal(vfs_rmdir(NULL, "/tmp/a/b"), 0);
	assert_int_equal(vfs_rmdir(NULL, "/tmp/a"), 0);
}

static void test_lookup_errors(void **state)
{
	static char longname[NAME_MAX + 10], longpath[PATH_MAX + 10];
	struct file *f;

	(void)state;
	assert_int_equal(lookup_err(""), -ENOENT);
	assert_int_equal(lookup_err("/nope"), -ENOENT);
	assert_int_equal(lookup_err("/nope/x"), -ENOENT);
	assert_int_equal(lookup_err("/dev/null/x"), -ENOTDIR);
	assert_int_equal(lookup_err("/dev/null/"), -ENOTDIR);
	assert_int_equal(lookup_err("/dev/null/.."), -ENOTDIR);
	memset(longname, 'n', NAME_MAX + 1);
	longname[0] = '/';
	assert_int_equal(lookup_err(longname), -ENOENT);	/* 255 ok */
	longname[NAME_MAX + 1] = 'n';
	assert_int_equal(lookup_err(longname), -ENAMETOOLONG);
	memset(longpath, '/', PATH_MAX);
	assert_int_equal(lookup_err(longpath), -ENAMETOOLONG);
	assert_int_equal(vfs_mkdir(NULL, "/tmp", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir(NULL, "/", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir(NULL, "/tmp/..", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir(NULL, "/dev/null", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir(NULL, "/x/y", 0755), -ENOENT);
	assert_int_equal(open_err("/tmp", O_WRONLY), -EISDIR);
	assert_int_equal(open_err("/tmp", O_RDONLY | O_CREAT), -EISDIR);
	assert_int_equal(open_err("/tmp/new/", O_RDWR | O_CREAT), -EISDIR);
	assert_int_equal(open_err("/dev/null", O_RDONLY | O_DIRECTORY),
			 -ENOTDIR);
	f = open_ok("/tmp/", O_RDONLY | O_DIRECTORY);
	assert_int_equal(vfs_read(f, longname, 1), -EISDIR);
	fput(f);
	assert_int_equal(vfs_unlink(NULL, "/tmp"), -EISDIR);
	assert_int_equal(vfs_unlink(NULL, "/tmp/none"), -ENOENT);
	assert_int_equal(vfs_rmdir(NULL, "/dev/null"), -ENOTDIR);
}

/* ---- file data ------------------------------------------------------- */

/* Writes straddling pages, at offsets past EOF (holes read zeros). */
static void test_write_read_pages(void **state)
{
	static char buf[3 * 4096], got[sizeof(buf)];
	unsigned long free0 = nr_free_pages();
	struct file *f = open_ok("/tmp/data", O_RDWR | O_CREAT | O_EXCL);
	struct inode *inode = f->f_inode;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 13 + 1);
	f->f_pos = PAGE_SIZE - 10;
	assert_int_equal(vfs_write(f, buf, 20), 20);
	assert_int_equal(inode->i_size, PAGE_SIZE + 10);
	f->f_pos = 0;
	assert_int_equal(vfs_read(f, got, sizeof(got)), PAGE_SIZE + 10);
	for (size_t i = 0; i < PAGE_SIZE - 10; i++)
		assert_int_equal(got[i], 0);
	assert_memory_equal(got + PAGE_SIZE - 10, buf, 20);
	/* A write far past EOF leaves a hole: no page allocated for it. */
	f->f_pos = 5 * PAGE_SIZE + 100;
	assert_int_equal(vfs_write(f, buf, sizeof(buf)), sizeof(buf));
	assert_null(inode->i_pages[2]);
	assert_null(inode->i_pages[4]);
	assert_int_equal(inode->i_size, 8 * PAGE_SIZE + 100);
	f->f_pos = 2 * PAGE_SIZE;
	assert_int_equal(vfs_read(f, got, 100), 100);
	assert_int_equal(got[0] | got[99], 0);
	f->f_pos = 5 * PAGE_SIZE + 100;
	memset(got, 0, sizeof(got));
	assert_int_equal(vfs_read(f, got, sizeof(got)), sizeof(got));
	assert_memory_equal(got, buf, sizeof(buf));
	assert_int_equal(vfs_read(f, got, 1), 0);
	assert_int_equal(vfs_unlink(NULL, "/tmp/data"), 0);
	fput(f);
	assert_int_equal(nr_free_pages(), free0);
}

/* Shrinking frees pages and zeroes the tail; growing reads zeros. */
static void test_truncate(void **state)
{
	static char buf[2 * 4096], got[sizeof(buf)];
	unsigned long free0 = nr_free_pages();
	struct file *f = open_ok("/tmp/t", O_RDWR | O_CREAT);
	struct inode *inode = f->f_inode;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(vfs_write(f, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(ramfs_truncate(inode, 100), 0);
	assert_int_equal(inode->i_size, 100);
	assert_null(inode->i_pages[1]);
	assert_int_equal(ramfs_truncate(inode, sizeof(buf)), 0);
	f->f_pos = 0;
	assert_int_equal(vfs_read(f, got, sizeof(got)), sizeof(got));
	assert_memory_equal(got, buf, 100);
	for (size_t i = 100; i < sizeof(got); i++)
		assert_int_equal(got[i], 0);
	assert_int_equal(ramfs_truncate(inode, -1), -EINVAL);
	assert_int_equal(ramfs_truncate(lookup("/tmp"), 0), -EISDIR);
	assert_int_equal(ramfs_truncate(inode, 0), 0);
	assert_null(inode->i_pages[0]);
	fput(f);
	assert_int_equal(vfs_unlink(NULL, "/tmp/t"), 0);
	assert_int_equal(nr_free_pages(), free0);
}

/* ---- open flags ------------------------------------------------------ */

static void test_open_flags(void **state)
{
	char got[16];
	struct file *f, *g;

	(void)state;
	assert_int_equal(open_err("/tmp/o", O_RDONLY), -ENOENT);
	f = open_ok("/tmp/o", O_WRONLY | O_CREAT | O_EXCL);
	assert_int_equal(f->f_inode->i_mode, S_IFREG | 0644);
	assert_int_equal(vfs_write(f, "hello", 5), 5);
	assert_int_equal(vfs_read(f, got, 5), -EBADF);
	fput(f);
	assert_int_equal(open_err("/tmp/o", O_WRONLY | O_CREAT | O_EXCL),
			 -EEXIST);
	/* O_CREAT without O_EXCL opens the existing file, data intact. */
	f = open_ok("/tmp/o", O_RDWR | O_CREAT);
	assert_int_equal(vfs_read(f, got, sizeof(got)), 5);
	fput(f);
	/* O_APPEND: every write at the end, wherever f_pos was. */
	f = open_ok("/tmp/o", O_WRONLY | O_APPEND);
	g = open_ok("/tmp/o", O_RDWR);
	assert_int_equal(vfs_write(g, "HE", 2), 2);	/* overwrites */
	assert_int_equal(vfs_write(f, " w", 2), 2);
	f->f_pos = 0;
	assert_int_equal(vfs_write(f, "!", 1), 1);
	assert_int_equal(f->f_pos, 8);
	g->f_pos = 0;
	assert_int_equal(vfs_read(g, got, sizeof(got)), 8);
	assert_memory_equal(got, "HEllo w!", 8);
	fput(g);
	fput(f);
	/* O_TRUNC empties it. */
	f = open_ok("/tmp/o", O_WRONLY | O_TRUNC);
	assert_int_equal(f->f_inode->i_size, 0);
	assert_int_equal(f->f_flags & O_TRUNC, 0);
	fput(f);
	assert_int_equal(vfs_unlink(NULL, "/tmp/o"), 0);
	assert_int_equal(open_err("/tmp/o", O_RDONLY), -ENOENT);
}

/* ---- devices --------------------------------------------------------- */

static void test_devices(void **state)
{
	char got[32];
	struct file *f;

	(void)state;
	f = open_ok("/dev/zero", O_RDWR);
	memset(got, 'q', sizeof(got));
	assert_int_equal(vfs_read(f, got, sizeof(got)), sizeof(got));
	for (size_t i = 0; i < sizeof(got); i++)
		assert_int_equal(got[i], 0);
	assert_int_equal(vfs_write(f, got, 7), 7);
	assert_int_equal(f->f_inode->i_rdev, MKDEV(1, 5));
	fput(f);
	f = open_ok("/dev/null", O_RDWR);
	assert_int_equal(vfs_read(f, got, sizeof(got)), 0);
	assert_int_equal(vfs_write(f, got, 9), 9);
	fput(f);
	f = open_ok("/dev/console", O_RDWR);
	assert_int_equal(vfs_write(f, "hi there", 8), 8);
	assert_memory_equal(console_seen, "hi there", 8);
	assert_int_equal(vfs_read(f, got, sizeof(got)), 0);
	fput(f);
}

/* ---- references and descriptor tables -------------------------------- */

/* Unlinking an open file keeps its pages until the last fput. */
static void test_unlink_frees_pages(void **state)
{
	static char buf[3 * 4096];
	unsigned long free0 = nr_free_pages();
	struct file *f = open_ok("/tmp/u", O_RDWR | O_CREAT);
	struct file *g = get_file(f);

	(void)state;
	memset(buf, 1, sizeof(buf));
	assert_int_equal(vfs_write(f, buf, sizeof(buf)), sizeof(buf));
	assert_true(nr_free_pages() <= free0 - 3);
	assert_int_equal(vfs_unlink(NULL, "/tmp/u"), 0);
	assert_int_equal(vfs_unlink(NULL, "/tmp/u"), -ENOENT);
	fput(f);
	assert_int_equal(g->f_inode->i_nlink, 0);
	g->f_pos = 0;
	assert_int_equal(vfs_read(g, buf, sizeof(buf)), sizeof(buf));
	assert_true(nr_free_pages() < free0);
	fput(g);
	assert_int_equal(nr_free_pages(), free0);
}

static int release_calls;

static void counting_release(struct file *f)
{
	(void)f;
	release_calls++;
}

static const struct file_operations counting_fops = {
	.release = counting_release,
};

/* dup_fd shares each file (+1 ref); release runs at the last fput. */
static void test_dup_fd_shares(void **state)
{
	struct files_struct *parent = current_files(), *child;
	struct file *f;
	int fd, fd2;

	(void)state;
	assert_int_equal(vfs_mknod(NULL, "/tmp/cnt", S_IFCHR | 0600, 0,
				   &counting_fops), 0);
	f = open_ok("/tmp/cnt", O_RDWR);
	fd = fd_install_new(f, 0, false);
	assert_true(fd >= 0);
	fd2 = fd_install_new(get_file(f), fd, false);
	assert_int_equal(fd2, fd + 1);
	assert_int_equal(atomic_read(&f->f_count), 2);
	child = dup_fd(parent);
	assert_non_null(child);
	assert_ptr_equal(child->fd[fd], f);
	assert_int_equal(atomic_read(&f->f_count), 4);
	assert_ptr_equal(fget(fd), f);
	fput(f);
	assert_null(fget(fd + 2));
	assert_null(fget(-1));
	assert_null(fget(NR_OPEN_DEFAULT));
	assert_int_equal(close_fd(fd), 0);
	assert_int_equal(close_fd(fd), -EBADF);
	assert_int_equal(close_fd(fd2), 0);
	assert_int_equal(release_calls, 0);
	assert_int_equal(atomic_read(&f->f_count), 2);
	child->count++;			/* a thread sharing the table */
	put_files_struct(child);
	assert_int_equal(release_calls, 0);
	put_files_struct(child);
	assert_int_equal(release_calls, 1);
	assert_int_equal(vfs_unlink(NULL, "/tmp/cnt"), 0);
}

/* exec closes just the FD_CLOEXEC descriptors; a full table: -EMFILE. */
static void test_close_on_exec(void **state)
{
	struct files_struct *files = files_alloc(), *saved;
	struct file *f = open_ok("/dev/null", O_RDONLY);
	int a, b, fd;

	(void)state;
	assert_non_null(files);
	saved = current_files();
	a = fd_install_new(get_file(f), 0, true);
	b = fd_install_new(get_file(f), 0, false);
	assert_int_equal(b, a + 1);
	assert_true(saved->close_on_exec & (1ULL << a));
	do_close_on_exec(saved);
	assert_null(saved->fd[a]);
	assert_ptr_equal(saved->fd[b], f);
	assert_int_equal(saved->close_on_exec, 0);
	assert_int_equal(close_fd(b), 0);
	/* Fill a table through dup_fd's copy: the shape does not matter. */
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		files->fd[fd] = get_file(f);
	files->close_on_exec = ~0ULL;
	do_close_on_exec(files);
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		assert_null(files->fd[fd]);
	put_files_struct(files);
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (!saved->fd[fd])
			assert_true(fd_install_new(get_file(f), 0, false) >= 0);
	assert_int_equal(fd_install_new(f, 0, false), -EMFILE);
	assert_int_equal(fd_install_new(f, -1, false), -EINVAL);
	for (fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		close_fd(fd);
	assert_int_equal(atomic_read(&f->f_count), 1);
	fput(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio_unpack),
		cmocka_unit_test(test_cpio_malformed),
		cmocka_unit_test(test_lookup_paths),
		cmocka_unit_test(test_lookup_errors),
		cmocka_unit_test(test_write_read_pages),
		cmocka_unit_test(test_truncate),
		cmocka_unit_test(test_open_flags),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_unlink_frees_pages),
		cmocka_unit_test(test_dup_fd_shares),
		cmocka_unit_test(test_close_on_exec),
	};

	return cmocka_run_group_tests(tests, group_setup, harness_heap_free);
}
