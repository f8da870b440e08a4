/* mm/memfd.c — memfd_create(2) as Linux's mm/memfd.c: an anonymous shmem
 * file, to size with ftruncate or fallocate and map, shared or private;
 * and its seals (fcntl F_ADD_SEALS, F_GET_SEALS), which forbid changes
 * for good so that a process handed the file may trust its contents. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define F_ALL_SEALS		0x003f

#define MFD_CLOEXEC		0x0001U
#define MFD_ALLOW_SEALING	0x0002U
#define MFD_HUGETLB		0x0004U
#define MFD_NOEXEC_SEAL		0x0008U
#define MFD_EXEC		0x0010U
#define MFD_NAME_MAX_LEN	(NAME_MAX - 6)	/* after "memfd:" */

/* "memfd:" and the user's name into buf, checked as Linux: -EFAULT if
 * it cannot be read, -EINVAL if longer than MFD_NAME_MAX_LEN. */
static long get_name(char *buf, const char __user *uname)
{
	long len;

	memcpy(buf, "memfd:", 6);
	len = strncpy_from_user(buf + 6, uname, MFD_NAME_MAX_LEN + 1);
	if (len == -ENAMETOOLONG)
		return -EINVAL;
	return len < 0 ? len : 0;
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
	char name[6 + MFD_NAME_MAX_LEN + 1];
	struct file *f;
	long err;
	int fd;

	if (flags & ~(MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL |
		      MFD_EXEC))
		return -EINVAL;
	if ((flags & MFD_EXEC) && (flags & MFD_NOEXEC_SEAL))
		return -EINVAL;
	err = get_name(name, uname);
	if (err)
		return err;
	f = shmem_file_setup(name, 0);
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
