/* mm/tests/ktest_tlb.c — ktests of the TLB flushes: user code touches pages so
 * that the TLB caches them, munmap/mprotect/fork change the PTEs through
 * their real paths, and the next user access must fault: on this CPU,
 * and on another one that runs the same mm (a shootdown). */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/segment.h>
#include <asm/syscall.h>
#include <asm/tlb.h>
#include <asm/traps.h>
#include <zpk/ktest.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/smp.h>
#include <zpk/string.h>
#include <zpk/uaccess.h>
#include <zpk/vmstat.h>

#define P	PAGE_SIZE
#define UCODE	0x0000000000400000UL
#define USTACK	0x0000000000800000UL	/* top; the page below it */
#define UDATA	0x0000000040000000UL
#define ANONF	(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED)
#define SMALL	4			/* below the ceiling: invlpg each */
#define LARGE	64			/* above it: one CR3 reload */

extern const char user_tlb_read[], user_tlb_read_end[];
extern const char user_tlb_write[], user_tlb_write_end[];

static struct ktest_trap last;	/* the trap that ended the last run */

/* The test's mm, loaded in CR3 and current's while a test runs. */
static struct mm_struct *tmm, *saved_mm;

/* Every page of [addr, addr + n pages) faulted in for write: real pages. */
static bool populate(unsigned long addr, int n)
{
	for (int i = 0; i < n; i++)
		if (handle_mm_fault(find_vma(tmm, addr + i * P), addr + i * P,
				    FAULT_FLAG_WRITE | FAULT_FLAG_USER))
			return false;
	return true;
}

/* A fresh mm in CR3 with a code and a stack page; false if out of memory. */
static bool tlb_env_start(void)
{
	tmm = mm_alloc();
	if (!tmm)
		return false;
	saved_mm = current->mm;
	local_irq_disable();	/* a flush IPI sees both or neither */
	current->mm = tmm;
	switch_mm(tmm);
	local_irq_enable();
	return do_mmap(tmm, UCODE, P, PROT_READ | PROT_WRITE | PROT_EXEC,
		       ANONF, NULL, 0) == (long)UCODE &&
	       do_mmap(tmm, USTACK - P, P, PROT_READ | PROT_WRITE, ANONF,
		       NULL, 0) == (long)(USTACK - P) &&
	       populate(UCODE, 1) && populate(USTACK - P, 1);
}

/* Back to the kernel's tables; then the mm can go. */
static void tlb_env_end(void)
{
	local_irq_disable();
	switch_mm(saved_mm);
	current->mm = saved_mm;
	local_irq_enable();
	if (tmm)
		mmput(tmm);
	tmm = NULL;
}

/* Puts blob and its arguments (n pages from addr, writing val) in tmm,
 * loaded on this CPU; false if that faulted. */
static bool load_blob(const char *blob, const char *end, unsigned long addr,
		      long n, long val)
{
	u64 args[3] = { val, n, addr };	/* [rsp - 24], [rsp - 16], [rsp - 8] */

	return !copy_to_user((void __user *)UCODE, blob, end - blob) &&
	       !copy_to_user((void __user *)(USTACK - sizeof(args)), args,
			     sizeof(args));
}

/* Runs the loaded blob in user mode on this CPU (tmm loaded here); the
 * trap that ended it: X86_TRAP_BP if every access went through. */
static u64 enter_blob(void)
{
	return ktest_run_user(UCODE, USTACK, &last);
}

static u64 run_tlb(const char *blob, const char *end, unsigned long addr,
		   long n, long val)
{
	return load_blob(blob, end, addr, n, val) ? enter_blob() : ~0ULL;
}

#define READ(a, n)	run_tlb(user_tlb_read, user_tlb_read_end, a, n, 0)
#define WRITE(a, n, v)	run_tlb(user_tlb_write, user_tlb_write_end, a, n, v)

/* Each of n pages from addr now faults on a user read (write if wr):
 * how many did not (a stale TLB entry let the access through). */
static int stale_pages(unsigned long addr, int n, bool wr)
{
	int stale = 0;

	for (int i = 0; i < n; i++) {
		u64 v = wr ? WRITE(addr + i * P, 1, 0x22) : READ(addr + i * P, 1);

		stale += v != X86_TRAP_PF || last.cr2 != addr + i * P;
	}
	return stale;
}

/* n pages mapped, written by user code (so that the TLB holds them
 * writable and dirty); false if any step failed. */
static bool map_and_touch(int n)
{
	return do_mmap(tmm, UDATA, n * P, PROT_READ | PROT_WRITE, ANONF,
		       NULL, 0) == (long)UDATA &&
	       populate(UDATA, n) && WRITE(UDATA, n, 0x11) == X86_TRAP_BP;
}

/* A page mapped and touched at the end of the 2 MiB the test's pages lie
 * in: its PTE keeps their table, which munmap would free otherwise
 * (free_pgd_range) with a flush of its own when the gather's last batch
 * left none to flush (LARGE is a whole batch). */
static bool keep_table(void)
{
	unsigned long a = UDATA + PMD_SIZE - P;

	return do_mmap(tmm, a, P, PROT_READ | PROT_WRITE, ANONF, NULL, 0) ==
	       (long)a && populate(a, 1);
}

/* The flush path a step took: invlpg count and CR3 reloads. */
static unsigned long ev_one, ev_all;
static void flush_count_start(void)
{
	ev_one = global_vm_event(NR_TLB_LOCAL_FLUSH_ONE);
	ev_all = global_vm_event(NR_TLB_LOCAL_FLUSH_ALL);
}
#define FLUSHED_ONE()	(global_vm_event(NR_TLB_LOCAL_FLUSH_ONE) - ev_one)
#define FLUSHED_ALL()	(global_vm_event(NR_TLB_LOCAL_FLUSH_ALL) - ev_all)

/* Checks that n pages flushed took the path the ceiling picks. */
static void expect_flush_path(int n)
{
	if (n <= (int)tlb_single_page_flush_ceiling) {
		KEXPECT_EQ(FLUSHED_ONE(), n);
		KEXPECT_EQ(FLUSHED_ALL(), 0);
	} else {
		KEXPECT_EQ(FLUSHED_ONE(), 0);
		KEXPECT_EQ(FLUSHED_ALL(), 1);
	}
}

static void munmap_case(int n)
{
	unsigned long free0;

	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(n) && keep_table());
	free0 = nr_free_pages();
	flush_count_start();
	KEXPECT_EQ(do_munmap(tmm, UDATA, n * P), 0);
	expect_flush_path(n);
	KEXPECT_TRUE(nr_free_pages() >= free0 + n);	/* all freed by now */
	KEXPECT_EQ(stale_pages(UDATA, n, false), 0);
	tlb_env_end();
}

KTEST(tlb, munmap_below_ceiling_faults_after)
{
	munmap_case(SMALL);
}

KTEST(tlb, munmap_above_ceiling_faults_after)
{
	munmap_case(LARGE);
}

/* A munmap that leaves its 2 MiB without a VMA frees the PTE table, and
 * flushes before it does, even when the gather's batches were flushed
 * already (LARGE fills one): the pages fault after. */
KTEST(tlb, munmap_frees_empty_table)
{
	long ptes;

	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(LARGE));
	ptes = tmm->nr_ptes;
	flush_count_start();
	KEXPECT_EQ(do_munmap(tmm, UDATA, LARGE * P), 0);
	KEXPECT_EQ(tmm->nr_ptes, ptes - 1);
	KEXPECT_EQ(FLUSHED_ALL(), 1);
	KEXPECT_EQ(FLUSHED_ONE(), 1);	/* the table's own */
	KEXPECT_EQ(stale_pages(UDATA, LARGE, false), 0);
	tlb_env_end();
}

/* prot: PROT_READ (then a write must fault) or PROT_NONE (a read must). */
static void mprotect_case(int n, unsigned long prot)
{
	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(n));
	KEXPECT_EQ(READ(UDATA, n), X86_TRAP_BP);
	flush_count_start();
	KEXPECT_EQ(do_mprotect(tmm, UDATA, n * P, prot), 0);
	expect_flush_path(n);
	KEXPECT_EQ(stale_pages(UDATA, n, prot == PROT_READ), 0);
	if (prot == PROT_READ)
		KEXPECT_EQ(last.regs.error_code & 7,
			   X86_PF_USER | X86_PF_WRITE | X86_PF_PROT);
	tlb_env_end();
}

KTEST(tlb, mprotect_read_only_below_ceiling)
{
	mprotect_case(SMALL, PROT_READ);
}

KTEST(tlb, mprotect_read_only_above_ceiling)
{
	mprotect_case(LARGE, PROT_READ);
}

KTEST(tlb, mprotect_none_below_ceiling)
{
	mprotect_case(SMALL, PROT_NONE);
}

KTEST(tlb, mprotect_none_above_ceiling)
{
	mprotect_case(LARGE, PROT_NONE);
}

/* fork: the parent's writable PTEs become read-only; a write by the
 * parent must fault (and COW), never reach the page the child shares. */
static void fork_case(int n)
{
	struct mm_struct *child = mm_alloc();
	int intact = 0;

	KEXPECT_NOT_NULL(child);
	if (!child)
		return;
	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(n));
	KEXPECT_EQ(do_mmap(child, UDATA, n * P, PROT_READ | PROT_WRITE, ANONF,
			   NULL, 0), UDATA);
	flush_count_start();
	KEXPECT_EQ(copy_page_range(child, tmm, find_vma(tmm, UDATA)), 0);
	expect_flush_path(n);
	KEXPECT_EQ(stale_pages(UDATA, n, true), 0);
	for (int i = 0; i < n; i++) {
		pte_t *pte = pte_lookup(child, UDATA + i * P);
		struct page *pg = pte ? vm_normal_page(NULL, 0, *pte) : NULL;

		intact += pg && *(u8 *)page_address(pg) == 0x11;
	}
	KEXPECT_EQ(intact, n);	/* the child's copy never saw 0x22 */
	tlb_env_end();
	mmput(child);
}

KTEST(tlb, fork_write_protect_below_ceiling)
{
	fork_case(SMALL);
}

KTEST(tlb, fork_write_protect_above_ceiling)
{
	fork_case(LARGE);
}

/* ---- another CPU running the same mm: shootdowns ------------------------ */

/*
 * The other CPU runs tmm's user code as a second thread of it would: its
 * idle task (interrupted by each IPI below) takes tmm as its mm, so that
 * a flush finds it in use there, not lazy (the CPU 0 tests above do the
 * same with their own idle task).
 */
static void remote_use_tmm(void *unused)
{
	(void)unused;
	current->mm = tmm;
	switch_mm(tmm);
}

/* Its thread "exits", lazily: tmm stays loaded, the CPU stays in the
 * mask until a flush sends it away. */
static void remote_drop_tmm_lazily(void *unused)
{
	(void)unused;
	current->mm = NULL;
}

static void remote_leave_tmm(void *unused)
{
	(void)unused;
	current->mm = NULL;
	switch_mm(NULL);
}

static void remote_enter_blob(void *trap)
{
	*(u64 *)trap = enter_blob();
}

/* Runs what load_blob put in tmm on cpu; the trap that ended it. */
static u64 remote_run(int cpu, const char *blob, const char *end,
		      unsigned long addr, long n, long val)
{
	u64 trap = ~0ULL;

	if (load_blob(blob, end, addr, n, val))
		smp_call_function_single(cpu, remote_enter_blob, &trap, true);
	return trap;
}

/* Another online CPU than this one, or -1. */
static int other_cpu(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			return cpu;
	return -1;
}

enum remote_op { OP_MUNMAP, OP_MPROTECT, OP_FORK };

/* CPU 0's change to the n pages at UDATA, through its real path. */
static void remote_change(enum remote_op op, int n, struct mm_struct *child)
{
	switch (op) {
	case OP_MUNMAP:
		KEXPECT_EQ(do_munmap(tmm, UDATA, n * P), 0);
		break;
	case OP_MPROTECT:
		KEXPECT_EQ(do_mprotect(tmm, UDATA, n * P, PROT_READ), 0);
		break;
	case OP_FORK:
		KEXPECT_EQ(do_mmap(child, UDATA, n * P, PROT_READ | PROT_WRITE,
				   ANONF, NULL, 0), UDATA);
		KEXPECT_EQ(copy_page_range(child, tmm, find_vma(tmm, UDATA)),
			   0);
		break;
	}
}

/*
 * The test: the other CPU writes n pages of tmm from user mode
 * (its TLB now holds them writable and dirty); CPU 0 unmaps them,
 * write-protects them, or forks (write-protecting them for COW); then the
 * other CPU's next access to each page (a read after munmap, a write
 * otherwise) must fault. Without the shootdown its stale entries would
 * let every access through. The change costs one IPI for the range.
 */
static void remote_case(enum remote_op op, int n)
{
	struct mm_struct *child = op == OP_FORK ? mm_alloc() : NULL;
	int cpu = other_cpu(), stale = 0;
	unsigned long sent;
	bool wr = op != OP_MUNMAP;

	if (cpu < 0) {
		printk(KERN_ALERT "    # one CPU: no other TLB to shoot down\n");
		if (child)
			mmput(child);
		return;
	}
	KEXPECT_TRUE(op != OP_FORK || child);
	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(n) && (op != OP_MUNMAP || keep_table()));
	smp_call_function_single(cpu, remote_use_tmm, NULL, true);
	KEXPECT_TRUE(cpumask_test_cpu(cpu, mm_cpumask(tmm)));
	KEXPECT_EQ(remote_run(cpu, user_tlb_write, user_tlb_write_end, UDATA,
			      n, 0x33), X86_TRAP_BP);
	sent = global_vm_event(NR_TLB_REMOTE_FLUSH);
	remote_change(op, n, child);
	KEXPECT_EQ(global_vm_event(NR_TLB_REMOTE_FLUSH) - sent, 1);
	for (int i = 0; i < n; i++) {
		u64 v = wr ? remote_run(cpu, user_tlb_write, user_tlb_write_end,
					UDATA + i * P, 1, 0x44)
			   : remote_run(cpu, user_tlb_read, user_tlb_read_end,
					UDATA + i * P, 1, 0);

		stale += v != X86_TRAP_PF || last.cr2 != UDATA + i * P;
	}
	KEXPECT_EQ(stale, 0);
	smp_call_function_single(cpu, remote_leave_tmm, NULL, true);
	tlb_env_end();
	if (child)
		mmput(child);
}

KTEST(tlb, remote_munmap_faults_on_the_other_cpu)
{
	remote_case(OP_MUNMAP, SMALL);
	remote_case(OP_MUNMAP, LARGE);
}

KTEST(tlb, remote_mprotect_faults_on_the_other_cpu)
{
	remote_case(OP_MPROTECT, SMALL);
	remote_case(OP_MPROTECT, LARGE);
}

KTEST(tlb, remote_fork_write_protect_faults_on_the_other_cpu)
{
	remote_case(OP_FORK, SMALL);
	remote_case(OP_FORK, LARGE);
}

/* Lazy TLB: a CPU whose task left tmm keeps it loaded and stays in the
 * mask; the next flush sends it to init_pgd and out of the mask, so no
 * more IPIs, and tmm may be freed under it. */
KTEST(tlb, lazy_cpu_leaves_the_mm_on_a_flush)
{
	int cpu = other_cpu();

	if (cpu < 0)
		return;
	KEXPECT_TRUE(tlb_env_start());
	KEXPECT_TRUE(map_and_touch(SMALL));
	smp_call_function_single(cpu, remote_use_tmm, NULL, true);
	smp_call_function_single(cpu, remote_drop_tmm_lazily, NULL, true);
	KEXPECT_TRUE(cpumask_test_cpu(cpu, mm_cpumask(tmm)));
	KEXPECT_TRUE(per_cpu(loaded_mm, cpu) == tmm);
	KEXPECT_EQ(do_munmap(tmm, UDATA, SMALL * P), 0);
	KEXPECT_FALSE(cpumask_test_cpu(cpu, mm_cpumask(tmm)));
	KEXPECT_NULL(per_cpu(loaded_mm, cpu));
	tlb_env_end();
}
