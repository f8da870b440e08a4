/* zpk/pidfd.h — process file descriptors (kernel/pidfd.c), Linux's
 * pidfd_open and the lookup of the process behind one. */
#ifndef ZPK_PIDFD_H
#define ZPK_PIDFD_H

#include <zpk/fs.h>

#define PIDFD_NONBLOCK	O_NONBLOCK	/* pidfd_open's one flag */

struct task_struct;

/*
 * The process the pidfd fd refers to, with a reference the caller drops
 * (put_task_struct), and the file's flags in *flags; NULL with *err
 * -EBADF if fd is not an open pidfd, -ESRCH once the process has been
 * reaped (Linux's pidfd_get_task).
 */
struct task_struct *pidfd_get_task(int fd, unsigned int *flags, int *err);

#endif
