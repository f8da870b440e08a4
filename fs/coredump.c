/* fs/coredump.c — core dumps, as Linux's fs/coredump.c (when and where)
 * and binfmt_elf's elf_core_dump (what): an ELF file of type ET_CORE
 * with one PT_NOTE (each thread's NT_PRSTATUS, then NT_PRPSINFO,
 * NT_SIGINFO, NT_AUXV and NT_FILE) and one PT_LOAD per VMA. Memory that
 * holds nothing is not written: the zero page and untouched anonymous
 * pages are holes in the file (get_dump_page, Linux's FOLL_DUMP), so a
 * huge sparse mapping dumps small. Everything here runs under the big
 * kernel lock, in the dumping thread's own mm. */
#include <asm/ptrace.h>
#include <zpk/coredump.h>
#include <zpk/elf.h>
#include <zpk/fs.h>
#include <zpk/gup.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

char core_pattern[CORENAME_MAX_SIZE] = "core";

/* ---- the other threads ----------------------------------------------- */

/* Sleeps, deaf to signals (SIGKILL is pending for the waiters), until *v
 * is 0; whoever zeroes it does so under the big kernel lock, as we test
 * it, and wakes wq. */
static void wait_until_zero(struct wait_queue_head *wq, const int *v)
{
	struct wait_queue_entry e = { .task = current };

	for (;;) {
		prepare_to_wait(wq, &e, TASK_UNINTERRUPTIBLE);
		if (!*v)
			break;
		schedule();
	}
	finish_wait(wq, &e);
}

/* The group exit starts here, with the core flag to come (Linux's
 * zap_threads): every other live thread is killed and counted, and we
 * wait until each waits in do_exit. False if the group was ending
 * already: no dump then. */
static bool coredump_wait(int signr, struct core_state *cs)
{
	struct signal_struct *sig = current->signal;
	struct task_struct *t;

	if ((sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exec_task)
		return false;
	sig->flags = SIGNAL_GROUP_EXIT;
	sig->group_exit_code = signr;
	cs->dumper = current;
	cs->dumping = 1;
	init_waitqueue_head(&cs->wq);
	for_each_thread(current, t) {
		if (t == current || (t->flags & PF_EXITING) ||
		    t->state == EXIT_ZOMBIE || t->state == EXIT_DEAD)
			continue;
		t->core_waiter = true;
		cs->nr_running++;
	}
	sig->core_state = cs;
	zap_other_threads(current);
	wait_until_zero(&cs->wq, &cs->nr_running);
	return true;
}

void coredump_task_exit(struct task_struct *tsk)
{
	struct core_state *cs = tsk->signal->core_state;

	if (!tsk->core_waiter)
		return;
	cs->nr_parked++;
	if (--cs->nr_running == 0)
		wake_up(&cs->wq);
	wait_until_zero(&cs->wq, &cs->dumping);
	/* cs is on the dumper's stack: it waits for the last of us. */
	if (--cs->nr_parked == 0)
		wake_up(&cs->wq);
}

/* The dump is over: the waiting threads go on with their exit, and we
 * return once none of them uses cs any more. */
static void coredump_finish(struct core_state *cs)
{
	struct task_struct *t;

	for_each_thread(current, t)
		t->core_waiter = false;
	current->signal->core_state = NULL;
	cs->dumping = 0;
	wake_up(&cs->wq);
	wait_until_zero(&cs->wq, &cs->nr_parked);
}

/* ---- the file ----------------------------------------------------------- */

/* core_pattern with its % sequences expanded (Linux's format_corename;
 * an unknown one is dropped, as there). -ENAMETOOLONG if it does not
 * fit. */
static int format_corename(char *buf, size_t size, int signr)
{
	size_t n = 0;

	for (const char *p = core_pattern; *p && n < size; p++) {
		char tmp[24] = { *p, 0 };
		const char *s = tmp;

		if (*p == '%') {
			switch (*++p) {
			case '%': break;
			case 'p': case 'P':
				snprintf(tmp, sizeof(tmp), "%d", current->tgid);
				break;
			case 'i': case 'I':
				snprintf(tmp, sizeof(tmp), "%d", current->pid);
				break;
			case 's':
				snprintf(tmp, sizeof(tmp), "%d", signr);
				break;
			case 'u': case 'g':
				s = "0";
				break;
			case 't':
				snprintf(tmp, sizeof(tmp), "%llu",
					 (unsigned long long)(ktime_get_real_ns() /
							      NSEC_PER_SEC));
				break;
			case 'e':
				s = current->comm;
				break;
			case 0:
				p--;
				/* fall through */
			default:
				s = "";
			}
		}
		n += strlcpy(buf + n, s, size - n);
	}
	return n < size ? 0 : -ENAMETOOLONG;
}

/* A new file at name, relative to the cwd: what is there goes first,
 * then O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600 (Linux's). */
static int open_core(const char *name, struct file **f)
{
	vfs_unlink(current_cwd(), name);
	return vfs_open_at(current_cwd(), name,
			   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600, f);
}

/* The file a dump writes, and how far it may go (RLIMIT_CORE). */
struct coredump_params {
	struct file *file;
	u64 limit;
	bool failed;
};

/* n bytes of buf at the file's position; false (and the dump fails) if
 * they pass the limit or the file system takes fewer. */
static bool dump_emit(struct coredump_params *cp, const void *buf, size_t n)
{
	if (cp->failed || (u64)cp->file->f_pos + n > cp->limit ||
	    vfs_write(cp->file, buf, n) != (ssize_t)n)
		cp->failed = true;
	return !cp->failed;
}

/* n bytes of hole: the position moves, nothing is written. */
static bool dump_skip(struct coredump_params *cp, size_t n)
{
	if ((u64)cp->file->f_pos + n > cp->limit)
		cp->failed = true;
	else
		cp->file->f_pos += n;
	return !cp->failed;
}

/* ---- the VMAs ------------------------------------------------------------ */

/* What the dump needs of a VMA, taken once (Linux's core_vma_metadata). */
struct core_vma {
	unsigned long start, end, flags, pgoff;
	unsigned long dump_size;	/* bytes from start written */
	struct inode *inode;		/* its file's, or NULL */
};

/* Whether the VMA begins with an ELF header (its first 4 bytes). */
static bool starts_elf(unsigned long start)
{
	char magic[4];

	return !copy_from_user(magic, (const void __user *)start, 4) &&
	       !memcmp(magic, "\177ELF", 4);
}

/* How much of a VMA to dump, as Linux's vma_dump_size under the default
 * coredump_filter (0x33): anonymous memory, private or shared, whole; a
 * private writable mapping of a file whole (its written pages are
 * anonymous: Linux's anon_vma test); of other file mappings only a
 * first page holding an ELF header, which gdb reads the build-id from. */
static unsigned long vma_dump_size(const struct core_vma *v)
{
	bool shmem = v->inode && v->inode->i_shmem;

	if (!v->inode || shmem)
		return v->end - v->start;
	if ((v->flags & (VM_SHARED | VM_WRITE)) == VM_WRITE)
		return v->end - v->start;
	if (!v->pgoff && (v->flags & VM_READ) && starts_elf(v->start))
		return PAGE_SIZE;
	return 0;
}

/* The VMAs of current's mm, in a kmalloc'd array (*nr of them). */
static struct core_vma *snapshot_vmas(int *nr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct core_vma *v;
	int i = 0;

	mmap_read_lock(mm);
	v = kmalloc((mm->map_count + 1) * sizeof(*v), GFP_KERNEL);
	list_for_each_entry(vma, &mm->mmap, vm_list) {
		if (!v)
			break;
		v[i++] = (struct core_vma){
			vma->vm_start, vma->vm_end, vma->vm_flags,
			vma->vm_pgoff, 0,
			vma->vm_file ? vma->vm_file->f_inode : NULL };
	}
	mmap_read_unlock(mm);
	*nr = i;
	for (int k = 0; k < i; k++)
		v[k].dump_size = vma_dump_size(&v[k]);
	return v;
}

/* The pages of a VMA, written or left as holes. */
static bool dump_vma_pages(struct coredump_params *cp, const struct core_vma *v)
{
	struct mm_struct *mm = current->mm;
	bool ok = true;

	mmap_read_lock(mm);
	for (unsigned long a = v->start; ok && a < v->start + v->dump_size;
	     a += PAGE_SIZE) {
		struct page *page = get_dump_page(a);

		if (page) {
			ok = dump_emit(cp, page_address(page), PAGE_SIZE);
			put_user_page(page);
		} else {
			ok = dump_skip(cp, PAGE_SIZE);
		}
	}
	mmap_read_unlock(mm);
	return ok;
}

/* ---- the notes ------------------------------------------------------------ */

/* The notes, in a buffer that grows as they are added. */
struct notes {
	char *buf;
	size_t len, cap;
};

/* Room for more bytes at the end (zeroed), or NULL. */
static void *note_room(struct notes *n, size_t more)
{
	if (n->len + more > n->cap) {
		size_t cap = max(n->cap * 2, n->len + more);
		char *b = kzalloc(cap, GFP_KERNEL);

		if (!b)
			return NULL;
		if (n->buf)
			memcpy(b, n->buf, n->len);
		kfree(n->buf);
		n->buf = b;
		n->cap = cap;
	}
	memset(n->buf + n->len, 0, more);
	return n->buf + n->len;
}

/* One note named "CORE", its descriptor padded to 4 bytes (Linux's). */
static bool add_note(struct notes *n, u32 type, const void *desc, size_t size)
{
	size_t total = sizeof(Elf64_Nhdr) + 8 + ((size + 3) & ~3UL);
	char *p = note_room(n, total);
	Elf64_Nhdr h = { 5, (u32)size, type };

	if (!p)
		return false;
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), "CORE", 5);
	memcpy(p + sizeof(h) + 8, desc, size);
	n->len += total;
	return true;
}

static struct __kernel_old_timeval ns_to_tv(u64 ns)
{
	return (struct __kernel_old_timeval){ (long)(ns / NSEC_PER_SEC),
		(long)(ns % NSEC_PER_SEC) / 1000 };
}

/* A thread's user registers, as ptrace's user_regs_struct. */
static void fill_regs(struct user_regs_struct *r, struct task_struct *t)
{
	const struct pt_regs *p = task_pt_regs(t);

	*r = (struct user_regs_struct){
		.r15 = p->r15, .r14 = p->r14, .r13 = p->r13, .r12 = p->r12,
		.bp = p->rbp, .bx = p->rbx, .r11 = p->r11, .r10 = p->r10,
		.r9 = p->r9, .r8 = p->r8, .ax = p->rax, .cx = p->rcx,
		.dx = p->rdx, .si = p->rsi, .di = p->rdi, .orig_ax = -1UL,
		.ip = p->rip, .cs = p->cs, .flags = p->rflags, .sp = p->rsp,
		.ss = p->ss, .fs_base = t->fsbase,
	};
}

static bool note_prstatus(struct notes *n, struct task_struct *t, int signr)
{
	struct elf_prstatus s = {
		.pr_info.si_signo = signr,
		.pr_cursig = (short)signr,
		.pr_sigpend = t->pending | t->signal->shared_pending,
		.pr_sighold = t->blocked,
		.pr_pid = t->pid,
		.pr_ppid = task_ppid_nr(t),
		.pr_pgrp = t->signal->pgrp,
		.pr_sid = t->signal->session,
		.pr_utime = ns_to_tv(t->utime),
		.pr_stime = ns_to_tv(t->stime),
	};

	fill_regs(&s.pr_reg, t);
	return add_note(n, NT_PRSTATUS, &s, sizeof(s));
}

static bool note_prpsinfo(struct notes *n)
{
	struct mm_struct *mm = current->mm;
	size_t len = min(mm->arg_end - mm->arg_start,
			 sizeof(((struct elf_prpsinfo *)0)->pr_psargs) - 1);
	struct elf_prpsinfo p = {
		.pr_sname = 'R',
		.pr_flag = current->flags,
		.pr_pid = current->tgid,
		.pr_ppid = task_ppid_nr(current),
		.pr_pgrp = current->signal->pgrp,
		.pr_sid = current->signal->session,
	};

	if (copy_from_user(p.pr_psargs, (const void __user *)mm->arg_start,
			   len))
		len = 0;
	for (size_t i = 0; i + 1 < len; i++)
		if (!p.pr_psargs[i])
			p.pr_psargs[i] = ' ';
	p.pr_psargs[len] = 0;
	strlcpy(p.pr_fname, current->comm, sizeof(p.pr_fname));
	return add_note(n, NT_PRPSINFO, &p, sizeof(p));
}

static bool note_auxv(struct notes *n)
{
	const unsigned long *v = current->mm->saved_auxv;
	size_t i = 0;

	while (i + 2 < AT_VECTOR_SIZE && v[i] != AT_NULL)
		i += 2;
	return add_note(n, NT_AUXV, v, (i + 2) * sizeof(*v));
}

/* inode's path into buf (if not NULL; PATH_MAX bytes), as NT_FILE
 * names it ("?" if it has none); its length. */
static int file_name(struct inode *inode, char *buf)
{
	static char path[PATH_MAX];	/* under the big kernel lock */
	int len = d_path(inode, path, sizeof(path));

	if (len < 0)
		len = strlcpy(path, "?", sizeof(path));
	if (buf)
		memcpy(buf, path, len + 1);
	return len;
}

/* NT_FILE: count, page size, then (start, end, page offset) of each file
 * VMA, then their paths, each NUL-ended (Linux's fill_files_note). */
static bool note_files(struct notes *n, const struct core_vma *v, int nr)
{
	size_t words = 2, size;
	unsigned long *d, *w;
	char *names;
	long count = 0;
	int len;
	bool ok;

	for (int i = 0; i < nr; i++)
		count += v[i].inode != NULL;
	words += 3 * count;
	size = words * sizeof(long);
	for (int i = 0; i < nr; i++)	/* first the names' length */
		if (v[i].inode)
			size += file_name(v[i].inode, NULL) + 1;
	w = d = kzalloc(size, GFP_KERNEL);
	if (!d)
		return false;
	*w++ = count;
	*w++ = PAGE_SIZE;
	names = (char *)(d + words);
	for (int i = 0; i < nr; i++) {
		if (!v[i].inode)
			continue;
		*w++ = v[i].start;
		*w++ = v[i].end;
		*w++ = v[i].pgoff;
		len = file_name(v[i].inode, names);
		names += len + 1;
	}
	ok = add_note(n, NT_FILE, d, size);
	kfree(d);
	return ok;
}

/* Every note: the dumping thread's status first, as Linux writes them,
 * then the process's, then the other threads' (those waiting). */
static bool fill_notes(struct notes *n, const struct kernel_siginfo *info,
		       const struct core_vma *v, int nr)
{
	struct task_struct *t;
	bool ok = note_prstatus(n, current, info->si_signo) &&
		  note_prpsinfo(n) &&
		  add_note(n, NT_SIGINFO, info, sizeof(*info)) &&
		  note_auxv(n) && note_files(n, v, nr);

	for_each_thread(current, t)
		if (ok && t->core_waiter)
			ok = note_prstatus(n, t, info->si_signo);
	return ok;
}

/* ---- the dump --------------------------------------------------------------- */

static u32 phdr_flags(unsigned long vm_flags)
{
	return (vm_flags & VM_READ ? PF_R : 0) |
	       (vm_flags & VM_WRITE ? PF_W : 0) |
	       (vm_flags & VM_EXEC ? PF_X : 0);
}

/* The ELF header, the program headers and the notes at the start. */
static bool write_headers(struct coredump_params *cp, const struct notes *n,
			  const struct core_vma *v, int nr, u64 dataoff)
{
	u64 notes_at = sizeof(Elf64_Ehdr) + (nr + 1) * sizeof(Elf64_Phdr);
	Elf64_Ehdr eh = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_CORE, .e_machine = EM_X86_64,
		.e_version = EV_CURRENT, .e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = nr + 1,
	};
	Elf64_Phdr ph = { .p_type = PT_NOTE, .p_offset = notes_at,
			  .p_filesz = n->len };
	bool ok = dump_emit(cp, &eh, sizeof(eh)) &&
		  dump_emit(cp, &ph, sizeof(ph));

	for (int i = 0; ok && i < nr; i++) {
		ph = (Elf64_Phdr){
			.p_type = PT_LOAD, .p_flags = phdr_flags(v[i].flags),
			.p_offset = dataoff, .p_vaddr = v[i].start,
			.p_filesz = v[i].dump_size,
			.p_memsz = v[i].end - v[i].start, .p_align = PAGE_SIZE,
		};
		dataoff += v[i].dump_size;
		ok = dump_emit(cp, &ph, sizeof(ph));
	}
	return ok && dump_emit(cp, n->buf, n->len);
}

/* The file (Linux's elf_core_dump): as much as the limit and the file
 * system take; holes at the end are made part of it by its size. True
 * once the notes are made (Linux's has_dumped): a dump the limit cuts
 * short still counts as dumped, as there. */
static bool elf_core_dump(struct coredump_params *cp,
			  const struct kernel_siginfo *info)
{
	struct notes n = { 0 };
	struct core_vma *v;
	bool dumped, ok;
	u64 dataoff;
	int nr;

	v = snapshot_vmas(&nr);
	dumped = v && fill_notes(&n, info, v, nr);
	dataoff = PAGE_ALIGN(sizeof(Elf64_Ehdr) +
			     (nr + 1) * sizeof(Elf64_Phdr) + n.len);
	ok = dumped && write_headers(cp, &n, v, nr, dataoff) &&
	     dump_skip(cp, dataoff - cp->file->f_pos);
	for (int i = 0; ok && i < nr; i++)
		ok = dump_vma_pages(cp, &v[i]);
	if (ok && (u64)cp->file->f_pos > cp->file->f_inode->i_size)
		ramfs_truncate(cp->file->f_inode, cp->file->f_pos);
	kfree(n.buf);
	kfree(v);
	return dumped;
}

void do_coredump(const struct kernel_siginfo *info)
{
	struct signal_struct *sig = current->signal;
	struct coredump_params cp = { .limit = sig->core_limit };
	struct core_state cs = { 0 };
	char name[CORENAME_MAX_SIZE];

	/* Below a page there is no dump at all (Linux's min_coredump);
	 * zpk runs no program for a pattern that pipes to one; a process
	 * made undumpable (PR_SET_DUMPABLE 0) dumps nothing. */
	if (!current->mm || cp.limit < PAGE_SIZE || core_pattern[0] == '|' ||
	    !(current->mm->flags & MMF_DUMPABLE_MASK))
		return;
	if (!coredump_wait(info->si_signo, &cs))
		return;
	if (!format_corename(name, sizeof(name), info->si_signo) &&
	    !open_core(name, &cp.file)) {
		if (elf_core_dump(&cp, info))
			sig->group_exit_code |= 0x80;
		fput(cp.file);
	}
	coredump_finish(&cs);
}
