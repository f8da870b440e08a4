/* user/lib/klog.c — the kernel log as the OOM tests read it (syslog(2):
 * clear it, then read all of it). An object of its own, as counters.c:
 * the tests that do not use it keep their text as it was. */
#include <sys/klog.h>

#include "ulib.h"

static char log_buf[1 << 14];

void klog_clear(void)
{
	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
}

const char *klog_read(void)
{
	long n = klogctl(3, log_buf, sizeof(log_buf) - 1); /* READ_ALL */

	log_buf[n > 0 ? n : 0] = 0;
	return log_buf;
}
