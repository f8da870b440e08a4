/* fs/ramfs.c — the RAM file system: inodes, directories as lists of
 * dentries, regular files whose data lives in whole pages (i_pages). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/vmstat.h>

/* Files are capped so that i_pages stays a modest kmalloc. */
#define RAMFS_MAX_PAGES	(64UL << 20 >> PAGE_SHIFT)	/* 64 MiB */

static unsigned long next_ino = 1;
static const struct inode_operations ramfs_symlink_iops;

/* The root file system, Linux's rootfs (shmem-backed there as here). */
struct super_block rootfs_sb = {
	.s_dev = 1,
	.s_magic = TMPFS_MAGIC,
	.s_type = "rootfs",
	.s_mgtime = true,
};

/* A change to inode's data or, for a directory, to its names: stat's
 * times (Linux's mtime and ctime; zpk keeps one). */
static void update_mtime(struct inode *inode)
{
	inode->i_mtime_ns = ktime_get_real_ns();
}

/* A fresh inode of mode on sb; i_count 1 (the caller's), i_nlink 0. */
struct inode *ramfs_new_inode(struct super_block *sb, u32 mode)
{
	struct inode *inode = kzalloc(sizeof(*inode), GFP_KERNEL);

	if (!inode)
		return NULL;
	inode->i_sb = sb;
	sb->s_inodes++;
	inode->i_ino = next_ino++;
	inode->i_mode = mode;
	inode->i_count = 1;
	spin_lock_init(&inode->i_pages_lock);
	update_mtime(inode);
	INIT_LIST_HEAD(&inode->i_children);
	if (S_ISDIR(mode))
		inode->i_fop = &ramfs_dir_ops;
	else if (S_ISREG(mode))
		inode->i_fop = &ramfs_file_ops;
	else if (S_ISLNK(mode))
		inode->i_op = &ramfs_symlink_iops;
	return inode;
}

/* The file lets go of its page at index i, if it has one. Called with
 * the big kernel lock held (or by evict, when nothing maps the file). */
static void drop_page(struct inode *inode, unsigned long i)
{
	struct page *page;

	spin_lock(&inode->i_pages_lock);
	page = inode->i_pages[i];
	inode->i_pages[i] = NULL;
	if (page) {
		inode->i_nrpages--;
		page->mapping = NULL;
	}
	spin_unlock(&inode->i_pages_lock);
	if (!page)
		return;
	/* PG_swapbacked stays until the free: a mapping that still holds
	 * the page keeps counting it as shmem. */
	if (PageSwapBacked(page))
		dec_vm_stat(NR_SHMEM);
	put_page(page);
}

static void free_pages_from(struct inode *inode, unsigned long first)
{
	for (unsigned long i = first; i < inode->i_pages_cap; i++)
		drop_page(inode, i);
}

/* Frees an inode nobody names or uses any more; its pages are put back
 * (a mapping holding its own reference keeps its page). */
static void evict(struct inode *inode)
{
	BUG_ON(!list_empty(&inode->i_children));
	locks_free_lock_context(inode);
	if (inode->i_op && inode->i_op->evict) {
		inode->i_op->evict(inode);
		return;
	}
	free_pages_from(inode, 0);
	inode->i_sb->s_inodes--;
	if (S_ISREG(inode->i_mode))
		kfree(inode->i_pages);
	else if (S_ISLNK(inode->i_mode))
		kfree(inode->i_link);
	kfree(inode->i_dentry);		/* d_deleted's, if any */
	/* A directory removed while in use held its parent for "..". */
	if (S_ISDIR(inode->i_mode) && inode->i_parent)
		iput(inode->i_parent);
	kfree(inode);
}

/* Takes a reference for an open file or a cwd. */
void ihold(struct inode *inode)
{
	BUG_ON(inode->i_count <= 0 && inode->i_nlink == 0);
	inode->i_count++;
}

/* Drops a reference; the inode goes if it also has no name left. */
void iput(struct inode *inode)
{
	BUG_ON(inode->i_count <= 0);
	if (--inode->i_count == 0 && inode->i_nlink == 0)
		evict(inode);
}

/* The entry called name[0..len) in dir, or NULL. */
struct dentry *ramfs_find(struct inode *dir, const char *name, size_t len)
{
	struct dentry *d;

	list_for_each_entry(d, &dir->i_children, d_list)
		if (d->d_len == len && !memcmp(d->d_name, name, len))
			return d;
	return NULL;
}

/* A dentry for name[0..len) naming inode, in no list yet, or NULL. */
static struct dentry *d_alloc(struct inode *inode, const char *name,
			      size_t len)
{
	struct dentry *d = kmalloc(sizeof(*d) + len + 1, GFP_KERNEL);

	if (!d)
		return NULL;
	memcpy(d->d_name, name, len);
	d->d_name[len] = '\0';
	d->d_len = len;
	d->d_inode = inode;
	return d;
}

/*
 * Names inode in dir (which must not have that name yet): +1 i_nlink;
 * a directory gets dir as its "..". 0 or -ENOMEM.
 */
int ramfs_link(struct inode *dir, const char *name, size_t len,
	       struct inode *inode)
{
	struct dentry *d = d_alloc(inode, name, len);

	if (!d)
		return -ENOMEM;
	list_add_tail(&d->d_list, &dir->i_children);
	update_mtime(dir);
	inode->i_nlink++;
	if (S_ISDIR(inode->i_mode)) {
		inode->i_parent = dir;
		inode->i_dentry = d;
		inode->i_nlink++;	/* its own "." */
		dir->i_nlink++;		/* its ".." */
	}
	return 0;
}

int ramfs_create(struct inode *dir, const char *name, size_t len, u32 mode,
		 struct inode **res)
{
	struct inode *inode = ramfs_new_inode(dir->i_sb, mode);
	int err;

	if (!inode)
		return -ENOMEM;
	err = ramfs_link(dir, name, len, inode);
	if (err) {
		iput(inode);
		return err;
	}
	*res = inode;
	return 0;
}

/*
 * The path d names, with " (deleted)": an inode still in use keeps it as
 * its i_dentry when its last name goes, and d_path gives it from then on,
 * as Linux's d_path of an unlinked dentry. The text starts with '/', as
 * no name does. NULL if memory runs out (d_path then says -ENOENT).
 */
static struct dentry *d_deleted(struct inode *dir, struct dentry *d)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	struct dentry *res = NULL;
	int n;

	if (!buf)
		return NULL;
	n = d_path(dir, buf, PATH_MAX);
	if (n == 1)
		n = 0;			/* the root: no "//" */
	if (n >= 0 && n + d->d_len + 12 < PATH_MAX) {
		n += snprintf(buf + n, PATH_MAX - n, "/%s (deleted)",
			      d->d_name);
		res = d_alloc(d->d_inode, buf, n);
	}
	kfree(buf);
	return res;
}

int ramfs_symlink(struct inode *dir, const char *name, size_t len,
		  const char *target, size_t tlen)
{
	struct inode *inode;
	char *text;
	int err;

	if (!tlen)
		return -ENOENT;
	text = kmalloc(tlen + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	memcpy(text, target, tlen);
	text[tlen] = '\0';
	err = ramfs_create(dir, name, len, S_IFLNK | 0777, &inode);
	if (err) {
		kfree(text);
		return err;
	}
	inode->i_link = text;
	inode->i_size = tlen;
	iput(inode);	/* the name holds it */
	return 0;
}

/* Removes entry d of dir; the inode goes if unused. Directories must be
 * empty (the caller checks). */
void ramfs_unlink_dentry(struct inode *dir, struct dentry *d)
{
	struct inode *inode = d->d_inode;
	struct dentry *keep = NULL;

	if (inode->i_count && (S_ISDIR(inode->i_mode) || inode->i_nlink == 1))
		keep = d_deleted(dir, d);
	list_del(&d->d_list);
	kfree(d);
	update_mtime(dir);
	if (S_ISDIR(inode->i_mode)) {
		inode->i_nlink = 0;
		dir->i_nlink--;
		/* Still someone's cwd or open: ".." must lead somewhere, so
		 * it keeps its parent, as a Linux dentry holds its own. */
		if (inode->i_count)
			ihold(dir);
		else
			inode->i_parent = NULL;
	} else {
		inode->i_nlink--;
	}
	if (!inode->i_nlink)
		inode->i_dentry = keep;
	if (inode->i_nlink == 0 && inode->i_count == 0)
		evict(inode);
}

/* inode, named by d, has moved from odir to ndir: a directory's ".."
 * and both parents' link counts follow. */
static void reparent(struct inode *inode, struct dentry *d,
		     struct inode *odir, struct inode *ndir)
{
	if (!S_ISDIR(inode->i_mode))
		return;
	inode->i_parent = ndir;
	inode->i_dentry = d;
	odir->i_nlink--;
	ndir->i_nlink++;
}

/*
 * rename's change to the tree, its checks done (fs/namei.c): entry old
 * of odir becomes name[0..len) in ndir, replacing entry victim there (if
 * not NULL), whose inode goes if unused. With exchange, old and victim
 * trade inodes instead. 0, or -ENOMEM with nothing changed.
 */
int ramfs_rename(struct inode *odir, struct dentry *old, struct inode *ndir,
		 const char *name, size_t len, struct dentry *victim,
		 bool exchange)
{
	struct inode *inode = old->d_inode;
	struct dentry *d;

	if (exchange) {
		old->d_inode = victim->d_inode;
		victim->d_inode = inode;
		reparent(inode, victim, odir, ndir);
		reparent(old->d_inode, old, ndir, odir);
		update_mtime(odir);
		update_mtime(ndir);
		return 0;
	}
	d = d_alloc(inode, name, len);
	if (!d)
		return -ENOMEM;
	if (victim)
		ramfs_unlink_dentry(ndir, victim);
	list_add_tail(&d->d_list, &ndir->i_children);
	list_del(&old->d_list);
	kfree(old);
	reparent(inode, d, odir, ndir);
	update_mtime(odir);
	update_mtime(ndir);
	return 0;
}

/* Makes room for page index pgoff in i_pages, doubling it. Called
 * without i_pages_lock, since the allocation may reclaim: the new array
 * replaces the old one under the lock unless another caller's grew it as
 * far meanwhile. 0 or -ENOMEM. */
static int grow_pages(struct inode *inode, unsigned long pgoff)
{
	unsigned long cap;
	struct page **p, **old;

	spin_lock(&inode->i_pages_lock);
	cap = inode->i_pages_cap;
	spin_unlock(&inode->i_pages_lock);
	if (pgoff < cap)
		return 0;
	cap = min(max(max(cap * 2, pgoff + 1), 4UL), RAMFS_MAX_PAGES);
	p = kzalloc(cap * sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	spin_lock(&inode->i_pages_lock);
	old = p;
	if (inode->i_pages_cap < cap) {
		if (inode->i_pages)
			memcpy(p, inode->i_pages,
			       inode->i_pages_cap * sizeof(*p));
		old = inode->i_pages;
		inode->i_pages = p;
		inode->i_pages_cap = cap;
	}
	spin_unlock(&inode->i_pages_lock);
	kfree(old);
	return 0;
}

/* The page at pgoff, or NULL. i_pages_lock held. */
static struct page *find_page(struct inode *inode, unsigned long pgoff)
{
	return pgoff < inode->i_pages_cap ? inode->i_pages[pgoff] : NULL;
}

struct page *inode_find_page(struct inode *inode, unsigned long pgoff)
{
	struct page *page;

	spin_lock(&inode->i_pages_lock);
	page = find_page(inode, pgoff);
	spin_unlock(&inode->i_pages_lock);
	return page;
}

/* inode_add_page's work, with i_pages_lock held: the page becomes the
 * file's (page->mapping, which a fault checks before it maps the page:
 * do_fault). */
static int add_page(struct inode *inode, unsigned long pgoff,
		    struct page *page)
{
	if (pgoff >= RAMFS_MAX_PAGES)
		return -EFBIG;
	if (pgoff >= inode->i_pages_cap)
		return -ENOMEM;		/* no inode_reserve_page */
	if (find_page(inode, pgoff))
		return -EEXIST;
	if (inode->i_shmem) {
		page_set_flag(page, PG_swapbacked);
		inc_vm_stat(NR_SHMEM);
	}
	page->mapping = inode;
	inode->i_pages[pgoff] = page;
	inode->i_nrpages++;
	return 0;
}

int inode_reserve_page(struct inode *inode, unsigned long pgoff)
{
	return pgoff < RAMFS_MAX_PAGES ? grow_pages(inode, pgoff) : -EFBIG;
}

int inode_add_page(struct inode *inode, unsigned long pgoff,
		   struct page *page)
{
	int err;

	spin_lock(&inode->i_pages_lock);
	err = add_page(inode, pgoff, page);
	spin_unlock(&inode->i_pages_lock);
	return err;
}

/* Whether inode_get_page may give the file a page at pgoff. */
static bool may_add_page(struct inode *inode, unsigned long pgoff)
{
	if (pgoff >= RAMFS_MAX_PAGES || !S_ISREG(inode->i_mode))
		return false;
	return !inode->i_readonly ||
	       pgoff < PAGE_ALIGN(inode->i_size) >> PAGE_SHIFT;
}

/*
 * The page at pgoff, allocated zeroed on demand (for writable files,
 * with gfp); the inode holds it, a mapping takes its own get_page(). NULL
 * when out of memory, beyond the size limit, or beyond EOF of a read-only
 * file. No lock held: the page and a larger i_pages are allocated without
 * one (they may reclaim), then added under i_pages_lock; if another
 * caller added a page there meanwhile, that one is the answer.
 */
static struct page *get_page_gfp(struct inode *inode, unsigned long pgoff,
				 gfp_t gfp)
{
	struct page *page;
	int err;

	for (;;) {
		page = inode_find_page(inode, pgoff);
		if (page || !may_add_page(inode, pgoff))
			return page;
		if (grow_pages(inode, pgoff))
			return NULL;
		page = alloc_page(gfp | __GFP_ZERO);
		if (!page)
			return NULL;
		err = inode_add_page(inode, pgoff, page);
		if (!err)
			return page;
		__free_page(page);
		if (err != -EEXIST)
			return NULL;
	}
}

struct page *inode_get_page(struct inode *inode, unsigned long pgoff)
{
	return get_page_gfp(inode, pgoff, GFP_KERNEL);
}

/* Up to n bytes at pos into buf; 0 at or past EOF. Holes read as zeros
 * without allocating. */
ssize_t ramfs_read(struct inode *inode, char *buf, size_t n, loff_t pos)
{
	size_t done = 0;

	if (pos < 0)
		return -EINVAL;
	if ((u64)pos >= inode->i_size)
		return 0;
	n = min(n, (size_t)(inode->i_size - pos));
	while (done < n) {
		unsigned long pgoff = pos >> PAGE_SHIFT;
		size_t off = pos & (PAGE_SIZE - 1);
		size_t chunk = min(n - done, PAGE_SIZE - off);
		struct page *page = inode_find_page(inode, pgoff);

		if (page)
			memcpy(buf + done, (char *)page_address(page) + off,
			       chunk);
		else
			memset(buf + done, 0, chunk);
		done += chunk;
		pos += chunk;
	}
	return done;
}

/* n bytes of buf at pos, growing the file; a short count if memory runs
 * out part way. -EROFS, -EFBIG, -ENOMEM. */
ssize_t ramfs_write(struct inode *inode, const char *buf, size_t n,
		    loff_t pos)
{
	size_t done = 0;

	if (inode->i_readonly)
		return -EROFS;
	if (pos < 0)
		return -EINVAL;
	if ((u64)pos > (RAMFS_MAX_PAGES << PAGE_SHIFT) ||
	    n > (RAMFS_MAX_PAGES << PAGE_SHIFT) - pos)
		return -EFBIG;
	while (done < n) {
		size_t off = pos & (PAGE_SIZE - 1);
		size_t chunk = min(n - done, PAGE_SIZE - off);
		struct page *page = inode_get_page(inode, pos >> PAGE_SHIFT);

		if (!page)
			break;
		memcpy((char *)page_address(page) + off, buf + done, chunk);
		done += chunk;
		pos += chunk;
		if ((u64)pos > inode->i_size)
			inode->i_size = pos;
	}
	if (!done && n)
		return -ENOMEM;
	update_mtime(inode);
	return done;
}

/*
 * Sets the size. Shrinking unmaps the pages past the end from every
 * mapping, puts them back and zeroes the rest of the last one, so that
 * growing again reads zeros there. The size goes first, under
 * i_pages_lock, as Linux's truncate_setsize: a fault that looks after it
 * gets SIGBUS, one that looked before holds its PTE's lock until the page
 * is mapped, so unmap_mapping_range waits for it and then unmaps it.
 */
int ramfs_truncate(struct inode *inode, loff_t size)
{
	if (size < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	if (inode->i_readonly)
		return -EROFS;
	if (inode->i_fop != &ramfs_file_ops)
		return 0;	/* /proc: no size to set, as Linux ignores it */
	if ((u64)size > (RAMFS_MAX_PAGES << PAGE_SHIFT))
		return -EFBIG;
	if (((u64)size < inode->i_size && (inode->i_seals & F_SEAL_SHRINK)) ||
	    ((u64)size > inode->i_size && (inode->i_seals & F_SEAL_GROW)))
		return -EPERM;
	if ((u64)size != inode->i_size)
		update_mtime(inode);
	if ((u64)size < inode->i_size) {
		unsigned long keep = PAGE_ALIGN((u64)size) >> PAGE_SHIFT;
		size_t tail = size & (PAGE_SIZE - 1);
		struct page *last;

		spin_lock(&inode->i_pages_lock);
		inode->i_size = size;
		spin_unlock(&inode->i_pages_lock);
		unmap_mapping_range(inode, size);
		free_pages_from(inode, keep);
		last = tail ? inode_find_page(inode, keep - 1) : NULL;
		if (last)
			memset((char *)page_address(last) + tail, 0,
			       PAGE_SIZE - tail);
	}
	inode->i_size = size;
	return 0;
}

/* The data pages a regular file has (holes have none). */
unsigned long ramfs_nr_pages(const struct inode *inode)
{
	return S_ISREG(inode->i_mode) ? READ_ONCE(inode->i_nrpages) : 0;
}

/* Zeroes [from, to) of the page at pgoff, if the file has that page. */
static void zero_part(struct inode *inode, unsigned long pgoff, size_t from,
		      size_t to)
{
	struct page *page = inode_find_page(inode, pgoff);

	if (page)
		memset((char *)page_address(page) + from, 0, to - from);
}

/*
 * FALLOC_FL_PUNCH_HOLE: [start, end) reads as zeros. Whole pages leave
 * the file, then every mapping of them (private copies stay: Linux's
 * shmem_fallocate), so that the next access faults in a zeroed page; in
 * that order, since a fault maps a page only while it is still the
 * file's (do_fault): one that looked before it left is unmapped after.
 * Partial pages at the ends are zeroed. The big kernel lock held.
 */
static void ramfs_punch_hole(struct inode *inode, u64 start, u64 end)
{
	unsigned long first = PAGE_ALIGN(start) >> PAGE_SHIFT;
	unsigned long last = end >> PAGE_SHIFT;	/* first page not whole */

	if (first > last) {		/* inside one page */
		zero_part(inode, start >> PAGE_SHIFT, start & ~PAGE_MASK,
			  end & ~PAGE_MASK);
		return;
	}
	if (start & ~PAGE_MASK)
		zero_part(inode, start >> PAGE_SHIFT, start & ~PAGE_MASK,
			  PAGE_SIZE);
	if (end & ~PAGE_MASK)
		zero_part(inode, last, 0, end & ~PAGE_MASK);
	for (unsigned long i = first; i < last && i < inode->i_pages_cap; i++)
		drop_page(inode, i);
	unmap_mapping_pages(inode, first, last - first, false);
}

int ramfs_fallocate(struct inode *inode, int mode, loff_t offset, loff_t len)
{
	u64 end = offset + len;

	if ((u64)end > (RAMFS_MAX_PAGES << PAGE_SHIFT))
		return -EFBIG;
	/* A hole is a write; an allocation past the end, growth. */
	if ((mode & FALLOC_FL_PUNCH_HOLE) ?
	    inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE) :
	    end > inode->i_size && (inode->i_seals & F_SEAL_GROW))
		return -EPERM;
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		ramfs_punch_hole(inode, offset, end);
		return 0;
	}
	for (u64 i = offset >> PAGE_SHIFT; i < PAGE_ALIGN(end) >> PAGE_SHIFT;
	     i++)
		if (!inode_get_page(inode, i))
			return -ENOMEM;
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > inode->i_size)
		inode->i_size = end;
	return 0;
}

/* Data pages of the files below dir (on sb only, unless sb is NULL). */
static unsigned long pages_below(struct inode *dir, struct super_block *sb)
{
	unsigned long n = 0;
	struct dentry *d;

	list_for_each_entry(d, &dir->i_children, d_list) {
		struct inode *inode = d->d_inode;

		if (sb && inode->i_sb != sb)
			continue;
		if (S_ISDIR(inode->i_mode))
			n += pages_below(inode, sb);
		n += ramfs_nr_pages(inode);
	}
	return n;
}

/* /proc/meminfo's Cached: the data pages of every named file (a file
 * linked twice counts twice; unlinked open files are missed). */
unsigned long ramfs_cached_pages(void)
{
	return vfs_root ? pages_below(vfs_root, NULL) : 0;
}

/* statfs's used blocks of sb, counted as Cached is. */
unsigned long ramfs_sb_pages(struct super_block *sb)
{
	return sb->s_root ? pages_below(sb->s_root, sb) : 0;
}

static ssize_t file_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	ssize_t r = ramfs_read(f->f_inode, buf, n, *pos);

	if (r > 0)
		*pos += r;
	return r;
}

/* A memfd's seals, page chunk by page chunk as Linux's shmem_write_begin:
 * a write-sealed file takes none, a grow-sealed one none that ends past
 * i_size. 0 with *n what may go, or -EPERM. */
static int seal_check_write(struct inode *inode, loff_t pos, size_t *n)
{
	u64 end = inode->i_size & PAGE_MASK;

	if (inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		return -EPERM;
	if (!(inode->i_seals & F_SEAL_GROW) || pos + *n <= inode->i_size)
		return 0;
	if ((u64)pos >= end)
		return -EPERM;
	*n = end - pos;
	return 0;
}

/* O_APPEND moves to the end before every write, as Linux does. */
static ssize_t file_write(struct file *f, const char *buf, size_t n,
			  loff_t *pos)
{
	ssize_t r;

	if (f->f_flags & O_APPEND)
		*pos = f->f_inode->i_size;
	r = seal_check_write(f->f_inode, *pos, &n);
	if (r)
		return r;
	r = ramfs_write(f->f_inode, buf, n, *pos);
	if (r > 0)
		*pos += r;
	return r;
}

static ssize_t dir_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	(void)f, (void)buf, (void)n, (void)pos;
	return -EISDIR;
}

/* A symbolic link's text is i_link, which the path walk reads itself. */
static int symlink_readlink(struct inode *link, char *buf, size_t size)
{
	size_t n = min((size_t)link->i_size, size);

	memcpy(buf, link->i_link, n);
	return (int)n;
}

static const struct inode_operations ramfs_symlink_iops = {
	.readlink = symlink_readlink,
};

/*
 * A fault in a mapping of a ramfs file (a file of the initrd or /tmp, a
 * memfd, shared anonymous memory's shmem file): the page cache's page,
 * allocated zeroed on demand (Linux's filemap_fault, shmem_fault), with
 * a reference for the caller. The vm_operations ->fault contract
 * (zpk/mm_types.h): no spinlock held, so the allocation may reclaim; a
 * user page's (GFP_HIGHUSER, as Linux's shmem pages), it fails rather
 * than take the pages under min. The reference is taken under
 * i_pages_lock while the page is still the file's, so that truncate and
 * hole punching cannot free it first; what they do after, do_fault sees
 * (page->mapping, i_size) under the PTE lock. SIGBUS beyond the last
 * page of the file, as Linux, or past ramfs's size limit (tmpfs's
 * ENOSPC); VM_FAULT_OOM if no page can be had (Linux's shmem_fault and
 * filemap_fault: the OOM killer's, not a signal for this process alone).
 */
static vm_fault_t ramfs_fault(struct vm_fault *vmf)
{
	struct inode *inode = vmf->vma->vm_file->f_inode;
	struct page *page;

	do {
		if (vmf->pgoff >= PAGE_ALIGN(inode->i_size) >> PAGE_SHIFT ||
		    vmf->pgoff >= RAMFS_MAX_PAGES)
			return VM_FAULT_SIGBUS;
		page = get_page_gfp(inode, vmf->pgoff, GFP_HIGHUSER);
		if (!page)
			return VM_FAULT_OOM;
		spin_lock(&inode->i_pages_lock);
		if (find_page(inode, vmf->pgoff) == page)
			get_page(page);
		else		/* truncated meanwhile: look again */
			page = NULL;
		spin_unlock(&inode->i_pages_lock);
	} while (!page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct ramfs_vm_ops = {
	.fault = ramfs_fault,
};

/* f_op->mmap of a regular ramfs file: its pages come from ramfs_fault
 * (Linux's generic_file_mmap). The access checks are do_mmap's. */
static int ramfs_mmap(struct file *f, struct vm_area_struct *vma)
{
	(void)f;
	vma->vm_ops = &ramfs_vm_ops;
	return 0;
}

const struct file_operations ramfs_file_ops = {
	.read = file_read,
	.write = file_write,
	.mmap = ramfs_mmap,
};

const struct file_operations ramfs_dir_ops = {
	.read = dir_read,
};

/* Shared anonymous memory is an unlinked ramfs file of the mapping's
 * size, as Linux backs it with shmem: fork shares its pages like a
 * file's. Its name is one d_deleted would give it. */
struct file *shmem_file_setup(const char *name, unsigned long len)
{
	struct inode *inode = ramfs_new_inode(&rootfs_sb, S_IFREG | 0600);
	char path[NAME_MAX + 16];
	struct file *f;
	int n;

	if (!inode)
		return NULL;
	n = snprintf(path, sizeof(path), "/%s (deleted)", name);
	inode->i_dentry = d_alloc(inode, path, n);
	if (!inode->i_dentry) {
		iput(inode);
		return NULL;
	}
	inode->i_shmem = true;
	inode->i_seals = F_SEAL_SEAL;	/* memfd_create may allow them */
	inode->i_size = len;
	f = alloc_file(inode, O_RDWR);
	iput(inode);		/* the file holds the inode now */
	return f;
}
