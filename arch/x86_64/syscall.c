/* arch/x86_64/syscall.c — SYSCALL set-up and dispatch by number through the
 * table built from SYSCALL() entries; unknown numbers return -ENOSYS. */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/percpu.h>
#include <asm/segment.h>
#include <asm/syscall.h>
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/syscalls.h>
#include <asm/traps.h>

extern const struct syscall_entry __start_syscalls[], __stop_syscalls[];
static const struct syscall_entry *sys_call_table[NR_syscalls];
/* Linux's names, generated from asm/unistd.h by the Makefile. */
static const char *const syscall_names[NR_syscalls] = {
#include "syscall_names.h"
};


void set_kernel_stack(u64 top)
{
	this_cpu_write(kernel_rsp, top);
	tss_set_kernel_stack(top);
}

void syscall_table_init(void)
{
	for (const struct syscall_entry *e = __start_syscalls;
	     e < __stop_syscalls; e++)
		sys_call_table[e->nr] = e;
}

void syscall_init(void)
{
	/* SYSCALL loads CS from STAR[47:32]; SYSRET takes CS/SS from
	 * STAR[63:48] + 16 / + 8 (asm/segment.h keeps that order). */
	wrmsr(MSR_STAR, ((u64)(__USER32_CS_BASE) << 48) |
			((u64)__KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)entry_syscall_64);
	wrmsr(MSR_FMASK, 0x47700);	/* clear IF, TF, DF, AC, NT on entry */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_KERNEL_GS_BASE, 0);		/* user GS, swapped in */
}

/* Logs each missing call once per process, by number and Linux name. */
static long sys_ni_syscall(unsigned long nr)
{
	u64 *logged = current->enosys_logged;

	if (nr < NR_syscalls && !(logged[nr / 64] & (1ULL << (nr % 64)))) {
		logged[nr / 64] |= 1ULL << (nr % 64);
		pr_info("zpk: %s[%d]: system call %lu (%s) not implemented (-ENOSYS)\n",
			current->comm, current->pid, nr,
			syscall_names[nr] ? syscall_names[nr] : "unknown to zpk");
	}
	return -ENOSYS;
}

/* Interrupts on for the call (the entry came in with them off); the big
 * kernel lock around it unless it was registered with SYSCALL_NOBKL. */
void do_syscall_64(struct pt_regs *regs)
{
	unsigned long nr = regs->vector;
	const struct syscall_entry *e =
		nr < NR_syscalls ? sys_call_table[nr] : NULL;

	local_irq_enable();
	current->in_syscall = true;	/* for syscall_restart */
	if (!e) {
		regs->rax = sys_ni_syscall(nr);
		return;
	}
	if (!e->no_bkl)
		lock_kernel();
	regs->rax = e->fn(regs->rdi, regs->rsi, regs->rdx, regs->r10,
			  regs->r8, regs->r9);
	if (!e->no_bkl)
		unlock_kernel();
}
