/* zpk/oom.h — the OOM killer (mm/oom_kill.c): what a fault that cannot get
 * memory calls, and the badness score /proc/PID/oom_score shows. */
#ifndef ZPK_OOM_H
#define ZPK_OOM_H

struct task_struct;

#define OOM_SCORE_ADJ_MIN	(-1000)	/* never chosen */
#define OOM_SCORE_ADJ_MAX	1000

enum oom_result {
	OOM_NONE,	/* nothing killable: the caller fails or waits */
	OOM_RETRY,	/* another task was killed and reaped: retry */
	OOM_CURRENT,	/* current is the victim (or already dying) */
};

/*
 * Called by a fault or get_user_pages when an allocation failed. Picks
 * the task with the highest oom_badness (never init, a kernel thread or
 * one at OOM_SCORE_ADJ_MIN), SIGKILLs it and prints Linux's report; a
 * victim other than current has its private memory unmapped at once
 * (oom_reaper), so the caller may retry on OOM_RETRY. Runs in process
 * context; it never sleeps.
 */
enum oom_result out_of_memory(void);
/* An OOM victim's mm is torn down (exit_mmap): the OOM killer may choose
 * another (Linux's exit_oom_victim). */
struct mm_struct;
void exit_oom_victim(struct mm_struct *mm);

/* /proc/sys/vm/oom_dump_tasks: 1 (the default) lists every task in each
 * report, 0 leaves the list out. */
extern int sysctl_oom_dump_tasks;

/* Linux's oom_badness: rss + page-table pages + oom_score_adj scaled to
 * totalpages / 1000; LONG_MIN for a task that may not be chosen. */
long oom_badness(struct task_struct *p, unsigned long totalpages);

#endif
