/* arch/x86_64/process.c — the CPU side of tasks: FPU state, the switch,
 * first stack frames of new tasks, start_thread, arch_prctl. */
#include <asm/io.h>
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/syscall.h>
#include <asm/tlbflush.h>
#include <zpk/errno.h>
#include <zpk/mmu.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>


static u8 init_fpu[512] __aligned(16);	/* FNINIT state, MXCSR default */
u32 mxcsr_feature_mask;			/* the MXCSR bits FXRSTOR accepts */

static void fxsave(void *area)
{
	asm volatile("fxsaveq (%0)" : : "r"(area) : "memory");
}

void fpu_restore_from(const void *area)
{
	asm volatile("fxrstorq (%0)" : : "r"(area) : "memory");
}

void fpu_init_cpu(void)
{
	u32 mxcsr = 0x1f80;	/* all SIMD exceptions masked, as at reset */

	write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP |
		  X86_CR0_NE);
	write_cr4(read_cr4() | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT);
	asm volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
}

void fpu_init(void)
{
	fpu_init_cpu();
	fxsave(init_fpu);
	/* FXSAVE's MXCSR_MASK; 0 means the CPU predates it: all but DAZ
	 * (Linux's mxcsr_feature_mask_init). */
	mxcsr_feature_mask = ((u32 *)init_fpu)[7];
	if (!mxcsr_feature_mask)
		mxcsr_feature_mask = 0xffbf;
}

void fpu_save_to(struct task_struct *t)
{
	fxsave(t->fpu);
}

void fpu_reset_current(void)
{
	fpu_restore_from(init_fpu);
}

void start_thread(struct pt_regs *regs, unsigned long ip, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->rip = ip;
	regs->rsp = sp;
	regs->cs = __USER_CS;
	regs->ss = __USER_DS;
	regs->rflags = X86_EFLAGS_IF | 0x2;	/* bit 1 is always set */
	current->fsbase = 0;
	wrmsr(MSR_FS_BASE, 0);
}

void switch_to(struct task_struct *prev, struct task_struct *next)
{
	/* Kernel threads and idle borrow whatever address space is loaded
	 * (lazy TLB): back to a task of that mm, no CR3 write is needed. */
	if (next->mm)
		switch_mm(next->mm);
	set_kernel_stack((u64)next->stack + THREAD_SIZE);
	fxsave(prev->fpu);
	fpu_restore_from(next->fpu);
	wrmsr(MSR_FS_BASE, next->fsbase);
	__switch_to_asm(&prev->ksp, next->ksp);
}

/* The frame __switch_to_asm pops: r15 r14 r13 r12 rbx rbp, then ret. */
struct inactive_frame {
	u64 r15, r14, r13, r12, rbx, rbp;
	u64 ret_addr;
};

void copy_thread(struct task_struct *t, int (*fn)(void *), void *arg)
{
	struct inactive_frame *f = (struct inactive_frame *)task_pt_regs(t) - 1;

	memset(f, 0, sizeof(*f));
	if (fn) {
		f->r12 = (u64)fn;
		f->r13 = (u64)arg;
		f->ret_addr = (u64)ret_from_kernel_thread;
	} else {
		f->ret_addr = (u64)ret_from_fork;
	}
	t->ksp = (unsigned long)f;
}

#define ARCH_SET_FS	0x1002
#define ARCH_GET_FS	0x1003

static long sys_arch_prctl(int code, unsigned long addr)
{
	switch (code) {
	case ARCH_SET_FS:
		if (addr >= TASK_SIZE)
			return -EPERM;	/* non-canonical would #GP on load */
		current->fsbase = addr;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
		if (copy_to_user((void __user *)addr, &current->fsbase, 8))
			return -EFAULT;
		return 0;
	}
	return -EINVAL;
}
SYSCALL(__NR_arch_prctl, sys_arch_prctl);
