/* zpk/uaccess.h — the only way the kernel touches user memory.
 * Faults are caught by the exception table: a bad pointer gives -EFAULT. */
#ifndef ZPK_UACCESS_H
#define ZPK_UACCESS_H

#include <zpk/types.h>
#include <zpk/syscalls.h>

/* User addresses are below TASK_SIZE (47 bits, less a guard page). */
#define TASK_SIZE	0x00007ffffffff000UL

static inline bool access_ok(const void __user *p, size_t n)
{
	unsigned long a = (unsigned long)p;

	return n <= TASK_SIZE && a <= TASK_SIZE - n;
}

/* Both return the number of bytes NOT copied (0 on success), as Linux. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from,
			   unsigned long n);
/* copy_from_user without zeroing what a fault left uncopied (Linux's
 * raw_copy_from_user, as iov_iter copies): for a destination that is
 * another process's page, which must not gain zeros it was never sent. */
unsigned long raw_copy_from_user(void *to, const void __user *from,
				 unsigned long n);
/* Zeroes n user bytes; returns bytes not cleared. */
unsigned long clear_user(void __user *to, unsigned long n);
/* Copies a NUL-terminated string of at most n bytes (incl. NUL): the
 * length without NUL, -EFAULT, or -ENAMETOOLONG if there is no NUL. */
long strncpy_from_user(char *dst, const char __user *src, long n);

/* A futex word's compare-and-exchange: 0 with *curval the old value, or
 * -EFAULT. */
int futex_atomic_cmpxchg(u32 *curval, u32 __user *uaddr, u32 oldval,
			 u32 newval);

#define get_user(x, ptr) ({						\
	__typeof__(*(ptr)) __v;						\
	int __e = copy_from_user(&__v, (ptr), sizeof(__v)) ? -14 : 0;	\
	if (!__e)							\
		(x) = __v;						\
	__e;								\
})
#define put_user(x, ptr) ({						\
	__typeof__(*(ptr)) __v = (x);					\
	copy_to_user((ptr), &__v, sizeof(__v)) ? -14 : 0;		\
})

#endif
