/* arch/x86_64/fault.c — page faults and other exceptions from user code:
 * do_page_fault hands user addresses to handle_mm_fault; failures signal. */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/traps.h>
#include <zpk/memory.h>
#include <zpk/mmu.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/oom.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/smp_lock.h>
#include <zpk/zero_page.h>

/* Linux's show_signal_msg: one line per unhandled fatal fault. Called by
 * bad_area under the big kernel lock (current's sighand). */
static void show_signal_msg(struct pt_regs *regs, unsigned long addr,
			    int sig)
{
	/* LAB(demand-paging) BEGIN task 1: Linux's segfault line */
	/* LAB(faults) BEGIN task 2: Linux's segfault line */
	if (current->sighand->action[sig - 1].handler != SIG_DFL)
		return;
	pr_info("zpk: %s[%d]: segfault at 0x%lx ip 0x%llx sp 0x%llx error %llx\n",
		current->comm, current->pid, addr,
		(unsigned long long)regs->rip, (unsigned long long)regs->rsp,
		(unsigned long long)regs->error_code);
	/* LAB(faults) END: (void)regs; (void)addr; (void)sig; */
	/* LAB(demand-paging) END: (void)regs; (void)addr; (void)sig; */
}

/* A write that reached the zero page: name it before the oops, since the
 * generic report says only "protection violation". Called by
 * kernel_fault, whatever locks the faulting code held: it takes none. */
static void check_zero_page_write(struct pt_regs *regs, unsigned long addr)
{
	unsigned long pfn;

	if (!(regs->error_code & X86_PF_WRITE) || addr < PAGE_OFFSET)
		return;
	pfn = PHYS_PFN(__pa((void *)addr));
	if (is_zero_pfn(pfn))
		pr_err("zpk: BUG: write to the zero page at %#lx (pfn %#lx), rip %#llx\n",
			 addr, pfn, (unsigned long long)regs->rip);
}

/* A fault the kernel made: on a user pointer in uaccess it resumes at the
 * fixup (-EFAULT); anything else is a kernel bug (die does not return).
 * Called with no mmap_lock held (mm_fault dropped it), but whatever
 * locks the faulting code held: it takes none. */
static void kernel_fault(struct pt_regs *regs)
{
	if (fixup_exception(regs))
		return;
	check_zero_page_write(regs, read_cr2());
	die(regs);
}

/* The signal for a bad user access; signals are the big kernel lock's,
 * taken here. Called by do_page_fault with no mmap_lock held (a fault
 * from uaccess goes to kernel_fault instead). */
static void bad_area(struct pt_regs *regs, unsigned long addr, int sig,
		     int code)
{
	if (!user_mode(regs)) {
		kernel_fault(regs);
		return;
	}
	lock_kernel();
	/* Linux logs a SIGSEGV only (__bad_area_nosemaphore): do_sigbus
	 * prints nothing, the cause (a swap read error, a truncated file)
	 * having been logged where it was found, if anywhere. */
	if (sig == SIGSEGV)
		show_signal_msg(regs, addr, sig);
	force_sig_fault(sig, code, addr);
	unlock_kernel();
}

/*
 * No memory even after the OOM killer ran (out_of_memory in the loop of
 * do_page_fault). If current was its victim, SIGKILL is pending and it
 * dies on the way out. A uaccess fault gives -EFAULT, as Linux's. A user
 * fault with nothing left to kill (current is init or at oom_score_adj
 * -1000) is retried after the others have run, as Linux's
 * pagefault_out_of_memory retries: init is never killed for memory.
 * Called by do_page_fault with no mmap_lock held; takes no lock.
 */
static __maybe_unused void mm_fault_oom(struct pt_regs *regs)
{
	if (!user_mode(regs)) {
		kernel_fault(regs);
		return;
	}
	current->need_resched = true;
}

/*
 * A userfaultfd's reader resolved the fault (or a signal came first):
 * the access runs again, faulting anew if it must. A uaccess interrupted
 * by a fatal signal gives -EFAULT, as Linux's fault_signal_pending.
 * Called by do_page_fault, with no mmap_lock held (handle_userfault gave
 * it up).
 */
static __maybe_unused void userfault_retry(struct pt_regs *regs)
{
	if (!user_mode(regs) && fatal_signal_pending(current))
		kernel_fault(regs);
}

/* The fault as handle_mm_fault's FAULT_FLAG_*: what the error code says
 * the access was (Linux's do_user_addr_fault sets them the same way).
 * Called by do_page_fault; no lock. */
static __maybe_unused unsigned int fault_flags(const struct pt_regs *regs)
{
	/* LAB(demand-paging) BEGIN task 1: the error code as FAULT_FLAG_* */
	unsigned int flags = 0;

	if (regs->error_code & X86_PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (regs->error_code & X86_PF_INSTR)
		flags |= FAULT_FLAG_INSTRUCTION;
	if (user_mode(regs))
		flags |= FAULT_FLAG_USER;
	return flags;
	/* LAB(demand-paging) END: (void)regs; return 0; */
}

/*
 * The VMA at or above addr, with mm's mmap_lock held for reading. A stack
 * below addr grows down to it: that changes the VMA, so the lock is
 * retaken for writing meanwhile (Linux's lock_mm_and_find_vma), and the
 * VMA looked up again after (it may have changed while the lock was
 * free). A VMA above addr, or none, is returned as found: the fault
 * fails in handle_mm_fault. Called by mm_fault with no mmap_lock held;
 * returns with it held for reading, whatever the answer.
 */
static __maybe_unused struct vm_area_struct *
lock_mm_and_find_vma(struct mm_struct *mm, unsigned long addr)
{
	/* LAB(demand-paging) BEGIN task 3: find the VMA; a stack grows to it */
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start <= addr || !(vma->vm_flags & VM_GROWSDOWN))
		return vma;
	mmap_read_unlock(mm);
	mmap_write_lock(mm);
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start > addr)
		expand_stack(vma, addr);
	mmap_write_unlock(mm);
	mmap_read_lock(mm);
	return find_vma(mm, addr);
	/* LAB(demand-paging) END:
	 * mmap_read_lock(mm);
	 * return find_vma(mm, addr);
	 */
}

/*
 * The fault itself, under mm's mmap_lock for reading (a userfault gives
 * it up while it sleeps, and answers VM_FAULT_RETRY). If memory ran out,
 * the lock goes while the OOM killer runs (it may reap another mm), and
 * the fault is tried again while that frees some. *code: SEGV_ACCERR if
 * a VMA covers addr, else SEGV_MAPERR. Called by do_page_fault with no
 * mmap_lock held, and none held on return: it takes mm's for reading
 * (lock_mm_and_find_vma) and lets it go. Returns handle_mm_fault's
 * answer: 0 or VM_FAULT_*.
 */
static __maybe_unused vm_fault_t mm_fault(struct mm_struct *mm,
					  unsigned long addr,
					  unsigned int flags, int *code)
{
	/* LAB(demand-paging) BEGIN task 1: the fault, under the mmap_lock */
	struct vm_area_struct *vma;
	vm_fault_t ret;

	for (;;) {
		vma = lock_mm_and_find_vma(mm, addr);
		ret = handle_mm_fault(vma, addr, flags);
		/* After a VM_FAULT_RETRY vma may be gone: no code needed. */
		*code = !(ret & VM_FAULT_RETRY) && vma &&
			vma->vm_start <= addr ? SEGV_ACCERR : SEGV_MAPERR;
		mmap_read_unlock(mm);
		if (!(ret & VM_FAULT_OOM) || out_of_memory() != OOM_RETRY)
			return ret;
	}
	/* LAB(demand-paging) END:
	 * (void)mm; (void)addr; (void)flags;
	 * *code = SEGV_MAPERR;
	 * return VM_FAULT_SIGSEGV;
	 */
}

/* The kernel may touch user memory only in uaccess: at an instruction of
 * the exception table, with EFLAGS.AC set if SMAP is on. Anywhere else a
 * fault on a user address is a kernel bug, with or without SMAP. No
 * lock: reads regs and the exception table. */
static __maybe_unused bool in_uaccess(const struct pt_regs *regs)
{
	return search_exception_tables(regs->rip) &&
	       (!have_smap || (regs->rflags & X86_EFLAGS_AC));
}

/*
 * The page-fault exception (vector 14), called by do_trap with
 * interrupts off, whatever the faulting code held: nothing from user
 * mode; from a uaccess, no spinlock and no mmap_lock of current's mm
 * (the fault takes it: down_read's might_sleep catches a spinlock held).
 * CR2 is read first,
 * with interrupts still off (another fault would change it); then
 * interrupts are on again if the faulting code had them on, since the
 * fault may sleep (the mmap_lock). Returns with no lock of its own held:
 * the access runs again, or a signal is pending, or the kernel resumes
 * at a fixup.
 */
void do_page_fault(struct pt_regs *regs)
{
	unsigned long addr = read_cr2();
	/* LAB(demand-paging) BEGIN task 1: from the trap to handle_mm_fault */
	struct mm_struct *mm = current->mm;
	vm_fault_t ret;
	int code;

	if (regs->rflags & X86_EFLAGS_IF)
		local_irq_enable();
	if (addr >= TASK_SIZE || !mm ||
	    (!user_mode(regs) && !in_uaccess(regs))) {
		if (user_mode(regs))
			bad_area(regs, addr, SIGSEGV, SEGV_MAPERR);
		else
			kernel_fault(regs);
		return;
	}
	ret = mm_fault(mm, addr, fault_flags(regs), &code);
	if (ret & VM_FAULT_RETRY) {
		userfault_retry(regs);
		return;
	}
	if (ret == VM_FAULT_MAJOR) {	/* it waited for swap */
		current->maj_flt++;
		return;
	}
	if (!ret) {
		/* LAB(faults) BEGIN task 3: count the minor fault */
		current->min_flt++;
		/* LAB(faults) END */
		return;
	}
	if (ret & VM_FAULT_OOM) {
		mm_fault_oom(regs);
		return;
	}
	if (ret & VM_FAULT_SIGBUS)
		bad_area(regs, addr, SIGBUS, BUS_ADRERR);
	else
		bad_area(regs, addr, SIGSEGV, code);
	/* LAB(demand-paging) END:
	 * if (regs->rflags & X86_EFLAGS_IF)
	 *	local_irq_enable();
	 * if (user_mode(regs))
	 *	bad_area(regs, addr, SIGSEGV, SEGV_MAPERR);
	 * else
	 *	kernel_fault(regs);
	 */
}

/* Other exceptions from user mode become signals, as on Linux. */
static const struct {
	int sig, code;
	const char *what;
} user_trap_sig[NR_EXCEPTIONS] = {
	[0] = { SIGFPE, 1, "divide error" },		/* FPE_INTDIV */
	[1] = { SIGTRAP, 1, "debug" },
	[3] = { SIGTRAP, SI_KERNEL, "int3" },
	[4] = { SIGSEGV, SI_KERNEL, "overflow" },
	[5] = { SIGSEGV, SI_KERNEL, "bounds" },
	[6] = { SIGILL, 2, "invalid opcode" },		/* ILL_ILLOPN */
	[7] = { SIGSEGV, SI_KERNEL, "device not available" },
	[12] = { SIGBUS, SI_KERNEL, "stack segment" },
	[13] = { SIGSEGV, SI_KERNEL, "general protection fault" },
	[16] = { SIGFPE, 0, "coprocessor error" },
	[17] = { SIGBUS, 1, "alignment check" },	/* BUS_ADRALN */
	[19] = { SIGFPE, 0, "simd exception" },
};

/* false: not a user-mode exception this knows (the caller dies). The
 * signal is sent with interrupts on, under the big kernel lock. */
bool do_user_trap(struct pt_regs *regs)
{
	unsigned int v = regs->vector;
	int sig;

	if (v >= NR_EXCEPTIONS || !user_trap_sig[v].sig)
		return false;
	local_irq_enable();
	lock_kernel();
	sig = user_trap_sig[v].sig;
	if (current->sighand->action[sig - 1].handler == SIG_DFL)
		pr_info("zpk: %s[%d] trap %s ip:%llx sp:%llx error:%llx\n",
			current->comm, current->pid, user_trap_sig[v].what,
			(unsigned long long)regs->rip,
			(unsigned long long)regs->rsp,
			(unsigned long long)regs->error_code);
	force_sig_fault(sig, user_trap_sig[v].code,
			v == 13 ? 0 : regs->rip);
	unlock_kernel();
	return true;
}
