/* fs/proc/tests/ktest_proc.c — ktests of /proc: lookups, partial reads
 * and offsets, a file bigger than a page, status figures, binary files. */
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/memory.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/proc_fs.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/zero_page.h>

#define X	0x40000000UL
#define BIG	(64 * 1024)

static char *text;		/* BIG bytes: a whole generated file */

/* Reads all of path, chunk bytes at a time; its length or -errno. */
static long read_all(const char *path, size_t chunk)
{
	struct file *f;
	long len = 0, r;

	r = vfs_open(path, O_RDONLY, 0, &f);
	if (r)
		return r;
	while ((r = vfs_read(f, text + len,
			     min(chunk, (size_t)(BIG - 1 - len)))) > 0)
		len += r;
	fput(f);
	text[len] = '\0';
	return r < 0 ? r : len;
}

/* The number after "name:" in text (spaces and tabs skipped), or -1. */
static long field(const char *name)
{
	char key[32];
	const char *p;
	unsigned long v = 0;

	snprintf(key, sizeof(key), "\n%s:", name);
	p = strstr(text, key);
	if (!p)
		return -1;
	for (p += strlen(key); *p == ' ' || *p == '\t'; p++)
		;
	for (; *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (*p - '0');
	return (long)v;
}

/* current (the boot task) gets an mm with n VMAs of 2 pages, each with
 * its first page written; NULL if out of memory. */
/* n two-page VMAs at X, 4 pages apart: even ones written once (an anon
 * page), odd ones read-only and read once (a zero page, special). */
static struct mm_struct *give_current_mm(int n)
{
	enum zero_page_policy policy = zero_page_policy;
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return NULL;
	zero_page_policy = ZERO_PAGE_SPECIAL;
	for (int i = 0; i < n; i++) {
		unsigned long a = X + (unsigned long)i * 4 * PAGE_SIZE;
		unsigned long prot = PROT_READ | (i & 1 ? 0 : PROT_WRITE);

		do_mmap(mm, a, 2 * PAGE_SIZE, prot, MAP_PRIVATE |
			MAP_ANONYMOUS | MAP_FIXED, NULL, 0);
		handle_mm_fault(find_vma(mm, a), a, i & 1 ? FAULT_FLAG_USER :
				FAULT_FLAG_USER | FAULT_FLAG_WRITE);
	}
	zero_page_policy = policy;
	current->mm = mm;
	return mm;
}

static void drop_current_mm(struct mm_struct *mm)
{
	current->mm = NULL;
	mmput(mm);
}

KTEST(proc, lookup_self_and_pids)
{
	struct inode *self, *pid, *st;
	char path[32];

	KEXPECT_EQ(vfs_lookup(NULL, "/proc/self", &self), 0);
	snprintf(path, sizeof(path), "/proc/%d", current->pid);
	if (current->pid > 0) {
		KEXPECT_EQ(vfs_lookup(NULL, path, &pid), 0);
		KEXPECT_EQ(pid, self);
	}
	KEXPECT_TRUE(S_ISDIR(self->i_mode));
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/self/status", &st), 0);
	KEXPECT_TRUE(S_ISREG(st->i_mode));
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/self/../meminfo", &st), 0);
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/1", &pid) == 0,
		   find_task_by_pid(1) != NULL);
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/99999", &pid), -ENOENT);
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/self/nope", &pid), -ENOENT);
	KEXPECT_EQ(vfs_lookup(NULL, "/proc/sys/vm", &pid), 0);
}

/* One byte at a time, a few at a time, all at once: the same text; an
 * offset set before the first read (pread, lseek) works too. */
KTEST(proc, partial_reads_and_offsets)
{
	char whole[256], part[256];
	struct file *f;
	long len;

	text = kmalloc(BIG, GFP_KERNEL);
	len = read_all("/proc/version", 4096);
	KEXPECT_TRUE(len > 20 && len < 256);
	KEXPECT_STRSTR(text, "zpk version ");
	memcpy(whole, text, len + 1);
	KEXPECT_EQ(read_all("/proc/version", 1), len);
	KEXPECT_EQ(strcmp(text, whole), 0);
	KEXPECT_EQ(read_all("/proc/version", 7), len);
	KEXPECT_EQ(strcmp(text, whole), 0);
	KEXPECT_EQ(vfs_open("/proc/version", O_RDONLY, 0, &f), 0);
	f->f_pos = 4;
	KEXPECT_EQ(vfs_read(f, part, 5), 5);
	KEXPECT_EQ(memcmp(part, whole + 4, 5), 0);
	f->f_pos = len;
	KEXPECT_EQ(vfs_read(f, part, 5), 0);
	f->f_pos = 0;
	KEXPECT_EQ(vfs_read(f, part, sizeof(part)), len);
	fput(f);
	KEXPECT_TRUE(read_all("/proc/meminfo", 100) > 0);
	KEXPECT_STRSTR(text, "MemTotal:");
	KEXPECT_STRSTR(text, "\nPageTables:");
	kfree(text);
}

/* smaps of 40 VMAs is ~36 KiB: generated whole, read in odd chunks. */
KTEST(proc, smaps_bigger_than_a_page)
{
	struct mm_struct *mm = give_current_mm(40);
	long len;
	int n = 0;

	text = kmalloc(BIG, GFP_KERNEL);
	KEXPECT_NOT_NULL(mm);
	if (!mm || !text)
		goto out;
	len = read_all("/proc/self/smaps", 1000);
	KEXPECT_TRUE(len > (long)PAGE_SIZE);
	for (const char *p = text; (p = strstr(p, "VmFlags:")); p++)
		n++;
	KEXPECT_EQ(n, 40);
	KEXPECT_STRSTR(text, "Rss:                   4 kB\n");
	KEXPECT_STRSTR(text, "ZeroPages:             0 kB\n");
	KEXPECT_STRSTR(text, "ZeroPages:             4 kB\n");
	KEXPECT_TRUE(read_all("/proc/self/smaps_rollup", 64) > 0);
	KEXPECT_STRSTR(text, "40000000-");
	KEXPECT_STRSTR(text, "[rollup]\nRss:                  80 kB\n");
	drop_current_mm(mm);
out:
	kfree(text);
}

/* VmRSS = RssAnon + RssFile + RssShmem, and the figures are the mm's. */
KTEST(proc, status_rss_adds_up)
{
	struct mm_struct *mm = give_current_mm(3);
	long rss;

	text = kmalloc(BIG, GFP_KERNEL);
	KEXPECT_NOT_NULL(mm);
	if (!mm || !text)
		goto out;
	KEXPECT_TRUE(read_all("/proc/self/status", 4096) > 0);
	rss = field("VmRSS");
	KEXPECT_EQ(rss, (long)get_mm_rss(mm) * 4);
	KEXPECT_EQ(rss, field("RssAnon") + field("RssFile") +
		   field("RssShmem"));
	KEXPECT_EQ(field("RssZero"), 4);	/* the read one: not in VmRSS */
	KEXPECT_EQ(field("VmSize"), 6 * 4);
	KEXPECT_STRSTR(text, "\nVmRSS:\t       8 kB\n");
	KEXPECT_STRSTR(text, "\nRssShmem:\t       0 kB\nRssZero:\t");
	KEXPECT_TRUE(read_all("/proc/self/statm", 64) > 0);
	KEXPECT_STRSTR(text, "6 2 0 0 0 ");
	drop_current_mm(mm);
out:
	kfree(text);
}

#define PM_SOFT_DIRTY	(1ULL << 55)
#define PM_EXCLUSIVE	(1ULL << 56)
#define PM_PRESENT	(1ULL << 63)

/* pagemap shows the page a write fault gave, soft-dirty as all of its new
 * VMA is; kpageflags marks the zero page; offsets that are not multiples
 * of 8 are refused. */
KTEST(proc, pagemap_and_kpageflags)
{
	struct mm_struct *mm = give_current_mm(1);
	struct file *f;
	pte_t *pte;
	u64 e[2];

	KEXPECT_NOT_NULL(mm);
	if (!mm)
		return;
	pte = pte_lookup(mm, X);
	KEXPECT_NOT_NULL(pte);
	if (!pte)
		goto out;
	KEXPECT_EQ(vfs_open("/proc/self/pagemap", O_RDONLY, 0, &f), 0);
	f->f_pos = (X >> PAGE_SHIFT) * 8;
	KEXPECT_EQ(vfs_read(f, (char *)e, 16), 16);
	KEXPECT_EQ(e[0], PM_PRESENT | PM_SOFT_DIRTY | PM_EXCLUSIVE |
		   pte_pfn(*pte));
	KEXPECT_EQ(e[1], PM_SOFT_DIRTY);	/* not mapped, VM_SOFTDIRTY */
	f->f_pos = 3;
	KEXPECT_EQ(vfs_read(f, (char *)e, 8), -EINVAL);
	fput(f);
	KEXPECT_EQ(vfs_open("/proc/kpageflags", O_RDONLY, 0, &f), 0);
	f->f_pos = zero_pfn * 8;
	KEXPECT_EQ(vfs_read(f, (char *)e, 8), 8);
	KEXPECT_TRUE(e[0] & (1ULL << 24));
	f->f_pos = pte_pfn(*pte) * 8;
	KEXPECT_EQ(vfs_read(f, (char *)e, 8), 8);
	KEXPECT_TRUE((e[0] & (1ULL << 12)) && (e[0] & (1ULL << 11)));
	f->f_pos = max_pfn * 8;
	KEXPECT_EQ(vfs_read(f, (char *)e, 8), 0);
	fput(f);
out:
	drop_current_mm(mm);
}

/* Writes s to /proc/self/clear_refs: what the write returned. */
static long clear_refs(const char *s)
{
	struct file *f;
	long r = vfs_open("/proc/self/clear_refs", O_WRONLY, 0, &f);

	if (r)
		return r;
	r = vfs_write(f, s, strlen(s));
	fput(f);
	return r;
}

/* current's pagemap entry for addr, or 0. */
static u64 pagemap_at(unsigned long addr)
{
	struct file *f;
	u64 e = 0;

	if (vfs_open("/proc/self/pagemap", O_RDONLY, 0, &f))
		return 0;
	f->f_pos = (addr >> PAGE_SHIFT) * 8;
	vfs_read(f, (char *)&e, 8);
	fput(f);
	return e;
}

/* clear_refs 4 takes soft-dirty off the VMA and the PTE, and the write
 * permission with it; the next write faults, reuses the page (no copy)
 * and marks it again. Types outside 1-5 are refused. */
KTEST(proc, clear_refs_soft_dirty)
{
	struct mm_struct *mm = give_current_mm(1);
	pte_t *pte = mm ? pte_lookup(mm, X) : NULL;
	unsigned long pfn = pte ? pte_pfn(*pte) : 0;

	KEXPECT_NOT_NULL(pte);
	if (!pte)
		goto out;
	KEXPECT_TRUE(pte_write(*pte) && pte_soft_dirty(*pte));
	KEXPECT_EQ(clear_refs(" 4\n"), 3);
	KEXPECT_FALSE(pte_write(*pte) || pte_soft_dirty(*pte));
	KEXPECT_FALSE(find_vma(mm, X)->vm_flags & VM_SOFTDIRTY);
	KEXPECT_EQ(pagemap_at(X), PM_PRESENT | PM_EXCLUSIVE | pfn);
	KEXPECT_EQ(pagemap_at(X + PAGE_SIZE), 0);
	KEXPECT_EQ(handle_mm_fault(find_vma(mm, X), X, FAULT_FLAG_USER |
				   FAULT_FLAG_WRITE), 0);
	KEXPECT_TRUE(pte_write(*pte) && pte_soft_dirty(*pte));
	KEXPECT_EQ(pte_pfn(*pte), pfn);
	KEXPECT_EQ(pagemap_at(X), PM_PRESENT | PM_SOFT_DIRTY | PM_EXCLUSIVE |
		   pfn);
	KEXPECT_EQ(clear_refs("0"), -EINVAL);
	KEXPECT_EQ(clear_refs("6"), -EINVAL);
	KEXPECT_EQ(clear_refs("x"), -EINVAL);
out:
	if (mm)
		drop_current_mm(mm);
}

static char knob[16] = "special";

static int knob_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%s\n", knob);
	return 0;
}

static ssize_t knob_write(struct task_struct *task, const char *buf,
			  size_t n, loff_t pos)
{
	(void)task, (void)pos;
	if (n >= sizeof(knob))
		return -EINVAL;
	memcpy(knob, buf, n);
	knob[n] = '\0';
	return n;
}

/* A file registered by other kernel code: read and write hooks. */
KTEST(proc, proc_create_write_hook)
{
	struct file *f;
	char buf[16];
	int err = proc_create("sys/vm/ktest_knob", 0644, knob_show,
			      knob_write);

	KEXPECT_TRUE(err == 0 || err == -EEXIST);
	KEXPECT_EQ(vfs_open("/proc/sys/vm/ktest_knob", O_RDWR, 0, &f), 0);
	KEXPECT_EQ(vfs_read(f, buf, sizeof(buf)), 8);
	KEXPECT_EQ(memcmp(buf, "special\n", 8), 0);
	KEXPECT_EQ(vfs_write(f, "off", 3), 3);
	f->f_pos = 0;
	KEXPECT_EQ(vfs_read(f, buf, sizeof(buf)), 4);
	KEXPECT_EQ(memcmp(buf, "off\n", 4), 0);
	fput(f);
	KEXPECT_EQ(proc_create("sys/vm/ktest_knob", 0644, knob_show, NULL),
		   -EEXIST);
}
