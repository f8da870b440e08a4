/* fs/proc/generic.c — the machinery of /proc files: seq_file-lite
 * text generated on read, binary reads at an offset, writes, proc_create. */
#include <zpk/cpumask.h>
#include <zpk/errno.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <stdarg.h>
#include "internal.h"

#define SEQ_MAX_SIZE	(4UL << 20)	/* the largest kmalloc */

static unsigned long next_proc_ino = 0xf0000000UL;

struct super_block proc_sb = {
	.s_dev = 4,
	.s_magic = 0x9fa0,		/* PROC_SUPER_MAGIC */
	.s_type = "proc",
	.s_flags = ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME,
};

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	size_t room = m->size - m->count;
	va_list ap;
	int len;

	if (m->overflow)
		return;
	va_start(ap, fmt);
	len = vsnprintf(m->buf + m->count, room, fmt, ap);
	va_end(ap);
	if ((size_t)len >= room) {
		m->overflow = true;
		m->count = m->size;
		return;
	}
	m->count += len;
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}

void seq_setwidth(struct seq_file *m, size_t width)
{
	m->pad_until = m->count + width;
}

void seq_pad(struct seq_file *m, char c)
{
	while (m->count < m->pad_until && !m->overflow)
		seq_putc(m, ' ');
	if (c)
		seq_putc(m, c);
}

/* A CPU mask as Linux's %*pbl prints it: ranges, "0-3,6". */
void seq_cpu_list(struct seq_file *m, unsigned long bits)
{
	const char *sep = "";

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		int last = cpu;

		if (!(bits & (1UL << cpu)))
			continue;
		while (last + 1 < NR_CPUS && (bits & (1UL << (last + 1))))
			last++;
		seq_printf(m, last > cpu ? "%s%d-%d" : "%s%d", sep, cpu, last);
		sep = ",";
		cpu = last;
	}
}

/*
 * Runs show until its text fits, doubling the buffer: the whole file at
 * once, so that reads at any offset see one consistent snapshot. NULL
 * and *err set on failure.
 */
static struct seq_file *seq_generate(proc_show_fn show,
				     struct task_struct *task, int *err)
{
	struct seq_file *m = kzalloc(sizeof(*m), GFP_KERNEL);

	*err = -ENOMEM;
	if (!m)
		return NULL;
	for (m->size = PAGE_SIZE; m->size <= SEQ_MAX_SIZE; m->size *= 2) {
		m->buf = kmalloc(m->size, GFP_KERNEL);
		if (!m->buf)
			break;
		m->count = m->pad_until = 0;
		m->overflow = false;
		*err = show(m, task);
		if (*err || !m->overflow)
			break;
		kfree(m->buf);
		m->buf = NULL;
		*err = -ENOMEM;
	}
	if (*err || !m->buf) {
		kfree(m->buf);
		kfree(m);
		return NULL;
	}
	return m;
}

static void seq_free(struct seq_file *m)
{
	if (m) {
		kfree(m->buf);
		kfree(m);
	}
}

/*
 * An open /proc file (private_data): a /proc/PID file holds the process it
 * was opened on, and mem and pagemap the address space it had then, so
 * that a later process given the same pid is never what it reads.
 */
struct proc_file {
	struct task_struct *task;	/* get_task_struct; NULL in /proc */
	struct mm_struct *mm;		/* mmgrab; NULL if none at open */
	struct seq_file *seq;		/* the text, for show files */
};

static bool binds_mm(const struct proc_entry *e)
{
	return e && (e->mm_read || e->mm_write);
}

/* Binds f to the process (and mm) of its inode: 0, -ESRCH if that
 * process is gone, -EACCES, -ENOMEM. */
static int proc_open(struct file *f)
{
	struct proc_inode *pi = PROC_I(f->f_inode);
	struct proc_file *pf;
	struct task_struct *task = NULL;

	/* sysfs refuses a write open of a value it cannot store, as
	 * Linux's kernfs_fop_open; /proc answers the write itself (-EIO) */
	if (f->f_inode->i_sb == &sysfs_sb && (f->f_flags & O_ACCMODE) &&
	    !(pi->entry && pi->entry->write))
		return -EACCES;
	if (pi->pid != PROC_NO_PID) {
		task = proc_inode_task(f->f_inode);
		if (!task)
			return -ESRCH;
	}
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	if (task) {
		get_task_struct(task);
		pf->task = task;
		if (binds_mm(pi->entry) && task->mm) {
			mmgrab(task->mm);
			pf->mm = task->mm;
		}
	}
	f->private_data = pf;
	return 0;
}

/* The process a /proc/PID file was opened on (NULL for a /proc file);
 * -ESRCH once it has been reaped, as Linux. */
static int proc_task(struct file *f, struct task_struct **task)
{
	struct proc_file *pf = f->private_data;

	*task = pf->task;
	return *task && (*task)->state == EXIT_DEAD ? -ESRCH : 0;
}

/* mem and pagemap: their mm while it lives, else 0 bytes (EOF), as
 * Linux's mmget_not_zero in mem_rw. */
static ssize_t proc_mm_rw(struct file *f, char *buf, size_t n, loff_t *pos,
			  bool write)
{
	const struct proc_entry *e = PROC_I(f->f_inode)->entry;
	struct mm_struct *mm = ((struct proc_file *)f->private_data)->mm;
	ssize_t r;

	if (write && !e->mm_write)
		return -EINVAL;
	if (!write && !e->mm_read)
		return -EINVAL;
	if (!mm || !mmget_not_zero(mm))
		return 0;
	r = write ? e->mm_write(mm, buf, n, *pos) : e->mm_read(mm, buf, n, *pos);
	mmput(mm);
	if (r > 0)
		*pos += r;
	return r;
}

/* Up to n bytes of src[0..len) from *pos on into buf, *pos moved past
 * them (Linux's simple_read_from_buffer, into a kernel buffer). */
static ssize_t read_from_buffer(char *buf, size_t n, loff_t *pos,
				const char *src, size_t len)
{
	if ((u64)*pos >= len)
		return 0;
	n = min(n, (size_t)(len - *pos));
	memcpy(buf, src + *pos, n);
	*pos += n;
	return n;
}

/*
 * Text is generated at a read from offset 0 (so lseek(0) and read again
 * shows fresh figures, as top expects) or when there is none yet; other
 * reads continue in the text kept in the proc_file.
 */
static ssize_t seq_read(struct file *f, struct task_struct *task,
			char *buf, size_t n, loff_t *pos)
{
	struct proc_file *pf = f->private_data;
	struct seq_file *m = pf->seq;
	int err;

	if (!m || *pos == 0) {
		seq_free(m);
		pf->seq = m = seq_generate(PROC_I(f->f_inode)->entry->show,
					   task, &err);
		if (!m)
			return err;
	}
	return read_from_buffer(buf, n, pos, m->buf, m->count);
}

/* ---- int sysctls (Linux's ctl_table .data, proc_dointvec_minmax) ---- */

int proc_write_int(const char *buf, size_t n, loff_t pos, unsigned long *v)
{
	char num[16];

	if (pos || n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, buf, n);
	num[n] = 0;
	if (num[n - 1] == '\n')
		num[n - 1] = 0;
	if (kstrtoul(num, 10, v) || *v > 0x7fffffff)
		return -EINVAL;
	return 0;
}

/* "%d\n" of the entry's int, from *pos. */
static ssize_t proc_int_read(const struct proc_entry *e, char *buf, size_t n,
			     loff_t *pos)
{
	char num[16];
	int len = snprintf(num, sizeof(num), "%d\n", READ_ONCE(*e->data));

	return read_from_buffer(buf, n, pos, num, len);
}

static ssize_t proc_int_write(const struct proc_entry *e, const char *buf,
			      size_t n, loff_t pos)
{
	unsigned long v;

	if (proc_write_int(buf, n, pos, &v))
		return -EINVAL;
	WRITE_ONCE(*e->data, (int)v);
	return n;
}

static ssize_t proc_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	const struct proc_entry *e = PROC_I(f->f_inode)->entry;
	struct task_struct *task;
	ssize_t r = proc_task(f, &task);

	if (!e)
		return -EISDIR;
	if (binds_mm(e))
		return proc_mm_rw(f, buf, n, pos, false);
	if (r)
		return r;
	if (e->data)
		return proc_int_read(e, buf, n, pos);
	if (!e->read && !e->show)
		return -EINVAL;		/* write-only: clear_refs */
	if (!e->read)
		return seq_read(f, task, buf, n, pos);
	r = e->read(task, buf, n, *pos);
	if (r > 0)
		*pos += r;
	return r;
}

static ssize_t proc_write(struct file *f, const char *buf, size_t n,
			  loff_t *pos)
{
	const struct proc_entry *e = PROC_I(f->f_inode)->entry;
	struct task_struct *task;
	ssize_t r = proc_task(f, &task);

	if (binds_mm(e))
		return proc_mm_rw(f, (char *)buf, n, pos, true);
	if (r)
		return r;
	/* Linux: EIO from a /proc file without write, EINVAL from a
	 * /proc/PID one (no write operation at all). */
	if (e && e->data)
		r = proc_int_write(e, buf, n, *pos);
	else if (!e || !e->write)
		return PROC_I(f->f_inode)->pid == PROC_NO_PID ? -EIO : -EINVAL;
	else
		r = e->write(task, buf, n, *pos);
	if (r > 0)
		*pos += r;
	return r;
}

static void proc_release(struct file *f)
{
	struct proc_file *pf = f->private_data;

	if (!pf)
		return;
	seq_free(pf->seq);
	if (pf->mm)
		mmdrop(pf->mm);
	if (pf->task)
		put_task_struct(pf->task);
	kfree(pf);
	f->private_data = NULL;
}

const struct file_operations proc_file_ops = {
	.open = proc_open,
	.read = proc_read,
	.write = proc_write,
	.release = proc_release,
};

struct proc_inode *proc_new_inode(u32 mode, int pid,
				  const struct proc_entry *entry)
{
	struct proc_inode *pi = kzalloc(sizeof(*pi) + sizeof(struct dentry) +
					PROC_NAME_LEN + 1, GFP_KERNEL);
	struct inode *inode;

	if (!pi)
		return NULL;
	inode = &pi->vfs_inode;
	inode->i_sb = &proc_sb;
	inode->i_ino = next_proc_ino++;
	inode->i_mode = mode;
	inode->i_count = 1;
	INIT_LIST_HEAD(&inode->i_children);
	inode->i_fop = S_ISDIR(mode) ? &ramfs_dir_ops : &proc_file_ops;
	if (S_ISDIR(mode))
		inode->i_fixed = -EPERM;	/* users add or remove nothing */
	pi->pid = pid;
	pi->entry = entry;
	INIT_LIST_HEAD(&pi->cache);
	return pi;
}

/* Splits the absolute path full into its directory and last name. */
static int pseudo_parent(const char *full, struct inode **dir,
			 const char **name)
{
	const char *slash = strrchr(full, '/');
	char d[256];
	size_t n;

	if (!slash || !slash[1])
		return -ENOENT;
	n = slash - full;
	if (n >= sizeof(d))
		return -ENAMETOOLONG;
	memcpy(d, full, n);
	d[n] = '\0';
	*name = slash + 1;
	return vfs_lookup(NULL, n ? d : "/", dir);
}

/*
 * A new name at the absolute path full, on sb (/proc's or sysfs's), for
 * entry e (NULL for a directory); fixed is what removing a directory's
 * names answers. 0, -EEXIST if taken, -ENOENT without the directory,
 * -ENOMEM.
 */
int pseudo_add(struct super_block *sb, const char *full, u32 mode,
	       struct proc_entry *e, int fixed)
{
	struct proc_inode *pi;
	struct inode *dir;
	const char *name;
	int err = pseudo_parent(full, &dir, &name);

	if (err)
		return err;
	if (ramfs_find(dir, name, strlen(name)))
		return -EEXIST;
	pi = proc_new_inode(mode, PROC_NO_PID, e);
	if (!pi)
		return -ENOMEM;
	pi->vfs_inode.i_sb = sb;
	if (S_ISDIR(mode))
		pi->vfs_inode.i_fixed = fixed;
	err = ramfs_link(dir, name, strlen(name), &pi->vfs_inode);
	iput(&pi->vfs_inode);	/* the name holds it (or it is gone) */
	return err;
}

/* An entry for a text (show) or binary (read) file; NULL if no memory. */
struct proc_entry *proc_entry_new(const char *name, u32 mode,
				  proc_show_fn show, proc_read_fn read,
				  proc_write_fn write, int *data)
{
	struct proc_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	e->name = name;
	e->mode = S_IFREG | (mode & 07777);
	e->show = show;
	e->read = read;
	e->write = write;
	e->data = data;
	return e;
}

/* A new /proc name at path for entry e (NULL for a directory); in
 * /proc/sys a directory's fixed names are -EACCES (sysctl's permission
 * check) to remove, elsewhere -EPERM. */
static int proc_add(const char *path, u32 mode, struct proc_entry *e)
{
	char full[256];
	bool sys = !strncmp(path, "sys", 3) && (path[3] == '/' || !path[3]);

	if (snprintf(full, sizeof(full), "/proc/%s", path) >= (int)sizeof(full))
		return -ENAMETOOLONG;
	return pseudo_add(&proc_sb, full, mode, e, sys ? -EACCES : -EPERM);
}

static int proc_add_entry(const char *path, u32 mode, proc_show_fn show,
			  proc_read_fn read, proc_write_fn write, int *data)
{
	struct proc_entry *e = proc_entry_new(path, mode, show, read, write,
					      data);
	int err;

	if (!e)
		return -ENOMEM;
	err = proc_add(path, e->mode, e);
	if (err)
		kfree(e);
	return err;
}

int proc_create(const char *path, u32 mode, proc_show_fn show,
		proc_write_fn write)
{
	return proc_add_entry(path, mode, show, NULL, write, NULL);
}

int proc_create_raw(const char *path, u32 mode, proc_read_fn read,
		    proc_write_fn write)
{
	return proc_add_entry(path, mode, NULL, read, write, NULL);
}

int proc_create_int(const char *path, u32 mode, int *data)
{
	return proc_add_entry(path, mode, NULL, NULL, NULL, data);
}

int proc_mkdir(const char *path)
{
	return proc_add(path, S_IFDIR | 0555, NULL);
}

int proc_symlink(const char *path, const char *target)
{
	struct inode *dir;
	const char *name;
	char full[256];
	int err;

	if (snprintf(full, sizeof(full), "/proc/%s", path) >= (int)sizeof(full))
		return -ENAMETOOLONG;
	err = pseudo_parent(full, &dir, &name);
	if (err)
		return err;
	if (ramfs_find(dir, name, strlen(name)))
		return -EEXIST;
	return ramfs_symlink(dir, name, strlen(name), target, strlen(target));
}
