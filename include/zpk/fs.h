/* zpk/fs.h — the VFS-lite interface the rest of the kernel sees: files,
 * inodes, file descriptor tables. Implementations live in fs/. */
#ifndef ZPK_FS_H
#define ZPK_FS_H

#include <zpk/compiler.h>
#include <zpk/errno.h>
#include <zpk/atomic.h>
#include <zpk/types.h>
#include <zpk/list.h>
#include <zpk/uio.h>
#include <zpk/wait.h>

typedef long ssize_t;
typedef s64 loff_t;

/* open flags, mode bits: Linux's values */
#define O_ACCMODE	00000003
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_EXCL		00000200
#define O_NOCTTY	00000400
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_NONBLOCK	00004000
#define O_DIRECTORY	00200000
#define O_NOFOLLOW	00400000
#define O_CLOEXEC	02000000
#define AT_FDCWD	(-100)
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_REMOVEDIR		0x200
#define AT_EACCESS		0x200
#define AT_EMPTY_PATH		0x1000

#define S_IFMT		0170000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFBLK		0060000
#define S_IFREG		0100000
#define S_IFIFO		0010000
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m)	(((m) & S_IFMT) == S_IFSOCK)

/* poll(2)'s events, Linux's values. */
#define POLLIN		0x0001
#define POLLPRI		0x0002
#define POLLOUT		0x0004
#define POLLERR		0x0008
#define POLLHUP		0x0010
#define POLLNVAL	0x0020
#define POLLRDNORM	0x0040
#define POLLWRNORM	0x0100
#define POLLRDHUP	0x2000

struct epitem;
struct file;
struct file_lock_context;
struct files_struct;
struct inode;
struct page;
struct poll_table;
struct vm_area_struct;

/*
 * A file system (Linux's super_block, the part zpk uses). The RAM root,
 * /dev and /proc are three, so that st_dev tells them apart and link and
 * rename between them are -EXDEV.
 */
struct super_block {
	u32 s_dev;			/* st_dev */
	unsigned long s_magic;		/* statfs's f_type */
	const char *s_type;		/* /proc/mounts' source and type */
	unsigned long s_flags;		/* statfs's ST_* mount flags */
	const char *s_options;		/* /proc/mounts' after the sizes */
	struct inode *s_root;		/* where it is mounted */
	unsigned long s_inodes;		/* inodes alive on it */
	bool s_mgtime;			/* Linux 6.13's FS_MGTIME (tmpfs):
					 * statx gives the times only if asked */
};
extern struct super_block rootfs_sb, devtmpfs_sb, proc_sb, sysfs_sb,
			  pipefs_sb, anon_inodefs_sb;

#define TMPFS_MAGIC	0x01021994
#define SYSFS_MAGIC	0x62656572
#define ST_NOSUID	0x0002
#define ST_NODEV	0x0004
#define ST_NOEXEC	0x0008
#define ST_RELATIME	0x1000

struct vm_area_struct;

struct file_operations {
	/* buf is a KERNEL buffer: the syscall layer copies to/from user. */
	ssize_t (*read)(struct file *f, char *buf, size_t n, loff_t *pos);
	ssize_t (*write)(struct file *f, const char *buf, size_t n,
			 loff_t *pos);
	long (*ioctl)(struct file *f, unsigned int cmd, unsigned long arg);
	/* Optional: read straight into user memory, no bounce (/dev/zero,
	 * whose refcount-policy read maps pages instead of copying). */
	ssize_t (*read_user)(struct file *f, char __user *buf, size_t n,
			     loff_t *pos);
	/* Optional: all of one read(2)/readv(2) (write(2)/writev(2)) at
	 * once, straight from the user's iovecs (nr of them, copied into the
	 * kernel): a socket's datagram is one write however its iovecs lie.
	 * Bytes moved or -errno. */
	ssize_t (*read_iter)(struct file *f, const struct iovec *iov,
			     unsigned long nr);
	ssize_t (*write_iter)(struct file *f, const struct iovec *iov,
			      unsigned long nr);
	/* Optional: the POLL* events f has now, after poll_wait() on each
	 * wait queue that is woken when they change (fs/select.c). Without
	 * it a file is always readable and writable. */
	unsigned int (*poll)(struct file *f, struct poll_table *pt);
	/* Optional: called once the file is made (0 or -errno, then the
	 * open fails); /proc binds its files to their process here. */
	int (*open)(struct file *f);
	void (*release)(struct file *f);
	/* Optional (Linux's): sets up vma, a new mapping of f: its vm_ops,
	 * or another backing (/dev/zero: anonymous memory, or a shmem
	 * file). Without it mmap fails with ENODEV (pipes, /proc, a tty, a
	 * userfaultfd). Called by mmap_region with mm's mmap_lock held for
	 * writing, before the VMA is linked; 0 or -errno (no mapping). */
	int (*mmap)(struct file *f, struct vm_area_struct *vma);
	/* Optional: lseek(2) itself (a disk's node: within its size); the
	 * new position or -errno. Without it, i_size is the end. */
	loff_t (*llseek)(struct file *f, loff_t off, int whence);
	/* Optional: fsync(2)'s work (a disk's cache flush); 0 or -errno. */
	int (*fsync)(struct file *f);
};

/*
 * Directories whose entries are made up when asked (/proc): after its own
 * dentries, step() asks lookup and dir_fill() asks readdir. NULL in ramfs.
 */
struct dir_entry {
	char name[32];
	size_t len;
	u64 ino;
	u32 mode;
};
struct inode_operations {
	/* The inode name[0..len) names in dir: 0, or -ENOENT. */
	int (*lookup)(struct inode *dir, const char *name, size_t len,
		      struct inode **res);
	/* Dynamic entry number idx (from 0) into *de; false past the end. */
	bool (*readdir)(struct inode *dir, long idx, struct dir_entry *de);
	/* Links. readlink puts the link's text into buf, without NUL
	 * (length or -errno). /proc's (Linux's magic links: /proc/self,
	 * /proc/PID/exe, cwd, fd/N) have get_link, which gives the inode a
	 * path walk goes on to (0 or -errno); without readlink their text
	 * is that inode's path. ramfs's symbolic links have i_link, the
	 * text the walk goes on through. */
	int (*get_link)(struct inode *link, struct inode **res);
	int (*readlink)(struct inode *link, char *buf, size_t size);
	/* /proc's per-pid inodes (Linux's evict_inode): frees the inode and
	 * what it holds, instead of ramfs, once unnamed and unused. */
	void (*evict)(struct inode *inode);
};

struct inode {
	struct super_block *i_sb;
	unsigned long i_ino;
	u32 i_mode;			/* S_IF* | permission bits */
	u32 i_nlink;
	u64 i_size;
	u32 i_rdev;			/* device number for S_IFCHR */
	int i_count;			/* open files, cwds (names: i_nlink) */
	int i_writecount;		/* > 0: files open for writing; < 0:
					 * running programs (ETXTBSY) */
	u32 i_uid;			/* chown's (nothing checks them:
					 * everything runs as root) */
	u64 i_mtime_ns;			/* stat's atime and ctime too */
	const struct file_operations *i_fop;
	const struct inode_operations *i_op;	/* NULL but in /proc */
	/* Regular files keep their data in whole pages, so that mmap can map
	 * the same pages (the page cache of a RAM file system). One pointer
	 * per kind of file keeps an inode small. */
	union {
		struct page **i_pages;	/* regular files */
		char *i_link;		/* symbolic links: the text (kmalloc) */
		void *i_private;	/* a pipe's pipe_inode_info, a socket's */
	};
	unsigned long i_pages_cap;	/* capacity of i_pages */
	unsigned long i_nrpages;	/* pages in it (Linux's nrpages) */
	/* i_pages (the array and its slots) and, for a fault, i_size: a
	 * file fault runs without the big kernel lock, so it may add a page
	 * and grow the array while a call under that lock reads the file
	 * (Linux's i_pages xa_lock). Pages leave the file only under both
	 * locks. */
	spinlock_t i_pages_lock;
	bool i_readonly;		/* initrd files */
	bool i_shmem;			/* behind MAP_SHARED|MAP_ANONYMOUS */
	/* A directory whose names are the kernel's (/proc): users cannot
	 * add names (-ENOENT) and removing one gives this errno (-EPERM,
	 * -EACCES in /proc/sys, as Linux). 0: an ordinary directory. */
	s8 i_fixed;
	u8 i_seals;			/* a shmem file's F_SEAL_* (mm/memfd.c) */
	u32 i_gid;
	struct list_head i_children;	/* directories: struct dentry list */
	struct inode *i_parent;
	/* The one name of a directory or of a /proc/PID entry (d_path goes
	 * up through these); NULL for other files (d_path searches them).
	 * Once unlinked while in use: the path it had (fs/ramfs.c). */
	struct dentry *i_dentry;
	struct file_lock_context *i_flctx;	/* its locks (fs/locks.c) */
};

struct file {
	const struct file_operations *f_op;
	struct inode *f_inode;
	unsigned int f_flags;		/* O_* given to open */
	unsigned int f_mode;		/* FMODE_WRITER */
	loff_t f_pos;
	atomic_t f_count;		/* descriptors + mappings sharing it:
					 * munmap drops a mapping's without
					 * the big kernel lock */
	void *private_data;
	struct epitem *f_ep;		/* epoll items watching it (Linux's) */
};

#define FMODE_WRITER	0x1	/* holds a get_write_access on f_inode */

/*
 * Linux's i_writecount: a file open for writing and a running program
 * exclude each other, so that no program's file changes under it.
 * 0 or -ETXTBSY.
 */
static inline int get_write_access(struct inode *inode)
{
	if (inode->i_writecount < 0)
		return -ETXTBSY;
	inode->i_writecount++;
	return 0;
}

static inline void put_write_access(struct inode *inode)
{
	inode->i_writecount--;
}

/* exec and every mm's exe_file: 0, or -ETXTBSY while open for writing. */
static inline int deny_write_access(struct file *f)
{
	if (f->f_inode->i_writecount > 0)
		return -ETXTBSY;
	f->f_inode->i_writecount--;
	return 0;
}

static inline void allow_write_access(struct file *f)
{
	f->f_inode->i_writecount++;
}

#define NR_OPEN_DEFAULT 64
struct files_struct {
	int count;
	struct file *fd[NR_OPEN_DEFAULT];
	u64 close_on_exec;		/* bit n: fd n */
};

#define NAME_MAX	255		/* bytes in a path component */
#define PATH_MAX	4096		/* bytes in a path, with its NUL */
#define MAXSYMLINKS	40		/* links one path walk follows */
#define MKDEV(ma, mi)	(((ma) << 8) | (mi))

/* A name in a directory: ramfs directories are lists of these. */
struct dentry {
	struct list_head d_list;	/* in the parent's i_children */
	struct inode *d_inode;		/* holds one i_nlink of it */
	size_t d_len;
	char d_name[];			/* d_len bytes and a NUL */
};

extern struct inode *vfs_root;

/* Inode references (i_count): open files and cwds; names count in
 * i_nlink. The inode goes when both are zero. */
void ihold(struct inode *inode);
void iput(struct inode *inode);

/* ramfs (fs/ramfs.c). A new inode on sb has i_count 1, i_nlink 0;
 * shared memory is on rootfs_sb, pipes on pipefs_sb. */
struct inode *ramfs_new_inode(struct super_block *sb, u32 mode);
/* A new inode of mode named name[0..len) in dir, on dir's file system;
 * i_count 1 (the caller's). 0 or -ENOMEM. */
int ramfs_create(struct inode *dir, const char *name, size_t len, u32 mode,
		 struct inode **res);
/* A symbolic link name[0..len) in dir whose text is target[0..tlen):
 * 0, -ENOENT (an empty text), -ENOMEM. */
int ramfs_symlink(struct inode *dir, const char *name, size_t len,
		  const char *target, size_t tlen);
struct dentry *ramfs_find(struct inode *dir, const char *name, size_t len);
int ramfs_link(struct inode *dir, const char *name, size_t len,
	       struct inode *inode);
/* Removes d from dir; the inode goes if unused. Dirs must be empty. */
void ramfs_unlink_dentry(struct inode *dir, struct dentry *d);
/* rename's change to the tree: old (in odir) becomes name[0..len) in
 * ndir, replacing victim there, or trades places with it (exchange).
 * 0 or -ENOMEM. */
int ramfs_rename(struct inode *odir, struct dentry *old, struct inode *ndir,
		 const char *name, size_t len, struct dentry *victim,
		 bool exchange);
/* Data of regular files at any offset; holes read as zeros. */
ssize_t ramfs_read(struct inode *inode, char *buf, size_t n, loff_t pos);
ssize_t ramfs_write(struct inode *inode, const char *buf, size_t n,
		    loff_t pos);
/* truncate(2) of inode, with its errnos in Linux's order: -EINVAL (size
 * < 0, not a regular file), -EISDIR, -EROFS, -EFBIG. Shrinking unmaps
 * and frees the pages past the end and zeroes the tail of the last one. */
int ramfs_truncate(struct inode *inode, loff_t size);
/* Zaps every mapping of inode's pages from byte holebegin (rounded up to
 * a page) on, private copies of them too: truncate's first step, so that
 * those addresses SIGBUS or find the new pages (mm/truncate.c). */
void unmap_mapping_range(struct inode *inode, loff_t holebegin);
/* Zaps every mapping of inode's pages first to first + nr - 1; private
 * copies of them too if even_cows (Linux's unmap_mapping_pages). */
void unmap_mapping_pages(struct inode *inode, unsigned long first,
			 unsigned long nr, bool even_cows);
/* mm/truncate.c: fn on every VMA of every mm that maps inode, each mm's
 * mmap_lock held for reading, until fn returns true; whether one did. */
bool walk_inode_mappings(struct inode *inode,
			 bool (*fn)(struct vm_area_struct *vma, void *arg),
			 void *arg);

#define F_ADD_SEALS		1033
#define F_GET_SEALS		1034
#define F_SEAL_SEAL		0x0001	/* no more seals */
#define F_SEAL_SHRINK		0x0002
#define F_SEAL_GROW		0x0004
#define F_SEAL_WRITE		0x0008	/* no write, no shared mapping */
#define F_SEAL_FUTURE_WRITE	0x0010	/* ... but the mappings made before */
#define F_SEAL_EXEC		0x0020	/* the exec bits stay */

/* Advisory locks (fs/locks.c), Linux's values. */
#define F_GETLK			5
#define F_SETLK			6
#define F_SETLKW		7
#define F_OFD_GETLK		36
#define F_OFD_SETLK		37
#define F_OFD_SETLKW		38
#define F_RDLCK			0
#define F_WRLCK			1
#define F_UNLCK			2
/* fcntl's F_*LK* commands on f, which is fd: 0 or -errno. */
long fcntl_lock(int fd, struct file *f, unsigned int cmd, unsigned long arg);
/* Every close of f by files drops files' POSIX locks on f's inode;
 * f's last fput its OFD and flock locks; evict frees the inode's. */
void locks_remove_posix(struct file *f, struct files_struct *files);
void locks_remove_file(struct file *f);
void locks_free_lock_context(struct inode *inode);

/* mm/memfd.c: fcntl's F_ADD_SEALS and F_GET_SEALS. What each seal
 * forbids is checked where that is done: ramfs's write, truncate and
 * fallocate, do_mmap, chmod (Linux's shmem.c and mmap.c). */
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned long arg);
/* fallocate(2)'s modes, Linux's values. */
#define FALLOC_FL_KEEP_SIZE	0x01
#define FALLOC_FL_PUNCH_HOLE	0x02
#define FALLOC_FL_LINUX_MODES	0x7f	/* every mode Linux knows */
/* fallocate of a ramfs or shmem file, as Linux's shmem_fallocate: mode
 * 0 allocates the pages of [offset, offset + len) and grows the size to
 * its end, FALLOC_FL_KEEP_SIZE only allocates, FALLOC_FL_PUNCH_HOLE
 * zeroes the range (giving back whole pages). 0, -EFBIG, -ENOMEM. */
int ramfs_fallocate(struct inode *inode, int mode, loff_t offset,
		    loff_t len);
int vfs_truncate(struct inode *inode, loff_t size);
/* fallocate(2) of f, with Linux's checks and errnos (fs/syscalls.c). */
long vfs_fallocate(struct file *f, int mode, loff_t offset, loff_t len);
extern const struct file_operations ramfs_file_ops, ramfs_dir_ops;

/* Paths (fs/namei.c); cwd NULL means the root. Lookups return the
 * inode without a reference: nothing can free it until we sleep (nor
 * the link texts a walk is reading). */
struct nameidata {
	struct inode *dir;		/* holds the last component */
	const char *last;		/* "" for "/", may be "." or ".." */
	size_t len;
	bool slash;			/* the path ended in '/' */
	int total;			/* links followed: -ELOOP past 40 */
	int depth;			/* entries in stack */
	const char *stack[MAXSYMLINKS];	/* the rest of each path a link
					 * interrupted, resumed after it */
};
/* Walks all of path but its last component (following links on the
 * way), which is left in nd. -ENOENT (missing or empty path), -ENOTDIR,
 * -ENAMETOOLONG, -ELOOP. */
int path_parent(struct inode *cwd, const char *path, struct nameidata *nd);
/* The inode nd->last names in nd->dir, through links, or -ENOENT,
 * -ENOTDIR, -ELOOP. A link followed moves nd to its target's last
 * component (so O_CREAT makes a dangling link's target); a walk that
 * failed inside a link leaves nd at the link. */
int nd_final(struct nameidata *nd, struct inode **res);
/* nd_final and vfs_lookup, but a link as the last component is itself
 * the result (lstat, readlink); links before it are followed. */
int nd_final_nofollow(struct nameidata *nd, struct inode **res);
/* A directory removed while in use: no new names in it (-ENOENT). */
bool dir_dead(const struct inode *dir);
int vfs_lookup(struct inode *cwd, const char *path, struct inode **res);
int vfs_lookup_nofollow(struct inode *cwd, const char *path,
			struct inode **res);
int vfs_mkdir(struct inode *cwd, const char *path, u32 mode);
int vfs_mknod(struct inode *cwd, const char *path, u32 mode, u32 rdev,
	      const struct file_operations *fop);
int vfs_unlink(struct inode *cwd, const char *path);
int vfs_rmdir(struct inode *cwd, const char *path);
/* link(2): a new name at path for old (found by the caller). */
int vfs_link(struct inode *old, struct inode *cwd, const char *path);
/* renameat2(2) with RENAME_NOREPLACE and RENAME_EXCHANGE. */
#define RENAME_NOREPLACE	0x1
#define RENAME_EXCHANGE		0x2
int vfs_rename(struct inode *ocwd, const char *oldpath, struct inode *ncwd,
	       const char *newpath, unsigned int flags);
/* symlink(2): a link at path whose text is target[0..len). */
int vfs_symlink(struct inode *cwd, const char *target, size_t len,
		const char *path);
/* The absolute path of inode into buf, NUL-terminated (Linux's
 * d_path; " (deleted)" after an unlinked inode's path): its length, or
 * -ENOENT (a file without a name), -ENAMETOOLONG. */
int d_path(struct inode *inode, char *buf, size_t size);
/* The data pages a regular file holds (st_blocks); 0 for others. */
unsigned long ramfs_nr_pages(const struct inode *inode);
/* Pages held by the files reachable from the root (the page cache). */
unsigned long ramfs_cached_pages(void);
/* Those of the files on sb only. */
unsigned long ramfs_sb_pages(struct super_block *sb);

/* statx's mount id of sb (fs/mount.c): its place in the mount table from
 * 1 (the root, /dev, /proc); the kernel's internal mounts (pipes,
 * anonymous inodes) share the next. */
int sb_mnt_id(const struct super_block *sb);

/* Open files (fs/open.c). Reads and writes at f_pos, checking the
 * access mode (-EBADF) as read(2)/write(2) do. */
int vfs_open_at(struct inode *cwd, const char *path, int flags, u32 mode,
		struct file **res);
/* open(2) of a user path from the caller's cwd, for a system call that
 * keeps the file (swapon: Linux's file_open_name); 0 or -errno as open. */
int user_file_open(const char __user *upath, int flags, struct file **res);
ssize_t vfs_read(struct file *f, char *buf, size_t n);
ssize_t vfs_write(struct file *f, const char *buf, size_t n);
/* The user's cnt iovecs, checked, into a new kernel array (fs/read_write.c):
 * 0, -EINVAL, -EFAULT, -ENOMEM. */
long import_iovec(const struct iovec __user *uiov, unsigned long cnt,
		  struct iovec **res, size_t *total);

/* File references. */
struct file *fget(int fd);		/* current's fd -> file, +1 ref */
void fput(struct file *f);		/* -1 ref; the last one releases */
struct file *get_file(struct file *f);	/* +1 ref */

/* Descriptor tables, for fork/exec/exit. */
struct files_struct *files_alloc(void);
struct files_struct *dup_fd(struct files_struct *old);
void put_files_struct(struct files_struct *files);
void do_close_on_exec(struct files_struct *files);
int fd_install_new(struct file *f, int min_fd, bool cloexec);
int fd_install_at(struct file *f, int fd, bool cloexec);
/* A new file on inode with one reference; takes an inode reference. */
struct file *alloc_file(struct inode *inode, unsigned int flags);
/* Closes fd of current's table: 0 or -EBADF. */
int close_fd(int fd);
/* current's own copy of the descriptor table it shares, if it does
 * (Linux's unshare_files): 0 or -ENOMEM. */
int unshare_files(void);
/* The table fget() and fd_install_new() use: current->files
 * (kernel/sched.c). */
struct files_struct *current_files(void);
extern struct files_struct init_files;	/* task 0's */

/* Opening by path for the kernel itself, relative to the root (tasks'
 * opens go through vfs_open_at with their cwd); *res holds a reference.
 * 0 or a negative errno, as open(2). */
int vfs_open(const char *path, int flags, u32 mode, struct file **res);
/* The page of a regular file at page index pgoff, allocated (zeroed) on
 * demand for writable files; NULL beyond EOF of read-only files or out
 * of memory. No reference is taken: under the big kernel lock, under
 * which alone a page leaves the file, the page stays the file's (a
 * caller without it, ramfs_fault, takes its reference under
 * i_pages_lock once the page is found there again). No spinlock held:
 * the allocation may reclaim. */
struct page *inode_get_page(struct inode *inode, unsigned long pgoff);
/* The page at pgoff if the file has one: no allocation, no reference
 * (it stays the file's while the caller holds the big kernel lock; a
 * caller without it may only test it for NULL). Takes i_pages_lock. */
struct page *inode_find_page(struct inode *inode, unsigned long pgoff);
/* Room for a page at pgoff, made before inode_add_page under a spinlock
 * (the allocation may reclaim): 0, -EFBIG (past the size limit) or
 * -ENOMEM. */
int inode_reserve_page(struct inode *inode, unsigned long pgoff);
/* page (with the caller's reference) becomes the file's at pgoff, with
 * page->mapping the inode: 0, -EEXIST (it has one), -EFBIG (past the
 * size limit), -ENOMEM (no room: no inode_reserve_page). Allocates
 * nothing: i_pages_lock nests inside a PTE lock. */
int inode_add_page(struct inode *inode, unsigned long pgoff,
		   struct page *page);

/* An unlinked shmem file of len bytes, which /proc shows as "/name
 * (deleted)": behind a shared anonymous mapping ("dev/zero", Linux's
 * shmem_zero_setup) or a memfd ("memfd:NAME"); its pages are
 * PG_swapbacked. NULL if out of memory. */
struct file *shmem_file_setup(const char *name, unsigned long len);

/* mknod(2)'s character devices (fs/devices.c): those /dev has (null
 * 1:3, zero 1:5, the console 5:1); any other number opens as -ENXIO. */
const struct file_operations *chrdev_fops(u32 rdev);

/* Boot: an empty root, then the initrd's files; /dev, /tmp, /proc. */
void vfs_init(void);
int initrd_unpack(const void *cpio, size_t len);

/* /dev/zero's read_user and mmap (fs/zero.c). */
ssize_t zero_read_user(struct file *f, char __user *buf, size_t n,
		       loff_t *pos);
int mmap_zero(struct file *f, struct vm_area_struct *vma);

/* Console input from the serial interrupt (fs/tty.c): queued for the
 * line discipline, which the kworker runs. */
void tty_receive_char(char c);
extern const struct file_operations tty_fops;
bool is_tty(const struct file *f);
void tty_init(void);
/* /dev/userfaultfd (fs/userfaultfd.c), made at boot. */
void userfaultfd_init(void);

/* What a file's poll operation is given (Linux's poll_table): qproc
 * puts the poller on one of f's wait queues, poll(2)'s (fs/select.c)
 * holding f until the poll ends, epoll's (fs/eventpoll.c) a callback. */
struct poll_table {
	void (*qproc)(struct file *f, struct wait_queue_head *wq,
		      struct poll_table *pt);
};

/* f's poll operation calls it on each wait queue that tells of a change
 * of its events; pt NULL: a pass that does not sleep. */
static inline void poll_wait(struct file *f, struct wait_queue_head *wq,
			     struct poll_table *pt)
{
	if (pt && pt->qproc)
		pt->qproc(f, wq, pt);
}

/* A file's last fput: the epoll items watching it go (fs/eventpoll.c). */
void eventpoll_release_file(struct file *f);

/* A new file of fops with priv as its private_data, on a new inode of
 * anon_inodefs named name ("[pidfd]"; Linux's anon_inode_getfile, whose
 * files share one inode); NULL if out of memory. fops's open is never
 * called: opening its /proc/PID/fd/N link is -ENXIO. */
struct file *anon_inode_getfile(const char *name,
				const struct file_operations *fops,
				void *priv, unsigned int flags);

/* Pipes (fs/pipe.c): two new files, read end and write end. */
int create_pipe(struct file **rd, struct file **wr, unsigned int flags);
/* A FIFO's operations (mknod): its pipe is made at the first open. */
extern const struct file_operations pipe_fops;
/* A node with nothing behind it (fs/devices.c): opens as -ENXIO. */
extern const struct file_operations no_device_fops;

/* The current task's working directory (NULL: the root). */
struct inode *current_cwd(void);

#endif
