/* kernel/fork.c — new tasks: fork's copy of a process (dup_mm, dup_fd),
 * threads sharing its parts (clone), kernel threads; the address-space
 * life cycle. */
#include <asm/processor.h>
#include <asm/tlbflush.h>
#include <zpk/bug.h>
#include <zpk/err.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/huge_mm.h>
#include <zpk/kernel_stat.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/oom.h>
#include <zpk/mman.h>
#include <zpk/pid.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/smp_lock.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>
#include <zpk/userfaultfd_k.h>

#define THREAD_ORDER	2		/* THREAD_SIZE = 4 pages */

#define CSIGNAL			0x000000ff
#define CLONE_VM		0x00000100
#define CLONE_FS		0x00000200
#define CLONE_FILES		0x00000400
#define CLONE_SIGHAND		0x00000800
#define CLONE_PTRACE		0x00002000
#define CLONE_VFORK		0x00004000
#define CLONE_PARENT		0x00008000
#define CLONE_THREAD		0x00010000
#define CLONE_NEWNS		0x00020000
#define CLONE_SYSVSEM		0x00040000
#define CLONE_SETTLS		0x00080000
#define CLONE_PARENT_SETTID	0x00100000
#define CLONE_CHILD_CLEARTID	0x00200000
#define CLONE_DETACHED		0x00400000
#define CLONE_UNTRACED		0x00800000
#define CLONE_CHILD_SETTID	0x01000000
#define CLONE_NEWUSER		0x10000000
#define CLONE_IO		0x80000000

/* ---- address spaces ---------------------------------------------------- */

/*
 * Every mm from mm_alloc until its exit_mmap is over, oldest first, for
 * mm_verify: a dying mm's pages are still mapped until then. mmlist_lock
 * (an rw_semaphore) protects the list, for writing; mm_verify holds it
 * so while it takes every mm's mmap_lock in list order and tallies the
 * mappings in each page's _mapcount: /proc/kpagecount and kpageflags read
 * those under it for reading.
 */
LIST_HEAD(mmlist);
DECLARE_RWSEM(mmlist_lock);

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm_init_vmas(mm);
	if (!pgd_alloc(mm)) {
		kfree(mm);
		return NULL;
	}
	atomic_set(&mm->mm_users, 1);
	atomic_set(&mm->mm_count, 1);
	down_write(&mmlist_lock);
	list_add_tail(&mm->mmlist, &mmlist);
	up_write(&mmlist_lock);
	return mm;
}

/* The last mmgrab gone (and with it every user): the struct goes. */
void mmdrop(struct mm_struct *mm)
{
	BUG_ON(atomic_read(&mm->mm_count) <= 0);
	if (atomic_dec_and_test(&mm->mm_count))
		kfree(mm);
}

/*
 * Linux's set_mm_exe_file: the program mm runs (or NULL), held with a
 * reference and a deny_write_access, so that the file cannot be opened
 * for writing while any mm runs it. Cannot fail: exec's own deny already
 * keeps writers out, and a fork copies a file that is denied already.
 */
void set_mm_exe_file(struct mm_struct *mm, struct file *new)
{
	struct file *old = mm->exe_file;

	if (new) {
		int err = deny_write_access(get_file(new));

		BUG_ON(err);
	}
	mm->exe_file = new;
	if (old) {
		allow_write_access(old);
		fput(old);
	}
}

/* Linux's exit_mmap: every PTE zapped, every VMA and table freed, under
 * the mmap_lock (mm_verify may be looking), then off the mmlist. Nobody
 * uses mm any more, but lazily. */
static void exit_mmap(struct mm_struct *mm)
{
	mmap_write_lock(mm);
	exit_mmap_vmas(mm);
	/* A CPU idle after one of mm's tasks may keep its tables loaded
	 * (lazy TLB): the flush makes every CPU in mm_cpumask leave them
	 * before they are freed. */
	flush_tlb_mm(mm);
	free_pgtables(mm);
	mmap_write_unlock(mm);
	down_write(&mmlist_lock);
	list_del(&mm->mmlist);
	up_write(&mmlist_lock);
	exit_oom_victim(mm);
}

/* The exe file's deny_write_access is the VFS's: the big kernel lock. */
void mmput(struct mm_struct *mm)
{
	if (!atomic_dec_and_test(&mm->mm_users))
		return;
	exit_mmap(mm);
	lock_kernel();
	set_mm_exe_file(mm, NULL);
	unlock_kernel();
	mmdrop(mm);
}

/*
 * Copies every VMA (vma_link: list and tree) and its PTEs, as
 * Linux: a VM_DONTCOPY VMA is left out (and off the child's *_vm
 * counters), a VM_WIPEONFORK one is copied without its PTEs, so the child
 * faults in zeros there. A VMA registered with a userfaultfd stays so
 * only for UFFD_FEATURE_EVENT_FORK (with a uffd of the child's, on uf);
 * otherwise its copied PTEs lose their uffd-wp bits.
 */
static int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm,
		    struct list_head *uf)
{
	struct vm_area_struct *vma, *new;

	list_for_each_entry(vma, &oldmm->mmap, vm_list) {
		if (vma->vm_flags & VM_DONTCOPY) {
			vm_stat_account(mm, vma->vm_flags,
					-(long)vma_pages(vma));
			continue;
		}
		new = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		*new = *vma;
		new->vm_mm = mm;
		/* Locks are not inherited (locked_vm starts at 0). */
		new->vm_flags &= ~VM_LOCKED_MASK;
		if (dup_userfaultfd(new, uf)) {
			kmem_cache_free(vm_area_cachep, new);
			return -ENOMEM;
		}
		if (new->vm_file)
			get_file(new->vm_file);
		vma_link(mm, new);
		if (vma->vm_flags & VM_WIPEONFORK)
			continue;
		if (copy_page_range(mm, oldmm, vma) ||
		    copy_huge_pmds(mm, oldmm, vma))
			return -ENOMEM;
		if (userfaultfd_wp(vma) && !userfaultfd_wp(new))
			uffd_wp_range(new, new->vm_start,
				      new->vm_end - new->vm_start, false);
	}
	return 0;
}

/* The layout fields and VM counters fork copies (not the RSS ones: the
 * copied PTEs count themselves into the child as copy_page_range runs). */
static void dup_mm_fields(struct mm_struct *mm, const struct mm_struct *old)
{
	mm->mmap_base = old->mmap_base;
	mm->start_code = old->start_code;
	mm->end_code = old->end_code;
	mm->start_data = old->start_data;
	mm->end_data = old->end_data;
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->start_stack = old->start_stack;
	mm->arg_start = old->arg_start;
	mm->arg_end = old->arg_end;
	mm->env_start = old->env_start;
	mm->env_end = old->env_end;
	memcpy(mm->saved_auxv, old->saved_auxv, sizeof(mm->saved_auxv));
	mm->flags = old->flags & (MMF_DUMPABLE_MASK | 1UL << MMF_DISABLE_THP);
	mm->total_vm = old->total_vm;
	mm->data_vm = old->data_vm;
	mm->exec_vm = old->exec_vm;
	mm->stack_vm = old->stack_vm;
	mm->hiwater_vm = old->hiwater_vm;
	set_mm_exe_file(mm, old->exe_file);
}

/* Both mms' mmap_locks for writing, the parent's first (it is the older
 * of the two on the mmlist, the order mm_verify takes them in). */
struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();
	LIST_HEAD(uf);
	int err;

	if (!mm)
		return NULL;
	mmap_write_lock(oldmm);
	mmap_write_lock(mm);
	dup_mm_fields(mm, oldmm);
	err = dup_mmap(mm, oldmm, &uf);
	mmap_write_unlock(mm);
	mmap_write_unlock(oldmm);
	if (err) {
		mmput(mm);	/* what was copied is fully accounted */
		dup_userfaultfd_fail(&uf);
		return NULL;
	}
	dup_userfaultfd_complete(&uf);
	/* Linux starts the child's peak at its own size, not the parent's. */
	reset_mm_hiwater_rss(mm);
	return mm;
}

/* ---- tasks ------------------------------------------------------------- */

/* pid 0's shared parts; a kernel thread copies them (Linux's
 * init/init_task.c). */
struct sighand_struct init_sighand = {
	.count = 1,
	.signalfd_wqh = WAIT_QUEUE_HEAD_INIT(init_sighand.signalfd_wqh),
};
struct signal_struct init_signals = {
	.sigcnt = 1, .live = 1, .nr_threads = 1,
	.thread_head = LIST_HEAD_INIT(init_signals.thread_head),
	.wait_chldexit = WAIT_QUEUE_HEAD_INIT(init_signals.wait_chldexit),
	.core_limit_max = ~0ULL,	/* RLIMIT_CORE: 0, unlimited (Linux's) */
};
struct fs_struct init_fs = { .users = 1, .umask = 022 };

/*
 * A task with a kernel stack, a bounce page and empty lists, not yet on
 * any list. The bounce page (fs/read_write.c) is the task's for its life:
 * a read that sleeps in a pipe takes no page from the allocator, so the
 * free-page counts other tasks take meanwhile do not move under them.
 */
static struct task_struct *alloc_task(void)
{
	struct task_struct *t = kzalloc(sizeof(*t), GFP_KERNEL);
	struct page *stack, *rw_page;

	if (!t)
		return NULL;
	stack = alloc_pages(GFP_KERNEL, THREAD_ORDER);
	rw_page = alloc_page(GFP_KERNEL);
	if (!stack || !rw_page) {
		if (stack)
			__free_pages(stack, THREAD_ORDER);
		if (rw_page)
			__free_page(rw_page);
		kfree(t);
		return NULL;
	}
	t->stack = page_address(stack);
	t->rw_page = page_address(rw_page);
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
	INIT_LIST_HEAD(&t->thread_node);
	INIT_LIST_HEAD(&t->run_list);
	INIT_LIST_HEAD(&t->timeout_list);
	init_waitqueue_head(&t->wait_pidfd);
	t->state = TASK_UNINTERRUPTIBLE;	/* until wake_up_process */
	t->exit_signal = SIGCHLD;
	t->usage = 1;
	t->cpus_mask = current->cpus_mask;
	t->cpu = smp_processor_id();	/* its rq until its first wake-up */
	return t;
}

void put_signal_struct(struct signal_struct *sig)
{
	BUG_ON(sig->sigcnt <= 0);
	if (--sig->sigcnt == 0)
		kfree(sig);
}

void put_sighand(struct sighand_struct *sh)
{
	BUG_ON(sh->count <= 0);
	if (--sh->count)
		return;
	/* epoll items of signalfds that watched it (Linux's
	 * signalfd_cleanup) */
	wake_up_pollfree(&sh->signalfd_wqh);
	kfree(sh);
}

void put_fs_struct(struct fs_struct *fs)
{
	BUG_ON(fs->users <= 0);
	if (--fs->users)
		return;
	if (fs->pwd)
		iput(fs->pwd);
	kfree(fs);
}

/* Drops a reference on t; the last one frees the struct (its stack and
 * pid went when it was released) and its hold on the signal_struct. */
void put_task_struct(struct task_struct *t)
{
	BUG_ON(t->usage <= 0);
	if (--t->usage)
		return;
	if (t->signal)
		put_signal_struct(t->signal);
	kfree(t);
}

/* The stack and the bounce page, once no CPU runs on the task. */
void put_task_stack(struct task_struct *t)
{
	__free_pages(virt_to_page(t->stack), THREAD_ORDER);
	t->stack = NULL;
	free_page((unsigned long)t->rw_page);
	t->rw_page = NULL;
}

/* The new task's shared parts that copy_process got, dropped again. */
static void drop_task_parts(struct task_struct *t)
{
	if (t->mm)
		mmput(t->mm);
	if (t->files)
		put_files_struct(t->files);
	if (t->fs)
		put_fs_struct(t->fs);
	if (t->sighand)
		put_sighand(t->sighand);
}

/* A task that never ran: its parts, stack and pid back, then the struct. */
static void drop_new_task(struct task_struct *t)
{
	drop_task_parts(t);
	if (t->pid > 0)
		free_pid(t->pid);
	put_task_stack(t);
	put_task_struct(t);
}

unsigned long total_forks;

/* Links t (its pid and parts ready) into its parent's children or its
 * thread group, and the task list, and makes it runnable. */
static void attach_task(struct task_struct *t, unsigned long flags)
{
	struct signal_struct *sig = t->signal;

	total_forks++;
	t->parent = flags & (CLONE_PARENT | CLONE_THREAD) ?
		    current->group_leader->parent : current;
	t->start_time = ktime_get_ns();
	if (thread_group_leader(t)) {
		/* Init cannot be killed by what it does not handle. */
		if (t->pid == 1)
			sig->flags |= SIGNAL_UNKILLABLE;
		list_add_tail(&t->sibling, &t->parent->children);
	} else {
		sig->nr_threads++;
		sig->live++;
		/* A thread born during a group stop stops too (Linux's
		 * task_join_group_stop). */
		if (current->jobctl & JOBCTL_STOP_PENDING) {
			t->jobctl |= JOBCTL_STOP_PENDING;
			sig->group_stop_count++;
		}
	}
	list_add_tail(&t->thread_node, &sig->thread_head);
	list_add_tail(&t->tasks, &task_list);
	wake_up_process(t);
}

/* What a child copies of its parent besides its shared parts. */
static void copy_task_fields(struct task_struct *t)
{
	memcpy(t->comm, current->comm, sizeof(t->comm));
	t->fsbase = current->fsbase;
	t->nice = current->nice;
	t->ioprio = current->ioprio;
	t->ngroups = current->ngroups;
	memcpy(t->groups, current->groups, sizeof(t->groups));
	t->blocked = current->blocked;
	t->mempolicy = current->mempolicy;
	t->no_new_privs = current->no_new_privs;
}

/* A fork or vfork child keeps the alternate signal stack; a thread
 * (CLONE_VM without CLONE_VFORK) starts without one, as on Linux: two
 * threads on one stack would overwrite each other's frames. */
static void copy_sigaltstack(struct task_struct *t, unsigned long flags)
{
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM) {
		sas_ss_reset(t);
		return;
	}
	t->sas_ss_sp = current->sas_ss_sp;
	t->sas_ss_size = current->sas_ss_size;
	t->sas_ss_flags = current->sas_ss_flags;
}

/* A copy of fs with one user, or NULL. */
static struct fs_struct *copy_fs_struct(const struct fs_struct *fs)
{
	struct fs_struct *copy = kmalloc(sizeof(*copy), GFP_KERNEL);

	if (!copy)
		return NULL;
	*copy = *fs;
	copy->users = 1;
	if (fs->pwd)
		ihold(fs->pwd);
	return copy;
}

/* CLONE_FS shares the cwd and umask; otherwise the child has a copy. */
static int copy_fs(unsigned long flags, struct task_struct *t)
{
	struct fs_struct *fs = current->fs;

	if (flags & CLONE_FS) {
		fs->users++;
		t->fs = fs;
		return 0;
	}
	t->fs = copy_fs_struct(fs);
	return t->fs ? 0 : -ENOMEM;
}

/* CLONE_FILES shares the descriptor table; otherwise a copy. */
static int copy_files(unsigned long flags, struct task_struct *t)
{
	if (!current->files)
		return 0;
	if (flags & CLONE_FILES) {
		current->files->count++;
		t->files = current->files;
		return 0;
	}
	t->files = dup_fd(current->files);
	return t->files ? 0 : -ENOMEM;
}

/* A private copy of sh's handlers, count 1; NULL if out of memory. */
static struct sighand_struct *dup_sighand(const struct sighand_struct *sh)
{
	struct sighand_struct *copy = kmalloc(sizeof(*sh), GFP_KERNEL);

	if (copy) {
		*copy = *sh;
		copy->count = 1;
		init_waitqueue_head(&copy->signalfd_wqh);
	}
	return copy;
}

/* CLONE_SIGHAND shares the handlers; otherwise a copy. */
static int copy_sighand(unsigned long flags, struct task_struct *t)
{
	if (flags & CLONE_SIGHAND) {
		current->sighand->count++;
		t->sighand = current->sighand;
		return 0;
	}
	t->sighand = dup_sighand(current->sighand);
	return t->sighand ? 0 : -ENOMEM;
}

/* CLONE_THREAD joins current's group; a new process starts its own, in
 * its parent's process group and session, with its terminal. */
static int copy_signal(unsigned long flags, struct task_struct *t)
{
	struct signal_struct *old = current->signal, *sig;

	if (flags & CLONE_THREAD) {
		old->sigcnt++;
		t->signal = old;
		return 0;
	}
	sig = kzalloc(sizeof(*sig), GFP_KERNEL);
	if (!sig)
		return -ENOMEM;
	sig->sigcnt = sig->live = sig->nr_threads = 1;
	INIT_LIST_HEAD(&sig->thread_head);
	init_waitqueue_head(&sig->wait_chldexit);
	sig->pgrp = old->pgrp;
	sig->session = old->session;
	sig->tty = old->tty;
	sig->oom_score_adj = old->oom_score_adj;
	sig->core_limit = old->core_limit;
	sig->core_limit_max = old->core_limit_max;
	t->signal = sig;
	return 0;
}

int unshare_sighand(struct task_struct *t)
{
	struct sighand_struct *copy;

	if (t->sighand->count == 1)
		return 0;
	copy = dup_sighand(t->sighand);
	if (!copy)
		return -ENOMEM;
	t->sighand->count--;
	t->sighand = copy;
	return 0;
}

/* A fork copies the parent's address space; CLONE_VM shares it. */
static int copy_mm(unsigned long flags, struct task_struct *t)
{
	if (!current->mm)
		return 0;
	if (flags & CLONE_VM) {
		t->mm = current->mm;
		mmget(t->mm);
		return 0;
	}
	t->mm = dup_mm(current->mm);
	return t->mm ? 0 : -ENOMEM;
}

/* The shared or copied parts of a new task, by flags: 0 or -ENOMEM
 * (what was got stays in t for drop_task_parts). */
static int copy_task_parts(unsigned long flags, struct task_struct *t)
{
	if (copy_fs(flags, t) || copy_files(flags, t) ||
	    copy_sighand(flags, t) || copy_signal(flags, t) ||
	    copy_mm(flags, t))
		return -ENOMEM;
	return 0;
}

/* Its pid, and a thread's tgid and leader (a process leads itself). */
static int set_task_ids(struct task_struct *t, unsigned long flags)
{
	t->pid = alloc_pid();
	if (t->pid < 0) {
		int err = t->pid;

		t->pid = 0;
		return err;
	}
	t->tgid = flags & CLONE_THREAD ? current->tgid : t->pid;
	t->group_leader = flags & CLONE_THREAD ? current->group_leader : t;
	return 0;
}

/* The child's registers: the parent's, returning 0, on its new stack. */
static void copy_user_regs(struct task_struct *t,
			   const struct kernel_clone_args *args)
{
	*task_pt_regs(t) = *task_pt_regs(current);
	task_pt_regs(t)->rax = 0;		/* fork returns 0 in the child */
	if (args->stack)
		task_pt_regs(t)->rsp = args->stack;
	if (args->flags & CLONE_SETTLS)
		t->fsbase = args->tls;
}

/* Who hears of the child's end: a thread nobody (it reaps itself), a
 * CLONE_PARENT sibling the parent as its creator would, else the parent
 * by the signal clone was given (Linux's copy_process). */
static int child_exit_signal(const struct kernel_clone_args *args)
{
	if (args->flags & CLONE_THREAD)
		return -1;
	if (args->flags & CLONE_PARENT)
		return current->group_leader->exit_signal;
	return args->exit_signal;
}

/* The new task, attached and runnable; ERR_PTR(-ENOMEM), with every pid
 * below pid_max in use ERR_PTR(-EAGAIN) as Linux, or -EINTR when current
 * is being killed (a new thread must not slip out of its group's end). */
static struct task_struct *copy_process(const struct kernel_clone_args *args)
{
	struct task_struct *t = alloc_task();
	int err;

	if (!t)
		return ERR_PTR(-ENOMEM);
	err = set_task_ids(t, args->flags);
	if (!err)
		err = copy_task_parts(args->flags, t);
	if (!err && fatal_signal_pending(current))
		err = -EINTR;
	if (err) {
		drop_new_task(t);
		return ERR_PTR(err);
	}
	copy_task_fields(t);
	copy_sigaltstack(t, args->flags);
	copy_user_regs(t, args);
	if (args->flags & CLONE_CHILD_SETTID)
		t->set_child_tid = args->child_tid;
	if (args->flags & CLONE_CHILD_CLEARTID)
		t->clear_child_tid = args->child_tid;
	if (args->flags & CLONE_VFORK)
		t->vfork_parent = current;
	t->exit_signal = child_exit_signal(args);
	t->flags = PF_FORKNOEXEC;
	fpu_save_to(t);
	copy_thread(t, NULL, NULL);
	attach_task(t, args->flags);
	return t;
}

/* A kernel thread: pid 0's parts copied, files empty (init opens the
 * console), a process of its own. */
int kernel_thread(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = alloc_task();
	int err;

	if (!t)
		return -ENOMEM;
	strlcpy(t->comm, name, sizeof(t->comm));
	err = set_task_ids(t, 0);
	if (!err && (copy_fs(0, t) || copy_sighand(0, t) ||
		     copy_signal(0, t) || !(t->files = files_alloc())))
		err = -ENOMEM;
	if (err) {
		drop_new_task(t);
		return err;
	}
	fpu_save_to(t);
	copy_thread(t, fn, arg);
	attach_task(t, 0);
	return t->pid;
}

/*
 * A new child's first C code after the switch's end (from ret_from_fork,
 * on its own kernel stack and address space): CLONE_CHILD_SETTID's store,
 * as Linux's schedule_tail; a bad pointer is ignored, as there.
 */
void schedule_tail(void)
{
	if (current->set_child_tid)
		(void)put_user(current->pid, current->set_child_tid);
}

void mm_release(struct task_struct *tsk, struct mm_struct *mm)
{
	futex_exit_release(tsk);
	/* Linux writes only if another task shares mm: nobody else could
	 * see it (and a fork child's word is its own copy). */
	if (tsk->clear_child_tid) {
		if (atomic_read(&mm->mm_users) > 1) {
			(void)put_user(0, tsk->clear_child_tid);
			futex_wake((u32 __user *)tsk->clear_child_tid, 1);
		}
		tsk->clear_child_tid = NULL;
	}
	if (tsk->vfork_parent) {
		tsk->vfork_done = true;
		wake_up_process(tsk->vfork_parent);
		tsk->vfork_parent = NULL;
	}
}

/* The vfork parent sleeps until the child execs or exits, or until a
 * fatal signal comes (Linux's killable wait): then the child is told not
 * to wake a parent that may be gone by then. */
static void wait_for_vfork_done(struct task_struct *child)
{
	for (;;) {
		current->state = TASK_INTERRUPTIBLE;
		if (child->vfork_done)
			break;
		if (fatal_signal_pending(current)) {
			child->vfork_parent = NULL;
			break;
		}
		schedule();
	}
	current->state = TASK_RUNNING;
}

/*
 * fork, vfork and clone: the child's pid, or -errno. The parent's
 * CLONE_PARENT_SETTID store happens after the copy, so a fork child does
 * not see it (as Linux). With CLONE_VFORK, returns once the child has
 * let go of the shared mm.
 */
long kernel_clone(const struct kernel_clone_args *args)
{
	struct task_struct *t = copy_process(args);
	int pid;

	if (IS_ERR(t))
		return PTR_ERR(t);
	pid = t->pid;
	if (args->flags & CLONE_PARENT_SETTID)
		(void)put_user(pid, args->parent_tid);
	if (args->flags & CLONE_VFORK)
		wait_for_vfork_done(t);
	return pid;
}

static long sys_fork(void)
{
	struct kernel_clone_args args = { .exit_signal = SIGCHLD };

	return kernel_clone(&args);
}
SYSCALL(__NR_fork, sys_fork);

static long sys_vfork(void)
{
	struct kernel_clone_args args = { .flags = CLONE_VFORK | CLONE_VM,
					  .exit_signal = SIGCHLD };

	return kernel_clone(&args);
}
SYSCALL(__NR_vfork, sys_vfork);

/* What zpk's clone does: processes and threads, without namespaces,
 * pidfds or CLONE_NEWCGROUP. CLONE_IO shares the I/O context, which zpk
 * has none of: taken, nothing to share (stress-ng's userfaultfd stressor
 * clones with it). */
#define CLONE_SUPPORTED	(CLONE_VM | CLONE_FS | CLONE_FILES |		\
			 CLONE_SIGHAND | CLONE_PTRACE | CLONE_VFORK |	\
			 CLONE_PARENT | CLONE_THREAD | CLONE_SYSVSEM |	\
			 CLONE_SETTLS | CLONE_PARENT_SETTID |		\
			 CLONE_CHILD_CLEARTID | CLONE_DETACHED |	\
			 CLONE_UNTRACED | CLONE_CHILD_SETTID | CLONE_IO)

/*
 * Linux's flag checks first, in copy_process's order (inconsistent
 * combinations are -EINVAL; init may not make siblings), then what zpk
 * lacks: namespaces and pidfds are -EINVAL too (docs/syscalls.md).
 * As the legacy clone, only the low 32 bits of flags count.
 */
static int clone_flags_ok(unsigned long flags, unsigned long tls)
{
	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	if ((flags & CLONE_PARENT) &&
	    (current->signal->flags & SIGNAL_UNKILLABLE))
		return -EINVAL;
	if (flags & ~CLONE_SUPPORTED)
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && tls >= TASK_SIZE)
		return -EPERM;	/* as arch_prctl(ARCH_SET_FS) */
	return 0;
}

/* x86-64 order: clone(flags, newsp, parent_tid, child_tid, tls). */
static long sys_clone(unsigned long clone_flags, unsigned long newsp,
		      int __user *parent_tid, int __user *child_tid,
		      unsigned long tls)
{
	u32 flags = (u32)clone_flags;
	struct kernel_clone_args args = {
		.flags = flags & ~CSIGNAL, .exit_signal = flags & CSIGNAL,
		.stack = newsp, .tls = tls,
		.parent_tid = parent_tid, .child_tid = child_tid,
	};
	int err = clone_flags_ok(args.flags, tls);

	if (err)
		return err;
	return kernel_clone(&args);
}
SYSCALL(__NR_clone, sys_clone);

/* ---- unshare ---------------------------------------------------------- */

#define CLONE_NEWCGROUP		0x02000000
#define CLONE_NEWUTS		0x04000000
#define CLONE_NEWIPC		0x08000000
#define CLONE_NEWPID		0x20000000
#define CLONE_NEWNET		0x40000000
#define CLONE_NEWTIME		0x00000080
#define UNSHARE_VALID	(CLONE_THREAD | CLONE_FS | CLONE_NEWNS | \
			 CLONE_SIGHAND | CLONE_VM | CLONE_FILES | \
			 CLONE_SYSVSEM | CLONE_NEWUTS | CLONE_NEWIPC | \
			 CLONE_NEWNET | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWCGROUP | CLONE_NEWTIME)
#define UNSHARE_NS	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | \
			 CLONE_NEWNET | CLONE_NEWUSER | CLONE_NEWPID | \
			 CLONE_NEWCGROUP | CLONE_NEWTIME)

/* The cwd and umask become the caller's own (CLONE_FS): 0 or -ENOMEM. */
static int unshare_fs(void)
{
	struct fs_struct *fs = current->fs, *copy;

	if (fs->users == 1)
		return 0;
	copy = copy_fs_struct(fs);
	if (!copy)
		return -ENOMEM;
	current->fs = copy;
	put_fs_struct(fs);
	return 0;
}

/*
 * unshare(2), Linux's ksys_unshare for what zpk has: CLONE_FILES and
 * CLONE_FS give the caller its own descriptor table, and cwd and umask.
 * Linux itself only pretends to unshare the thread group, handlers and
 * address space: those are 0 when nothing shares them, else -EINVAL.
 * CLONE_SYSVSEM is taken (no semaphores to undo); namespaces, which zpk
 * lacks, are -EINVAL, as on a Linux built without them.
 */
static long sys_unshare(unsigned long flags)
{
	if (flags & CLONE_NEWUSER)
		flags |= CLONE_THREAD | CLONE_FS;
	if (flags & CLONE_VM)
		flags |= CLONE_SIGHAND;
	if (flags & CLONE_SIGHAND)
		flags |= CLONE_THREAD;
	if (flags & CLONE_NEWNS)
		flags |= CLONE_FS;
	if (flags & ~UNSHARE_VALID)
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !thread_group_empty(current))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && current->sighand->count > 1)
		return -EINVAL;
	if ((flags & CLONE_VM) && atomic_read(&current->mm->mm_users) > 1)
		return -EINVAL;
	if (flags & UNSHARE_NS)
		return -EINVAL;
	if ((flags & CLONE_FS) && unshare_fs())
		return -ENOMEM;
	if ((flags & CLONE_FILES) && unshare_files())
		return -ENOMEM;
	return 0;
}
SYSCALL(__NR_unshare, sys_unshare);

/* clone3 is missing: glibc and musl fall back to clone on -ENOSYS, as
 * they do on Linux before 5.3, so this stays quiet in the log. */
static long sys_clone3(void)
{
	return -ENOSYS;
}
SYSCALL(__NR_clone3, sys_clone3);
