/* asm/signal.h — the x86-64 signal frame on the user stack (Linux's struct
 * rt_sigframe layout, so musl's handlers and sigreturn work unchanged). */
#ifndef ASM_SIGNAL_H
#define ASM_SIGNAL_H

#include <asm/ptrace.h>
#include <zpk/signal.h>

/* Builds the frame below regs->rsp and points regs at the handler; 0 or
 * -EFAULT (the stack is unusable). */
int setup_rt_frame(int sig, const struct k_sigaction *ka,
		   const struct kernel_siginfo *info, struct pt_regs *regs);
/* rt_sigreturn: regs, mask and FPU state back from the frame at rsp. */
int restore_rt_frame(struct pt_regs *regs);
/* kernel/signal.c: one pending signal acted on; true to look again. */
bool do_signal(struct pt_regs *regs);

#endif
