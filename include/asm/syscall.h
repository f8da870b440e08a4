/* asm/syscall.h — the SYSCALL entry's C side and the per-CPU block it uses.
 * One CPU: percpu is a single struct that GS points at in kernel mode. */
#ifndef ASM_SYSCALL_H
#define ASM_SYSCALL_H

#include <asm/ptrace.h>

struct percpu {
	u64 kernel_rsp;		/* top of the running task's kernel stack */
	u64 user_rsp;		/* scratch for the entry code */
};
extern struct percpu cpu_percpu;

void syscall_init(void);
void do_syscall_64(struct pt_regs *regs);
/* Sets where traps and syscalls from user mode land (TSS rsp0 too). */
void set_kernel_stack(u64 top);

#endif
