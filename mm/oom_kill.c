/* mm/oom_kill.c — the OOM killer, as Linux's: when a fault cannot get a
 * page, the task with the most memory is killed and its memory reaped;
 * and process_mrelease, the same reaping asked for by user space. */
#include <zpk/errno.h>
#include <zpk/memblock.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/oom.h>
#include <zpk/pidfd.h>
#include <zpk/printk.h>
#include <zpk/ratelimit.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/smp_lock.h>
#include <zpk/syscalls.h>
#include "internal.h"

#define LONG_MIN	(-__LONG_MAX__ - 1)
#define K(pages)	((pages) << (PAGE_SHIFT - 10))

/* Linux's oom_unkillable_task: init, the idle task, kernel threads (and
 * zombies, whose mm is gone already). */
static bool oom_unkillable_task(struct task_struct *p)
{
	return p->pid <= 1 || !p->mm;
}

long oom_badness(struct task_struct *p, unsigned long totalpages)
{
	long points, adj;

	if (oom_unkillable_task(p))
		return LONG_MIN;
	adj = p->signal->oom_score_adj;
	if (adj == OOM_SCORE_ADJ_MIN || (p->mm->flags & (1UL << MMF_OOM_SKIP)))
		return LONG_MIN;
	/* The baseline: the pages it holds, mapped, in swap and as page
	 * tables (Linux's oom_badness). */
	points = (long)(get_mm_rss(p->mm) +
			get_mm_counter(p->mm, MM_SWAPENTS) + p->mm->nr_ptes);
	adj *= (long)(totalpages / 1000);	/* to oom_score_adj units */
	return points + adj;
}

/* The highest badness wins; a later task wins a tie (Linux's
 * oom_evaluate_task: "points < chosen_points" is skipped). */
static struct task_struct *select_bad_process(unsigned long totalpages)
{
	struct task_struct *p, *chosen = NULL;
	long points, best = LONG_MIN;

	for_each_process(p) {
		points = oom_badness(p, totalpages);
		if (points == LONG_MIN || points < best)
			continue;
		chosen = p;
		best = points;
	}
	return chosen;
}

/* Linux's sysctl_oom_dump_tasks (/proc/sys/vm/oom_dump_tasks): list
 * every task with its memory in each report. */
int sysctl_oom_dump_tasks = 1;

/* Linux's dump_tasks: the candidates, in pages (init and the tasks with an
 * mm; kernel threads have none). */
static void dump_tasks(void)
{
	struct task_struct *p;

	pr_info("Tasks state (memory values in pages):\n");
	pr_info("[  pid  ]   uid  tgid total_vm      rss pgtables_bytes "
		"swapents oom_score_adj name\n");
	for_each_process(p) {
		if (oom_unkillable_task(p) && p->pid != 1)
			continue;
		if (!p->mm)
			continue;
		pr_info("[%7d] %5d %5d %8lu %8lu %8lu %8lu         %5d %s\n",
			p->pid, 0, p->pid, p->mm->total_vm,
			get_mm_rss(p->mm), p->mm->nr_ptes * PAGE_SIZE,
			get_mm_counter(p->mm, MM_SWAPENTS),
			p->signal->oom_score_adj, p->comm);
	}
}

/* Linux's dump_header, without the gfp mask (zpk's faults all allocate
 * order-0 GFP_KERNEL pages). */
static void dump_header(void)
{
	pr_warn("%s invoked oom-killer: order=0, oom_score_adj=%d\n",
		current->comm, current->signal->oom_score_adj);
	if (sysctl_oom_dump_tasks)
		dump_tasks();
}

/*
 * Linux's __oom_reap_task_mm: unmaps every private mapping of a dying
 * task's mm (its anonymous pages and COW copies go back to the buddy
 * allocator; file and shared pages stay with their files). The task
 * dies at its next return to user mode (it may be running on another
 * CPU meanwhile); its VMAs stay, so a fault it takes first finds fresh
 * zero-filled memory, never another's. Page tables go at exit. Called
 * with mm's mmap_lock held for reading and a user of mm (mmget).
 */
static void __oom_reap_task_mm(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
		if (!(vma->vm_flags & VM_SHARED))
			zap_page_range(vma, vma->vm_start, vma->vm_end);
}

/*
 * Linux's oom_reaper, done at once: the victim's memory, then its mm is
 * marked reaped (never chosen again). As Linux's, it only tries the
 * mmap_lock: whoever holds it for writing (the victim's own munmap,
 * mm_verify) may be waiting for us.
 */
static void oom_reap_task_mm(struct task_struct *p, struct mm_struct *mm)
{
	if (!mmget_not_zero(mm))
		return;
	if (!down_read_trylock(&mm->mmap_lock)) {
		mmput(mm);
		return;
	}
	__oom_reap_task_mm(mm);
	mmap_read_unlock(mm);
	set_bit(MMF_OOM_SKIP, &mm->flags);
	pr_info("oom_reaper: reaped process %d (%s), now anon-rss:%lukB, "
		"file-rss:%lukB, shmem-rss:%lukB\n", p->pid, p->comm,
		K(get_mm_counter(mm, MM_ANONPAGES)),
		K(get_mm_counter(mm, MM_FILEPAGES)),
		K(get_mm_counter(mm, MM_SHMEMPAGES)));
	mmput(mm);
}

/*
 * Victims killed whose mm is not torn down yet, and when the last was
 * killed. Their memory is on its way back: shared and file pages only
 * when the mm goes, which the reaper cannot hasten, and the mm may
 * outlive the task (a reclaimer's reference). Linux's oom_evaluate_task
 * waits for such a victim until its reaper gives up on it, 2 s later
 * (OOM_REAPER_DELAY), rather than kill a second process.
 */
#define OOM_VICTIM_WAIT	(2 * HZ)
#define OOM_FREE_SLACK	32	/* pages: more free than that is no OOM */
static atomic_t oom_victims;
static u64 oom_victim_jiffies;

void exit_oom_victim(struct mm_struct *mm)
{
	if (test_bit(MMF_OOM_VICTIM, &mm->flags))
		atomic_dec(&oom_victims);
}

/* Linux's oom_kill_process: the header, at most 10 in 5 s as Linux's
 * oom_rs allows (a fork bomb is killed a process at a time, and each
 * header lists every process), then the signal and the report line,
 * which is never suppressed. */
static void oom_kill_process(struct task_struct *victim)
{
	static DEFINE_RATELIMIT_STATE(oom_rs, DEFAULT_RATELIMIT_INTERVAL,
				      DEFAULT_RATELIMIT_BURST);
	struct mm_struct *mm = victim->mm;

	if (__ratelimit(&oom_rs))
		dump_header();
	if (!test_and_set_bit(MMF_OOM_VICTIM, &mm->flags))
		atomic_inc(&oom_victims);
	WRITE_ONCE(oom_victim_jiffies, jiffies);
	send_signal(victim, SIGKILL, NULL);
	pr_err("Out of memory: Killed process %d (%s) total-vm:%lukB, "
	       "anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u "
	       "pgtables:%lukB oom_score_adj:%d\n", victim->pid, victim->comm,
	       K(mm->total_vm), K(get_mm_counter(mm, MM_ANONPAGES)),
	       K(get_mm_counter(mm, MM_FILEPAGES)),
	       K(get_mm_counter(mm, MM_SHMEMPAGES)), 0U,
	       K(mm->nr_ptes), victim->signal->oom_score_adj);
	if (mm != current->mm)
		oom_reap_task_mm(victim, mm);
}

/* Called without any mmap_lock held by the caller's fault. */
static enum oom_result __out_of_memory(void)
{
	static bool none_reported;
	struct task_struct *victim;

	/* Already dying (Linux's task_will_free_mem(current)): its exit
	 * frees its memory; killing another would be one too many. */
	if (fatal_signal_pending(current))
		return OOM_CURRENT;
	if (atomic_read(&oom_victims) &&
	    jiffies - READ_ONCE(oom_victim_jiffies) < OOM_VICTIM_WAIT) {
		schedule();	/* the victim, to its exit */
		return OOM_RETRY;
	}
	/* Memory came back meanwhile (a victim's exit, reclaim): fault
	 * again (Linux's last get_page_from_freelist at the high mark
	 * before out_of_memory catches a parallel kill so). */
	if (nr_free_pages() > high_wmark + OOM_FREE_SLACK)
		return OOM_RETRY;
	victim = select_bad_process(totalram_pages());
	if (!victim) {
		/* Linux panics here; zpk lets the caller fail or wait. */
		if (!none_reported)
			pr_warn("Out of memory and no killable processes...\n");
		none_reported = true;
		return OOM_NONE;
	}
	none_reported = false;
	if (victim != current && (fatal_signal_pending(victim) ||
				  (victim->signal->flags & SIGNAL_GROUP_EXIT))) {
		/* Killed already but not reaped (its mmap_lock was busy):
		 * the reaper tries again, and the victim runs on to its
		 * death meanwhile (Linux waits for an OOM victim so too).
		 * A reaped mm is never chosen again. */
		oom_reap_task_mm(victim, victim->mm);
		schedule();
		return OOM_RETRY;
	}
	oom_kill_process(victim);
	return same_thread_group(victim, current) ? OOM_CURRENT : OOM_RETRY;
}

/* Direct reclaim first (pages to swap: try_to_free_pages); the OOM
 * killer only when swap is full or reclaim freed nothing. The task list,
 * signals and the victim's mm: under the big kernel lock. */
enum oom_result out_of_memory(void)
{
	enum oom_result ret;

	if (!fatal_signal_pending(current) && try_to_free_pages())
		return OOM_RETRY;
	lock_kernel();
	ret = __out_of_memory();
	unlock_kernel();
	return ret;
}

/* ---- process_mrelease ------------------------------------------------- */

/* The whole thread group is on its way out (Linux's __task_will_free_mem):
 * a group exit or fatal signal, or its last thread in do_exit. */
static bool __task_will_free_mem(struct task_struct *task)
{
	if (task->signal->flags & SIGNAL_GROUP_EXIT)
		return true;
	return thread_group_empty(task) && (task->flags & PF_EXITING);
}

/* A thread of p's group that still has the mm (Linux's
 * find_lock_task_mm: the leader may be a zombie already), or NULL. */
static struct task_struct *find_task_mm(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t)
		if (t->mm)
			return t;
	return NULL;
}

/*
 * Will task's exit free its mm (Linux's task_will_free_mem)? Its group
 * is dying, the mm has not been reaped yet, and every other process that
 * shares it (a vfork child, CLONE_VM) is dying too.
 */
static bool task_will_free_mem(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	struct task_struct *p, *t;

	if (!mm || !__task_will_free_mem(task))
		return false;
	if (test_bit(MMF_OOM_SKIP, &mm->flags))
		return false;
	if (atomic_read(&mm->mm_users) <= 1)
		return true;
	for_each_process(p) {
		if (same_thread_group(p, task))
			continue;
		t = find_task_mm(p);
		if (t && t->mm == mm && !__task_will_free_mem(p))
			return false;
	}
	return true;
}

/* The reap itself, as Linux's process_mrelease does it: a user of mm, its
 * mmap_lock for reading (waited for, unlike the OOM reaper's try: the
 * caller may sleep); nothing if the OOM reaper did it meanwhile. Big
 * kernel lock held (the task list), dropped while it sleeps. */
static void mrelease_mm(struct mm_struct *mm)
{
	if (!mmget_not_zero(mm))
		return;
	mmap_read_lock(mm);
	if (!test_bit(MMF_OOM_SKIP, &mm->flags))
		__oom_reap_task_mm(mm);
	mmap_read_unlock(mm);
	mmput(mm);
}

/*
 * process_mrelease(2) as Linux 6.1's: frees a dying process's private
 * memory now rather than at its exit. -EINVAL for flags or for a process
 * that is not dying (0 if the OOM reaper did it already), -EBADF for a
 * descriptor that is not a pidfd, -ESRCH for a process reaped or past
 * its exit_mm.
 */
static long sys_process_mrelease(int pidfd, unsigned int flags)
{
	struct task_struct *task, *p;
	unsigned int f_flags;
	long ret = 0;
	int err;

	if (flags)
		return -EINVAL;
	task = pidfd_get_task(pidfd, &f_flags, &err);
	if (!task)
		return err;
	p = find_task_mm(task);
	if (!p)
		ret = -ESRCH;
	else if (task_will_free_mem(p))
		mrelease_mm(p->mm);
	else if (!test_bit(MMF_OOM_SKIP, &p->mm->flags))
		ret = -EINVAL;
	put_task_struct(task);
	return ret;
}
SYSCALL(__NR_process_mrelease, sys_process_mrelease);
