/* asm/processor.h — per-task CPU state beyond the registers: the FPU/SSE
 * area, the FS base for TLS, and the switch between two tasks. */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include <asm/ptrace.h>

struct task_struct;

/* CR0/CR4 for SSE, and the clean FPU image every exec starts from. */
void fpu_init(void);
/* The same CR0/CR4 bits and a clean FPU on another CPU. */
void fpu_init_cpu(void);
/* The MXCSR bits FXRSTOR accepts; any other #GPs (a hostile frame's). */
extern u32 mxcsr_feature_mask;
/* current's live FPU registers into t's area (fork: the child's copy). */
void fpu_save_to(struct task_struct *t);
/* exec: current starts with the clean FPU image. */
void fpu_reset_current(void);
void fpu_restore_from(const void *area);

/* Registers for a new program: rip, rsp, user segments, IF on. */
void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp);
/* Switches the CPU from prev to next: address space, kernel stack,
 * FS base, FPU, then the stack itself. Returns when prev runs again. */
void switch_to(struct task_struct *prev, struct task_struct *next);
/* The initial kernel stack of a new task: its first switch returns into
 * ret_from_fork (fn NULL) or ret_from_kernel_thread calling fn(arg). */
void copy_thread(struct task_struct *t, int (*fn)(void *), void *arg);
/* switch.asm: saves prev's callee-saved registers and stack pointer in
 * *prev_ksp, loads next_ksp and pops next's; and the two first returns of
 * a new task's stack (copy_thread builds them). */
void __switch_to_asm(unsigned long *prev_ksp, unsigned long next_ksp);
void ret_from_fork(void);
void ret_from_kernel_thread(void);

#endif
