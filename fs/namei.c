/* fs/namei.c — path names to inodes: walks from the root or a cwd,
 * ".", "..", repeated slashes, symbolic links; mkdir, mknod, symlink,
 * link, unlink, rmdir, rename; d_path, inodes back to names. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>

struct inode *vfs_root;

/* One step from dir by name[0..len): ".", ".." or an entry. */
static int step(struct inode *dir, const char *name, size_t len,
		struct inode **res)
{
	struct dentry *d;

	if (!S_ISDIR(dir->i_mode))
		return -ENOTDIR;
	if (len == 0 || (len == 1 && name[0] == '.')) {
		*res = dir;
		return 0;
	}
	if (len == 2 && name[0] == '.' && name[1] == '.') {
		/* The root is its own parent, as in Linux. */
		*res = dir->i_parent ? dir->i_parent : dir;
		return 0;
	}
	d = ramfs_find(dir, name, len);
	if (d) {
		*res = d->d_inode;
		return 0;
	}
	/* /proc: names nobody stored, made up on demand. */
	if (dir->i_op && dir->i_op->lookup)
		return dir->i_op->lookup(dir, name, len, res);
	return -ENOENT;
}

/* A ramfs symbolic link's text, or NULL for any other inode. */
static const char *link_text(const struct inode *inode)
{
	return S_ISLNK(inode->i_mode) ? inode->i_link : NULL;
}

/* A /proc link leads straight to an inode (whose targets are no links);
 * it counts against MAXSYMLINKS as a ramfs link. */
static int follow_magic(struct nameidata *nd, struct inode **inode)
{
	if (!(*inode)->i_op || !(*inode)->i_op->get_link)
		return 0;
	if (++nd->total > MAXSYMLINKS)
		return -ELOOP;
	return (*inode)->i_op->get_link(*inode, inode);
}

/*
 * Walks p from dir up to its last component, which is left in nd. A
 * ramfs link on the way is replaced by its text (from the root if it
 * starts with '/', else from the link's directory) and what followed it
 * waits on nd->stack; a /proc link leads to its inode.
 */
static int link_path_walk(struct nameidata *nd, struct inode *dir,
			  const char *p)
{
	for (;;) {
		const char *name, *q;
		struct inode *inode;
		size_t len;
		int err;

		while (*p == '/')
			p++;
		name = p;
		while (*p && *p != '/')
			p++;
		len = p - name;
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		for (q = p; *q == '/'; q++)
			;
		if (!*q && !nd->depth) {	/* the path's last component */
			if (!S_ISDIR(dir->i_mode))
				return -ENOTDIR;
			nd->dir = dir;
			nd->last = name;
			nd->len = len;
			nd->slash = *p == '/';
			return 0;
		}
		err = step(dir, name, len, &inode);
		if (err)
			return err;
		if (link_text(inode)) {
			/* Each push is a link followed: depth <= total. */
			if (++nd->total > MAXSYMLINKS)
				return -ELOOP;
			if (*q)
				nd->stack[nd->depth++] = q;
			p = link_text(inode);
			if (*p == '/')
				dir = vfs_root;
			continue;
		}
		err = follow_magic(nd, &inode);
		if (err)
			return err;
		dir = inode;
		p = *q ? q : nd->stack[--nd->depth];
	}
}

/*
 * Walks all of path but its last component, which is left in nd (""
 * for "/"). Errors as Linux: -ENOENT (missing or empty path), -ENOTDIR
 * (a file used as a directory), -ENAMETOOLONG, -ELOOP.
 */
int path_parent(struct inode *cwd, const char *path, struct nameidata *nd)
{
	if (!vfs_root || !*path)
		return -ENOENT;
	if (strnlen(path, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	nd->total = nd->depth = 0;
	return link_path_walk(nd, *path == '/' || !cwd ? vfs_root : cwd, path);
}

/* The inode nd names, through links; a trailing slash (of the path or
 * of a link's text) demands a directory. */
int nd_final(struct nameidata *nd, struct inode **res)
{
	bool slash = nd->slash;
	int err;

	for (;;) {
		const char *text;

		err = step(nd->dir, nd->last, nd->len, res);
		text = err ? NULL : link_text(*res);
		if (!text)
			break;
		if (++nd->total > MAXSYMLINKS)
			return -ELOOP;
		err = link_path_walk(nd, *text == '/' ? vfs_root : nd->dir,
				     text);
		if (err)
			return err;
		slash |= nd->slash;
		nd->slash = slash;
	}
	if (!err)
		err = follow_magic(nd, res);
	if (!err && slash && !S_ISDIR((*res)->i_mode))
		return -ENOTDIR;
	return err;
}

/* A trailing slash follows the link, as in Linux ("/proc/self/"). */
int nd_final_nofollow(struct nameidata *nd, struct inode **res)
{
	if (nd->slash)
		return nd_final(nd, res);
	return step(nd->dir, nd->last, nd->len, res);
}

/* The inode path names, relative to cwd (NULL: the root); no reference
 * is taken. 0, or -ENOENT/-ENOTDIR/-ENAMETOOLONG. */
int vfs_lookup(struct inode *cwd, const char *path, struct inode **res)
{
	struct nameidata nd;
	int err = path_parent(cwd, path, &nd);

	return err ? err : nd_final(&nd, res);
}

int vfs_lookup_nofollow(struct inode *cwd, const char *path,
			struct inode **res)
{
	struct nameidata nd;
	int err = path_parent(cwd, path, &nd);

	return err ? err : nd_final_nofollow(&nd, res);
}

static bool is_dot_or_empty(const struct nameidata *nd)
{
	return nd->len == 0 || (nd->last[0] == '.' &&
	       (nd->len == 1 || (nd->len == 2 && nd->last[1] == '.')));
}

/* A directory removed while still someone's cwd (or open): no new
 * names, as Linux's IS_DEADDIR says -ENOENT. */
bool dir_dead(const struct inode *dir)
{
	return !dir->i_nlink;
}

/*
 * Walks to a name path would create (Linux's filename_create): nd at
 * it, or -EEXIST if it exists (made-up names too), -ENOENT for a trailing
 * slash unless a directory is made (as Linux's mknod says), in /proc and
 * in a removed directory.
 */
/* A new name in a kernel's directory: /proc has no such name (-ENOENT);
 * sysfs refuses to make one (kernfs's -EPERM). */
static int fixed_create_err(const struct inode *dir)
{
	return dir->i_sb->s_magic == SYSFS_MAGIC ? -EPERM : -ENOENT;
}

static int lookup_create(struct inode *cwd, const char *path, bool is_dir,
			 struct nameidata *nd)
{
	struct inode *inode;
	int err = path_parent(cwd, path, nd);

	if (err)
		return err;
	if (is_dot_or_empty(nd) || ramfs_find(nd->dir, nd->last, nd->len))
		return -EEXIST;
	if (nd->dir->i_fixed)	/* made-up names exist too */
		return nd_final(nd, &inode) ? fixed_create_err(nd->dir) :
					      -EEXIST;
	if (nd->slash && !is_dir)
		return -ENOENT;
	return dir_dead(nd->dir) ? -ENOENT : 0;
}

/* Makes a new inode of mode at path, which must not exist. */
static int create_at(struct inode *cwd, const char *path, u32 mode,
		     struct inode **res)
{
	struct nameidata nd;
	int err = lookup_create(cwd, path, S_ISDIR(mode), &nd);

	return err ? err : ramfs_create(nd.dir, nd.last, nd.len, mode, res);
}

/* mkdir(2): 0 or -EEXIST/-ENOENT/-ENOTDIR/-ENAMETOOLONG/-ENOMEM. */
int vfs_mkdir(struct inode *cwd, const char *path, u32 mode)
{
	struct inode *inode;
	int err = create_at(cwd, path, S_IFDIR | (mode & 07777), &inode);

	if (!err)
		iput(inode);	/* the name keeps it */
	return err;
}

/* A device (or other special) inode at path with the given operations. */
int vfs_mknod(struct inode *cwd, const char *path, u32 mode, u32 rdev,
	      const struct file_operations *fop)
{
	struct inode *inode;
	int err = create_at(cwd, path, mode, &inode);

	if (err)
		return err;
	inode->i_rdev = rdev;
	inode->i_fop = fop;
	iput(inode);
	return 0;
}

/* symlink(2) of target[0..len): -EEXIST for any name already there (a
 * dangling link too: the last name is not followed), -ENOENT for an
 * empty target, the walk's errors, -ENOMEM. */
int vfs_symlink(struct inode *cwd, const char *target, size_t len,
		const char *path)
{
	struct nameidata nd;
	int err = lookup_create(cwd, path, false, &nd);

	return err ? err : ramfs_symlink(nd.dir, nd.last, nd.len, target, len);
}

/*
 * link(2): errors in Linux's order: the new name's (-EEXIST, -ENOENT,
 * the walk's), -EXDEV to another file system, -EPERM for a directory,
 * -ENOENT for a file whose last name is gone (open, unlinked).
 */
int vfs_link(struct inode *old, struct inode *cwd, const char *path)
{
	struct nameidata nd;
	int err = lookup_create(cwd, path, false, &nd);

	if (err)
		return err;
	if (old->i_sb != nd.dir->i_sb)
		return -EXDEV;
	if (S_ISDIR(old->i_mode))
		return -EPERM;
	if (!old->i_nlink)
		return -ENOENT;
	return ramfs_link(nd.dir, nd.last, nd.len, old);
}

/* A file system's root, where it is mounted: rmdir and rename say
 * -EBUSY, as Linux for a mount point. */
static bool is_mountpoint(const struct inode *inode)
{
	return inode == inode->i_sb->s_root;
}

/* dir is inode or below it (inode a directory). */
static bool is_ancestor(const struct inode *inode, const struct inode *dir)
{
	for (; dir; dir = dir->i_parent) {
		if (dir == inode)
			return true;
		if (dir == vfs_root)
			break;
	}
	return false;
}

/*
 * The checks of Linux's do_renameat2 after both walks, in its order:
 * the old name must exist, the new one not with RENAME_NOREPLACE and
 * must with RENAME_EXCHANGE; trailing slashes only on directories; a
 * directory not into itself (-EINVAL) nor over one of its ancestors
 * (-ENOTEMPTY).
 */
static int rename_names(struct nameidata *o, struct dentry *old,
			struct nameidata *n, struct dentry *new,
			unsigned int flags)
{
	bool exchange = flags & RENAME_EXCHANGE;

	if (!old)
		return -ENOENT;
	if ((flags & RENAME_NOREPLACE) && new)
		return -EEXIST;
	if (exchange && !new)
		return -ENOENT;
	if (exchange && !S_ISDIR(new->d_inode->i_mode) && n->slash)
		return -ENOTDIR;
	if (!S_ISDIR(old->d_inode->i_mode) && (o->slash ||
					       (!exchange && n->slash)))
		return -ENOTDIR;
	if (o->dir == n->dir)
		return 0;
	if (is_ancestor(old->d_inode, n->dir))
		return -EINVAL;
	if (new && is_ancestor(new->d_inode, o->dir))
		return exchange ? -EINVAL : -ENOTEMPTY;
	return 0;
}

/* Linux's vfs_rename: the kinds must agree (unless exchanged), a
 * directory replaced must be empty, no mount point moves. */
static int rename_inodes(struct inode *old, struct inode *new,
			 unsigned int flags)
{
	if (new && !(flags & RENAME_EXCHANGE)) {
		if (S_ISDIR(old->i_mode) && !S_ISDIR(new->i_mode))
			return -ENOTDIR;
		if (!S_ISDIR(old->i_mode) && S_ISDIR(new->i_mode))
			return -EISDIR;
	}
	if (is_mountpoint(old) || (new && is_mountpoint(new)))
		return -EBUSY;
	if (new && !(flags & RENAME_EXCHANGE) && S_ISDIR(new->i_mode) &&
	    !list_empty(&new->i_children))
		return -ENOTEMPTY;
	return 0;
}

/*
 * renameat2(2): errors in Linux's order: each walk's, -EXDEV between file
 * systems, -EBUSY for ".", ".." or "/" (-EEXIST as the new name with
 * RENAME_NOREPLACE), /proc's -EPERM, then rename_names, then
 * rename_inodes. Two names of one inode: nothing to do.
 */
int vfs_rename(struct inode *ocwd, const char *oldpath, struct inode *ncwd,
	       const char *newpath, unsigned int flags)
{
	struct nameidata o, n;
	struct dentry *old, *new;
	int err = path_parent(ocwd, oldpath, &o);

	if (!err)
		err = path_parent(ncwd, newpath, &n);
	if (err)
		return err;
	if (o.dir->i_sb != n.dir->i_sb)
		return -EXDEV;
	if (is_dot_or_empty(&o))
		return -EBUSY;
	if (is_dot_or_empty(&n))
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	if (o.dir->i_fixed || n.dir->i_fixed)
		return o.dir->i_fixed ? o.dir->i_fixed : n.dir->i_fixed;
	old = ramfs_find(o.dir, o.last, o.len);
	new = ramfs_find(n.dir, n.last, n.len);
	err = rename_names(&o, old, &n, new, flags);
	if (err)
		return err;
	if (new && new->d_inode == old->d_inode)
		return 0;
	if (dir_dead(n.dir))
		return -ENOENT;
	err = rename_inodes(old->d_inode, new ? new->d_inode : NULL, flags);
	if (err)
		return err;
	return ramfs_rename(o.dir, old, n.dir, n.last, n.len, new,
			    flags & RENAME_EXCHANGE);
}

/* Finds the entry path names, for unlink/rmdir. */
static int find_entry(struct inode *cwd, const char *path,
		      struct nameidata *nd, struct dentry **res)
{
	int err = path_parent(cwd, path, nd);

	if (err)
		return err;
	if (is_dot_or_empty(nd))
		return -EBUSY;	/* the caller turns it into Linux's errno */
	*res = ramfs_find(nd->dir, nd->last, nd->len);
	return *res ? 0 : -ENOENT;
}

/*
 * unlink/rmdir of nd's entry in a fixed directory (/proc): nothing is
 * removed; the errno is Linux's: -ENOENT, -EACCES in /proc/sys, -EISDIR
 * or -ENOTDIR for the wrong kind of a stored entry, else -EPERM.
 */
static int fixed_remove(struct nameidata *nd, bool rmdir)
{
	struct inode *inode;
	int err = nd_final(nd, &inode);

	if (err)
		return err;
	if (nd->dir->i_fixed == -EACCES)
		return -EACCES;
	if (rmdir && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (!rmdir && S_ISDIR(inode->i_mode) &&
	    ramfs_find(nd->dir, nd->last, nd->len))
		return -EISDIR;
	return nd->dir->i_fixed;
}

/* unlink(2): a non-directory; -EISDIR for directories, as Linux. The
 * inode lives on while open. */
int vfs_unlink(struct inode *cwd, const char *path)
{
	struct nameidata nd = { 0 };
	struct dentry *d;
	int err = find_entry(cwd, path, &nd, &d);

	if (err == -EBUSY)
		return -EISDIR;
	if (nd.dir && nd.dir->i_fixed && (!err || err == -ENOENT))
		return fixed_remove(&nd, false);
	if (err)
		return err;
	if (S_ISDIR(d->d_inode->i_mode))
		return -EISDIR;
	if (nd.slash)
		return -ENOTDIR;
	ramfs_unlink_dentry(nd.dir, d);
	return 0;
}

/* rmdir(2): an empty directory; -ENOTDIR, -ENOTEMPTY, -EINVAL for ".",
 * -ENOTEMPTY for "..", -EBUSY for the root. */
int vfs_rmdir(struct inode *cwd, const char *path)
{
	struct nameidata nd = { 0 };
	struct dentry *d;
	int err = find_entry(cwd, path, &nd, &d);

	if (err == -EBUSY) {
		if (nd.len == 1)
			return -EINVAL;
		return nd.len == 2 ? -ENOTEMPTY : -EBUSY;
	}
	if (nd.dir && nd.dir->i_fixed && (!err || err == -ENOENT))
		return fixed_remove(&nd, true);
	if (err)
		return err;
	if (!S_ISDIR(d->d_inode->i_mode))
		return -ENOTDIR;
	if (is_mountpoint(d->d_inode))
		return -EBUSY;
	if (!list_empty(&d->d_inode->i_children))
		return -ENOTEMPTY;
	ramfs_unlink_dentry(nd.dir, d);
	return 0;
}

/* Depth-first search of dir for inode; buf[0..len) is dir's path. */
static int path_below(struct inode *dir, struct inode *inode, char *buf,
		      size_t size, size_t len)
{
	struct dentry *d;

	list_for_each_entry(d, &dir->i_children, d_list) {
		size_t n = len + 1 + d->d_len;
		int r;

		if (n + 1 > size)
			continue;
		buf[len] = '/';
		memcpy(buf + len + 1, d->d_name, d->d_len);
		buf[n] = '\0';
		if (d->d_inode == inode)
			return (int)n;
		if (S_ISDIR(d->d_inode->i_mode)) {
			r = path_below(d->d_inode, inode, buf, size, n);
			if (r > 0)
				return r;
		}
	}
	return -ENOENT;
}

/*
 * Files do not know their parent (hard links may give them several), so
 * a file's name is found by searching the tree: the first name found
 * wins. Cheap for a RAM file system of a few hundred files, and only
 * /proc asks. Directories (and /proc/PID's entries) have one name each,
 * i_dentry, and d_path goes up from them through i_parent, building the
 * path backwards from the end of buf. An unlinked inode in use has the
 * path it had, with " (deleted)".
 */
int d_path(struct inode *inode, char *buf, size_t size)
{
	char *end = buf + size;
	size_t len;

	if (!vfs_root || size < 2)
		return -ENAMETOOLONG;
	if (inode->i_dentry && inode->i_dentry->d_name[0] == '/') {
		/* unlinked: ramfs's d_deleted */
		len = inode->i_dentry->d_len;
		if (len >= size)
			return -ENAMETOOLONG;
		memcpy(buf, inode->i_dentry->d_name, len + 1);
		return (int)len;
	}
	/* Unnamed ones: Linux's pipefs, sockfs and anon_inodefs d_dname. */
	if (S_ISFIFO(inode->i_mode) && !inode->i_nlink)
		return snprintf(buf, size, "pipe:[%lu]", inode->i_ino);
	if (S_ISSOCK(inode->i_mode))
		return snprintf(buf, size, "socket:[%lu]", inode->i_ino);
	if (inode->i_sb == &anon_inodefs_sb)
		return snprintf(buf, size, "anon_inode:%s",
				(const char *)inode->i_private);
	if (!inode->i_dentry && !S_ISDIR(inode->i_mode))
		return path_below(vfs_root, inode, buf, size, 0);
	*--end = '\0';
	for (; inode != vfs_root; inode = inode->i_parent) {
		struct dentry *d = inode->i_dentry;

		if (!d || !inode->i_parent)
			return -ENOENT;
		if ((size_t)(end - buf) < d->d_len + 2)
			return -ENAMETOOLONG;
		end -= d->d_len;
		memcpy(end, d->d_name, d->d_len);
		*--end = '/';
	}
	if (!*end)
		*--end = '/';
	len = buf + size - 1 - end;
	memmove(buf, end, len + 1);
	return (int)len;
}
