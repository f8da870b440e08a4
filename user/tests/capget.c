/* user/tests/capget.c — capget: the sets as /proc/self/status shows
 * them, Linux's version handshake (a bad version is written back, and
 * with no data pointer the question is only the version), errnos. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

/* <linux/capability.h>'s, which musl's tree lacks */
#define _LINUX_CAPABILITY_VERSION_3	0x20080522
struct __user_cap_header_struct {
	unsigned int version;
	int pid;
};
struct __user_cap_data_struct {
	unsigned int effective, permitted, inheritable;
};

static long capget_(struct __user_cap_header_struct *h,
		    struct __user_cap_data_struct *d)
{
	return syscall(SYS_capget, h, d);
}

/* status's field (hex), or ~0 */
static unsigned long long status_hex(const char *name)
{
	char st[4096], *p;

	if (read_file("/proc/self/status", st, sizeof(st)) < 0 ||
	    !(p = strstr(st, name)))
		return ~0ULL;
	return strtoull(p + strlen(name) + 2, NULL, 16);
}

int main(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	unsigned long long eff, prm;
	long r;
	int e;

	need_proc();
	tap_plan(6);
	memset(d, 0xa5, sizeof(d));
	r = capget_(&h, d);
	eff = d[0].effective | (unsigned long long)d[1].effective << 32;
	prm = d[0].permitted | (unsigned long long)d[1].permitted << 32;
	tap_ok(r == 0 && eff == status_hex("CapEff") &&
	       prm == status_hex("CapPrm") && d[0].inheritable ==
	       (unsigned)status_hex("CapInh"), "version 3: effective %llx and "
	       "permitted %llx, as status says", eff, prm);
	h.version = 0x12345678;
	r = capget_(&h, d);
	e = errno;
	tap_ok(r == -1 && e == EINVAL && h.version ==
	       _LINUX_CAPABILITY_VERSION_3, "a bad version: EINVAL (%s), and "
	       "version 3 written back (%#x)", strerror(e), h.version);
	h.version = 0x12345678;
	r = capget_(&h, NULL);
	tap_ok(r == 0 && h.version == _LINUX_CAPABILITY_VERSION_3,
	       "no data pointer: 0, the version written back (%#x)",
	       h.version);
	h.pid = -1;
	r = capget_(&h, d);
	e = errno;
	tap_ok(r == -1 && e == EINVAL, "pid -1: EINVAL (%s)", strerror(e));
	h.pid = 0x3ffffff0;
	r = capget_(&h, d);
	e = errno;
	tap_ok(r == -1 && e == ESRCH, "no such pid: ESRCH (%s)", strerror(e));
	h.pid = 0;
	r = capget_(&h, (void *)8);
	e = errno;
	tap_ok(r == -1 && e == EFAULT, "a bad data pointer: EFAULT (%s)",
	       strerror(e));
	tap_done();
}
