/* zpk/errno.h — Linux's errno numbers (asm-generic/errno-base.h, errno.h).
 * System calls return them negated, exactly as on Linux x86-64. */
#ifndef ZPK_ERRNO_H
#define ZPK_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define ESRCH		3
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define E2BIG		7
#define ENOEXEC		8
#define EBADF		9
#define ECHILD		10
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EXDEV		18
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENFILE		23
#define EMFILE		24
#define ENOTTY		25
#define ETXTBSY		26
#define EFBIG		27
#define ENOSPC		28
#define ESPIPE		29
#define EROFS		30
#define EPIPE		32
#define ERANGE		34
#define EDEADLK		35
#define ENAMETOOLONG	36
#define ENOLCK		37
#define ENOSYS		38
#define ENOTEMPTY	39
#define ELOOP		40
#define EOVERFLOW	75
#define ELIBBAD		80
#define ENOTSOCK	88
#define EMSGSIZE	90
#define EPROTONOSUPPORT	93
#define ESOCKTNOSUPPORT	94
#define EOPNOTSUPP	95
#define EAFNOSUPPORT	97
#define ECONNRESET	104
#define EISCONN		106
#define ENOTCONN	107
#define ETIMEDOUT	110
#define ECONNREFUSED	111

/* Never seen by user programs: the signal code turns them into EINTR or
 * restarts the call (Linux's include/linux/errno.h). */
#define ERESTARTSYS		512	/* restart if no handler or SA_RESTART */
#define ERESTARTNOINTR		513	/* always restart */
#define ERESTARTNOHAND		514	/* restart if no handler */
#define ERESTART_RESTARTBLOCK	516	/* restart_syscall with restart_block */

#endif
