/* kernel/fork.c — new tasks: fork's copy of a process (dup_mm, dup_fd),
 * kernel threads, pids; and the address-space life cycle. */
#include <asm/processor.h>
#include <zpk/bug.h>
#include <zpk/err.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/pid.h>
#include <zpk/printk.h>
#include <zpk/proc_fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>

#define THREAD_ORDER	2		/* THREAD_SIZE = 4 pages */

/* ---- address spaces ---------------------------------------------------- */

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
	mm->mm_users = 1;
	return mm;
}

/* Linux's exit_mmap: every PTE zapped, every VMA and table freed. */
static void exit_mmap(struct mm_struct *mm)
{
	exit_mmap_vmas(mm);
	free_pgtables(mm);
}

void mmput(struct mm_struct *mm)
{
	if (--mm->mm_users)
		return;
	exit_mmap(mm);
	kfree(mm);
}

/* Copies every VMA in order (so the list stays sorted) and its PTEs. */
static int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct vm_area_struct *vma, *new;

	list_for_each_entry(vma, &oldmm->mmap, vm_list) {
		new = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
		if (!new)
			return -ENOMEM;
		*new = *vma;
		new->vm_mm = mm;
		if (new->vm_file)
			get_file(new->vm_file);
		list_add_tail(&new->vm_list, &mm->mmap);
		mm->map_count++;
		if (copy_page_range(mm, oldmm, vma))
			return -ENOMEM;
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
	mm->total_vm = old->total_vm;
	mm->locked_vm = old->locked_vm;
	mm->data_vm = old->data_vm;
	mm->exec_vm = old->exec_vm;
	mm->stack_vm = old->stack_vm;
	mm->hiwater_vm = old->hiwater_vm;
}

struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	dup_mm_fields(mm, oldmm);
	if (dup_mmap(mm, oldmm)) {
		mmput(mm);	/* what was copied is fully accounted */
		return NULL;
	}
	/* Linux starts the child's peak at its own size, not the parent's. */
	mm->hiwater_rss = get_mm_rss(mm);
	return mm;
}

/* ---- tasks ------------------------------------------------------------- */

/* A task with a kernel stack and empty lists, not yet on any list. */
static struct task_struct *alloc_task(void)
{
	struct task_struct *t = kzalloc(sizeof(*t), GFP_KERNEL);
	struct page *stack;

	if (!t)
		return NULL;
	stack = alloc_pages(GFP_KERNEL, THREAD_ORDER);
	if (!stack) {
		kfree(t);
		return NULL;
	}
	t->stack = page_address(stack);
	INIT_LIST_HEAD(&t->children);
	INIT_LIST_HEAD(&t->sibling);
	INIT_LIST_HEAD(&t->run_list);
	init_waitqueue_head(&t->wait_chldexit);
	t->state = TASK_UNINTERRUPTIBLE;	/* until wake_up_process */
	t->exit_signal = SIGCHLD;
	t->umask = 022;
	t->usage = 1;
	return t;
}

/* Drops a reference on t; the last one frees the struct (its stack and
 * pid went when it was reaped). */
void put_task_struct(struct task_struct *t)
{
	BUG_ON(t->usage <= 0);
	if (--t->usage == 0)
		kfree(t);
}

/* A task that never ran: its stack and pid back, then the struct. */
static void drop_new_task(struct task_struct *t)
{
	if (t->pid > 0)
		free_pid(t->pid);
	__free_pages(virt_to_page(t->stack), THREAD_ORDER);
	kfree(t);
}

/* Reaping: t leaves the task list and gives back its stack and pid; the
 * struct stays while a /proc file holds it (it sees EXIT_DEAD). */
void free_task(struct task_struct *t)
{
	list_del(&t->tasks);
	proc_flush_pid(t->pid);
	free_pid(t->pid);
	__free_pages(virt_to_page(t->stack), THREAD_ORDER);
	t->stack = NULL;
	put_task_struct(t);
}

/* Links t (its pid already allocated) as current's child and makes it
 * runnable. Init cannot be killed by what it does not handle. */
static void attach_task(struct task_struct *t)
{
	if (t->pid == 1)
		t->signal_flags |= SIGNAL_UNKILLABLE;
	t->parent = current;
	list_add_tail(&t->sibling, &current->children);
	list_add_tail(&t->tasks, &task_list);
	t->start_time = ktime_get_ns();
	wake_up_process(t);
}

/* What a child shares or copies of its parent besides memory. */
static void copy_task_fields(struct task_struct *t)
{
	memcpy(t->comm, current->comm, sizeof(t->comm));
	t->fsbase = current->fsbase;
	t->cwd = current->cwd;
	if (t->cwd)
		ihold(t->cwd);
	strlcpy(t->cwd_path, current->cwd_path, sizeof(t->cwd_path));
	t->umask = current->umask;
	t->oom_score_adj = current->oom_score_adj;
	memcpy(t->sighand, current->sighand, sizeof(t->sighand));
	t->blocked = current->blocked;
}

/* fork: a copy of current, running; ERR_PTR(-ENOMEM) or, with every pid
 * below pid_max in use, ERR_PTR(-EAGAIN) as Linux. */
struct task_struct *copy_process(void)
{
	struct task_struct *t = alloc_task();
	int err = -ENOMEM;

	if (!t)
		return ERR_PTR(-ENOMEM);
	t->pid = alloc_pid();
	if (t->pid < 0) {
		err = t->pid;
		t->pid = 0;
		goto fail;
	}
	copy_task_fields(t);
	if (current->mm && !(t->mm = dup_mm(current->mm)))
		goto fail;
	if (current->files && !(t->files = dup_fd(current->files)))
		goto fail;
	*task_pt_regs(t) = *task_pt_regs(current);
	task_pt_regs(t)->rax = 0;		/* fork returns 0 in the child */
	fpu_save_to(t);
	copy_thread(t, NULL, NULL);
	attach_task(t);
	return t;
fail:
	if (t->mm)
		mmput(t->mm);
	if (t->cwd)
		iput(t->cwd);
	drop_new_task(t);
	return ERR_PTR(err);
}

int kernel_thread(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t = alloc_task();

	if (!t)
		return -ENOMEM;
	strlcpy(t->comm, name, sizeof(t->comm));
	t->pid = alloc_pid();
	if (t->pid < 0) {
		int err = t->pid;

		t->pid = 0;
		drop_new_task(t);
		return err;
	}
	t->files = files_alloc();	/* empty: init opens the console */
	if (!t->files) {
		drop_new_task(t);
		return -ENOMEM;
	}
	fpu_save_to(t);
	copy_thread(t, fn, arg);
	attach_task(t);
	return t->pid;
}

static long sys_fork(void)
{
	struct task_struct *t = copy_process();

	return IS_ERR(t) ? PTR_ERR(t) : t->pid;
}
SYSCALL(__NR_fork, sys_fork);

/* vfork acts as fork: the child gets its own copy-on-write memory. */
static long sys_vfork(void)
{
	return sys_fork();
}
SYSCALL(__NR_vfork, sys_vfork);

#define CLONE_VM	0x00000100
#define CLONE_VFORK	0x00004000
#define CLONE_THREAD	0x00010000
#define CSIGNAL		0x000000ff

/* Only the fork-like clones (musl's fork() and posix_spawn use them):
 * CLONE_VM without threads is a vfork, which acts as fork here. */
static long sys_clone(unsigned long flags, unsigned long newsp)
{
	struct task_struct *t;

	if (flags & CLONE_THREAD)
		return -EINVAL;	/* no threads */
	if ((flags & ~(CSIGNAL | CLONE_VM | CLONE_VFORK)) ||
	    ((flags & CLONE_VM) && !(flags & CLONE_VFORK)))
		return -EINVAL;
	t = copy_process();
	if (IS_ERR(t))
		return PTR_ERR(t);
	if (newsp)
		task_pt_regs(t)->rsp = newsp;
	t->exit_signal = flags & CSIGNAL;
	return t->pid;
}
SYSCALL(__NR_clone, sys_clone);
