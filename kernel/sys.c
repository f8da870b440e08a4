/* kernel/sys.c — small process system calls: ids, process groups and
 * sessions, uname, limits, rusage, sysinfo, and the calls musl makes at
 * start-up (set_tid_address...). */
#include <zpk/errno.h>
#include <zpk/loadavg.h>
#include <zpk/fs.h>
#include <zpk/kernel_stat.h>
#include <zpk/memblock.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/swap.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>
#include <zpk/vmstat.h>
#include <uapi/linux/resource.h>

/* getpid is the process's id (its thread group's), gettid the thread's. */
static long sys_getpid(void) { return current->tgid; }
SYSCALL(__NR_getpid, sys_getpid);

static long sys_gettid(void) { return current->pid; }
SYSCALL(__NR_gettid, sys_gettid);

static long sys_getppid(void)
{
	return task_ppid_nr(current);
}
SYSCALL(__NR_getppid, sys_getppid);

/* Everything runs as root. */
static long sys_getuid(void) { return 0; }
SYSCALL(__NR_getuid, sys_getuid);
SYSCALL(__NR_geteuid, sys_getuid);
SYSCALL(__NR_getgid, sys_getuid);
SYSCALL(__NR_getegid, sys_getuid);

/* ---- process groups and sessions --------------------------------------- */

/* The task pid names (any thread's id), or current for 0; NULL if none. */
static struct task_struct *find_task_or_current(int pid)
{
	return pid ? find_task_by_pid(pid) : current;
}

static long sys_getpgid(int pid)
{
	struct task_struct *t = find_task_or_current(pid);

	return t ? t->signal->pgrp : -ESRCH;
}
SYSCALL(__NR_getpgid, sys_getpgid);

static long sys_getsid(int pid)
{
	struct task_struct *t = find_task_or_current(pid);

	return t ? t->signal->session : -ESRCH;
}
SYSCALL(__NR_getsid, sys_getsid);

static long sys_getpgrp(void) { return current->signal->pgrp; }
SYSCALL(__NR_getpgrp, sys_getpgrp);

/* A process whose process group is pgrp, or NULL. */
static struct task_struct *find_pgrp_member(int pgrp)
{
	struct task_struct *p;

	for_each_process(p)
		if (p->signal->pgrp == pgrp)
			return p;
	return NULL;
}

/*
 * Process pid (0: the caller) joins process group pgid (0: its own), with
 * Linux's errnos in Linux's order: -EINVAL (pgid < 0, a thread that is not
 * a leader), -ESRCH (no such process, or not the caller nor its child),
 * -EPERM (a child in another session, a session leader, a group of
 * another session), -EACCES (a child that has exec'd).
 */
static long sys_setpgid(int pid, int pgid)
{
	struct task_struct *leader = current->group_leader, *p, *g;
	int old;

	if (!pid)
		pid = leader->pid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (!thread_group_leader(p))
		return -EINVAL;
	if (p->parent && same_thread_group(p->parent, leader)) {
		if (p->signal->session != leader->signal->session)
			return -EPERM;
		if (!(p->flags & PF_FORKNOEXEC))
			return -EACCES;
	} else if (p != leader) {
		return -ESRCH;
	}
	if (p->signal->leader)
		return -EPERM;
	if (pgid != pid) {
		g = find_pgrp_member(pgid);
		if (!g || g->signal->session != leader->signal->session)
			return -EPERM;
	}
	old = p->signal->pgrp;
	p->signal->pgrp = pgid;
	put_pid_nr(old);
	return 0;
}
SYSCALL(__NR_setpgid, sys_setpgid);

/* The caller's process starts a session and a process group, both with
 * its pid, without a controlling tty: the session id, or -EPERM if it
 * leads a session or its pid is some process group's id. */
static long sys_setsid(void)
{
	struct signal_struct *sig = current->signal;
	int sid = current->group_leader->pid, old_pgrp = sig->pgrp;
	int old_sid = sig->session;

	if (sig->leader || find_pgrp_member(sid))
		return -EPERM;
	sig->leader = true;
	sig->session = sig->pgrp = sid;
	sig->tty = NULL;
	put_pid_nr(old_pgrp);
	put_pid_nr(old_sid);
	return sid;
}
SYSCALL(__NR_setsid, sys_setsid);

/* getgroups(0, NULL) is the count; a list too short is -EINVAL. */
static long sys_getgroups(int size, u32 __user *list)
{
	unsigned int n = current->ngroups;

	if (size < 0)
		return -EINVAL;
	if (size) {
		if ((unsigned int)size < n)
			return -EINVAL;
		if (copy_to_user(list, current->groups, n * sizeof(u32)))
			return -EFAULT;
	}
	return n;
}
SYSCALL(__NR_getgroups, sys_getgroups);

/* Root may set any list (kept unsorted: Linux sorts it, but getgroups
 * order is unspecified); more than NGROUPS_SMALL is -EINVAL here. */
static long sys_setgroups(int size, const u32 __user *list)
{
	u32 g[NGROUPS_SMALL];

	if (size < 0 || size > NGROUPS_SMALL)
		return -EINVAL;
	if (copy_from_user(g, list, size * sizeof(u32)))
		return -EFAULT;
	memcpy(current->groups, g, size * sizeof(u32));
	current->ngroups = size;
	return 0;
}
SYSCALL(__NR_setgroups, sys_setgroups);

#define PR_SET_PDEATHSIG	1
#define PR_GET_PDEATHSIG	2
#define PR_GET_DUMPABLE		3
#define PR_SET_DUMPABLE		4
#define PR_SET_NAME		15
#define PR_GET_NAME		16
#define PR_SET_NO_NEW_PRIVS	38
#define PR_GET_NO_NEW_PRIVS	39
#define PR_SET_THP_DISABLE	41
#define PR_GET_THP_DISABLE	42

/* The name is comm (16 bytes with its NUL), shown in /proc/PID/comm and
 * status; 15 bytes at most are read, as Linux reads them. */
static long prctl_set_name(const char __user *name)
{
	char comm[TASK_COMM_LEN];

	if (strncpy_from_user(comm, name, sizeof(comm) - 1) == -EFAULT)
		return -EFAULT;
	comm[sizeof(comm) - 1] = '\0';	/* longer names are cut */
	memcpy(current->comm, comm, sizeof(comm));
	return 0;
}

/* Linux's prctl for the options zpk has; the others are -EINVAL, as
 * Linux's unknown ones. */
static long sys_prctl(int option, unsigned long arg2, unsigned long arg3,
		      unsigned long arg4, unsigned long arg5)
{
	switch (option) {
	case PR_SET_PDEATHSIG:
		if (arg2 > _NSIG)
			return -EINVAL;
		current->pdeath_signal = arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return put_user(current->pdeath_signal, (int __user *)arg2);
	case PR_GET_DUMPABLE:
		return current->mm->flags & MMF_DUMPABLE_MASK;
	case PR_SET_DUMPABLE:
		if (arg2 != SUID_DUMP_DISABLE && arg2 != SUID_DUMP_USER)
			return -EINVAL;
		/* atomic: the OOM reaper sets mm->flags' MMF_OOM_SKIP */
		if (arg2 == SUID_DUMP_USER)
			set_bit(MMF_DUMPABLE, &current->mm->flags);
		else
			clear_bit(MMF_DUMPABLE, &current->mm->flags);
		return 0;
	case PR_SET_NAME:
		return prctl_set_name((const char __user *)arg2);
	case PR_GET_NAME:
		if (copy_to_user((char __user *)arg2, current->comm,
				 sizeof(current->comm)))
			return -EFAULT;
		return 0;
	case PR_SET_NO_NEW_PRIVS:	/* one way: it cannot be cleared */
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		current->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return current->no_new_privs;
	case PR_SET_THP_DISABLE:	/* MMF_DISABLE_THP: mm/huge_memory.c */
		if (arg3 || arg4 || arg5)
			return -EINVAL;
		if (arg2)
			set_bit(MMF_DISABLE_THP, &current->mm->flags);
		else
			clear_bit(MMF_DISABLE_THP, &current->mm->flags);
		return 0;
	case PR_GET_THP_DISABLE:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return test_bit(MMF_DISABLE_THP, &current->mm->flags);
	}
	return -EINVAL;
}
SYSCALL(__NR_prctl, sys_prctl);

/* Restartable sequences are missing: -ENOSYS, what Linux before 4.18
 * answers and glibc expects then, without the missing-call log line. */
static long sys_rseq(void)
{
	return -ENOSYS;
}
SYSCALL(__NR_rseq, sys_rseq);

static long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = tidptr;
	return current->pid;
}
SYSCALL(__NR_set_tid_address, sys_set_tid_address);

/* ---- nice values --------------------------------------------------- */

#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2

/* Whether t is among those (which, who) names: one thread by its id
 * (0: the caller), every thread of a process group (0: the caller's),
 * or a user's (every process is root's: uid 0 names all, as "the
 * caller's user" does). */
static bool prio_match(struct task_struct *t, int which, int who)
{
	if (t->pid <= 0 || t->state == EXIT_ZOMBIE || t->state == EXIT_DEAD)
		return false;
	if (which == PRIO_USER)
		return who == 0;
	if (which == PRIO_PGRP)
		return t->signal->pgrp == (who ? who : current->signal->pgrp);
	return t->pid == (who ? who : current->pid);
}

/* Linux's getpriority: 20 - nice of the highest-priority match (1..40,
 * which libc turns back into a nice value); -ESRCH for none. */
static long sys_getpriority(int which, int who)
{
	struct task_struct *t;
	long best = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which, who) && 20 - t->nice > best)
			best = 20 - t->nice;
	return best;
}
SYSCALL(__NR_getpriority, sys_getpriority);

/* setpriority: nice clamped to -20..19 for every match (root may lower
 * it); -ESRCH for none. */
static long sys_setpriority(int which, int who, int niceval)
{
	struct task_struct *t;
	long err = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	niceval = niceval < -20 ? -20 : niceval > 19 ? 19 : niceval;
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which, who)) {
			t->nice = (short)niceval;
			err = 0;
		}
	return err;
}
SYSCALL(__NR_setpriority, sys_setpriority);

/* I/O priorities: Linux's IOPRIO_WHO_PROCESS, _PGRP, _USER are 1..3 (the
 * PRIO_* above plus one); a value is class << 13 | data. */
#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_CLASS_IDLE	3

/* ioprio_get: the highest of the matches (0: none set, as Linux 6's
 * IOPRIO_CLASS_NONE); -ESRCH for none. */
static long sys_ioprio_get(int which, int who)
{
	struct task_struct *t;
	long best = -ESRCH;

	if (which < 1 || which > 3)
		return -EINVAL;
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which - 1, who) && t->ioprio > best)
			best = t->ioprio;
	return best;
}
SYSCALL(__NR_ioprio_get, sys_ioprio_get);

/* Linux's ioprio_check_cap: class NONE with data 0, realtime and best
 * effort with data 0..7, idle with any. */
static bool ioprio_valid(int ioprio)
{
	int class = ioprio >> IOPRIO_CLASS_SHIFT, data = ioprio & 0x1fff;

	if (ioprio < 0 || class > IOPRIO_CLASS_IDLE)
		return false;
	return class == IOPRIO_CLASS_IDLE || data <= (class ? 7 : 0);
}

/* ioprio_set: kept for ioprio_get and fork; there is no I/O to order. */
static long sys_ioprio_set(int which, int who, int ioprio)
{
	struct task_struct *t;
	long err = -ESRCH;

	if (which < 1 || which > 3 || !ioprio_valid(ioprio))
		return -EINVAL;
	list_for_each_entry(t, &task_list, tasks)
		if (prio_match(t, which - 1, who)) {
			t->ioprio = (unsigned short)ioprio;
			err = 0;
		}
	return err;
}
SYSCALL(__NR_ioprio_set, sys_ioprio_set);

struct new_utsname {
	char sysname[65], nodename[65], release[65], version[65];
	char machine[65], domainname[65];
};

#define UTS_LEN		64	/* bytes of a name, without the NUL */

/* sethostname's and setdomainname's (Linux's init_uts_ns). */
static char nodename[UTS_LEN + 1] = "zpk";
static char domainname[UTS_LEN + 1] = "(none)";

static long sys_uname(struct new_utsname __user *name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "zpk", sizeof(u.sysname));
	strlcpy(u.nodename, nodename, sizeof(u.nodename));
	strlcpy(u.release, ZPK_VERSION, sizeof(u.release));
	strlcpy(u.version, "zpk " ZPK_VERSION " (the zero-page kernel)",
		sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, domainname, sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}
SYSCALL(__NR_uname, sys_uname);

/* len bytes (no NUL needed) become the name: -EINVAL past 64. */
static long set_uts_name(char *dst, const char __user *src, int len)
{
	char tmp[UTS_LEN + 1];

	if (len < 0 || len > UTS_LEN)
		return -EINVAL;
	if (copy_from_user(tmp, src, len))
		return -EFAULT;
	tmp[len] = '\0';
	memcpy(dst, tmp, len + 1);
	return 0;
}

static long sys_sethostname(const char __user *name, int len)
{
	return set_uts_name(nodename, name, len);
}
SYSCALL(__NR_sethostname, sys_sethostname);

static long sys_setdomainname(const char __user *name, int len)
{
	return set_uts_name(domainname, name, len);
}
SYSCALL(__NR_setdomainname, sys_setdomainname);

/* ---- limits ------------------------------------------------------------ */

#define RLIMIT_CPU	0
#define RLIMIT_FSIZE	1
#define RLIMIT_DATA	2
#define RLIMIT_STACK	3
#define RLIMIT_CORE	4
#define RLIMIT_NOFILE	7
#define RLIMIT_MEMLOCK	8
#define RLIMIT_AS	9
#define RLIMIT_MSGQUEUE	12
#define RLIMIT_NICE	13
#define RLIMIT_RTPRIO	14
#define RLIM_NLIMITS	16
#define RLIM_INFINITY	(~0UL)

struct rlimit64 {
	u64 rlim_cur, rlim_max;
};

/* The limits zpk enforces are fixed; the rest read as Linux's defaults
 * (unlimited, most of them). Only RLIMIT_CORE may be set: it is the
 * process's (fs/coredump.c). MEMLOCK, MSGQUEUE, NICE and RTPRIO bind
 * only unprivileged processes on Linux, and every zpk process is root. */
static struct rlimit64 rlimit_of(struct task_struct *t, unsigned int res)
{
	switch (res) {
	case RLIMIT_MEMLOCK:	/* Linux's MLOCK_LIMIT, 8 MiB since 5.16 */
		return (struct rlimit64){ 8UL << 20, 8UL << 20 };
	case RLIMIT_MSGQUEUE:	/* MQ_BYTES_MAX */
		return (struct rlimit64){ 819200, 819200 };
	case RLIMIT_NICE:
	case RLIMIT_RTPRIO:
		return (struct rlimit64){ 0, 0 };
	case RLIMIT_STACK:
		return (struct rlimit64){ STACK_RLIMIT, RLIM_INFINITY };
	case RLIMIT_NOFILE:
		return (struct rlimit64){ NR_OPEN_DEFAULT, NR_OPEN_DEFAULT };
	case RLIMIT_CORE:
		return (struct rlimit64){ t->signal->core_limit,
					  t->signal->core_limit_max };
	}
	return (struct rlimit64){ RLIM_INFINITY, RLIM_INFINITY };
}

static long sys_prlimit64(int pid, unsigned int res,
			  const struct rlimit64 __user *new,
			  struct rlimit64 __user *old)
{
	struct task_struct *t = pid ? find_task_by_pid(pid) : current;
	struct rlimit64 cur, want;

	if (res >= RLIM_NLIMITS)
		return -EINVAL;
	if (!t)
		return -ESRCH;
	if (!same_thread_group(t, current))
		return -EPERM;
	cur = rlimit_of(t, res);
	if (new) {
		if (copy_from_user(&want, new, sizeof(want)))
			return -EFAULT;
		if (want.rlim_cur > want.rlim_max)
			return -EINVAL;
		if (res != RLIMIT_CORE && (want.rlim_cur != cur.rlim_cur ||
					   want.rlim_max != cur.rlim_max))
			return -EPERM;
	}
	if (old && copy_to_user(old, &cur, sizeof(cur)))
		return -EFAULT;
	if (new && res == RLIMIT_CORE) {	/* root may raise the maximum */
		t->signal->core_limit = want.rlim_cur;
		t->signal->core_limit_max = want.rlim_max;
	}
	return 0;
}
SYSCALL(__NR_prlimit64, sys_prlimit64);

static long sys_getrlimit(unsigned int res, struct rlimit64 __user *old)
{
	return sys_prlimit64(0, res, NULL, old);
}
SYSCALL(__NR_getrlimit, sys_getrlimit);

static long sys_setrlimit(unsigned int res, const struct rlimit64 __user *new)
{
	return sys_prlimit64(0, res, new, NULL);
}
SYSCALL(__NR_setrlimit, sys_setrlimit);

/* ---- times ------------------------------------------------------------ */

/* Linux's struct tms: clock ticks (USER_HZ, 100 a second). */
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

static long ns_to_clock_t(u64 ns)
{
	return (long)(ns / (NSEC_PER_SEC / USER_HZ));
}

/*
 * times(buf): the process's user and system time (every thread's, those
 * gone too) and its reaped children's, if buf is not NULL; returns the
 * ticks since an arbitrary point: Linux's jiffies, which start 300 s
 * short of 2^32 (INITIAL_JIFFIES) so that wrap bugs show early.
 */
static long sys_times(struct tms __user *ubuf)
{
	struct signal_struct *sig = current->signal;
	struct tms t;
	u64 ut, st;

	if (ubuf) {
		thread_group_cputime(current, &ut, &st);
		t = (struct tms){ ns_to_clock_t(ut), ns_to_clock_t(st),
				  ns_to_clock_t(sig->cutime),
				  ns_to_clock_t(sig->cstime) };
		if (copy_to_user(ubuf, &t, sizeof(t)))
			return -EFAULT;
	}
	return (long)(get_jiffies_64() + (u32)(-300 * HZ)) * USER_HZ / HZ;
}
SYSCALL(__NR_times, sys_times);

/* ---- usage ------------------------------------------------------------- */

/* The faults of every thread of current's process, those gone too. */
static void group_faults(struct rusage *r)
{
	struct task_struct *t;

	r->ru_minflt = (long)current->signal->min_flt;
	r->ru_majflt = (long)current->signal->maj_flt;
	for_each_thread(current, t) {
		r->ru_minflt += (long)t->min_flt;
		r->ru_majflt += (long)t->maj_flt;
	}
}

/* ns as a struct timeval's two longs. */
static void ns_to_tv(long tv[2], u64 ns)
{
	tv[0] = (long)(ns / NSEC_PER_SEC);
	tv[1] = (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
}

/* RUSAGE_SELF is the process's (its threads'), RUSAGE_THREAD the caller's,
 * RUSAGE_CHILDREN its reaped children's (and theirs). */
static long sys_getrusage(int who, struct rusage __user *ru)
{
	struct signal_struct *sig = current->signal;
	struct rusage r;
	u64 ut, st;

	memset(&r, 0, sizeof(r));
	if (who == RUSAGE_SELF || who == RUSAGE_THREAD) {
		if (who == RUSAGE_SELF) {
			group_faults(&r);
			thread_group_cputime(current, &ut, &st);
		} else {
			r.ru_minflt = (long)current->min_flt;
			r.ru_majflt = (long)current->maj_flt;
			ut = current->utime;
			st = current->stime;
		}
		ns_to_tv(r.ru_utime, ut);
		ns_to_tv(r.ru_stime, st);
		if (current->mm)
			task_update_maxrss(current, current->mm);
		r.ru_maxrss = (long)sig->maxrss_kb;
	} else if (who == RUSAGE_CHILDREN) {
		ns_to_tv(r.ru_utime, sig->cutime);
		ns_to_tv(r.ru_stime, sig->cstime);
		r.ru_minflt = (long)sig->cmin_flt;
		r.ru_majflt = (long)sig->cmaj_flt;
		r.ru_maxrss = (long)sig->cmaxrss_kb;
	} else {
		return -EINVAL;
	}
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}
SYSCALL(__NR_getrusage, sys_getrusage);

#define SI_LOAD_SHIFT	16	/* sysinfo's loads: 16 bits of fraction */

struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	u16 procs, pad;
	unsigned long totalhigh, freehigh;
	u32 mem_unit;
	char _f[4];
};

/* Exact figures in pages (mem_unit = PAGE_SIZE): the leak checks of the
 * user tests compare freeram before and after each test. */
static long sys_sysinfo(struct sysinfo __user *info)
{
	struct sysinfo s;
	struct task_struct *t;

	memset(&s, 0, sizeof(s));
	s.uptime = (long)(ktime_get_ns() / 1000000000ULL);
	get_avenrun(s.loads, 0, SI_LOAD_SHIFT - FSHIFT);
	s.totalram = totalram_pages();
	s.freeram = nr_free_pages();
	si_swapinfo(&s.totalswap, &s.freeswap);
	s.mem_unit = PAGE_SIZE;
	list_for_each_entry(t, &task_list, tasks)
		s.procs++;
	return copy_to_user(info, &s, sizeof(s)) ? -EFAULT : 0;
}
SYSCALL(__NR_sysinfo, sys_sysinfo);
