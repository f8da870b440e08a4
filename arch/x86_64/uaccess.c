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

/*
 * *uaddr becomes newval if it holds oldval, in one locked instruction, as
 * user space's own compare-and-exchange on a futex word; *curval gets
 * what it held. 0, or -EFAULT. (Linux's futex_atomic_cmpxchg_inatomic;
 * a fault here is served as any uaccess fault is.)
 */
int futex_atomic_cmpxchg(u32 *curval, u32 __user *uaddr, u32 oldval,
			 u32 newval)
{
	int ret = -EFAULT;

	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	stac();
	asm volatile("1:	lock cmpxchgl %[new], %[mem]\n"
		     "	movl $0, %[ret]\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : [ret] "+r"(ret), [mem] "+m"(*(u32 *)uaddr),
		       "+a"(oldval)
		     : [new] "r"(newval)
		     : "memory");
	clac();
	*curval = oldval;
	return ret;
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
