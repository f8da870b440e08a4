/* uapi/linux/resource.h — getrusage's and wait4's struct rusage, and
 * getrusage's who (Linux's include/uapi/linux/resource.h). A program
 * takes the same layout from its libc's <sys/resource.h>. */
#ifndef _UAPI_LINUX_RESOURCE_H
#define _UAPI_LINUX_RESOURCE_H

/* User and system time as two struct timevals (seconds, microseconds),
 * then 14 longs, of which zpk fills ru_maxrss, ru_minflt and ru_majflt. */
struct rusage {
	long ru_utime[2], ru_stime[2];
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};

#define RUSAGE_SELF	0
#define RUSAGE_CHILDREN	(-1)
#define RUSAGE_THREAD	1

#endif
