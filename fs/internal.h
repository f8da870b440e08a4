/* fs/internal.h — what the files of fs/ share and nobody else needs:
 * user path names to kernel strings and inodes, for the *at calls. */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include <zpk/fs.h>

/* A user path into a new kernel buffer (kfree it): 0, -EFAULT,
 * -ENAMETOOLONG, -ENOENT for "", -ENOMEM. */
long getname(const char __user *upath, char **res);
/* The directory an *at call starts from: cwd, or dirfd's directory
 * (-EBADF, -ENOTDIR). */
long at_dir(int dirfd, const char *path, struct inode **dir);
/* getname and at_dir together: 0 with *path to kfree, or -errno. */
long getname_at(int dirfd, const char __user *upath, struct inode **dir,
		char **path);
/* The inode of dirfd itself (AT_FDCWD: the cwd), no reference taken
 * (the descriptor table keeps it while the caller does not sleep):
 * 0 or -EBADF. */
long fd_inode(int dirfd, struct inode **res);
/* The user path relative to dirfd: 0 or -errno as the path walk. */
#define LOOKUP_FOLLOW	0x1	/* through a last link */
#define LOOKUP_EMPTY	0x2	/* "" is dirfd's own file (AT_EMPTY_PATH) */
long user_lookup_flags(int dirfd, const char __user *upath,
		       unsigned int lookup, struct inode **res);
long user_lookup(int dirfd, const char __user *upath, struct inode **res);
/* user_lookup_flags with an *at call's AT_SYMLINK_NOFOLLOW and
 * AT_EMPTY_PATH (others: the caller's to refuse). */
long user_lookup_at(int dirfd, const char __user *upath, int at_flags,
		    struct inode **res);

struct iovec;
/* readv/writev of f at f_pos from cnt user iovecs (cnt checked by the
 * caller): the bytes moved, or the first -errno if none moved. */
long vfs_rwv(struct file *f, const struct iovec __user *uiov, int cnt,
	     bool write);

#endif
