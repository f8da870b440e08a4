/* arch/x86_64/uaccess.c — copying to and from user memory. Each copy is a
 * rep movsb/stosb listed in the exception table: a fault ends it early. */
#include <asm/traps.h>
#include <zpk/errno.h>
#include <zpk/mmu.h>
#include <zpk/string.h>
#include <zpk/uaccess.h>

/* SMAP forbids ring-0 access to user pages unless EFLAGS.AC is set. */
static inline void stac(void)
{
	if (have_smap)
		asm volatile("stac" : : : "memory");
}
static inline void clac(void)
{
	if (have_smap)
		asm volatile("clac" : : : "memory");
}

/* Returns the bytes left uncopied: on a fault rcx holds exactly that. */
static unsigned long copy_user_generic(void *to, const void *from,
				       unsigned long n)
{
	stac();
	asm volatile("1:	rep movsb\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "+D"(to), "+S"(from), "+c"(n) : : "memory");
	clac();
	return n;
}

unsigned long raw_copy_from_user(void *to, const void __user *from,
				 unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	return copy_user_generic(to, from, n);
}

unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n)
{
	unsigned long left = raw_copy_from_user(to, from, n);

	if (left)	/* as Linux: never leave stale kernel bytes behind */
		memset((char *)to + (n - left), 0, left);
	return left;
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	return copy_user_generic(to, from, n);
}

unsigned long clear_user(void __user *to, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	stac();
	asm volatile("1:	rep stosb\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "+D"(to), "+c"(n) : "a"(0) : "memory");
	clac();
	return n;
}

long strncpy_from_user(char *dst, const char __user *src, long n)
{
	for (long i = 0; i < n; i++) {
		if (copy_from_user(&dst[i], src + i, 1))
			return -EFAULT;
		if (!dst[i])
			return i;
	}
	return -ENAMETOOLONG;
}
