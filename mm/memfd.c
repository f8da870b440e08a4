/* mm/memfd.c — memfd_create(2) as Linux's mm/memfd.c: an anonymous shmem
 * file, to size with ftruncate or fallocate and map, shared or private. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

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
 * A new descriptor for an unnamed shmem file of size 0, read-write: its
 * pages are PG_swapbacked (RssShmem where mapped). MFD_HUGETLB is
 * -EINVAL (no hugetlbfs); MFD_EXEC with MFD_NOEXEC_SEAL too, as Linux.
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
	fd = fd_install_new(f, 0, flags & MFD_CLOEXEC);
	if (fd < 0)
		fput(f);
	return fd;
}
SYSCALL(__NR_memfd_create, sys_memfd_create);
