/* kernel/exec.c — execve: load a static ELF64 program into a fresh address
 * space and build its stack (argv, envp, auxv) as Linux's binfmt_elf does. */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/tlbflush.h>
#include <asm/processor.h>
#include <zpk/elf.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mman.h>
#include <zpk/printk.h>
#include <zpk/random.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define ARG_MAX_ORDER	5		/* 128 KiB of argument strings */
#define ARG_MAX		(PAGE_SIZE << ARG_MAX_ORDER)
#define STACK_INIT	(128UL << 10)	/* Linux's stack_expand at exec */
#define ELF_ET_DYN_BASE	0x555555554000UL	/* where static-pie goes */
#define NR_AUXV		18


/* Everything execve gathers before the point of no return. */
struct linux_binprm {
	char *strings;			/* argv then envp strings, packed */
	size_t len;
	int argc, envc;
	char *filename;
	struct file *file;
	Elf64_Ehdr eh;
	Elf64_Phdr *phdr;
	unsigned long bias;		/* load address of an ET_DYN */
	unsigned long entry, phdr_addr;
	unsigned long end_code, start_code, end_data, brk;
	bool past_no_return;		/* the old program is gone */
	bool denied_write;		/* file: deny_write_access held */
};

/* ---- arguments ------------------------------------------------------ */

/* One string into the buffer; -E2BIG when it does not fit. */
static int copy_string(struct linux_binprm *b, const char *s, bool user)
{
	size_t room = ARG_MAX - b->len;
	long n;

	if (!user) {
		n = (long)strlen(s);
		if ((size_t)n >= room)
			return -E2BIG;
		memcpy(b->strings + b->len, s, n + 1);
	} else {
		n = strncpy_from_user(b->strings + b->len, s, (long)room);
		if (n == -ENAMETOOLONG)
			return -E2BIG;
		if (n < 0)
			return (int)n;
	}
	b->len += n + 1;
	return 0;
}

/* The NULL-terminated array argv (user or kernel); returns the count. */
static int copy_strings(struct linux_binprm *b, const char *const *argv,
			bool user)
{
	int n = 0, err;

	for (; argv; n++) {
		const char *s;

		if (!user)
			s = argv[n];
		else if (copy_from_user(&s, argv + n, sizeof(s)))
			return -EFAULT;
		if (!s)
			break;
		err = copy_string(b, s, user);
		if (err)
			return err;
	}
	return n;
}

/* ---- checks before the point of no return ---------------------------- */

static int read_at(struct linux_binprm *b, void *buf, size_t n, loff_t pos)
{
	ssize_t r = ramfs_read(b->file->f_inode, buf, n, pos);

	return r == (ssize_t)n ? 0 : -ENOEXEC;	/* short: truncated file */
}

/* Linux's load_elf_binary checks: the magic, e_type, e_machine and the
 * program headers; e_ident's class and byte order are not looked at
 * (e_machine EM_X86_64 says it all). */
static int check_elf_header(const Elf64_Ehdr *eh)
{
	if (memcmp(eh->e_ident, "\177ELF", 4))
		return -ENOEXEC;
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return -ENOEXEC;
	if (eh->e_machine != EM_X86_64)
		return -ENOEXEC;
	/* Linux's load_elf_phdrs: the table must fit in one page. */
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phnum == 0 ||
	    eh->e_phnum * sizeof(Elf64_Phdr) > PAGE_SIZE)
		return -ENOEXEC;
	return 0;
}

static int open_exec(struct linux_binprm *b)
{
	struct inode *inode;
	int err = vfs_open_at(current_cwd(), b->filename, O_RDONLY, 0,
			      &b->file);

	if (err)
		return err;
	inode = b->file->f_inode;
	if (!S_ISREG(inode->i_mode) || !(inode->i_mode & 0111))
		return -EACCES;
	err = deny_write_access(b->file);	/* -ETXTBSY if being written */
	if (!err)
		b->denied_write = true;
	return err;
}

/*
 * PT_INTERP, as far as Linux's load_elf_binary goes before it loads the
 * interpreter: a path of 2 to PATH_MAX bytes ending in its NUL (else
 * -ENOEXEC) that must name a file (else the lookup's errno, -ENOENT).
 * zpk runs static programs only: a real interpreter is -ENOEXEC.
 */
static int check_interp(struct linux_binprm *b, const Elf64_Phdr *ph)
{
	struct inode *inode;
	char *path;
	int err;

	if (ph->p_filesz < 2 || ph->p_filesz > PATH_MAX)
		return -ENOEXEC;
	path = kmalloc(ph->p_filesz, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	err = read_at(b, path, ph->p_filesz, (loff_t)ph->p_offset);
	if (!err && path[ph->p_filesz - 1])
		err = -ENOEXEC;
	if (!err)
		err = vfs_lookup(current_cwd(), path, &inode);
	if (!err) {
		pr_info("zpk: %s: dynamically linked programs are not supported (link with -static)\n",
			b->filename);
		err = -ENOEXEC;
	}
	kfree(path);
	return err;
}

static int prepare_binprm(struct linux_binprm *b)
{
	size_t size;
	int err = open_exec(b);

	if (err)
		return err;
	err = read_at(b, &b->eh, sizeof(b->eh), 0);
	if (!err)
		err = check_elf_header(&b->eh);
	if (err)
		return err;
	size = b->eh.e_phnum * sizeof(Elf64_Phdr);
	b->phdr = kmalloc(size, GFP_KERNEL);
	if (!b->phdr)
		return -ENOMEM;
	err = read_at(b, b->phdr, size, (loff_t)b->eh.e_phoff);
	if (err)
		return err;
	for (int i = 0; i < b->eh.e_phnum; i++)
		if (b->phdr[i].p_type == PT_INTERP)
			return check_interp(b, &b->phdr[i]);
	if (b->eh.e_type == ET_DYN)
		b->bias = ELF_ET_DYN_BASE;
	return 0;
}

/* ---- past the point of no return --------------------------------------- */

/* current gets the new address space; the old one goes. */
static void exec_mmap(struct mm_struct *mm)
{
	struct mm_struct *old = current->mm;

	if (old)
		mm_release(current, old);	/* a vfork parent goes on */
	local_irq_disable();	/* a flush IPI sees both or neither */
	current->mm = mm;
	switch_mm(mm);
	local_irq_enable();
	if (old) {
		task_update_maxrss(current, old);
		mmput(old);
	}
}

static unsigned long elf_prot(u32 p_flags)
{
	return (p_flags & PF_R ? PROT_READ : 0) |
	       (p_flags & PF_W ? PROT_WRITE : 0) |
	       (p_flags & PF_X ? PROT_EXEC : 0);
}

/* The file part of a segment maps the file; the rest (.bss) is anonymous,
 * and the file page it shares with the data is cleared past p_filesz. */
static int load_segment(struct linux_binprm *b, const Elf64_Phdr *ph)
{
	struct mm_struct *mm = current->mm;
	unsigned long vaddr = ph->p_vaddr + b->bias, prot = elf_prot(ph->p_flags);
	unsigned long start = vaddr & PAGE_MASK, file_end, mem_end;
	long r;

	if (ph->p_filesz > ph->p_memsz || vaddr >= TASK_SIZE ||
	    ph->p_memsz > TASK_SIZE - vaddr ||
	    (vaddr & ~PAGE_MASK) != (ph->p_offset & ~PAGE_MASK))
		return -EINVAL;
	file_end = vaddr + ph->p_filesz;
	mem_end = vaddr + ph->p_memsz;
	if (ph->p_filesz) {
		r = vm_mmap(mm, start, PAGE_ALIGN(file_end) - start, prot,
			    MAP_PRIVATE | MAP_FIXED, b->file,
			    ph->p_offset >> PAGE_SHIFT);
		if (IS_ERR_VALUE(r))
			return (int)r;
	}
	if ((file_end & ~PAGE_MASK) && mem_end > file_end && (prot & PROT_WRITE)
	    && clear_user((void __user *)file_end,
			  PAGE_ALIGN(file_end) - file_end))
		return -EFAULT;
	/* .bss is always read-write data, as Linux's vm_brk_flags maps it
	 * (so it is subject to the overcommit check). */
	if (PAGE_ALIGN(mem_end) > PAGE_ALIGN(file_end)) {
		r = vm_mmap(mm, PAGE_ALIGN(file_end),
			    PAGE_ALIGN(mem_end) - PAGE_ALIGN(file_end),
			    PROT_READ | PROT_WRITE | (prot & PROT_EXEC),
			    MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, NULL, 0);
		if (IS_ERR_VALUE(r))
			return (int)r;
	}
	if (ph->p_flags & PF_X) {
		if (!b->start_code || start < b->start_code)
			b->start_code = start;
		if (file_end > b->end_code)
			b->end_code = file_end;
	}
	if (file_end > b->end_data)
		b->end_data = file_end;
	if (mem_end > b->brk)
		b->brk = mem_end;
	return 0;
}

/* Where the program headers are in memory, for AT_PHDR. */
static unsigned long find_phdr_addr(const struct linux_binprm *b)
{
	u64 off = b->eh.e_phoff;

	for (int i = 0; i < b->eh.e_phnum; i++)
		if (b->phdr[i].p_type == PT_PHDR)
			return b->phdr[i].p_vaddr + b->bias;
	for (int i = 0; i < b->eh.e_phnum; i++) {
		const Elf64_Phdr *ph = &b->phdr[i];

		if (ph->p_type == PT_LOAD && off >= ph->p_offset &&
		    off < ph->p_offset + ph->p_filesz)
			return ph->p_vaddr + (off - ph->p_offset) + b->bias;
	}
	return 0;
}

static int load_elf_binary(struct linux_binprm *b)
{
	struct mm_struct *mm = current->mm;
	int err;

	for (int i = 0; i < b->eh.e_phnum; i++) {
		if (b->phdr[i].p_type != PT_LOAD)
			continue;
		err = load_segment(b, &b->phdr[i]);
		if (err)
			return err;
	}
	b->entry = b->eh.e_entry + b->bias;
	b->phdr_addr = find_phdr_addr(b);
	mm->start_code = b->start_code;
	mm->end_code = b->end_code;
	mm->start_data = b->end_code;
	mm->end_data = b->end_data;
	mm->start_brk = mm->brk = PAGE_ALIGN(b->brk);
	return 0;
}

/* ---- the new stack ------------------------------------------------------ */

static unsigned long hwcap(void)
{
	u32 a, bx, c, d;

	cpuid(1, 0, &a, &bx, &c, &d);
	return d;
}

/* Copies n bytes to the stack below *sp; 0 or -EFAULT. */
static int push_bytes(unsigned long *sp, const void *src, size_t n)
{
	*sp -= n;
	return copy_to_user((void __user *)*sp, src, n) ? -EFAULT : 0;
}

/* The words at the stack pointer: argc, argv[], NULL, envp[], NULL, auxv.
 * str is where the packed strings now are in user memory. */
static size_t fill_vector(const struct linux_binprm *b, unsigned long *v,
			  unsigned long str, unsigned long execfn,
			  unsigned long platform, unsigned long random)
{
	const char *s = b->strings;
	size_t n = 0;

	v[n++] = b->argc;
	for (int i = 0; i < b->argc + b->envc; i++) {
		if (i == b->argc)
			v[n++] = 0;
		v[n++] = str + (s - b->strings);
		s += strlen(s) + 1;
	}
	v[n++] = 0;
#define AUX(k, val) do { v[n++] = (k); v[n++] = (val); } while (0)
	AUX(AT_HWCAP, hwcap());
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, 100);
	AUX(AT_PHDR, b->phdr_addr);
	AUX(AT_PHENT, sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, b->eh.e_phnum);
	AUX(AT_BASE, 0);
	AUX(AT_FLAGS, 0);
	AUX(AT_ENTRY, b->entry);
	AUX(AT_UID, 0);
	AUX(AT_EUID, 0);
	AUX(AT_GID, 0);
	AUX(AT_EGID, 0);
	AUX(AT_SECURE, 0);
	AUX(AT_RANDOM, random);
	AUX(AT_EXECFN, execfn);
	AUX(AT_PLATFORM, platform);
	AUX(AT_NULL, 0);
#undef AUX
	return n;
}

/* Top down: 8 zero bytes, the file name, the strings, "x86_64", 16
 * random bytes, then the vector at a 16-byte aligned stack pointer. */
static int create_elf_tables(struct linux_binprm *b, unsigned long *spp)
{
	struct mm_struct *mm = current->mm;
	unsigned long sp = STACK_TOP - 8, execfn, str, platform, random;
	size_t words = 1 + b->argc + 1 + b->envc + 1 + 2 * NR_AUXV, n;
	unsigned long *v;
	u8 rnd[16];
	int err;

	if (push_bytes(&sp, b->filename, strlen(b->filename) + 1))
		return -EFAULT;
	execfn = sp;
	if (push_bytes(&sp, b->strings, b->len))
		return -EFAULT;
	str = sp;
	mm->arg_start = str;
	mm->env_end = execfn;
	if (push_bytes(&sp, "x86_64", 7))
		return -EFAULT;
	platform = sp;
	get_random_bytes(rnd, sizeof(rnd));
	if (push_bytes(&sp, rnd, sizeof(rnd)))
		return -EFAULT;
	random = sp;
	v = kmalloc(words * sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	n = fill_vector(b, v, str, execfn, platform, random);
	sp = (sp - n * sizeof(*v)) & ~15UL;
	err = copy_to_user((void __user *)sp, v, n * sizeof(*v)) ? -EFAULT : 0;
	kfree(v);
	mm->start_stack = sp;
	*spp = sp;
	return err;
}

/* arg_end/env_start: after the last argument string. */
static void set_arg_end(struct linux_binprm *b)
{
	const char *s = b->strings;

	for (int i = 0; i < b->argc; i++)
		s += strlen(s) + 1;
	current->mm->arg_end = current->mm->arg_start + (s - b->strings);
	current->mm->env_start = current->mm->arg_end;
}

static int setup_stack(struct linux_binprm *b, unsigned long *sp)
{
	unsigned long size = STACK_INIT + PAGE_ALIGN(b->len + PATH_MAX);
	long r = vm_mmap(current->mm, STACK_TOP - size, size,
			 PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS |
			 MAP_GROWSDOWN, NULL, 0);
	int err;

	if (IS_ERR_VALUE(r))
		return (int)r;
	err = create_elf_tables(b, sp);
	if (!err)
		set_arg_end(b);
	return err;
}

/*
 * The exec'ing thread takes the old leader's place: its pid (which is the
 * process's), its place among the parent's children, its start time; the
 * old leader, a zombie by now, is released with the exec'ing thread's old
 * tid (Linux's exchange_tids and release in de_thread).
 */
static void take_over_leader(struct task_struct *tsk,
			     struct task_struct *leader)
{
	int tid = tsk->pid;

	tsk->start_time = leader->start_time;
	tsk->pid = leader->pid;
	leader->pid = tid;
	list_replace(&leader->sibling, &tsk->sibling);
	INIT_LIST_HEAD(&leader->sibling);
	tsk->parent = leader->parent;
	tsk->group_leader = tsk;
	leader->group_leader = tsk;
	leader->exit_signal = -1;
	leader->state = EXIT_DEAD;
	release_task(leader);
}

/* Sleeps until cond holds; the threads that exit wake us. */
#define wait_group_exec(cond) do {					\
	while (!(cond)) {						\
		current->state = TASK_UNINTERRUPTIBLE;			\
		schedule();						\
	}								\
} while (0)

/*
 * exec in a process with several threads: every other thread is killed
 * and released, and the exec'ing thread becomes the leader, with the
 * process's pid (Linux's de_thread). -EAGAIN if the group is ending or
 * another thread is exec'ing already.
 */
static int de_thread(void)
{
	struct task_struct *tsk = current, *leader = tsk->group_leader;
	struct signal_struct *sig = tsk->signal;

	if (!thread_group_empty(tsk)) {
		if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exec_task)
			return -EAGAIN;
		sig->group_exec_task = tsk;
		/* The old leader stays a zombie: not one to wait for. */
		sig->notify_count = zap_other_threads(tsk) -
				    !thread_group_leader(tsk);
		wait_group_exec(!sig->notify_count);
		if (!thread_group_leader(tsk)) {
			sig->notify_count = -1;
			wait_group_exec(leader->state == EXIT_ZOMBIE);
			take_over_leader(tsk, leader);
		}
		sig->group_exec_task = NULL;
		sig->notify_count = 0;
	}
	tsk->exit_signal = SIGCHLD;
	return 0;
}

/* The process's own descriptor table and handlers from here on (Linux's
 * unshare_files and de_thread's copy of the sighand): a close-on-exec or
 * a handler reset must not reach who shared them. */
static int unshare_for_exec(void)
{
	struct files_struct *files = current->files;

	if (unshare_sighand(current))
		return -ENOMEM;
	if (!files || files->count == 1)
		return 0;
	current->files = dup_fd(files);
	if (!current->files) {
		current->files = files;
		return -ENOMEM;
	}
	put_files_struct(files);
	return 0;
}

/* What a new program does not inherit: handlers, close-on-exec files,
 * the alternate signal stack (its flags stay, as Linux's). */
static void flush_old_exec(struct linux_binprm *b)
{
	const char *base = strrchr(b->filename, '/');
	struct k_sigaction *action = current->sighand->action;

	for (int i = 0; i < _NSIG; i++)
		if (action[i].handler != SIG_IGN)
			memset(&action[i], 0, sizeof(action[i]));
	current->sas_ss_sp = 0;
	current->sas_ss_size = 0;
	if (current->files)
		do_close_on_exec(current->files);
	strlcpy(current->comm, base ? base + 1 : b->filename,
		sizeof(current->comm));
	current->flags &= ~PF_FORKNOEXEC;
	fpu_reset_current();
}

/* Past the point of no return: the other threads gone, new mm,
 * segments, stack, registers. */
static int exec_binprm(struct linux_binprm *b)
{
	struct mm_struct *mm = mm_alloc();
	unsigned long sp;
	int err;

	if (!mm)
		return -ENOMEM;
	set_mm_exe_file(mm, b->file);
	b->past_no_return = true;
	err = de_thread();
	if (!err)
		err = unshare_for_exec();
	if (err) {
		mmput(mm);
		return err;
	}
	exec_mmap(mm);
	flush_old_exec(b);
	err = load_elf_binary(b);
	if (!err)
		err = setup_stack(b, &sp);
	if (!err)
		start_thread(task_pt_regs(current), b->entry, sp);
	return err;
}

static void free_binprm(struct linux_binprm *b)
{
	if (b->denied_write)
		allow_write_access(b->file);
	if (b->file)
		fput(b->file);
	kfree(b->phdr);
	kfree(b->filename);
	if (b->strings)
		free_pages((unsigned long)b->strings, ARG_MAX_ORDER);
}

static int do_execve(const char *filename, const char *const *argv,
		     const char *const *envp, bool user)
{
	struct linux_binprm b = { 0 };
	int err = -ENOMEM;

	b.filename = kmalloc(PATH_MAX, GFP_KERNEL);
	b.strings = (char *)__get_free_pages(GFP_KERNEL, ARG_MAX_ORDER);
	if (!b.filename || !b.strings)
		goto out;
	if (user) {
		long n = strncpy_from_user(b.filename, filename, PATH_MAX);

		err = n < 0 ? (int)n : n == 0 ? -ENOENT : 0;
	} else {
		err = strlcpy(b.filename, filename, PATH_MAX) < PATH_MAX ? 0
							: -ENAMETOOLONG;
	}
	if (err)
		goto out;
	err = b.argc = copy_strings(&b, argv, user);
	if (err < 0)
		goto out;
	err = b.envc = copy_strings(&b, envp, user);
	if (err < 0)
		goto out;
	err = prepare_binprm(&b);
	if (!err)
		err = exec_binprm(&b);
out:
	free_binprm(&b);
	if (err && b.past_no_return) {
		/* No program to return an error to: die as Linux does. */
		if (!fatal_signal_pending(current))
			pr_info("zpk: %s[%d]: exec failed after the point of no return (error %d): killed by SIGSEGV\n",
				current->comm, current->pid, err);
		do_group_exit(SIGSEGV);
	}
	return err;
}

int kernel_execve(const char *path, const char *const *argv,
		  const char *const *envp)
{
	return do_execve(path, argv, envp, false);
}

static long sys_execve(const char __user *filename,
		       const char __user *const __user *argv,
		       const char __user *const __user *envp)
{
	return do_execve(filename, argv, envp, true);
}
SYSCALL(__NR_execve, sys_execve);
