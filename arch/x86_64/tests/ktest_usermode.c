/* arch/x86_64/tests/ktest_usermode.c — ktests of ring 3: entering it, SYSCALL
 * entry and return, and faults from user mode reported with their cause. */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/syscall.h>
#include <asm/traps.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/sched.h>
#include <zpk/string.h>

#define UCODE	0x0000000000400000UL
#define USTACK	0x0000000000800000UL	/* top; the page below it */

extern const char user_mode_returned[];

static u8 user_kstack[16384] __aligned(16);	/* traps from ring 3 land here */
static u64 saved_ksp;
static struct ktest_trap *trap_out;
static u64 kernel_rflags;	/* the caller's flags, back after the run */
static struct ktest_trap last;	/* the trap that ended the run */
static struct page *code_page, *stack_page;

/* Any trap from user mode ends the run: record it, resume the kernel. */
static bool user_trap(struct pt_regs *regs)
{
	if (!user_mode(regs))
		return false;
	trap_out->regs = *regs;
	trap_out->cr2 = read_cr2();
	regs->rip = (u64)user_mode_returned;
	regs->cs = __KERNEL_CS;
	regs->ss = __KERNEL_DS;
	regs->rsp = saved_ksp;
	regs->rflags = kernel_rflags;	/* interrupts as the caller had them */
	return true;
}

u64 ktest_run_user(u64 rip, u64 rsp, struct ktest_trap *t)
{
	memset(t, 0, sizeof(*t));
	trap_out = t;
	kernel_rflags = native_save_fl();	/* off in an IPI's function */
	set_kernel_stack((u64)user_kstack + sizeof(user_kstack));
	trap_test_hook = user_trap;
	enter_user_mode(rip, rsp, &saved_ksp);
	trap_test_hook = NULL;
	set_kernel_stack((u64)current->stack + THREAD_SIZE);
	return t->regs.vector;
}

/* Copies code to a read-only user page, runs it; returns the trap vector. */
static u64 run_user(const char *code, const char *end)
{
	code_page = alloc_page(__GFP_ZERO);
	stack_page = alloc_page(__GFP_ZERO);
	memcpy(page_address(code_page), code, end - code);
	kernel_map_page(UCODE, page_to_phys(code_page),
			__pgprot(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED));
	kernel_map_page(USTACK - PAGE_SIZE, page_to_phys(stack_page),
			__pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER |
				 _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_NX));
	ktest_run_user(UCODE, USTACK, &last);
	kernel_unmap_page(UCODE);
	kernel_unmap_page(USTACK - PAGE_SIZE);
	__free_page(code_page);
	__free_page(stack_page);
	return last.regs.vector;
}

#define RUN(name) ({ extern const char name[], name##_end[];		\
		     run_user(name, name##_end); })

KTEST(usermode, enter_ring3_and_trap_back)
{
	KEXPECT_EQ(RUN(user_int3_42), X86_TRAP_BP);
	KEXPECT_EQ(last.regs.rax, 42);
	KEXPECT_EQ(last.regs.cs, __USER_CS);
	KEXPECT_EQ(last.regs.ss, __USER_DS);
	KEXPECT_TRUE(last.regs.rip > UCODE && last.regs.rip < UCODE + 64);
}

KTEST(usermode, unknown_syscall_is_enosys)
{
	KEXPECT_EQ(RUN(user_enosys), X86_TRAP_BP);
	KEXPECT_EQ((long)last.regs.rax, -ENOSYS);
}

KTEST(usermode, syscall_keeps_registers)
{
	KEXPECT_EQ(RUN(user_keeps_regs), X86_TRAP_BP);
	KEXPECT_EQ((long)last.regs.rax, -ENOSYS);
	KEXPECT_EQ(last.regs.rbx, 0x1111);
	KEXPECT_EQ(last.regs.rbp, 0x2222);
	KEXPECT_EQ(last.regs.r12, 0x3333);
	KEXPECT_EQ(last.regs.r13, 0x4444);
	KEXPECT_EQ(last.regs.r14, 0x5555);
	KEXPECT_EQ(last.regs.r15, 0x6666);
	KEXPECT_EQ(last.regs.rdi, 0x7777);
	KEXPECT_EQ(last.regs.rsi, 0x8888);
	KEXPECT_EQ(last.regs.rdx, 0x9999);
	KEXPECT_EQ(last.regs.r8, 0xaaaa);
	KEXPECT_EQ(last.regs.rsp, USTACK);	/* the user stack comes back */
}

KTEST(usermode, null_read_is_user_not_present_fault)
{
	KEXPECT_EQ(RUN(user_null_read), X86_TRAP_PF);
	KEXPECT_EQ(last.cr2, 0);
	KEXPECT_EQ(last.regs.error_code & 7, X86_PF_USER);
}

KTEST(usermode, write_to_read_only_code_faults)
{
	KEXPECT_EQ(RUN(user_write_code), X86_TRAP_PF);
	KEXPECT_EQ(last.cr2, UCODE);
	KEXPECT_EQ(last.regs.error_code & 7, X86_PF_USER | X86_PF_WRITE | X86_PF_PROT);
}

KTEST(usermode, kernel_memory_is_protected)
{
	KEXPECT_EQ(RUN(user_read_kernel), X86_TRAP_PF);
	KEXPECT_EQ(last.cr2, 0xffff888000100000UL);
	KEXPECT_EQ(last.regs.error_code & 7, X86_PF_USER | X86_PF_PROT);
}

KTEST(usermode, privileged_instruction_is_gp)
{
	KEXPECT_EQ(RUN(user_hlt), X86_TRAP_GP);
	KEXPECT_EQ(last.regs.rip, UCODE);
}
