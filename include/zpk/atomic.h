/* zpk/atomic.h — integers that several CPUs change at once (Linux's
 * atomic_t, atomic_long_t, bit operations): each is one locked instruction. */
#ifndef ZPK_ATOMIC_H
#define ZPK_ATOMIC_H

#include <zpk/types.h>

/*
 * GCC's __atomic builtins with sequential consistency compile to x86's
 * lock-prefixed instructions (lock xadd, lock cmpxchg, ...), which is what
 * Linux's arch/x86/include/asm/atomic.h writes by hand. A plain read or
 * write of an aligned word is atomic by itself; READ_ONCE/WRITE_ONCE only
 * stop the compiler from tearing, merging or caching it.
 */
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* Orders memory accesses: full barrier, and a compiler-only one. */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define barrier()	asm volatile("" : : : "memory")
/* In a busy-wait loop: the pause instruction (Linux's cpu_relax). */
#define cpu_relax()	asm volatile("pause" : : : "memory")

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return READ_ONCE(v->counter);
}
static inline void atomic_set(atomic_t *v, int i)
{
	WRITE_ONCE(v->counter, i);
}
static inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);
}
static inline void atomic_inc(atomic_t *v)
{
	atomic_add(1, v);
}
static inline void atomic_dec(atomic_t *v)
{
	atomic_add(-1, v);
}
/* The new value. */
static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}
static inline int atomic_inc_return(atomic_t *v)
{
	return atomic_add_return(1, v);
}
static inline int atomic_dec_return(atomic_t *v)
{
	return atomic_add_return(-1, v);
}
static inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_add_return(-1, v) == 0;
}
/* True if the result is negative (Linux's, for _mapcount from -1). */
static inline bool atomic_add_negative(int i, atomic_t *v)
{
	return atomic_add_return(i, v) < 0;
}
/* Sets v to new if it was old; returns what v was. */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}
/* Adds a to v unless v is u; true if it added (Linux's atomic_add_unless). */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	while (c != u) {
		int old = atomic_cmpxchg(v, c, c + a);

		if (old == c)
			return true;
		c = old;
	}
	return false;
}
static inline int atomic_xchg(atomic_t *v, int new)
{
	return __atomic_exchange_n(&v->counter, new, __ATOMIC_SEQ_CST);
}

static inline long atomic_long_read(const atomic_long_t *v)
{
	return READ_ONCE(v->counter);
}
static inline void atomic_long_set(atomic_long_t *v, long i)
{
	WRITE_ONCE(v->counter, i);
}
static inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);
}
static inline long atomic_long_add_return(long i, atomic_long_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}
static inline void atomic_long_inc(atomic_long_t *v)
{
	atomic_long_add(1, v);
}
static inline void atomic_long_dec(atomic_long_t *v)
{
	atomic_long_add(-1, v);
}
static inline long atomic_long_cmpxchg(atomic_long_t *v, long old, long new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;
}

/* Bit nr of the word at addr (lock bts / lock btr / bt). */
static inline void set_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST);
}
static inline void clear_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST);
}
static inline bool test_and_set_bit(unsigned int nr, unsigned long *addr)
{
	return __atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST) &
	       (1UL << nr);
}
static inline bool test_and_clear_bit(unsigned int nr, unsigned long *addr)
{
	return __atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) &
	       (1UL << nr);
}
static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return READ_ONCE(*addr) & (1UL << nr);
}

#endif
