/* asm/syscall.h — the SYSCALL entry's C side; the entry finds the kernel
 * stack in this CPU's struct pcpu (asm/percpu.h) through GS. */
#ifndef ASM_SYSCALL_H
#define ASM_SYSCALL_H

#include <asm/ptrace.h>

/* The table of system calls by number, from the SYSCALL() entries. */
void syscall_table_init(void);
/* This CPU's SYSCALL MSRs (entry point, segments, flags to clear). */
void syscall_init(void);
void do_syscall_64(struct pt_regs *regs);
/* The SYSCALL instruction's entry (syscall_64.asm): MSR_LSTAR's. */
void entry_syscall_64(void);
/* Sets where traps and syscalls from user mode land (TSS rsp0 too). */
void set_kernel_stack(u64 top);

#endif
