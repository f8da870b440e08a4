/* mm/vmscan.c — reclaim (Linux's mm/vmscan.c, as 2.4's swap_out scanned):
 * anonymous pages go to swap PTE by PTE, found by walking page tables;
 * MADV_PAGEOUT and MADV_COLD. docs/vm.md, "Swap". */
#include <asm/tlb.h>
#include <zpk/memory.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/memblock.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/swap.h>
#include <zpk/string.h>
#include <zpk/swapops.h>
#include <zpk/time.h>
#include <zpk/wait.h>
#include <zpk/workqueue.h>
#include <zpk/vmstat.h>
#include "internal.h"

/* Pages one walk unmaps before it stops to write them: the TLB flush
 * comes first, so that no CPU writes a page after the disk has it. */
#define SWAP_BATCH	32

/* One pass of a reclaimer over one VMA's PTEs. */
struct scan_control {
	struct vm_area_struct *vma;
	struct mmu_gather tlb;
	long rss[NR_MM_COUNTERS];
	unsigned int nr_io;
	struct page *io[SWAP_BATCH];	/* to write, with a reference */
	unsigned long next;		/* where a full batch stopped */
	bool shared_too;	/* reclaim's scan; MADV_PAGEOUT skips them */
	bool full;		/* no free slot */
	bool kswapd;
	bool nowait;		/* the allocator's: every lock only tried */
	unsigned long nr_to_reclaim;	/* reclaim's: stop there */
	unsigned long nr_scanned, nr_reclaimed;	/* so far */
	unsigned long scanned_counted, reclaimed_counted;	/* in vmstat */
};

/* Whether reclaim may take pages from vma: not mlocked, and private
 * (not shared anonymous, shmem or file memory, which zpk keeps). */
static bool vma_reclaimable(struct vm_area_struct *vma)
{
	return !(vma->vm_flags & (VM_LOCKED | VM_SHARED));
}

/*
 * The anonymous page entry maps, if it may go to swap: order-0, no
 * userfaultfd-wp bit (a swap PTE of zpk does not keep it), and held
 * by its mappings and the swap cache only (not pinned by get_user_pages
 * or a pipe); its VMA the caller found vma_reclaimable. Zero-page PTEs
 * are not normal pages: never touched.
 */
static struct page *swappable_page(struct scan_control *sc,
				   unsigned long addr, pte_t entry)
{
	struct page *page;

	if (!pte_present(entry) || pte_uffd_wp(entry))
		return NULL;
	page = vm_normal_page(sc->vma, addr, entry);
	if (!page || !PageAnon(page) || PageSwapBacked(page) ||
	    PageCompound(page))	/* 4 KiB pages only */
		return NULL;
	if (!sc->shared_too && page_mapcount(page) != 1)
		return NULL;
	if (page_count(page) != page_mapcount(page) + PageSwapCache(page))
		return NULL;
	return page;
}

/*
 * One PTE to swap (Linux 2.4's try_to_swap_out): the page gets a slot
 * and goes into the swap cache, dirty, unless it is there already; the
 * PTE becomes the slot's, and the page loses this mapping (once the
 * batch's TLB flush is done). PTE lock held. 1 stops the walk: no slot,
 * or a full batch to write.
 */
static int try_to_swap_out(pte_t *pte, unsigned long addr,
			   struct page *page, struct scan_control *sc)
{
	/* LAB(swap) BEGIN task 1: a slot, the swap cache, the swap PTE */
	swp_entry_t entry;

	if (PageSwapCache(page)) {	/* on disk (or on its way) */
		entry.val = page->index;
		if (!swap_entry_writeok(entry) || swap_duplicate(entry))
			return 0;
	} else {
		entry = get_swap_page();
		if (!entry.val) {
			sc->full = true;
			return 1;
		}
		if (add_to_swap_cache(page, entry, true)) {
			swap_free(entry);
			return 0;
		}
		get_page(page);
		sc->io[sc->nr_io++] = page;
	}
	ptep_get_and_clear(pte);
	tlb_remove_tlb_entry(&sc->tlb, pte, addr);
	set_pte(pte, swp_entry_to_pte(entry));
	page_remove_rmap(page);
	tlb_remove_page(&sc->tlb, page);
	sc->rss[MM_ANONPAGES]--;
	sc->rss[MM_SWAPENTS]++;
	sc->nr_reclaimed++;
	if (sc->nr_io < SWAP_BATCH)
		return 0;
	sc->next = addr + PAGE_SIZE;
	return 1;
	/* LAB(swap) END:
	 * (void)pte; (void)addr; (void)page; (void)sc;
	 * return 0;
	 */
}

/* A PTE of a THP on the way to swap: the THP becomes 512 small pages
 * (split_huge_page_table, which refuses while another table, mm or pin
 * holds it), so that the PTE's page may go. PTE lock held. */
static void split_thp_of_pte(struct scan_control *sc, pte_t *pte,
			     unsigned long addr)
{
	struct page *page = vm_normal_page(sc->vma, addr, *pte);

	if (page && PageCompound(page) && PageAnon(page))
		split_huge_page_table(compound_head(page),
				      pte - pte_index(addr));
}

/* MADV_PAGEOUT's walk fn: each swappable page goes; a subpage of a THP
 * this mm alone maps, from this table alone, once the THP is split. */
static int pageout_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct scan_control *sc = priv;
	struct page *page;

	split_thp_of_pte(sc, pte, addr);
	page = swappable_page(sc, addr, *pte);
	sc->nr_scanned++;
	return page ? try_to_swap_out(pte, addr, page, sc) : 0;
}

/* MADV_COLD's: the page looks unused to reclaim's second chance (Linux
 * moves it to the inactive list; zpk's list is the accessed bit). */
static int cold_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct scan_control *sc = priv;

	if (swappable_page(sc, addr, *pte) && ptep_test_and_clear_young(pte))
		tlb_remove_tlb_entry(&sc->tlb, pte, addr);
	return 0;
}

/* A huge PMD's accessed bit, tested and cleared, its TLB entries flushed
 * with the batch (as pte_clear_young's); only a THP's that this mm alone
 * maps (not the huge zero page's, whose nothing would be written), in a
 * VMA the caller found vma_reclaimable. false: no such THP, or not
 * young. */
static bool huge_pmd_clear_young(struct scan_control *sc, pmd_t *pmd,
				 unsigned long addr)
{
	spinlock_t *ptl = pmd_lockptr(pmd);
	bool young = false;

	spin_lock(ptl);
	if (pmd_leaf(*pmd) && !is_huge_zero_pmd(*pmd) &&
	    compound_mapcount(pmd_page(*pmd)) == 1)
		young = pmdp_test_and_clear_young(pmd);
	spin_unlock(ptl);
	if (young)
		__tlb_adjust_range(&sc->tlb, addr & HPAGE_PMD_MASK,
				   HPAGE_PMD_SIZE);
	return young;
}

/* MADV_COLD's for a huge PMD: the THP looks unused to reclaim (Linux
 * 6.1 clears the PMD's young bit and deactivates the THP, whole). */
static int cold_huge_pmd(struct mm_struct *mm, pmd_t *pmd,
			 unsigned long addr, unsigned long end, pte_walk_fn fn,
			 void *priv)
{
	(void)mm, (void)end, (void)fn;
	huge_pmd_clear_young(priv, pmd, addr);
	return 0;
}

/* The batch's flush, its counters, then its writes (sleeping, with no
 * spinlock). A page the disk refused stays in the swap cache, dirty:
 * the swap PTEs find it there. */
static void finish_batch(struct scan_control *sc)
{
	struct mm_struct *mm = sc->vma->vm_mm;
	bool ok[SWAP_BATCH];

	tlb_finish_mmu(&sc->tlb);
	add_mm_rss_vec(mm, sc->rss);
	memset(sc->rss, 0, sizeof(sc->rss));
	swap_writepages(sc->io, sc->nr_io, ok);
	for (unsigned int i = 0; i < sc->nr_io; i++) {
		swap_io_done(sc->io[i], ok[i]);
		put_page(sc->io[i]);
	}
	sc->nr_io = 0;
	count_vm_events(sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT,
			sc->nr_scanned - sc->scanned_counted);
	count_vm_events(sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT,
			sc->nr_reclaimed - sc->reclaimed_counted);
	sc->scanned_counted = sc->nr_scanned;
	sc->reclaimed_counted = sc->nr_reclaimed;
}

void madvise_pageout_range(struct vm_area_struct *vma, unsigned long start,
			   unsigned long end, bool pageout)
{
	struct scan_control sc = { .vma = vma };

	if (!vma_reclaimable(vma))
		return;
	while (start < end && !sc.full) {
		sc.next = end;
		tlb_gather_mmu(&sc.tlb, vma->vm_mm);
		walk_page_range_pmd(vma->vm_mm, start, end,
				    pageout ? pageout_pte : cold_pte,
				    pageout ? pageout_huge_pmd : cold_huge_pmd,
				    &sc);
		finish_batch(&sc);
		start = sc.next;
	}
}

/* ---- reclaim: kswapd and direct reclaim ------------------------------- */

/*
 * The zone watermarks, in free pages (Linux's min_free_kbytes, sqrt of
 * 16 x RAM in kB, and low and high above it by a quarter and a half):
 * below low the allocator wakes kswapd, which reclaims up to high; an
 * allocation that fails (below min, every page gone) reclaims itself
 * before the OOM killer may run (try_to_free_pages).
 */
unsigned long min_wmark, low_wmark, high_wmark;

static void setup_watermarks(void)
{
	unsigned long kb = totalram_pages() * (PAGE_SIZE / 1024), m = 1;

	while ((m + 1) * (m + 1) <= kb * 16)
		m++;
	min_wmark = min(max(m / 4, 32UL), 16384UL);
	low_wmark = min_wmark + min_wmark / 4;
	high_wmark = min_wmark + min_wmark / 2;
}

/* The clock's hand: where the last scan stopped, an mm (compared, never
 * followed) and an address in it, so that each scan goes on round the
 * clock. And one reclaimer turning it at a time (scan_sem): two walking
 * the same PTEs together would let the second evict what the first had
 * just given its second chance (the first clears the accessed bit, the
 * second finds it clear). Linux's reclaimers take their pages off the
 * LRU instead, so that no other sees them. */
static DECLARE_RWSEM(scan_sem);
static struct mm_struct *scan_mm;
static unsigned long scan_addr;
/* Direct reclaimers that found the clock taken wait here for the next
 * batch reclaimed (reclaim_throttle); reclaim_seq counts those batches. */
static struct wait_queue_head reclaim_wait = WAIT_QUEUE_HEAD_INIT(reclaim_wait);
static unsigned long reclaim_seq;
static u64 kswapd_gave_up;	/* jiffies of its last fruitless turn */

/* A fruitless turn (at when) less than a tenth of a second ago: reclaim
 * is left alone until then. */
static bool gave_up_lately(u64 *when)
{
	return jiffies - READ_ONCE(*when) < HZ / 10;
}

/* A page's accessed bit, tested and cleared (Linux's
 * ptep_clear_flush_young); if it was set, the batch's flush takes the
 * PTE's TLB entries too: a CPU sets the bit only when it loads the PTE,
 * so a stale entry could hide later accesses (Linux on x86 skips this
 * flush and counts on TLB turnover). PTE lock held. */
static __maybe_unused bool pte_clear_young(struct scan_control *sc,
					    pte_t *pte, unsigned long addr)
{
	if (!ptep_test_and_clear_young(pte))
		return false;
	tlb_remove_tlb_entry(&sc->tlb, pte, addr);
	return true;
}

/* Reclaim's walk fn: the second chance. A page accessed since the last
 * pass loses its accessed bit and stays; one not accessed goes to swap.
 * A THP that PTEs map (a split PMD's) is split into small pages first,
 * each with its own chance (Linux splits a THP mapped in part under
 * pressure too: its deferred split). */
static int reclaim_pte(pte_t *pte, unsigned long addr, void *priv)
{
	struct scan_control *sc = priv;
	struct page *page;

	split_thp_of_pte(sc, pte, addr);
	page = swappable_page(sc, addr, *pte);
	sc->nr_scanned++;
	if (!page)
		return 0;
	/* LAB(swap) BEGIN task 3: the second chance */
	if (pte_clear_young(sc, pte, addr))
		return 0;
	/* LAB(swap) END */
	if (try_to_swap_out(pte, addr, page, sc) ||
	    sc->nr_reclaimed >= sc->nr_to_reclaim) {
		sc->next = addr + PAGE_SIZE;
		return 1;
	}
	return 0;
}

/* A huge PMD on reclaim's way: the second chance at 2 MiB, on the PMD's
 * accessed bit. A THP used since the last pass loses the bit and stays
 * whole; one not used is split as MADV_PAGEOUT splits it, and its PTEs
 * go to reclaim_pte (Linux splits a THP to swap it, or with
 * CONFIG_THP_SWAP writes it whole). mmap_lock held for reading. */
static int reclaim_huge_pmd(struct mm_struct *mm, pmd_t *pmd,
			    unsigned long addr, unsigned long end,
			    pte_walk_fn fn, void *priv)
{
	struct scan_control *sc = priv;

	if (huge_pmd_clear_young(sc, pmd, addr)) {
		sc->nr_scanned += HPAGE_PMD_NR;
		return 0;
	}
	return pageout_huge_pmd(mm, pmd, addr, end, fn, priv);
}

/* One mm from addr on, under its mmap_lock for reading (kswapd and the
 * OOM path hold no lock of their own: they wait for it; the allocator's
 * caller may hold any, so it only tries, and a busy mm is passed by).
 * Returns where it stopped, or 0 at the end of the address space. */
static unsigned long shrink_mm(struct mm_struct *mm, unsigned long addr,
			       struct scan_control *sc)
{
	struct vm_area_struct *vma;

	if (!sc->nowait)
		mmap_read_lock(mm);
	else if (!down_read_trylock(&mm->mmap_lock))
		return 0;
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		unsigned long start = max(addr, vma->vm_start);

		if (!vma_reclaimable(vma))
			continue;
		sc->vma = vma;
		while (start < vma->vm_end) {
			sc->next = vma->vm_end;
			tlb_gather_mmu(&sc->tlb, mm);
			walk_page_range_pmd(mm, start, vma->vm_end,
					    reclaim_pte, reclaim_huge_pmd, sc);
			finish_batch(sc);
			start = sc->next;
			if (sc->full || sc->nr_reclaimed >= sc->nr_to_reclaim) {
				mmap_read_unlock(mm);
				return start;
			}
		}
	}
	mmap_read_unlock(mm);
	return 0;
}

#define SCAN_MMS	64	/* mms one scan looks at, at most */

/*
 * Up to nr pages to swap, from every mm in turn, round the clock from
 * where the last scan stopped; each mm with a user taken (mmput may
 * tear it down: no lock held then). Process context, with no spinlock
 * held (it takes mmlist_lock, drops it, then takes scan_sem and under
 * it each mmap_lock); it sleeps on the writes and the locks, or with
 * nowait (the allocator's) on the writes alone, each lock only tried:
 * a reclaim already under way makes it return 0. The number reclaimed
 * (unmapped to swap: their pages are free once written).
 */
static unsigned long shrink_mms(unsigned long nr, bool kswapd, bool nowait,
				unsigned long *scanned)
{
	struct scan_control sc = { .shared_too = true, .kswapd = kswapd,
				   .nowait = nowait, .nr_to_reclaim = nr };
	struct mm_struct *mm, *mms[SCAN_MMS];
	unsigned long addr;
	int n = 0, first = 0;

	if (!get_nr_swap_pages())
		return 0;
	if (!nowait)
		down_read(&mmlist_lock);
	else if (!down_read_trylock(&mmlist_lock))
		return 0;
	list_for_each_entry(mm, &mmlist, mmlist) {
		if (n == SCAN_MMS)
			break;
		if (mm->pgd && mmget_not_zero(mm))
			mms[n++] = mm;
	}
	up_read(&mmlist_lock);
	if (!nowait) {
		down_write(&scan_sem);
	} else if (!down_write_trylock(&scan_sem)) {
		for (int i = 0; i < n; i++)
			mmput(mms[i]);
		return 0;
	}
	addr = scan_addr;
	for (int i = 0; i < n; i++)
		if (mms[i] == scan_mm)
			first = i;
	if (!n || mms[first] != scan_mm)
		addr = 0;
	for (int k = 0; k < n && !sc.full && sc.nr_reclaimed < nr; k++) {
		int i = (first + k) % n;

		addr = shrink_mm(mms[i], k ? 0 : addr, &sc);
		scan_mm = addr ? mms[i] : mms[(i + 1) % n];
		scan_addr = addr;
	}
	up_write(&scan_sem);
	for (int i = 0; i < n; i++)
		mmput(mms[i]);
	if (scanned)
		*scanned = sc.nr_scanned;
	if (sc.nr_reclaimed) {
		WRITE_ONCE(reclaim_seq, reclaim_seq + 1);
		wake_up(&reclaim_wait);
	}
	return sc.nr_reclaimed;
}

/*
 * Direct reclaim (Linux's try_to_free_pages): an allocation failed and
 * its caller may sleep (the fault's and get_user_pages' OOM path, before
 * the OOM killer). Up to three turns of the clock: the first may only
 * take accessed bits. The pages reclaimed: 0 means the OOM killer.
 */
unsigned long try_to_free_pages(void)
{
	unsigned long got = 0;

	might_sleep();
	for (int pass = 0; pass < 3 && got < SWAP_BATCH; pass++)
		got += shrink_mms(SWAP_BATCH - got, false, false, NULL);
	return got;
}

/*
 * The allocator's direct reclaim (Linux's __alloc_pages_direct_reclaim):
 * a batch, reclaimed by the allocating task itself. Its caller may hold
 * any sleeping lock, so nothing here waits for one (shrink_mms's
 * nowait); PF_MEMALLOC keeps the allocations made meanwhile from
 * reclaiming in turn. The pages reclaimed, and in *scanned the PTEs
 * looked at: none when another reclaimer has the clock or every mm was
 * busy; some with nothing reclaimed when the turn only took accessed
 * bits (the next one finds those pages old).
 */
static unsigned long reclaim_below_min(unsigned long *scanned)
{
	unsigned long got;

	might_sleep();
	current->flags |= PF_MEMALLOC;
	*scanned = 0;
	got = shrink_mms(SWAP_BATCH, false, true, scanned);
	current->flags &= ~PF_MEMALLOC;
	return got;
}

/*
 * Waits for another reclaimer's next batch, at most RECLAIM_WAIT
 * (Linux's reclaim_throttle): no lock is waited for, so that kswapd
 * blocked on a lock this task holds costs a pause, not a deadlock.
 * false: the time ran out with nothing reclaimed.
 */
#define RECLAIM_WAIT	(HZ / 10)	/* jiffies: Linux's for writeback */

static bool reclaim_throttle(void)
{
	struct wait_queue_entry e = { .task = current };
	unsigned long seq = READ_ONCE(reclaim_seq);
	u64 until = ktime_get_ns() + RECLAIM_WAIT * TICK_NSEC;

	while (READ_ONCE(reclaim_seq) == seq && ktime_get_ns() < until) {
		prepare_to_wait(&reclaim_wait, &e, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(reclaim_seq) != seq)
			break;
		current->wake_at_ns = until;
		schedule();
		current->wake_at_ns = 0;
	}
	finish_wait(&reclaim_wait, &e);
	return READ_ONCE(reclaim_seq) != seq;
}

#define MAX_RECLAIM_RETRIES	16
static u64 direct_gave_up;	/* jiffies of the last fruitless wait */

/*
 * An allocation of want pages that may sleep would leave fewer than min
 * free (or found none): it reclaims until min + want are free again
 * (Linux's slow path: only allocations that may not sleep take the
 * pages under min; here those are the atomic ones and the big kernel
 * lock's holders, the system calls' slab). A turn that only aged pages
 * is followed by another at once; when another reclaimer has the clock,
 * kswapd is woken and its next batch waited for. Gives up at once
 * without a free swap slot or after MAX_RECLAIM_RETRIES turns, and for a
 * tenth of a second after a wait that saw no progress (nothing
 * swappable, or kswapd blocked on a lock this task holds). Whether min +
 * want are free. Process context, no spinlock held.
 */
bool throttle_direct_reclaim(unsigned long want)
{
	unsigned long scanned;

	for (int i = 0; i < MAX_RECLAIM_RETRIES; i++) {
		if (nr_free_pages() >= min_wmark + want)
			return true;
		if (!get_nr_swap_pages() || gave_up_lately(&direct_gave_up) ||
		    gave_up_lately(&kswapd_gave_up))
			return false;
		if (reclaim_below_min(&scanned) || scanned)
			continue;
		wakeup_kswapd();
		if (!reclaim_throttle()) {
			WRITE_ONCE(direct_gave_up, jiffies);
			return false;
		}
	}
	return nr_free_pages() >= min_wmark + want;
}

/* ---- kswapd ----------------------------------------------------------- */

static struct wait_queue_head kswapd_wait = WAIT_QUEUE_HEAD_INIT(kswapd_wait);
static bool kswapd_running;
static int kswapd_woken;

void wakeup_kswapd(void)
{
	if (!READ_ONCE(kswapd_running) || READ_ONCE(kswapd_woken) ||
	    nr_free_pages() >= low_wmark || irqs_disabled() ||
	    gave_up_lately(&kswapd_gave_up))
		return;
	WRITE_ONCE(kswapd_woken, 1);
	wake_up(&kswapd_wait);
}

/* The thread (Linux's kswapd, balance_pgdat): woken below low, it
 * reclaims until high, or until a whole turn of the clock frees
 * nothing (then it leaves the allocator alone for a tenth of a second). */
static int kswapd(void *unused)
{
	(void)unused;
	for (int sig = 1; sig <= _NSIG; sig++)
		current->sighand->action[sig - 1].handler = SIG_IGN;
	current->flags |= PF_MEMALLOC;	/* its allocations never reclaim */
	for (;;) {
		int idle = 0;

		wait_event_interruptible(kswapd_wait, READ_ONCE(kswapd_woken));
		while (nr_free_pages() < high_wmark && idle < 3)
			idle = shrink_mms(SWAP_BATCH, true, false, NULL) ?
			       0 : idle + 1;
		if (idle)
			WRITE_ONCE(kswapd_gave_up, jiffies);
		WRITE_ONCE(kswapd_woken, 0);
	}
	return 0;
}

static void kswapd_start(struct work_struct *work)
{
	(void)work;
	setup_watermarks();
	if (kernel_thread(kswapd, NULL, "kswapd0") < 0) {
		pr_warn("kswapd: could not start it\n");
		return;
	}
	pr_info("kswapd: watermarks min %lu low %lu high %lu pages\n",
		min_wmark, low_wmark, high_wmark);
	WRITE_ONCE(kswapd_running, true);
}

static DECLARE_WORK(kswapd_work, kswapd_start);

/* kswapd starts from the kworker (so that it is no user process's
 * child), when the first disk appears at boot (so that no test's leak
 * check counts its stack; without a disk, no kswapd and no pid moves). */
void kswapd_run(void)
{
	static atomic_t started;

	if (!atomic_xchg(&started, 1))
		schedule_work(&kswapd_work);
}
