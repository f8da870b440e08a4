/* kernel/capability.c — capget: every process is root with every
 * capability (include/zpk/capability.h); capset is missing, for nothing
 * here checks a capability to drop. */
#include <zpk/capability.h>
#include <zpk/errno.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define _LINUX_CAPABILITY_VERSION_1	0x19980330	/* one u32 each */
#define _LINUX_CAPABILITY_VERSION_2	0x20071026	/* two, deprecated */
#define _LINUX_CAPABILITY_VERSION_3	0x20080522	/* two */

struct __user_cap_header_struct {
	u32 version;
	int pid;
};

struct __user_cap_data_struct {
	u32 effective, permitted, inheritable;
};

/* How many data structs the header's version has, or -EINVAL with the
 * version zpk speaks written back (Linux's cap_validate_magic). */
static int cap_validate_magic(struct __user_cap_header_struct __user *h)
{
	u32 version;

	if (get_user(version, &h->version))
		return -EFAULT;
	if (version == _LINUX_CAPABILITY_VERSION_1)
		return 1;
	if (version == _LINUX_CAPABILITY_VERSION_2 ||
	    version == _LINUX_CAPABILITY_VERSION_3)
		return 2;
	if (put_user((u32)_LINUX_CAPABILITY_VERSION_3, &h->version))
		return -EFAULT;
	return -EINVAL;
}

/* A NULL data pointer asks only for the version: 0 then, even for a bad
 * one. pid 0 is the caller; -ESRCH for no such thread. */
static long sys_capget(struct __user_cap_header_struct __user *h,
		       struct __user_cap_data_struct __user *data)
{
	struct __user_cap_data_struct d[2];
	int n = cap_validate_magic(h), pid;

	if (!data || n < 0)
		return !data && n == -EINVAL ? 0 : n;
	if (get_user(pid, &h->pid))
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	if (pid && !find_task_by_pid(pid))
		return -ESRCH;
	for (int i = 0; i < 2; i++)
		d[i] = (struct __user_cap_data_struct){
			.effective = (u32)(CAP_FULL_SET >> (32 * i)),
			.permitted = (u32)(CAP_FULL_SET >> (32 * i)) };
	return copy_to_user(data, d, n * sizeof(d[0])) ? -EFAULT : 0;
}
SYSCALL(__NR_capget, sys_capget);
