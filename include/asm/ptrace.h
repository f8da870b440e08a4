/* asm/ptrace.h — struct pt_regs, the registers saved on every trap entry.
 * Layout matches the push order in arch/x86_64/entry.asm. */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <zpk/types.h>

struct pt_regs {
	u64 r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	u64 rax, rcx, rdx, rsi, rdi;
	u64 vector;		/* pushed by the stub */
	u64 error_code;		/* by the CPU, or 0 by the stub */
	u64 rip, cs, rflags, rsp, ss;	/* the CPU's interrupt frame */
};

static inline bool user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

#endif
