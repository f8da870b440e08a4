/* zpk/syscalls.h — registering system calls beside their code.
 * SYSCALL(__NR_x, sys_x) adds sys_x to the table the entry path indexes. */
#ifndef ZPK_SYSCALLS_H
#define ZPK_SYSCALLS_H

#include <asm/unistd.h>
#include <zpk/compiler.h>
#include <zpk/types.h>

/* Arguments arrive as six longs (rdi, rsi, rdx, r10, r8, r9); a sys_
 * function declares as many as it uses, with their real types, and
 * returns a value or a negative errno, exactly as on Linux. */
typedef long (*syscall_fn_t)(long, long, long, long, long, long);

struct syscall_entry {
	unsigned int nr;
	bool no_bkl;		/* runs without the big kernel lock */
	const char *name;
	syscall_fn_t fn;
};

#define __SYSCALL(nr_, fn_, no_bkl_)					\
	static const struct syscall_entry __syscall_##fn_##nr_	\
	__used __section(".syscalls") __aligned(8) = {			\
		.nr = (nr_), .no_bkl = (no_bkl_), .name = #fn_,	\
		.fn = (syscall_fn_t)(void (*)(void))(fn_) }

/* Runs under the big kernel lock (zpk/smp_lock.h), as every call did in
 * Linux 2.0: what it touches needs no lock of its own. */
#define SYSCALL(nr_, fn_)	__SYSCALL(nr_, fn_, false)
/* Runs without it: takes the locks of what it touches itself (the mm
 * calls: the mmap_lock, docs/smp.md). */
#define SYSCALL_NOBKL(nr_, fn_)	__SYSCALL(nr_, fn_, true)

#endif
