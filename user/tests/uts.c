/* user/tests/uts.c — sethostname and setdomainname: uname(2) shows what
 * they set; names past 64 bytes are EINVAL. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ulib.h"

int main(void)
{
	char long_name[66];
	struct utsname u;

	tap_plan(5);
	memset(long_name, 'x', sizeof(long_name));
	tap_fails(sethostname(long_name, 65), EINVAL, "a 65-byte host name");
	tap_fails(syscall(SYS_setdomainname, long_name, 65), EINVAL,
		  "a 65-byte domain name");
	if (!is_zpk()) {
		tap_skip("the host's names are its own: zpk only");
		tap_skip("zpk only");
		tap_skip("zpk only");
		tap_done();
	}
	tap_ok(sethostname("zpk-test", 8) == 0 && uname(&u) == 0 &&
	       !strcmp(u.nodename, "zpk-test"),
	       "sethostname: uname's nodename (%s)", u.nodename);
	tap_ok(sethostname(long_name, 64) == 0 && uname(&u) == 0 &&
	       strlen(u.nodename) == 64, "64 bytes is the most");
	tap_ok(syscall(SYS_setdomainname, "example", 7) == 0 &&
	       uname(&u) == 0 && !strcmp(u.domainname, "example") &&
	       sethostname("zpk", 3) == 0 &&
	       syscall(SYS_setdomainname, "(none)", 6) == 0,
	       "setdomainname: uname's domainname (%s)", u.domainname);
	tap_done();
}
