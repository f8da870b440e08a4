/* fs/proc/array.c — /proc/PID/status, stat, statm and cmdline, in
 * the layout of Linux 6.x's fs/proc/array.c and task_mmu.c's task_mem. */
#include <zpk/capability.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/memory.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/tty.h>
#include "internal.h"

#define PF_KTHREAD	0x00200000	/* Linux's task->flags bit */
#define RLIM_INFINITY	(~0UL)

static const char *task_state_name(const struct task_struct *t)
{
	switch (t->state) {
	case TASK_RUNNING:		return "R (running)";
	case TASK_INTERRUPTIBLE:	return "S (sleeping)";
	case TASK_UNINTERRUPTIBLE:	return "D (disk sleep)";
	case TASK_STOPPED:		return "T (stopped)";
	case EXIT_ZOMBIE:		return "Z (zombie)";
	case EXIT_DEAD:			break;
	}
	return "X (dead)";
}


/* Descriptors open; Linux's FDSize is the table's size (64 here). */
static int fd_table_size(const struct task_struct *t)
{
	return t->files ? NR_OPEN_DEFAULT : 0;
}

static void collect_sigign_sigcatch(const struct task_struct *t,
				    sigset_t *ign, sigset_t *catch)
{
	*ign = *catch = 0;
	if (!t->sighand)
		return;
	for (int sig = 1; sig <= _NSIG; sig++) {
		void *h = t->sighand->action[sig - 1].handler;

		if (h == SIG_IGN)
			*ign |= sigmask(sig);
		else if (h != SIG_DFL)
			*catch |= sigmask(sig);
	}
}

/* Linux prints Umask only while the task has its fs_struct. */
static void task_state(struct seq_file *m, struct task_struct *t)
{
	struct signal_struct *sig = t->signal;

	if (t->fs)
		seq_printf(m, "Umask:\t0%03o\n", t->fs->umask & 0777);
	seq_printf(m, "State:\t%s\n", task_state_name(t));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\n"
		   "TracerPid:\t0\n", t->tgid, t->pid, task_ppid_nr(t));
	seq_puts(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n");
	seq_printf(m, "FDSize:\t%d\n", fd_table_size(t));
	/* Linux leaves a space after the (here empty) group list. */
	seq_puts(m, "Groups:\t \n");
	seq_printf(m, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n",
		   t->tgid, t->pid, sig->pgrp, sig->session);
}

static void put_kb(struct seq_file *m, const char *name, unsigned long kb)
{
	seq_printf(m, "%s:\t%8lu kB\n", name, kb);
}

#define PAGES_KB(n)	((n) << (PAGE_SHIFT - 10))

/* Linux's task_mem, with zpk's RssZero after RssShmem. */
static void task_mem(struct seq_file *m, struct mm_struct *mm)
{
	unsigned long anon = get_mm_counter(mm, MM_ANONPAGES);
	unsigned long file = get_mm_counter(mm, MM_FILEPAGES);
	unsigned long shmem = get_mm_counter(mm, MM_SHMEMPAGES);
	unsigned long total_rss = anon + file + shmem;
	unsigned long hiwater_rss = max(total_rss, mm->hiwater_rss);
	unsigned long hiwater_vm = max(mm->total_vm, mm->hiwater_vm);
	unsigned long text, lib;

	text = PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK);
	text = min(text, mm->exec_vm << PAGE_SHIFT);
	lib = (mm->exec_vm << PAGE_SHIFT) - text;
	put_kb(m, "VmPeak", PAGES_KB(hiwater_vm));
	put_kb(m, "VmSize", PAGES_KB(mm->total_vm));
	put_kb(m, "VmLck", PAGES_KB(mm->locked_vm));
	put_kb(m, "VmPin", 0);
	put_kb(m, "VmHWM", PAGES_KB(hiwater_rss));
	put_kb(m, "VmRSS", PAGES_KB(total_rss));
	put_kb(m, "RssAnon", PAGES_KB(anon));
	put_kb(m, "RssFile", PAGES_KB(file));
	put_kb(m, "RssShmem", PAGES_KB(shmem));
	put_kb(m, "RssZero", PAGES_KB(get_mm_counter(mm, MM_ZEROPAGES)));
	put_kb(m, "VmData", PAGES_KB(mm->data_vm));
	put_kb(m, "VmStk", PAGES_KB(mm->stack_vm));
	put_kb(m, "VmExe", text >> 10);
	put_kb(m, "VmLib", lib >> 10);
	put_kb(m, "VmPTE", PAGES_KB(mm->nr_ptes));
	put_kb(m, "VmSwap", PAGES_KB(get_mm_counter(mm, MM_SWAPENTS)));
	seq_puts(m, "CoreDumping:\t0\n");
}

static void render_sigset(struct seq_file *m, const char *name, sigset_t s)
{
	seq_printf(m, "%s:\t%016llx\n", name, (unsigned long long)s);
}

static int sigset_count(sigset_t s)
{
	int n = 0;

	for (; s; s &= s - 1)
		n++;
	return n;
}

/* zpk queues at most one of each signal per thread and per process:
 * SigQ's limit is _NSIG. */
static void task_sig(struct seq_file *m, struct task_struct *t)
{
	sigset_t ign, catch;

	collect_sigign_sigcatch(t, &ign, &catch);
	seq_printf(m, "Threads:\t%d\n", t->signal->nr_threads);
	seq_printf(m, "SigQ:\t%d/%d\n", sigset_count(t->pending) +
		   sigset_count(t->signal->shared_pending), _NSIG);
	render_sigset(m, "SigPnd", t->pending);
	render_sigset(m, "ShdPnd", t->signal->shared_pending);
	render_sigset(m, "SigBlk", t->blocked);
	render_sigset(m, "SigIgn", ign);
	render_sigset(m, "SigCgt", catch);
}

/* Everything runs as root with every capability; the CPUs it may run on
 * (of the nr_cpu_ids there are: hex, then as a list, as Linux's). */
static void task_cap_cpus(struct seq_file *m, struct task_struct *t)
{
	unsigned long cpus = t->cpus_mask.bits & ((1UL << nr_cpu_ids) - 1);

	seq_printf(m, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\n"
		   "CapBnd:\t%016llx\nCapAmb:\t%016llx\n", 0ULL, CAP_FULL_SET,
		   CAP_FULL_SET, CAP_FULL_SET, 0ULL);
	seq_printf(m, "NoNewPrivs:\t%d\nSeccomp:\t0\nSeccomp_filters:\t0\n",
		   t->no_new_privs);
	seq_printf(m, "Cpus_allowed:\t%lx\nCpus_allowed_list:\t", cpus);
	seq_cpu_list(m, cpus);
	seq_putc(m, '\n');
}

int proc_pid_status(struct seq_file *m, struct task_struct *task)
{
	seq_printf(m, "Name:\t%s\n", task->comm);
	task_state(m, task);
	if (task->mm)
		task_mem(m, task->mm);
	task_sig(m, task);
	task_cap_cpus(m, task);
	return 0;
}

static unsigned long ns_to_clock_t(u64 ns)
{
	return (unsigned long)(ns / (NSEC_PER_SEC / HZ));
}

/* What /proc/PID/stat adds up over the threads (whole) or gives of one
 * (/proc/PID/task/TID/stat), as Linux's do_task_stat. */
struct stat_sums {
	unsigned long min_flt, maj_flt;
	u64 utime, stime;
};

static void stat_sums(struct task_struct *task, bool whole,
		      struct stat_sums *s)
{
	struct task_struct *t;

	*s = (struct stat_sums){ task->min_flt, task->maj_flt, task->utime,
				 task->stime };
	if (!whole)
		return;
	s->min_flt = task->signal->min_flt;
	s->maj_flt = task->signal->maj_flt;
	s->utime = task->signal->utime;
	s->stime = task->signal->stime;
	for_each_thread(task, t) {
		s->min_flt += t->min_flt;
		s->maj_flt += t->maj_flt;
		s->utime += t->utime;
		s->stime += t->stime;
	}
}

/* Fields 1-22: who, state, terminal, faults, times (Linux's
 * do_task_stat). */
static void stat_task_part(struct seq_file *m, struct task_struct *t,
			   bool whole)
{
	struct signal_struct *sig = t->signal;
	struct stat_sums s;

	stat_sums(t, whole, &s);
	seq_printf(m, "%d (%s) %c %d %d %d %d %d %u ", t->pid, t->comm,
		   task_state_name(t)[0], task_ppid_nr(t), sig->pgrp,
		   sig->session, tty_devnr(sig->tty), tty_fg_pgrp(sig->tty),
		   t->mm ? 0 : PF_KTHREAD);
	seq_printf(m, "%lu %lu %lu %lu ", s.min_flt, sig->cmin_flt,
		   s.maj_flt, sig->cmaj_flt);
	seq_printf(m, "%lu %lu %lu %lu %d %d %d 0 %lu ",
		   ns_to_clock_t(s.utime), ns_to_clock_t(s.stime),
		   ns_to_clock_t(sig->cutime), ns_to_clock_t(sig->cstime),
		   20 + t->nice, t->nice,
		   sig->nr_threads, ns_to_clock_t(t->start_time));
}

/* Fields 23-52: memory layout, signals (decimal, as Linux), the rest. */
static void stat_mm_part(struct seq_file *m, struct task_struct *t)
{
	struct mm_struct *mm = t->mm;
	sigset_t ign, catch;

	collect_sigign_sigcatch(t, &ign, &catch);
	seq_printf(m, "%lu %lu %lu ", mm ? mm->total_vm << PAGE_SHIFT : 0,
		   mm ? get_mm_rss(mm) : 0, RLIM_INFINITY);
	seq_printf(m, "%lu %lu %lu 0 0 ", mm ? mm->start_code : 0,
		   mm ? mm->end_code : 0, mm ? mm->start_stack : 0);
	seq_printf(m, "%llu %llu %llu %llu ",
		   (unsigned long long)(t->pending & 0x7fffffffUL),
		   (unsigned long long)(t->blocked & 0x7fffffffUL),
		   (unsigned long long)(ign & 0x7fffffffUL),
		   (unsigned long long)(catch & 0x7fffffffUL));
	/* wchan: 1 if asleep (Linux hides the address), nswap, cnswap;
	 * exit_signal, processor (the CPU it runs or last ran on). */
	seq_printf(m, "%d 0 0 %d %d 0 0 0 0 0 ", t->state != TASK_RUNNING,
		   t->exit_signal, t->cpu);
	seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu 0\n",
		   mm ? mm->start_data : 0, mm ? mm->end_data : 0,
		   mm ? mm->start_brk : 0, mm ? mm->arg_start : 0,
		   mm ? mm->arg_end : 0, mm ? mm->env_start : 0,
		   mm ? mm->env_end : 0);
}

int proc_pid_stat(struct seq_file *m, struct task_struct *task)
{
	stat_task_part(m, task, true);
	stat_mm_part(m, task);
	return 0;
}

int proc_tid_stat(struct seq_file *m, struct task_struct *task)
{
	stat_task_part(m, task, false);
	stat_mm_part(m, task);
	return 0;
}

int proc_pid_statm(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	unsigned long shared, text, data, resident;

	if (!mm) {
		seq_puts(m, "0 0 0 0 0 0 0\n");
		return 0;
	}
	shared = get_mm_counter(mm, MM_FILEPAGES) +
		 get_mm_counter(mm, MM_SHMEMPAGES);
	text = (PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK)) >>
	       PAGE_SHIFT;
	data = mm->data_vm + mm->stack_vm;
	resident = shared + get_mm_counter(mm, MM_ANONPAGES);
	seq_printf(m, "%lu %lu %lu %lu 0 %lu 0\n", mm->total_vm, resident,
		   shared, text, data);
	return 0;
}

/* argv as the process laid it out, NUL-separated, read through its page
 * tables; stops at a page that is not present. */
int proc_pid_cmdline(struct seq_file *m, struct task_struct *task)
{
	struct mm_struct *mm = task->mm;
	size_t len;

	if (!mm || mm->arg_end <= mm->arg_start)
		return 0;
	len = mm->arg_end - mm->arg_start;
	if (len > m->size - m->count) {
		m->overflow = true;	/* a bigger buffer, please */
		return 0;
	}
	/* The task may exit while a userfault sleeps: hold its mm. */
	if (!mmget_not_zero(mm))
		return 0;
	m->count += access_remote_vm(mm, mm->arg_start, m->buf + m->count,
				     len, FOLL_FORCE);
	mmput(mm);
	return 0;
}
