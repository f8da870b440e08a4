/* arch/x86_64/syscall.c — SYSCALL set-up and dispatch by number through the
 * table built from SYSCALL() entries; unknown numbers return -ENOSYS. */
#include <asm/io.h>
#include <asm/segment.h>
#include <asm/syscall.h>
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>

struct percpu cpu_percpu;
extern const struct syscall_entry __start_syscalls[], __stop_syscalls[];
static const struct syscall_entry *sys_call_table[NR_syscalls];
/* Linux's names, generated from asm/unistd.h by the Makefile. */
static const char *const syscall_names[NR_syscalls] = {
#include "syscall_names.h"
};

extern void entry_syscall_64(void);
void tss_set_kernel_stack(u64 rsp0);

void set_kernel_stack(u64 top)
{
	cpu_percpu.kernel_rsp = top;
	tss_set_kernel_stack(top);
}

void syscall_init(void)
{
	for (const struct syscall_entry *e = __start_syscalls;
	     e < __stop_syscalls; e++)
		sys_call_table[e->nr] = e;
	/* SYSCALL loads CS from STAR[47:32]; SYSRET takes CS/SS from
	 * STAR[63:48] + 16 / + 8 (asm/segment.h keeps that order). */
	wrmsr(MSR_STAR, ((u64)(__USER32_CS_BASE) << 48) |
			((u64)__KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (u64)entry_syscall_64);
	wrmsr(MSR_FMASK, 0x47700);	/* clear IF, TF, DF, AC, NT on entry */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_GS_BASE, (u64)&cpu_percpu);	/* kernel GS = percpu */
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

void do_syscall_64(struct pt_regs *regs)
{
	unsigned long nr = regs->vector;
	const struct syscall_entry *e =
		nr < NR_syscalls ? sys_call_table[nr] : NULL;

	current->in_syscall = true;	/* for syscall_restart */
	if (!e) {
		regs->rax = sys_ni_syscall(nr);
		return;
	}
	regs->rax = e->fn(regs->rdi, regs->rsi, regs->rdx, regs->r10,
			  regs->r8, regs->r9);
}
