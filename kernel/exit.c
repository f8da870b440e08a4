/* kernel/exit.c — the end of a process: do_exit releases everything but the
 * task itself, which stays a zombie until its parent's wait4 reaps it. */
#include <asm/io.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mm_verify.h>
#include <zpk/mmu.h>
#include <zpk/printk.h>
#include <zpk/reboot.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include <zpk/zero_page.h>

/* Drops current's address space; the kernel's tables stay loaded. */
static void exit_mm(void)
{
	struct mm_struct *mm = current->mm;

	if (!mm)
		return;
	task_update_maxrss(current, mm);
	/* mm_verify=exit: the counters and pages of this mm before the
	 * teardown, in time linear in it; all of them are swept on demand
	 * (/proc/sys/vm/mm_verify: the test runner, after each test). */
	if (mm_verify_on_exit)
		mm_verify_exit(mm);
	mm_release(current, mm);
	write_cr3(__pa(init_pgd));
	current->mm = NULL;
	mmput(mm);
}

static void exit_files(void)
{
	if (current->files) {
		put_files_struct(current->files);
		current->files = NULL;
	}
	if (current->cwd) {
		iput(current->cwd);
		current->cwd = NULL;
	}
}

/* Orphans go to init, which reaps them (Linux's forget_original_parent). */
static void reparent_children(void)
{
	struct task_struct *init = find_task_by_pid(1), *c, *n;
	bool zombies = false;

	list_for_each_entry_safe(c, n, &current->children, sibling) {
		list_del(&c->sibling);
		c->parent = init;
		c->exit_signal = SIGCHLD;  /* "We don't want people slaying init" */
		list_add_tail(&c->sibling, &init->children);
		zombies |= c->state == EXIT_ZOMBIE;
	}
	if (zombies)
		wake_up(&init->wait_chldexit);
}

/* When init ends, so does the machine: its status becomes QEMU's. */
static void __noreturn init_exited(int code)
{
	int status = code & 0x7f ? 128 + (code & 0x7f) : (code >> 8) & 0xff;

	pr_info("zpk: init exited with status %d\n", status);
	kernel_poweroff(status);
}

static void notify_parent(void)
{
	struct task_struct *p = current->parent;
	struct kernel_siginfo info = { .si_signo = SIGCHLD };
	int code = current->exit_code;

	info.si_code = code & 0x7f ? (code & 0x80 ? CLD_DUMPED : CLD_KILLED)
				   : CLD_EXITED;
	info.chld.pid = current->pid;
	info.chld.status = code & 0x7f ? code & 0x7f : (code >> 8) & 0xff;
	if (current->exit_signal)
		send_signal(p, current->exit_signal, &info);
	wake_up(&p->wait_chldexit);
}

void __noreturn do_exit(int code)
{
	if (current->pid == 1)
		init_exited(code);
	if (current->pid == 0)
		panic("the idle task tried to exit");
	exit_mm();
	exit_files();
	/* Every process's end checks that nobody wrote the shared zeros. */
	zero_page_verify();
	current->exit_code = code;
	reparent_children();
	current->state = EXIT_ZOMBIE;
	notify_parent();
	schedule();
	panic("zombie %d ran again", current->pid);
}

static long sys_exit(int status)
{
	do_exit((status & 0xff) << 8);
}
SYSCALL(__NR_exit, sys_exit);

/* One thread per process: exit_group is exit. */
static long sys_exit_group(int status)
{
	do_exit((status & 0xff) << 8);
}
SYSCALL(__NR_exit_group, sys_exit_group);

#define WNOHANG		0x00000001
#define WUNTRACED	0x00000002
#define WCONTINUED	0x00000008
#define __WALL		0x40000000
#define __WCLONE	0x80000000

/* struct rusage: times, then 14 longs of which zpk fills three. */
struct rusage {
	long ru_utime[2], ru_stime[2];
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss;
	long ru_minflt, ru_majflt, ru_nswap, ru_inblock, ru_oublock;
	long ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};

static bool child_matches(struct task_struct *c, int pid)
{
	return pid == -1 || pid == 0 || pid < -1 ? true : c->pid == pid;
}

/* Frees a zombie, then copies out what wait4 reports: a bad pointer
 * gives -EFAULT with the child already gone, as on Linux. */
static long reap(struct task_struct *c, int __user *status,
		 struct rusage __user *ru)
{
	int pid = c->pid, code = c->exit_code;
	struct rusage r = { .ru_minflt = (long)c->min_flt,
			    .ru_majflt = (long)c->maj_flt,
			    .ru_maxrss = (long)c->maxrss_kb };

	current->cmin_flt += c->min_flt + c->cmin_flt;
	current->cmaj_flt += c->maj_flt + c->cmaj_flt;
	if (c->maxrss_kb > current->cmaxrss_kb)
		current->cmaxrss_kb = c->maxrss_kb;
	list_del(&c->sibling);
	c->state = EXIT_DEAD;
	free_task(c);
	if (status && copy_to_user(status, &code, sizeof(int)))
		return -EFAULT;
	if (ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	return pid;
}

/* A zombie child matching pid, or NULL; *any says whether one matched. */
static struct task_struct *find_zombie(int pid, bool *any)
{
	struct task_struct *c;

	*any = false;
	list_for_each_entry(c, &current->children, sibling) {
		if (!child_matches(c, pid))
			continue;
		*any = true;
		if (c->state == EXIT_ZOMBIE)
			return c;
	}
	return NULL;
}

static long sys_wait4(int pid, int __user *status, int options,
		      struct rusage __user *ru)
{
	struct task_struct *c;
	bool any;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	for (;;) {
		c = find_zombie(pid, &any);
		if (c)
			return reap(c, status, ru);
		if (!any)
			return -ECHILD;
		if (options & WNOHANG)
			return 0;
		if (sleep_on(&current->wait_chldexit))
			return -EINTR;
	}
}
SYSCALL(__NR_wait4, sys_wait4);
