/* zpk/fs.h — the VFS-lite interface the rest of the kernel sees: files,
 * inodes, file descriptor tables. Implementations live in kernel/fs/. */
#ifndef ZPK_FS_H
#define ZPK_FS_H

#include <zpk/list.h>
#include <zpk/types.h>
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
#define O_CLOEXEC	02000000
#define AT_FDCWD	(-100)

#define S_IFMT		0170000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFREG		0100000
#define S_IFIFO		0010000
#define S_IFLNK		0120000
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)

struct file;
struct inode;
struct page;

struct file_operations {
	/* buf is a KERNEL buffer: the syscall layer copies to/from user. */
	ssize_t (*read)(struct file *f, char *buf, size_t n, loff_t *pos);
	ssize_t (*write)(struct file *f, const char *buf, size_t n,
			 loff_t *pos);
	long (*ioctl)(struct file *f, unsigned int cmd, unsigned long arg);
	void (*release)(struct file *f);
};

struct inode {
	unsigned long i_ino;
	u32 i_mode;			/* S_IF* | permission bits */
	u32 i_nlink;
	u64 i_size;
	u32 i_rdev;			/* device number for S_IFCHR */
	int i_count;			/* references (open files, cwd, dentry) */
	u64 i_mtime_ns;
	const struct file_operations *i_fop;
	/* Regular files keep their data in whole pages, so that mmap can map
	 * the same pages (the page cache of a RAM file system). */
	struct page **i_pages;
	unsigned long i_nr_pages;	/* capacity of i_pages */
	bool i_readonly;		/* initrd files */
	struct list_head i_children;	/* directories: struct dentry list */
	struct inode *i_parent;
};

struct file {
	const struct file_operations *f_op;
	struct inode *f_inode;
	unsigned int f_flags;		/* O_* given to open */
	loff_t f_pos;
	int f_count;			/* descriptors + mappings sharing it */
	void *private_data;
};

#define NR_OPEN_DEFAULT 64
struct files_struct {
	int count;
	struct file *fd[NR_OPEN_DEFAULT];
	u64 close_on_exec;		/* bit n: fd n */
};

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

/* Opening by path, relative to current's cwd; *res holds a reference. */
int vfs_open(const char *path, int flags, u32 mode, struct file **res);
/* The page of a regular file at page index pgoff, allocated (zeroed) on
 * demand for writable files; NULL beyond EOF of read-only files. */
struct page *inode_get_page(struct inode *inode, unsigned long pgoff);

/* Boot: an empty root, then the initrd's files; /dev, /tmp, /proc. */
void vfs_init(void);
int initrd_unpack(const void *cpio, size_t len);

/* Console input from the serial interrupt. */
void tty_receive_char(char c);

#endif
