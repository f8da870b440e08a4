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
/* A system call's -ERESTART* result before returning to user mode: EINTR
 * if the handler ka runs (unless SA_RESTART allows, for -ERESTARTSYS),
 * else the call runs again (restart_syscall for -ERESTART_RESTARTBLOCK);
 * ka NULL: no handler. Nothing for other results or a trap's regs. */
void syscall_restart(struct pt_regs *regs, const struct k_sigaction *ka);

#endif
