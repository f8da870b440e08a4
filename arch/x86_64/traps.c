/* arch/x86_64/traps.c — what happens on a trap: a device IRQ to do_irq; a CPU
 * exception to the test hook, the exception table, or a full report and stop. */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/io_apic.h>
#include <asm/irq.h>
#include <asm/smp.h>
#include <asm/traps.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/kallsyms.h>
#include <zpk/printk.h>
#include <zpk/reboot.h>

bool (*trap_test_hook)(struct pt_regs *regs);

static const char *const trap_names[NR_EXCEPTIONS] = {
	"Divide Error (#DE)", "Debug (#DB)", "NMI", "Breakpoint (#BP)",
	"Overflow (#OF)", "BOUND Range Exceeded (#BR)",
	"Invalid Opcode (#UD)", "Device Not Available (#NM)",
	"Double Fault (#DF)", "Coprocessor Segment Overrun",
	"Invalid TSS (#TS)", "Segment Not Present (#NP)",
	"Stack-Segment Fault (#SS)", "General Protection Fault (#GP)",
	"Page Fault (#PF)", "Reserved 15", "x87 Floating-Point (#MF)",
	"Alignment Check (#AC)", "Machine Check (#MC)",
	"SIMD Floating-Point (#XM)", "Virtualization (#VE)",
	"Control Protection (#CP)", "Reserved 22", "Reserved 23",
	"Reserved 24", "Reserved 25", "Reserved 26", "Reserved 27",
	"Hypervisor Injection (#HV)", "VMM Communication (#VC)",
	"Security (#SX)", "Reserved 31",
};

const char *trap_name(unsigned int vector)
{
	return vector < NR_EXCEPTIONS ? trap_names[vector] : "Interrupt";
}

static void show_pf_error(u64 err)
{
	printk(KERN_CONT " [%s %s, %s%s]",
	       err & X86_PF_USER ? "user" : "kernel",
	       err & X86_PF_INSTR ? "fetch" :
	       err & X86_PF_WRITE ? "write" : "read",
	       err & X86_PF_PROT ? "protection violation" : "not present",
	       err & X86_PF_RSVD ? ", reserved bit" : "");
}

void show_trap(const struct pt_regs *r)
{
	char sym[128];

	sprint_symbol(sym, sizeof(sym), r->rip);
	printk(KERN_EMERG "zpk: CPU exception %llu: %s, error code %#llx",
	       (unsigned long long)r->vector, trap_name(r->vector),
	       (unsigned long long)r->error_code);
	if (r->vector == X86_TRAP_PF)
		show_pf_error(r->error_code);
	printk(KERN_CONT "\n");
	printk(KERN_EMERG "RIP: %04llx:%016llx <%s>\n",
	       (unsigned long long)r->cs, (unsigned long long)r->rip, sym);
	printk(KERN_EMERG "RSP: %04llx:%016llx RFLAGS: %08llx\n",
	       (unsigned long long)r->ss, (unsigned long long)r->rsp,
	       (unsigned long long)r->rflags);
	printk(KERN_EMERG "CR2=%#018llx CR3=%#018llx\n",
	       (unsigned long long)read_cr2(), (unsigned long long)read_cr3());
	printk(KERN_EMERG "RAX: %016llx RBX: %016llx RCX: %016llx\n",
	       (unsigned long long)r->rax, (unsigned long long)r->rbx,
	       (unsigned long long)r->rcx);
	printk(KERN_EMERG "RDX: %016llx RSI: %016llx RDI: %016llx\n",
	       (unsigned long long)r->rdx, (unsigned long long)r->rsi,
	       (unsigned long long)r->rdi);
	printk(KERN_EMERG "RBP: %016llx R08: %016llx R09: %016llx\n",
	       (unsigned long long)r->rbp, (unsigned long long)r->r8,
	       (unsigned long long)r->r9);
	printk(KERN_EMERG "R10: %016llx R11: %016llx R12: %016llx\n",
	       (unsigned long long)r->r10, (unsigned long long)r->r11,
	       (unsigned long long)r->r12);
	printk(KERN_EMERG "R13: %016llx R14: %016llx R15: %016llx\n",
	       (unsigned long long)r->r13, (unsigned long long)r->r14,
	       (unsigned long long)r->r15);
	if (!user_mode(r))
		show_stack(r->rip, r->rbp);
}

void die(const struct pt_regs *regs)
{
	cli();
	show_trap(regs);
	panic("Fatal exception: %s", trap_name(regs->vector));
}

extern const struct exception_table_entry __start_ex_table[],
	__stop_ex_table[];

const struct exception_table_entry *search_exception_tables(u64 ip)
{
	for (const struct exception_table_entry *e = __start_ex_table;
	     e < __stop_ex_table; e++)
		if (e->insn == ip)
			return e;
	return NULL;
}

/* A kernel instruction listed in __ex_table resumes at its fixup. */
bool fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *e =
		search_exception_tables(regs->rip);

	if (!e)
		return false;
	regs->rip = e->fixup;
	return true;
}

void do_trap(struct pt_regs *regs)
{
	/* Device IRQs first: they may arrive while a test hook is set. */
	if (regs->vector >= NR_EXCEPTIONS) {
		if (regs->vector < FIRST_EXTERNAL_VECTOR + NR_IRQS &&
		    do_irq(regs, regs->vector - FIRST_EXTERNAL_VECTOR))
			return;
		if (regs->vector >= FIRST_SYSTEM_VECTOR &&
		    do_system_vector(regs))
			return;
		if (do_io_apic_irq(regs))
			return;
		pr_warn("zpk: unexpected interrupt %llu\n",
			(unsigned long long)regs->vector);
		return;
	}
	if (regs->vector == X86_TRAP_NMI && cpu_stop_requested())
		stop_this_cpu();
	if (trap_test_hook && trap_test_hook(regs))
		return;
	if (regs->vector == X86_TRAP_PF) {
		do_page_fault(regs);
		return;
	}
	if (user_mode(regs) ? do_user_trap(regs) : fixup_exception(regs))
		return;
	die(regs);
}
