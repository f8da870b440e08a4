/* zpk/pid.h — process id allocation (kernel/pid.c) with Linux's limits. */
#ifndef ZPK_PID_H
#define ZPK_PID_H

#define PID_MAX_DEFAULT	0x8000		/* /proc/sys/kernel/pid_max at boot */
#define PID_MAX_LIMIT	(4 * 1024 * 1024)	/* the most it may be set to */
#define RESERVED_PIDS	300		/* where allocation wraps back to */

extern int pid_max;

/* A free pid below pid_max: > 0, -EAGAIN (none left) or -ENOMEM. */
int alloc_pid(void);
/* The pid alloc_pid gave last, 0 before any. */
int last_pid(void);
/* Gives back a pid from alloc_pid. */
void free_pid(int pid);
/* Sets pid_max: 0 or -EINVAL outside (RESERVED_PIDS, PID_MAX_LIMIT]. */
int set_pid_max(long v);

#endif
