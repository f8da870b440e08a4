/* mm/memfd.c — memfd_create(2) as Linux's mm/memfd.c: an anonymous shmem
 * file, to size with ftruncate or fallocate and map, shared or private;
 * and its seals (fcntl F_ADD_SEALS, F_GET_SEALS), which forbid changes
 * for good so that a process handed the file may trust its contents. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define F_ALL_SEALS		0x003f
#define S_IXUGO			0111

#define MFD_CLOEXEC		0x0001U
#define MFD_ALLOW_SEALING	0x0002U
#define MFD_HUGETLB		0x0004U
#define MFD_NOEXEC_SEAL		0x0008U
#define MFD_EXEC		0x0010U
#define MFD_NAME_MAX_LEN	(NAME_MAX - 6)	/* after "memfd:" */

/* Linux's check of the name: -EFAULT if it cannot be read, -EINVAL if
 * longer than MFD_NAME_MAX_LEN. */
static long check_name(const char __user *uname)
{
	for (long len = 0; len <= MFD_NAME_MAX_LEN; len++) {
		char c;

		if (copy_from_user(&c, uname + len, 1))
			return -EFAULT;
		if (!c)
			return 0;
	}
	return -EINVAL;
}

/*
 * A new descriptor for an unnamed shmem file of size 0, read-write, mode
 * 0777 (0666 with MFD_NOEXEC_SEAL, which seals it so): its pages are
 * PG_swapbacked (RssShmem where mapped). Sealed with F_SEAL_SEAL unless
 * MFD_ALLOW_SEALING. MFD_HUGETLB is -EINVAL (no hugetlbfs); MFD_EXEC
 * with MFD_NOEXEC_SEAL too, as Linux.
 */
static long sys_memfd_create(const char __user *uname, unsigned int flags)
{
	struct file *f;
	long err;
	int fd;

	if (flags & ~(MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL |
		      MFD_EXEC))
		return -EINVAL;
	if ((flags & MFD_EXEC) && (flags & MFD_NOEXEC_SEAL))
		return -EINVAL;
	err = check_name(uname);
	if (err)
		return err;
	f = shmem_file_setup(0);
	if (!f)
		return -ENOMEM;
	f->f_inode->i_mode = S_IFREG | (flags & MFD_NOEXEC_SEAL ? 0666 : 0777);
	if (flags & MFD_ALLOW_SEALING)
		f->f_inode->i_seals = 0;
	if (flags & MFD_NOEXEC_SEAL)
		f->f_inode->i_seals |= F_SEAL_EXEC;
	fd = fd_install_new(f, 0, flags & MFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}
SYSCALL(__NR_memfd_create, sys_memfd_create);

/* ---- seals ---------------------------------------------------------- */

/* A mapping through which the file may be written, now or after an
 * mprotect: MAP_SHARED of it open for writing (do_mmap keeps VM_SHARED
 * off otherwise), not made read-only for good by F_SEAL_FUTURE_WRITE. */
static bool maps_shared(struct vm_area_struct *vma, void *arg)
{
	(void)arg;
	return (vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) ==
	       (VM_SHARED | VM_MAYWRITE);
}

/*
 * Linux's memfd_add_seals: the file must be open for writing (-EPERM),
 * a shmem file (-EINVAL), and not sealed against seals (-EPERM).
 * F_SEAL_WRITE needs no shared mapping left (-EBUSY): it goes on first,
 * so that an mmap checking it meanwhile fails, and comes off again if
 * the walk finds one (Linux counts them instead: i_mmap_writable).
 * Big kernel lock.
 */
static long memfd_add_seals(struct file *file, unsigned int seals)
{
	struct inode *inode = file->f_inode;
	unsigned int old = inode->i_seals;

	if ((file->f_flags & O_ACCMODE) == O_RDONLY)
		return -EPERM;
	if (seals & ~F_ALL_SEALS)
		return -EINVAL;
	if (!inode->i_shmem)
		return -EINVAL;
	if (old & F_SEAL_SEAL)
		return -EPERM;
	inode->i_seals |= seals;
	if ((seals & F_SEAL_WRITE) && !(old & F_SEAL_WRITE) &&
	    walk_inode_mappings(inode, maps_shared, NULL)) {
		inode->i_seals = old;
		return -EBUSY;
	}
	return 0;
}

long memfd_fcntl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (cmd == F_ADD_SEALS)
		return memfd_add_seals(file, (unsigned int)arg);
	if (cmd == F_GET_SEALS)
		return file->f_inode->i_shmem ? file->f_inode->i_seals : -EINVAL;
	return -EINVAL;
}

/* Linux's shmem_write_begin, page chunk by page chunk: a sealed write
 * fails, and under F_SEAL_GROW the chunks that end past i_size do. */
int memfd_check_write(struct inode *inode, loff_t pos, size_t *n)
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

int memfd_check_truncate(struct inode *inode, loff_t size)
{
	if (((u64)size < inode->i_size && (inode->i_seals & F_SEAL_SHRINK)) ||
	    ((u64)size > inode->i_size && (inode->i_seals & F_SEAL_GROW)))
		return -EPERM;
	return 0;
}

/* A hole is a write; an allocation past the end, growth. */
int memfd_check_fallocate(struct inode *inode, bool punch, loff_t end)
{
	if (punch && (inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return -EPERM;
	if (!punch && (u64)end > inode->i_size &&
	    (inode->i_seals & F_SEAL_GROW))
		return -EPERM;
	return 0;
}

/* Linux's seal check in mmap: no shared mapping of a write-sealed file;
 * under F_SEAL_FUTURE_WRITE none writable, and a read-only one may never
 * become writable. mmap_lock held for writing, and the big kernel lock. */
int memfd_check_mmap(struct inode *inode, unsigned long *vm_flags)
{
	if (!(*vm_flags & VM_SHARED))
		return 0;
	if (inode->i_seals & F_SEAL_WRITE)
		return -EPERM;
	if (inode->i_seals & F_SEAL_FUTURE_WRITE) {
		if (*vm_flags & VM_WRITE)
			return -EPERM;
		*vm_flags &= ~VM_MAYWRITE;
	}
	return 0;
}

int memfd_check_chmod(struct inode *inode, u32 mode)
{
	if ((inode->i_seals & F_SEAL_EXEC) &&
	    (mode & S_IXUGO) != (inode->i_mode & S_IXUGO))
		return -EPERM;
	return 0;
}
