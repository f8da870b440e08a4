/* uapi/asm-generic/ioctl.h — how an ioctl number is made (Linux's):
 * direction, argument size, type and number. The kernel's; a program has
 * the same macros from its libc's <sys/ioctl.h>. */
#ifndef _UAPI_ASM_GENERIC_IOCTL_H
#define _UAPI_ASM_GENERIC_IOCTL_H

#define _IOC_NONE	0U
#define _IOC_WRITE	1U
#define _IOC_READ	2U

#define _IOC(dir, type, nr, size) \
	((dir) << 30 | (size) << 16 | (type) << 8 | (nr))
#define _IO(type, nr)		_IOC(_IOC_NONE, (type), (nr), 0)
#define _IOR(type, nr, argtype)	_IOC(_IOC_READ, (type), (nr), sizeof(argtype))
#define _IOW(type, nr, argtype)	_IOC(_IOC_WRITE, (type), (nr), sizeof(argtype))
#define _IOWR(type, nr, argtype) \
	_IOC(_IOC_READ | _IOC_WRITE, (type), (nr), sizeof(argtype))

#endif
