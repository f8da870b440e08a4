/* kernel/exec.c — execve: load a static ELF64 program into a fresh address
 * space and build its stack (argv, envp, auxv) as Linux's binfmt_elf does. */
#include <asm/io.h>
#include <asm/irqflags.h>
#include <asm/tlbflush.h>
#include <asm/processor.h>
#include <zpk/binfmts.h>
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
/* Linux's x86-64 ELF_ET_DYN_BASE, 2/3 of user space: where a PIE with an
 * interpreter goes (page-aligned down), and a static PIE's brk (up). */
#define ELF_ET_DYN_BASE	0x555555554aaaUL
#define NR_AUXV		18
_Static_assert(2 * NR_AUXV == AT_VECTOR_SIZE, "mm->saved_auxv holds it");
#define MAX_REWRITES	5		/* scripts: Linux's exec_binprm depth */


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

void remove_arg_zero(struct linux_binprm *b)
{
	size_t n = strlen(b->strings) + 1;

	memmove(b->strings, b->strings + n, b->len - n);
	b->len -= n;
	b->argc--;
}

int prepend_arg(struct linux_binprm *b, const char *s)
{
	size_t n = strlen(s) + 1;

	if (n > ARG_MAX - b->len)
		return -E2BIG;
	memmove(b->strings + n, b->strings, b->len);
	memcpy(b->strings, s, n);
	b->len += n;
	b->argc++;
	return 0;
}

/* ---- checks before the point of no return ---------------------------- */

static int read_at(struct file *f, void *buf, size_t n, loff_t pos)
{
	ssize_t r = ramfs_read(f->f_inode, buf, n, pos);

	return r == (ssize_t)n ? 0 : -ENOEXEC;	/* short: truncated file */
}

/* Linux's load_elf_phdrs: the table must fit in one page. */
static bool phdrs_ok(const Elf64_Ehdr *eh)
{
	return eh->e_phentsize == sizeof(Elf64_Phdr) && eh->e_phnum &&
	       eh->e_phnum * sizeof(Elf64_Phdr) <= PAGE_SIZE;
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
	return phdrs_ok(eh) ? 0 : -ENOEXEC;
}

/* The program headers of f into a new *phdr: 0 or -ENOEXEC, -ENOMEM. */
static int read_phdrs(struct file *f, const Elf64_Ehdr *eh, Elf64_Phdr **phdr)
{
	size_t size = eh->e_phnum * sizeof(Elf64_Phdr);

	*phdr = kmalloc(size, GFP_KERNEL);
	if (!*phdr)
		return -ENOMEM;
	return read_at(f, *phdr, size, (loff_t)eh->e_phoff);
}

int open_exec(const char *path, struct file **filep)
{
	struct inode *inode;
	struct file *f;
	int err = vfs_open_at(current_cwd(), path, O_RDONLY, 0, &f);

	if (err)
		return err;
	inode = f->f_inode;
	if (!S_ISREG(inode->i_mode) || !(inode->i_mode & 0111))
		err = -EACCES;
	else
		err = deny_write_access(f);	/* -ETXTBSY if being written */
	if (err) {
		fput(f);
		return err;
	}
	*filep = f;
	return 0;
}

void close_exec(struct file *file)
{
	allow_write_access(file);
	fput(file);
}

/*
 * The interpreter PT_INTERP names, checked as Linux's load_elf_binary
 * does before the point of no return: a path of 2 to PATH_MAX bytes
 * ending in its NUL (else -ENOEXEC), a file open_exec accepts (-ENOENT,
 * -EACCES, -ETXTBSY), a whole ELF header (-EIO if the file is shorter);
 * ELF magic, EM_X86_64 and a readable program header table, else
 * -ELIBBAD. Its e_type and segments are looked at only when it is
 * loaded, past the point of no return.
 */
static int open_interp(struct linux_binprm *b, const Elf64_Phdr *ph)
{
	char *path;
	int err;

	if (ph->p_filesz < 2 || ph->p_filesz > PATH_MAX)
		return -ENOEXEC;
	path = kmalloc(ph->p_filesz, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	err = read_at(b->file, path, ph->p_filesz, (loff_t)ph->p_offset);
	if (!err && path[ph->p_filesz - 1])
		err = -ENOEXEC;
	if (!err)
		err = open_exec(path, &b->interpreter);
	kfree(path);
	if (err)
		return err;
	if (read_at(b->interpreter, &b->ieh, sizeof(b->ieh), 0))
		return -EIO;
	if (memcmp(b->ieh.e_ident, "\177ELF", 4) ||
	    b->ieh.e_machine != EM_X86_64 || !phdrs_ok(&b->ieh))
		return -ELIBBAD;
	err = read_phdrs(b->interpreter, &b->ieh, &b->iphdr);
	return err == -ENOEXEC ? -ELIBBAD : err;
}

/* An ELF program in b->buf: its headers, and its interpreter's. */
static int prepare_elf(struct linux_binprm *b)
{
	int err;

	memcpy(&b->eh, b->buf, sizeof(b->eh));
	err = check_elf_header(&b->eh);
	if (!err)
		err = read_phdrs(b->file, &b->eh, &b->phdr);
	if (err)
		return err;
	for (int i = 0; i < b->eh.e_phnum; i++)
		if (b->phdr[i].p_type == PT_INTERP)
			return open_interp(b, &b->phdr[i]);
	return 0;
}

/* The first BINPRM_BUF_SIZE bytes of b->file, zeros past its end. */
static int read_buf(struct linux_binprm *b)
{
	ssize_t r = ramfs_read(b->file->f_inode, b->buf, BINPRM_BUF_SIZE, 0);

	if (r < 0)
		return (int)r;
	memset(b->buf + r, 0, BINPRM_BUF_SIZE - r);
	return 0;
}

/*
 * Opens the program and finds what runs it (Linux's exec_binprm loop):
 * a `#!` script hands over to its interpreter, which may be a script in
 * turn, up to MAX_REWRITES times (-ELOOP past that); the end of the chain
 * must be an ELF program (-ENOEXEC).
 */
static int prepare_binprm(struct linux_binprm *b)
{
	int err = open_exec(b->filename, &b->file);

	b->interp = b->filename;
	for (int depth = 0; !err; depth++) {
		if (depth > MAX_REWRITES)
			return -ELOOP;
		err = read_buf(b);
		if (!err)
			err = load_script(b);
		if (err == -ENOEXEC)
			return prepare_elf(b);
	}
	return err;
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
static int elf_load(struct file *file, const Elf64_Phdr *ph,
		    unsigned long bias)
{
	struct mm_struct *mm = current->mm;
	unsigned long vaddr = ph->p_vaddr + bias, prot = elf_prot(ph->p_flags);
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
			    MAP_PRIVATE | MAP_FIXED, file,
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
	return 0;
}

/* The program's code, data and brk, for mm's start_code ... brk. */
static void note_segment(struct linux_binprm *b, const Elf64_Phdr *ph)
{
	unsigned long vaddr = ph->p_vaddr + b->bias;
	unsigned long file_end = vaddr + ph->p_filesz;

	if (ph->p_flags & PF_X) {
		if (!b->start_code || (vaddr & PAGE_MASK) < b->start_code)
			b->start_code = vaddr & PAGE_MASK;
		if (file_end > b->end_code)
			b->end_code = file_end;
	}
	if (file_end > b->end_data)
		b->end_data = file_end;
	if (vaddr + ph->p_memsz > b->brk)
		b->brk = vaddr + ph->p_memsz;
}

/* The first PT_LOAD's p_vaddr, page-aligned down, in *lo; returns the
 * bytes from there to the end of the last (Linux's total_mapping_size),
 * 0 if there is no PT_LOAD or the span is out of user space. */
static unsigned long elf_span(const Elf64_Phdr *ph, int n, unsigned long *lo)
{
	unsigned long hi = 0;
	bool first = true;

	*lo = 0;
	for (int i = 0; i < n; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr >= TASK_SIZE ||
		    ph[i].p_memsz > TASK_SIZE - ph[i].p_vaddr)
			return 0;
		if (first)
			*lo = ph[i].p_vaddr & PAGE_MASK;
		first = false;
		hi = max(hi, ph[i].p_vaddr + ph[i].p_memsz);
	}
	return hi > *lo ? PAGE_ALIGN(hi) - *lo : 0;
}

/* The bias that puts an ET_DYN's segments where mmap(NULL, span) would:
 * top-down below mmap_base, as Linux places an interpreter or a static
 * PIE. -EINVAL without segments, -ENOMEM without room. */
static long elf_free_bias(const Elf64_Phdr *ph, int n)
{
	struct mm_struct *mm = current->mm;
	unsigned long lo, len = elf_span(ph, n, &lo), addr;

	if (!len)
		return -EINVAL;
	mmap_write_lock(mm);
	addr = get_unmapped_area(mm, 0, len, 0);
	mmap_write_unlock(mm);
	return IS_ERR_VALUE(addr) ? (long)addr : (long)(addr - lo);
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

/*
 * The interpreter (Linux's load_elf_interp): ET_EXEC at its addresses,
 * ET_DYN wherever mmap finds room (AT_BASE); execution starts at its
 * entry. Its own PT_INTERP is not looked at. -errno (the caller is past
 * the point of no return) for another e_type or a segment that cannot
 * be mapped.
 */
static int load_elf_interp(struct linux_binprm *b)
{
	long bias = 0;
	int err;

	if (b->ieh.e_type != ET_EXEC && b->ieh.e_type != ET_DYN)
		return -ENOEXEC;
	if (b->ieh.e_type == ET_DYN)
		bias = elf_free_bias(b->iphdr, b->ieh.e_phnum);
	if (IS_ERR_VALUE(bias))
		return (int)bias;
	for (int i = 0; i < b->ieh.e_phnum; i++) {
		if (b->iphdr[i].p_type != PT_LOAD)
			continue;
		err = elf_load(b->interpreter, &b->iphdr[i], bias);
		if (err)
			return err;
	}
	b->interp_base = bias;
	b->start_ip = b->ieh.e_entry + bias;
	return 0;
}

/*
 * Where an ET_DYN goes, as Linux 6.x: with an interpreter at
 * ELF_ET_DYN_BASE; without one (a static PIE, or ld.so run by name)
 * where mmap finds room, its brk at ELF_ET_DYN_BASE. Not randomised.
 */
static int elf_bias(struct linux_binprm *b)
{
	unsigned long lo;
	long bias;

	if (b->eh.e_type != ET_DYN)
		return 0;
	if (b->interpreter) {
		elf_span(b->phdr, b->eh.e_phnum, &lo);
		b->bias = (ELF_ET_DYN_BASE - lo) & PAGE_MASK;
		return 0;
	}
	bias = elf_free_bias(b->phdr, b->eh.e_phnum);
	if (IS_ERR_VALUE(bias))
		return (int)bias;
	b->bias = bias;
	return 0;
}

static int load_elf_binary(struct linux_binprm *b)
{
	struct mm_struct *mm = current->mm;
	int err = elf_bias(b);

	for (int i = 0; !err && i < b->eh.e_phnum; i++) {
		if (b->phdr[i].p_type != PT_LOAD)
			continue;
		err = elf_load(b->file, &b->phdr[i], b->bias);
		note_segment(b, &b->phdr[i]);
	}
	if (err)
		return err;
	b->entry = b->start_ip = b->eh.e_entry + b->bias;
	b->phdr_addr = find_phdr_addr(b);
	if (b->interpreter) {
		err = load_elf_interp(b);
		if (err)
			return err;
	}
	mm->start_code = b->start_code;
	mm->end_code = b->end_code;
	mm->start_data = b->end_code;
	mm->end_data = b->end_data;
	mm->start_brk = mm->brk = PAGE_ALIGN(b->brk);
	if (b->eh.e_type == ET_DYN && !b->interpreter)
		mm->start_brk = mm->brk = PAGE_ALIGN(ELF_ET_DYN_BASE);
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
		v[n++] = str + (s - b->strings);
		s += strlen(s) + 1;
		if (i == b->argc - 1)
			v[n++] = 0;	/* argv's NULL */
	}
	v[n++] = 0;			/* envp's, even when it is empty */
#define AUX(k, val) do { v[n++] = (k); v[n++] = (val); } while (0)
	AUX(AT_HWCAP, hwcap());
	AUX(AT_PAGESZ, PAGE_SIZE);
	AUX(AT_CLKTCK, 100);
	AUX(AT_PHDR, b->phdr_addr);
	AUX(AT_PHENT, sizeof(Elf64_Phdr));
	AUX(AT_PHNUM, b->eh.e_phnum);
	AUX(AT_BASE, b->interp_base);
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
	memcpy(mm->saved_auxv, v + n - AT_VECTOR_SIZE, sizeof(mm->saved_auxv));
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
	if (unshare_sighand(current))
		return -ENOMEM;
	return unshare_files();
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
	mm->flags = SUID_DUMP_USER;	/* no set-id programs: all dump */
	if (current->mm)	/* PR_SET_THP_DISABLE stays, as in Linux */
		mm->flags |= current->mm->flags & (1UL << MMF_DISABLE_THP);
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
		start_thread(task_pt_regs(current), b->start_ip, sp);
	return err;
}

static void free_binprm(struct linux_binprm *b)
{
	if (b->file)
		close_exec(b->file);
	if (b->interpreter)
		close_exec(b->interpreter);
	kfree(b->phdr);
	kfree(b->iphdr);
	kfree(b->interp_buf);
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
	if (b.argc == 0) {
		/* Linux (5.18 on) runs no program with argc 0: argv[0] is "". */
		err = copy_string(&b, "", false);
		if (err)
			goto out;
		b.argc = 1;
	}
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
