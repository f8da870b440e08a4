/* user/tests/xattr.c — extended attributes where a file system keeps
 * none (/proc on both kernels; every zpk file system): get answers
 * EOPNOTSUPP after the file and the name are checked (ENOENT, EBADF,
 * ERANGE, EFAULT, in Linux's order), and the list is empty. coreutils'
 * ls -l asks lgetxattr for ACLs and takes EOPNOTSUPP as "none". */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ulib.h"

#define F	"/proc/self/status"

int main(void)
{
	char buf[256];
	long r;
	int fd;

	need_proc();
	tap_plan(9);
	tap_fails(getxattr(F, "security.zpk", buf, sizeof(buf)), EOPNOTSUPP,
		  "getxattr where no attribute is kept");
	tap_fails(lgetxattr("/proc/self/exe", "system.posix_acl_access", buf,
			    sizeof(buf)), EOPNOTSUPP,
		  "lgetxattr of a link's ACL (ls -l)");
	fd = open(F, O_RDONLY);
	tap_fails(fgetxattr(fd, "security.zpk", buf, sizeof(buf)), EOPNOTSUPP,
		  "fgetxattr");
	tap_fails(fgetxattr(-1, "security.zpk", buf, sizeof(buf)), EBADF,
		  "fgetxattr of a bad descriptor");
	tap_fails(getxattr("/no/such/file", "security.zpk", buf, sizeof(buf)),
		  ENOENT, "getxattr of a missing file");
	tap_fails(getxattr(F, "", buf, sizeof(buf)), ERANGE,
		  "an empty name");
	tap_fails(syscall(SYS_getxattr, F, (void *)8, buf, sizeof(buf)),
		  EFAULT, "a name at a bad address");
	r = listxattr(F, buf, sizeof(buf));
	tap_ok(is_zpk() ? r == 0 : r >= 0, "listxattr lists no names (%ld)",
	       r);
	tap_fails(listxattr("/no/such/file", buf, sizeof(buf)), ENOENT,
		  "listxattr of a missing file");
	close(fd);
	tap_done();
}
