/* zpk/compiler.h — attribute shorthands and small generic macros.
 * Kept free of kernel-only declarations so host tests may include it. */
#ifndef ZPK_COMPILER_H
#define ZPK_COMPILER_H

#define __used		__attribute__((used))
#ifndef __always_inline	/* the host tests' libc has its own */
#define __always_inline	inline __attribute__((always_inline))
#endif
/*
 * A fault-path helper: inlined in the -O2 build, where a call costs as
 * much as the helper; a real frame in the debug build (make debug, the
 * gdb tests: the Makefile's DEBUG_FRAMES), so that a backtrace through a
 * fault shows each function of it with its arguments.
 */
#ifdef CONFIG_DEBUG_FRAMES
#define __fault_inline	__attribute__((noinline, unused))
#else
#define __fault_inline	__always_inline
#endif
#define __section(s)	__attribute__((section(s)))
#define __aligned(n)	__attribute__((aligned(n)))
#define __packed	__attribute__((packed))
#define __noreturn	__attribute__((noreturn))
#define __noinline	__attribute__((noinline))
/* Unused in some builds: clang warns of an unused static inline function
 * (the labs' trees stub every caller of a few), gcc does not. */
#define __maybe_unused	__attribute__((unused))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* __user marks pointers into user memory: pass them to uaccess only. */
#define __user

/* A value in the last page of the address space is a -errno (Linux's). */
#define IS_ERR_VALUE(x)	((unsigned long)(x) >= (unsigned long)-4095)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

#endif
