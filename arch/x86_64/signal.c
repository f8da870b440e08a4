/* arch/x86_64/signal.c — the rt_sigframe: what a handler finds on its stack
 * (return address, ucontext, siginfo, FPU state) and what sigreturn undoes. */
#include <asm/processor.h>
#include <asm/segment.h>
#include <asm/signal.h>
#include <zpk/errno.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

/* Linux's struct sigcontext (64-bit), inside ucontext's uc_mcontext. */
struct sigcontext {
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	u16 cs, gs, fs, ss;
	u64 err, trapno, oldmask, cr2;
	u64 fpstate;			/* user address of the FXSAVE area */
	u64 reserved1[8];
};

struct ucontext {
	u64 uc_flags;
	u64 uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;
};

struct rt_sigframe {
	u64 pretcode;			/* the handler returns here */
	struct ucontext uc;
	struct kernel_siginfo info;
};

#define USER_FLAGS_MASK	0x40dd5UL	/* CF PF AF ZF SF TF DF OF AC */

static void save_sigcontext(struct sigcontext *sc, const struct pt_regs *r)
{
	sc->r8 = r->r8; sc->r9 = r->r9; sc->r10 = r->r10; sc->r11 = r->r11;
	sc->r12 = r->r12; sc->r13 = r->r13; sc->r14 = r->r14;
	sc->r15 = r->r15; sc->rdi = r->rdi; sc->rsi = r->rsi;
	sc->rbp = r->rbp; sc->rbx = r->rbx; sc->rdx = r->rdx;
	sc->rax = r->rax; sc->rcx = r->rcx; sc->rsp = r->rsp;
	sc->rip = r->rip; sc->eflags = r->rflags;
	sc->cs = __USER_CS;
	sc->ss = __USER_DS;
	sc->trapno = r->vector < 32 ? r->vector : 0;
	sc->err = r->error_code;
}

static void restore_sigcontext(struct pt_regs *r, const struct sigcontext *sc)
{
	r->r8 = sc->r8; r->r9 = sc->r9; r->r10 = sc->r10; r->r11 = sc->r11;
	r->r12 = sc->r12; r->r13 = sc->r13; r->r14 = sc->r14;
	r->r15 = sc->r15; r->rdi = sc->rdi; r->rsi = sc->rsi;
	r->rbp = sc->rbp; r->rbx = sc->rbx; r->rdx = sc->rdx;
	r->rax = sc->rax; r->rcx = sc->rcx; r->rsp = sc->rsp;
	r->rip = sc->rip;
	/* Only the arithmetic flags are the program's to set; IF stays on. */
	r->rflags = (r->rflags & ~USER_FLAGS_MASK) |
		    (sc->eflags & USER_FLAGS_MASK);
	r->cs = __USER_CS;
	r->ss = __USER_DS;
}

/*
 * Where the frame goes (Linux's get_sigframe): below the red zone of the
 * interrupted stack, or from the top of the alternate stack for an
 * SA_ONSTACK handler when the thread is not on it already; *fp is the
 * FXSAVE area above it. 0 when the frame would not fit on the alternate
 * stack it is on or enters: SIGSEGV, rather than a frame written below.
 */
static unsigned long get_sigframe(const struct k_sigaction *ka,
				  const struct pt_regs *regs, unsigned long *fp)
{
	bool nested = on_sig_stack(regs->rsp), entering = false;
	unsigned long sp = regs->rsp - 128, frame;

	if ((ka->flags & SA_ONSTACK) && sas_ss_flags(sp) == 0) {
		sp = current->sas_ss_sp + current->sas_ss_size;
		entering = true;
	}
	/* FXSAVE area 64-byte aligned, then the frame so that the handler
	 * starts as if called: (rsp + 8) % 16 == 0. */
	*fp = (sp - sizeof(current->fpu)) & ~63UL;
	frame = ((*fp - sizeof(struct rt_sigframe)) & ~15UL) - 8;
	if ((nested || entering) && !__on_sig_stack(frame))
		return 0;
	return frame;
}

int setup_rt_frame(int sig, const struct k_sigaction *ka,
		   const struct kernel_siginfo *info, struct pt_regs *regs)
{
	unsigned long fp, frame_addr = get_sigframe(ka, regs, &fp);
	struct rt_sigframe f;

	if (!(ka->flags & SA_RESTORER) || !frame_addr)
		return -EFAULT;		/* no way back, or no room */
	memset(&f, 0, sizeof(f));
	f.pretcode = (u64)ka->restorer;
	save_sigcontext(&f.uc.uc_mcontext, regs);
	f.uc.uc_mcontext.fpstate = fp;
	f.uc.uc_mcontext.oldmask = sigmask_to_save();
	f.uc.uc_sigmask = sigmask_to_save();
	f.uc.uc_stack.ss_sp = (void __user *)current->sas_ss_sp;
	f.uc.uc_stack.ss_flags = (int)current->sas_ss_flags;
	f.uc.uc_stack.ss_size = current->sas_ss_size;
	f.info = *info;
	fpu_save_to(current);
	if (copy_to_user((void __user *)fp, current->fpu, sizeof(current->fpu)) ||
	    copy_to_user((void __user *)frame_addr, &f, sizeof(f)))
		return -EFAULT;
	regs->rsp = frame_addr;
	regs->rip = (u64)ka->handler;
	regs->rdi = sig;
	regs->rsi = frame_addr + __builtin_offsetof(struct rt_sigframe, info);
	regs->rdx = frame_addr + __builtin_offsetof(struct rt_sigframe, uc);
	regs->rax = 0;
	regs->rflags &= ~(1UL << 10 | 1UL << 8);	/* DF and TF clear */
	return 0;
}

int restore_rt_frame(struct pt_regs *regs)
{
	/* The handler's ret popped pretcode: rsp is just past it. */
	unsigned long sp = regs->rsp, frame_addr = sp - 8;
	struct rt_sigframe f;

	if (copy_from_user(&f, (void __user *)frame_addr, sizeof(f)))
		return -EFAULT;
	if (f.uc.uc_mcontext.fpstate) {
		if (copy_from_user(current->fpu,
				   (void __user *)f.uc.uc_mcontext.fpstate,
				   sizeof(current->fpu)))
			return -EFAULT;
		/* Reserved MXCSR bits would #GP in the kernel: a bad frame,
		 * as Linux's fpu__restore_sig finds (SIGSEGV). */
		if (((u32 *)current->fpu)[6] & ~mxcsr_feature_mask)
			return -EFAULT;
		fpu_restore_from(current->fpu);
	}
	restore_sigcontext(regs, &f.uc.uc_mcontext);
	/* As from the frame's stack: Linux 6.18 keeps a stack that a
	 * handler disarmed by SS_AUTODISARM set anew (user/tests/
	 * sigaltstack.c). */
	restore_altstack(&f.uc.uc_stack, sp);
	current->blocked = f.uc.uc_sigmask &
			   ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	return 0;
}

void syscall_restart(struct pt_regs *regs, const struct k_sigaction *ka)
{
	if (!current->in_syscall)
		return;
	current->in_syscall = false;
	switch ((long)regs->rax) {
	case -ERESTART_RESTARTBLOCK:
		if (ka) {
			regs->rax = -EINTR;
			return;
		}
		regs->rax = __NR_restart_syscall;
		regs->rip -= 2;		/* the syscall instruction again */
		return;
	case -ERESTARTNOHAND:
		if (ka) {
			regs->rax = -EINTR;
			return;
		}
		break;
	case -ERESTARTSYS:
		if (ka && !(ka->flags & SA_RESTART)) {
			regs->rax = -EINTR;
			return;
		}
		break;
	case -ERESTARTNOINTR:
		break;
	default:
		return;
	}
	regs->rax = regs->vector;	/* the entry left the number there */
	regs->rip -= 2;
}
