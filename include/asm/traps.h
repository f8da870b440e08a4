/* asm/traps.h — CPU exceptions: the IDT, reporting, and the test hook.
 * Also the exception table that lets marked instructions fault safely. */
#ifndef ASM_TRAPS_H
#define ASM_TRAPS_H

#include <asm/ptrace.h>

#define X86_TRAP_DE	0
#define X86_TRAP_DB	1
#define X86_TRAP_NMI	2
#define X86_TRAP_BP	3
#define X86_TRAP_UD	6
#define X86_TRAP_DF	8
#define X86_TRAP_GP	13
#define X86_TRAP_PF	14
#define NR_EXCEPTIONS	32

/* #PF error code bits */
#define X86_PF_PROT	(1 << 0)	/* 0: not present, 1: protection */
#define X86_PF_WRITE	(1 << 1)
#define X86_PF_USER	(1 << 2)
#define X86_PF_RSVD	(1 << 3)
#define X86_PF_INSTR	(1 << 4)

/* This CPU's GDT and TSS, loaded. */
void gdt_init(void);
/* This CPU's TSS rsp0: the stack a trap from user mode lands on. */
void tss_set_kernel_stack(u64 rsp0);
/* Fills the IDT (once) and loads it; load_current_idt on the others. */
void idt_init(void);
void load_current_idt(void);
void do_trap(struct pt_regs *regs);
const char *trap_name(unsigned int vector);

/* Print the full report for a trap: name, error, registers, backtrace. */
void show_trap(const struct pt_regs *regs);
/* Report and stop the kernel: an exception nobody handled. */
void __attribute__((noreturn)) die(const struct pt_regs *regs);

/*
 * Tests only: called first for every CPU exception.  Return true when the
 * hook handled it (it may change regs, e.g. skip the instruction).
 */
extern bool (*trap_test_hook)(struct pt_regs *regs);

/* An instruction at insn that may fault resumes at fixup instead. */
struct exception_table_entry {
	unsigned long insn, fixup;
};
#define _ASM_EXTABLE(from, to)					\
	".pushsection __ex_table, \"a\"\n"			\
	".balign 8\n"						\
	".quad " #from ", " #to "\n"				\
	".popsection\n"
/* The __ex_table entry of the instruction at ip, or NULL. */
const struct exception_table_entry *search_exception_tables(u64 ip);
bool fixup_exception(struct pt_regs *regs);
/* arch/x86_64/fault.c: the page-fault handler, and other exceptions from
 * user mode turned into signals (false if there is none for it). */
void do_page_fault(struct pt_regs *regs);
bool do_user_trap(struct pt_regs *regs);

/* For ktests (arch/x86_64/tests/ktest_probe.c): read or write 8 bytes at addr;
 * -EFAULT instead of an oops if that faults. */
int ktest_probe_read_u64(const void *addr, u64 *val);
int ktest_probe_write_u64(void *addr, u64 val);

#endif
