/* mm/tests/ktest_torture.c — the mm's locks under fire: a kernel thread on
 * every CPU hammers the page allocator, the slab, mmap/munmap and faults of
 * one mm at once, while one forks that mm over and over; and all of them
 * fault the same page at the same moment, round after round (SerenityOS's
 * TestPageFaultRace). Each test ends with the mm's counters recounted and
 * every page back. */
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/kthread.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mm_verify.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/smp.h>
#include <zpk/string.h>
#include <zpk/vmstat.h>
#include "../internal.h"

#define P	PAGE_SIZE
#define SHARED	0x0000000050000000UL	/* the pages every thread faults */
#define NSHARED	64
#define OWN	8			/* pages of a thread's own mapping */
#define ROUNDS	40

struct torture {
	struct mm_struct *mm;
	int threads;
	bool forker;			/* thread 0 forks instead */
	atomic_t started;
	atomic_t errors;
	atomic_t forks;
};

/* A fault of mm at addr, under its mmap_lock as a real one; 0 if done. */
static int fault(struct mm_struct *mm, unsigned long addr, bool write)
{
	vm_fault_t ret;

	mmap_read_lock(mm);
	ret = handle_mm_fault(find_vma(mm, addr), addr,
			      write ? FAULT_FLAG_WRITE : 0);
	mmap_read_unlock(mm);
	return ret ? -EFAULT : 0;
}

/* Pages and objects taken and given back, of several sizes. */
static int churn_allocators(int r)
{
	struct page *page = alloc_pages(GFP_KERNEL, r % 3);
	void *obj = kmalloc(16 << (r % 8), GFP_KERNEL);

	if (page)
		__free_pages(page, r % 3);
	kfree(obj);
	return page && obj ? 0 : -ENOMEM;
}

/* A mapping of its own: map, fault every page (reads and writes), unmap. */
static int own_mapping(struct mm_struct *mm, int r)
{
	long addr;
	int err = 0;

	mmap_write_lock(mm);
	addr = do_mmap(mm, 0, OWN * P, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, NULL, 0);
	mmap_write_unlock(mm);
	if (IS_ERR_VALUE(addr))
		return (int)addr;
	for (int i = 0; i < OWN && !err; i++)
		err = fault(mm, addr + i * P, (i + r) % 2);
	mmap_write_lock(mm);
	if (do_munmap(mm, addr, OWN * P))
		err = -EINVAL;
	mmap_write_unlock(mm);
	return err;
}

/* fork's copy of mm, checked and dropped. */
static int fork_once(struct mm_struct *mm)
{
	struct mm_verify_report rep = { 0 };
	struct mm_struct *child = dup_mm(mm);

	if (!child)
		return -ENOMEM;
	mm_verify_report(child, &rep);
	mmput(child);
	return rep.errors ? -EINVAL : 0;
}

/* One thread's rounds; all start together (yielding, so that at -smp 1
 * the others get to start too). */
static int torture_thread(void *arg)
{
	struct torture *t = arg;
	int id = atomic_inc_return(&t->started) - 1, err = 0;

	kthread_use_mm(t->mm);
	while (atomic_read(&t->started) < t->threads)
		schedule();
	for (int r = 0; r < ROUNDS && !err; r++) {
		if (t->forker && id == 0) {
			err = fork_once(t->mm);
			atomic_inc(&t->forks);
			continue;
		}
		err = churn_allocators(r) ?:
		      own_mapping(t->mm, r) ?:
		      fault(t->mm, SHARED + ((r + id) % NSHARED) * P,
			    (r + id) % 3 != 0);
	}
	kthread_unuse_mm();
	if (err)
		atomic_inc(&t->errors);
	return err;
}

/* Every PTE of the shared range maps its own anonymous page, once. */
static int shared_pages_ok(struct mm_struct *mm)
{
	int ok = 0;

	for (int i = 0; i < NSHARED; i++) {
		pte_t *pte = pte_lookup(mm, SHARED + i * P);
		struct page *pg = pte && pte_present(*pte) ?
				  vm_normal_page(NULL, 0, *pte) : NULL;

		ok += !pg || (PageAnon(pg) && page_mapcount(pg) == 1 &&
			      page_count(pg) == 1);
	}
	return ok;
}

/* A fresh mm with NSHARED untouched anonymous pages at SHARED, for the
 * kernel threads of a test; *free0, the free pages before it (the CPUs'
 * lists drained). NULL if out of memory. */
static struct mm_struct *test_mm(unsigned long *free0)
{
	struct mm_struct *mm;

	drain_all_pages();
	*free0 = nr_free_pages();
	mm = mm_alloc();
	KEXPECT_NOT_NULL(mm);
	if (mm)
		KEXPECT_EQ(vm_mmap(mm, SHARED, NSHARED * P,
				   PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				   NULL, 0), SHARED);
	return mm;
}

/* One thread per online CPU on a fresh mm; afterwards the mm's counters
 * must match its page tables exactly, and every page must come back. */
static void torture(bool forker)
{
	struct torture t = { .forker = forker };
	struct mm_verify_report rep = { 0 };
	unsigned long free0;

	t.mm = test_mm(&free0);
	if (!t.mm)
		return;
	t.threads = num_online_cpus();
	KEXPECT_EQ(ktest_run_on_every_cpu(torture_thread, &t, "ktorture"), 0);
	KEXPECT_EQ(atomic_read(&t.errors), 0);
	KEXPECT_EQ(mm_verify_report(t.mm, &rep), 0);
	KEXPECT_EQ(mm_verify_pages_report(&t.mm, 1, &rep), 0);
	KEXPECT_EQ(shared_pages_ok(t.mm), NSHARED);
	KEXPECT_TRUE(get_mm_counter(t.mm, MM_ANONPAGES) <= NSHARED);
	if (forker)
		KEXPECT_EQ(atomic_read(&t.forks), ROUNDS);
	mmput(t.mm);
	drain_all_pages();
	KEXPECT_EQ(nr_free_pages(), free0);
}

KTEST(torture, allocators_mmap_and_faults_on_one_mm)
{
	torture(false);
}

KTEST(torture, fork_while_faulting)
{
	torture(true);
}

/* ---- the fault race ------------------------------------------------------ */

#define RACE_ROUNDS	200

struct race {
	struct mm_struct *mm;
	int threads;
	atomic_t arrived, generation;	/* the barrier */
	atomic_t started, errors;
};

/* Every thread waits here for all the others: spinning, so that they
 * leave together (yielding now and then, for -smp 1). */
static void race_barrier(struct race *r)
{
	int gen = atomic_read(&r->generation);

	if (atomic_inc_return(&r->arrived) == r->threads) {
		atomic_set(&r->arrived, 0);
		atomic_inc(&r->generation);
		return;
	}
	for (int spins = 0; atomic_read(&r->generation) == gen; spins++)
		if (spins % 1024 == 1023)
			schedule();
		else
			cpu_relax();
}

/* Thread 0's look after the round's faults: the page is mapped once,
 * by one anonymous page alone, and counted once; then it is zapped for
 * the next round. */
static int race_check_and_zap(struct mm_struct *mm, unsigned long addr)
{
	pte_t *pte = pte_lookup(mm, addr);
	struct page *pg = pte && pte_present(*pte) ?
			  vm_normal_page(NULL, 0, *pte) : NULL;
	int bad = !pg || !PageAnon(pg) || page_mapcount(pg) != 1 ||
		  page_count(pg) != 1 ||
		  get_mm_counter(mm, MM_ANONPAGES) != 1;

	mmap_read_lock(mm);
	zap_page_range(find_vma(mm, addr), addr, addr + P);
	mmap_read_unlock(mm);
	return bad || get_mm_counter(mm, MM_ANONPAGES) != 0;
}

static int race_thread(void *arg)
{
	struct race *r = arg;
	int id = atomic_inc_return(&r->started) - 1;

	kthread_use_mm(r->mm);
	for (int round = 0; round < RACE_ROUNDS; round++) {
		unsigned long addr = SHARED + (round % NSHARED) * P;

		race_barrier(r);
		if (fault(r->mm, addr, true))
			atomic_inc(&r->errors);
		race_barrier(r);
		if (id == 0 && race_check_and_zap(r->mm, addr))
			atomic_inc(&r->errors);
	}
	kthread_unuse_mm();
	return 0;
}

/* Every CPU write-faults the same not-present page at once: one page
 * must come of it, counted once, and none may leak. */
KTEST(torture, fault_race_one_page_each_round)
{
	struct race r = { 0 };
	unsigned long free0;

	r.mm = test_mm(&free0);
	if (!r.mm)
		return;
	r.threads = num_online_cpus();
	KEXPECT_EQ(ktest_run_on_every_cpu(race_thread, &r, "kfaultrace"), 0);
	KEXPECT_EQ(atomic_read(&r.errors), 0);
	mmput(r.mm);
	drain_all_pages();
	KEXPECT_EQ(nr_free_pages(), free0);
}

/*
 * A PTE another CPU's MMU marks dirty while this CPU write-protects it
 * and makes it writable again, over and over, as fork and mprotect do:
 * with the ptep_* helpers the bit is never lost. A plain read and write
 * of the entry loses it whenever the mark falls between them.
 */
#define DIRTY_ROUNDS	2000

struct dirty_race {
	pte_t pte;
	atomic_t round;			/* the round the MMU may mark */
	atomic_t marked;		/* the last round it marked */
};

/* The MMU's update: a locked compare-and-exchange, on a present entry
 * only (on one not present, an access faults instead). */
static void mmu_mark_dirty(pte_t *pte)
{
	u64 v = __atomic_load_n(&pte->pte, __ATOMIC_SEQ_CST);

	for (;;) {
		if (!(v & _PAGE_PRESENT)) {
			cpu_relax();
			v = __atomic_load_n(&pte->pte, __ATOMIC_SEQ_CST);
			continue;
		}
		if (__atomic_compare_exchange_n(&pte->pte, &v, v | _PAGE_DIRTY,
						false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
}

static int mark_dirty_thread(void *arg)
{
	struct dirty_race *d = arg;

	for (int r = 1; r <= DIRTY_ROUNDS; r++) {
		while (atomic_read(&d->round) < r)
			cpu_relax();
		for (int i = 0; i < r % 64; i++)
			cpu_relax();
		mmu_mark_dirty(&d->pte);
		atomic_set(&d->marked, r);
	}
	return 0;
}

KTEST(torture, wrprotect_keeps_dirty_bit_set_meanwhile)
{
	struct dirty_race d = { 0 };
	struct kthread *k;
	int lost = 0;

	if (num_online_cpus() < 2)
		return;		/* nothing can race on one CPU */
	k = kthread_run_on_cpu(mark_dirty_thread, &d, 1, "kdirty");
	KEXPECT_NOT_NULL(k);
	if (!k)
		return;
	for (int r = 1; r <= DIRTY_ROUNDS; r++) {
		set_pte(&d.pte, __pte(_PAGE_PRESENT | _PAGE_USER | _PAGE_RW));
		atomic_set(&d.round, r);
		while (atomic_read(&d.marked) < r) {
			ptep_set_wrprotect(&d.pte);
			ptep_modify_prot_commit(&d.pte, pte_mkwrite(
				ptep_modify_prot_start(&d.pte)));
		}
		lost += !(__atomic_load_n(&d.pte.pte, __ATOMIC_SEQ_CST) &
			  _PAGE_DIRTY);
	}
	KEXPECT_EQ(kthread_join(k), 0);
	KEXPECT_EQ(lost, 0);
}
