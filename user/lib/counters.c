/* user/lib/counters.c — system-wide figures the swap and THP tests read:
 * a /proc/vmstat counter and the mm_verify sweep (declared in procfs.h
 * and ulib.h). An object of its own: the archive links an object whole,
 * and the tests that use neither keep their text as it was (prot_none
 * counts its own RSS, text pages included, to the page). */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

long long proc_vmstat_read(const char *name)
{
	char *text = proc_read("/proc/vmstat", NULL);
	long long v = text ? proc_vmstat(text, name) : -1;

	free(text);
	return v;
}

long long huge_zero_holders(void)
{
	long long n = proc_vmstat_read("huge_zero_refcount");

	return n > 0 ? n - 1 : n;
}

int mm_verify_clean(void)
{
	int fd = open("/proc/sys/vm/mm_verify", O_WRONLY), ok;

	if (fd < 0)
		return 1;
	ok = write(fd, "1", 1) == 1;
	close(fd);
	return ok;
}
