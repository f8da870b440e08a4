/* fs/proc/base.c — the directories of /proc: the root (its stored
 * files, then "self" and one entry per live process), /proc/PID,
 * /proc/PID/task/TID (one per thread), /proc/PID/mem. */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/gup.h>
#include <zpk/memblock.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/oom.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/swap.h>
#include "internal.h"

#define R	(S_IFREG | 0444)
#define L	(S_IFLNK | 0777)

static int proc_pid_comm(struct seq_file *m, struct task_struct *task);
static ssize_t proc_pid_comm_write(struct task_struct *task, const char *buf,
				   size_t n, loff_t pos);

/* ---- the OOM killer's view --------------------------------------------- */

/* Linux's proc_oom_score: the badness scaled into 0..2000 (0 for a task
 * the OOM killer may not choose). */
static int proc_oom_score(struct seq_file *m, struct task_struct *task)
{
	unsigned long totalpages = totalram_pages(), points = 0;
	long badness = oom_badness(task, totalpages);

	if (badness != (-__LONG_MAX__ - 1))
		points = (unsigned long)((1000 + badness * 1000 /
					  (long)totalpages) * 2 / 3);
	seq_printf(m, "%lu\n", points);
	return 0;
}

static int proc_oom_score_adj(struct seq_file *m, struct task_struct *task)
{
	seq_printf(m, "%d\n", task->signal->oom_score_adj);
	return 0;
}

/* Linux's oom_score_adj_write: at most 12 bytes, blanks around a number
 * in -1000..1000, else -EINVAL (every zpk process may lower it: root). */
static ssize_t proc_oom_score_adj_write(struct task_struct *task,
					const char *buf, size_t n, loff_t pos)
{
	char num[PROC_NUMBUF];
	long v;
	int err;

	(void)pos;
	memcpy(num, buf, min(n, sizeof(num) - 1));
	num[min(n, sizeof(num) - 1)] = 0;
	err = kstrtol(strstrip(num), 0, &v);
	if (err)
		return err;
	if (v < OOM_SCORE_ADJ_MIN || v > OOM_SCORE_ADJ_MAX)
		return -EINVAL;
	task->signal->oom_score_adj = (short)v;
	return (ssize_t)n;
}

static const struct inode_operations task_dir_iops, proc_fd_dir_iops,
	proc_fd_link_iops, proc_cwd_iops, proc_exe_iops;

/* The files of every /proc/PID, in Linux's readdir order; "task" (the
 * first) is not in /proc/PID/task/TID. */
static const struct proc_entry pid_entries[] = {
	{ .name = "task", .mode = S_IFDIR | 0555, .iops = &task_dir_iops },
	{ .name = "fd", .mode = S_IFDIR | 0500, .iops = &proc_fd_dir_iops },
	{ .name = "comm", .mode = S_IFREG | 0644,
	  .show = proc_pid_comm, .write = proc_pid_comm_write },
	{ .name = "cmdline", .mode = R, .show = proc_pid_cmdline },
	{ .name = "mem", .mode = S_IFREG | 0600,
	  .mm_read = proc_pid_mem_read, .mm_write = proc_pid_mem_write },
	{ .name = "cwd", .mode = L, .iops = &proc_cwd_iops },
	{ .name = "exe", .mode = L, .iops = &proc_exe_iops },
	{ .name = "mounts", .mode = R, .show = proc_pid_mounts },
	{ .name = "maps", .mode = R, .show = proc_pid_maps },
	{ .name = "clear_refs", .mode = S_IFREG | 0200,
	  .write = proc_pid_clear_refs_write },
	{ .name = "smaps", .mode = R, .show = proc_pid_smaps },
	{ .name = "smaps_rollup", .mode = R, .show = proc_pid_smaps_rollup },
	{ .name = "pagemap", .mode = S_IFREG | 0400,
	  .mm_read = proc_pid_pagemap },
	{ .name = "stat", .mode = R, .show = proc_pid_stat },
	{ .name = "statm", .mode = R, .show = proc_pid_statm },
	{ .name = "status", .mode = R, .show = proc_pid_status },
	{ .name = "oom_score", .mode = R, .show = proc_oom_score },
	{ .name = "oom_score_adj", .mode = S_IFREG | 0644,
	  .show = proc_oom_score_adj, .write = proc_oom_score_adj_write },
};
#define NR_PID_ENTRIES	(sizeof(pid_entries) / sizeof(pid_entries[0]))
/* /proc/PID/stat adds up the threads; /proc/PID/task/TID/stat is one's. */
static const struct proc_entry tid_stat_entry = {
	.name = "stat", .mode = R, .show = proc_tid_stat };

/* The links of /proc/PID/fd: one entry, the descriptor in proc_inode. */
static const struct proc_entry fd_link_entry = {
	.name = "fd/N", .mode = L, .iops = &proc_fd_link_iops,
};

static struct inode *proc_root;
static struct inode *proc_self;	/* the link /proc/self */
static const struct inode_operations pid_dir_iops, tid_dir_iops,
	pid_file_iops;
/*
 * Per-pid inodes are made on the first lookup and kept here while their
 * process lives (their i_nlink is this list's), so that a path walk gets
 * the same inode twice. Each holds its process, a file also its directory.
 */
static LIST_HEAD(pid_inodes);

/* The process a /proc/PID inode was made for, or NULL once it is reaped
 * (Linux's get_proc_task): a held-open /proc/PID never leads to the next
 * process given that pid. */
struct task_struct *proc_inode_task(struct inode *inode)
{
	struct task_struct *t = PROC_I(inode)->task;

	return t && t->state != EXIT_DEAD ? t : NULL;
}

/* i_op->evict: the last reference to an unnamed pid inode is gone. */
static void free_pid_inode(struct inode *inode)
{
	struct proc_inode *pi = PROC_I(inode);

	list_del_init(&pi->cache);
	if (inode->i_parent != proc_root)
		iput(inode->i_parent);
	put_task_struct(pi->task);
	kfree(pi);
}

/*
 * A reaped process's inodes lose their names now (Linux's
 * proc_flush_task): unused ones go at once, open ones at their last iput,
 * so that its end leaves no memory behind.
 */
void proc_flush_task(struct task_struct *task)
{
	struct proc_inode *pi, *n;

	/* A directory precedes its files here, so a file's iput of its
	 * directory never frees the next entry. */
	list_for_each_entry_safe(pi, n, &pid_inodes, cache) {
		if (pi->task != task)
			continue;
		list_del_init(&pi->cache);
		pi->vfs_inode.i_nlink = 0;
		if (!pi->vfs_inode.i_count)
			free_pid_inode(&pi->vfs_inode);
	}
}

/* The name a pid inode has in its directory (for d_path): the pid or
 * tid, the entry's name, or the descriptor; in the room after pi. */
static struct dentry *pid_dentry(struct proc_inode *pi)
{
	struct dentry *d = (struct dentry *)(pi + 1);

	if (!pi->entry)
		snprintf(d->d_name, PROC_NAME_LEN + 1, "%d", pi->pid);
	else if (pi->entry == &fd_link_entry)
		snprintf(d->d_name, PROC_NAME_LEN + 1, "%d", pi->fd);
	else
		strlcpy(d->d_name, pi->entry->name, PROC_NAME_LEN + 1);
	d->d_len = strlen(d->d_name);
	d->d_inode = &pi->vfs_inode;
	return d;
}

/* The inode operations of (entry, in parent): a /proc/PID or TID
 * directory, an entry's own (task, fd, links), or a file's. */
static const struct inode_operations *pid_inode_ops(const struct proc_entry *e,
						   struct inode *parent)
{
	if (!e)
		return parent == proc_root ? &pid_dir_iops : &tid_dir_iops;
	return e->iops ? e->iops : &pid_file_iops;
}

/* The inode of (task, entry, fd) in parent, entry NULL for the /proc/PID
 * and /proc/PID/task/TID directories, fd -1 but for /proc/PID/fd/N; each
 * holds its parent but the root. */
static struct inode *pid_inode(struct task_struct *task,
			       const struct proc_entry *e, struct inode *parent,
			       int fd)
{
	struct proc_inode *pi;

	list_for_each_entry(pi, &pid_inodes, cache)
		if (pi->task == task && pi->entry == e && pi->fd == fd &&
		    pi->vfs_inode.i_parent == parent)
			return &pi->vfs_inode;
	pi = proc_new_inode(e ? e->mode : S_IFDIR | 0555, task->pid, e);
	if (!pi)
		return NULL;
	pi->fd = fd;
	pi->vfs_inode.i_dentry = pid_dentry(pi);
	get_task_struct(task);
	pi->task = task;
	pi->vfs_inode.i_count = 0;
	pi->vfs_inode.i_nlink = e && !S_ISDIR(e->mode) ? 1 : 2;
	pi->vfs_inode.i_parent = parent;
	if (parent != proc_root)
		ihold(parent);
	pi->vfs_inode.i_op = pid_inode_ops(e, parent);
	list_add_tail(&pi->cache, &pid_inodes);
	return &pi->vfs_inode;
}

/* name[0..len) as a number >= 0 without leading zeros, or -1. */
static int name_to_pid(const char *name, size_t len)
{
	char s[12];
	unsigned long v;

	if (len == 0 || len >= sizeof(s) || (name[0] == '0' && len > 1))
		return -1;
	memcpy(s, name, len);
	s[len] = '\0';
	if (kstrtoul(s, 10, &v) || v > 0x7fffffff)
		return -1;
	return (int)v;
}

/* The first entry a directory lists: /proc/PID has "task", a thread's
 * /proc/PID/task/TID does not. */
static size_t first_entry(struct inode *dir)
{
	return dir->i_op == &tid_dir_iops;
}

static int pid_dir_lookup(struct inode *dir, const char *name, size_t len,
			  struct inode **res)
{
	struct task_struct *task = proc_inode_task(dir);

	if (!task)
		return -ESRCH;	/* a held-open /proc/PID of a reaped one */
	for (size_t i = first_entry(dir); i < NR_PID_ENTRIES; i++) {
		const struct proc_entry *e = &pid_entries[i];

		if (strlen(e->name) == len && !memcmp(e->name, name, len)) {
			if (first_entry(dir) && e->show == proc_pid_stat)
				e = &tid_stat_entry;	/* the thread's own */
			*res = pid_inode(task, e, dir, -1);
			return *res ? 0 : -ENOMEM;
		}
	}
	return -ENOENT;
}

static bool pid_dir_readdir(struct inode *dir, long idx, struct dir_entry *de)
{
	idx += first_entry(dir);
	if (idx < 0 || (size_t)idx >= NR_PID_ENTRIES ||
	    !proc_inode_task(dir))
		return false;
	strlcpy(de->name, pid_entries[idx].name, sizeof(de->name));
	de->len = strlen(de->name);
	de->ino = 0x80000000UL + idx;	/* any number: nobody compares */
	de->mode = pid_entries[idx].mode;
	return true;
}

static const struct inode_operations pid_dir_iops = {
	.lookup = pid_dir_lookup,
	.readdir = pid_dir_readdir,
	.evict = free_pid_inode,
};

static const struct inode_operations tid_dir_iops = {
	.lookup = pid_dir_lookup,
	.readdir = pid_dir_readdir,
	.evict = free_pid_inode,
};

/* /proc/PID/task: one directory per thread of the process, by tid. */
static int task_dir_lookup(struct inode *dir, const char *name, size_t len,
			   struct inode **res)
{
	struct task_struct *task = proc_inode_task(dir), *t;
	int tid = name_to_pid(name, len);

	if (!task)
		return -ESRCH;
	t = tid > 0 ? find_task_by_pid(tid) : NULL;
	if (!t || !same_thread_group(t, task))
		return -ENOENT;
	*res = pid_inode(t, NULL, dir, -1);
	return *res ? 0 : -ENOMEM;
}

static bool task_dir_readdir(struct inode *dir, long idx, struct dir_entry *de)
{
	struct task_struct *task = proc_inode_task(dir), *t;

	if (!task || idx < 0)
		return false;
	for_each_thread(task, t) {
		if (t->state == EXIT_DEAD || idx-- > 0)
			continue;
		de->len = snprintf(de->name, sizeof(de->name), "%d", t->pid);
		de->ino = 0x60000000UL + t->pid;
		de->mode = S_IFDIR | 0555;
		return true;
	}
	return false;
}

static const struct inode_operations task_dir_iops = {
	.lookup = task_dir_lookup,
	.readdir = task_dir_readdir,
	.evict = free_pid_inode,
};

static const struct inode_operations pid_file_iops = {
	.evict = free_pid_inode,
};

/* The root's made-up names: the link "self", then every live pid > 0. */
static int root_lookup(struct inode *dir, const char *name, size_t len,
		       struct inode **res)
{
	int pid = name_to_pid(name, len);
	struct task_struct *task;

	if (len == 4 && !memcmp(name, "self", 4)) {
		*res = proc_self;
		return 0;
	}
	task = pid > 0 ? find_task_by_pid(pid) : NULL;
	if (!task)
		return -ENOENT;
	*res = pid_inode(task, NULL, dir, -1);
	return *res ? 0 : -ENOMEM;
}

static bool root_readdir(struct inode *dir, long idx, struct dir_entry *de)
{
	struct task_struct *t;

	(void)dir;
	if (idx == 0) {
		strlcpy(de->name, "self", sizeof(de->name));
		de->len = 4;
		de->ino = proc_self->i_ino;
		de->mode = L;
		return true;
	}
	for_each_process(t) {
		if (t->pid <= 0 || t->state == EXIT_DEAD || --idx > 0)
			continue;
		de->len = snprintf(de->name, sizeof(de->name), "%d", t->pid);
		de->ino = 0x70000000UL + t->pid;
		de->mode = S_IFDIR | 0555;
		return true;
	}
	return false;
}

static const struct inode_operations proc_root_iops = {
	.lookup = root_lookup,
	.readdir = root_readdir,
};

/* ---- links and comm ------------------------------------------------- */

/* /proc/self leads to the caller's /proc/PID; its text is the pid. */
static int self_get_link(struct inode *link, struct inode **res)
{
	(void)link;
	*res = pid_inode(current->group_leader, NULL, proc_root, -1);
	return *res ? 0 : -ENOMEM;
}

static int self_readlink(struct inode *link, char *buf, size_t size)
{
	(void)link;
	return snprintf(buf, size, "%d", current->tgid);
}

static const struct inode_operations proc_self_iops = {
	.get_link = self_get_link,
	.readlink = self_readlink,
};

/* The program PID's mm runs (Linux's mm->exe_file): -ENOENT without one
 * (a kernel thread, a zombie). */
static int exe_file_of(struct inode *link, struct inode **res)
{
	struct task_struct *t = proc_inode_task(link);

	if (!t || !t->mm || !t->mm->exe_file)
		return -ENOENT;
	*res = t->mm->exe_file->f_inode;
	return 0;
}

/* The text of these links is their target's path (readlink's d_path). */
static const struct inode_operations proc_exe_iops = {
	.get_link = exe_file_of,
	.evict = free_pid_inode,
};

/* The task's working directory: -ENOENT once it has exited (its
 * fs_struct is gone). */
static int cwd_of(struct inode *link, struct inode **res)
{
	struct task_struct *t = proc_inode_task(link);

	if (!t || !t->fs)
		return -ENOENT;
	*res = t->fs->pwd ? t->fs->pwd : vfs_root;
	return 0;
}

static const struct inode_operations proc_cwd_iops = {
	.get_link = cwd_of,
	.evict = free_pid_inode,
};

/* ---- /proc/PID/fd ----------------------------------------------------- */

/* The file task has at descriptor fd, or NULL. */
static struct file *task_file(struct task_struct *task, int fd)
{
	if (!task || !task->files || fd < 0 || fd >= NR_OPEN_DEFAULT)
		return NULL;
	return task->files->fd[fd];
}

/* A descriptor's link leads to its file's inode (so that opening it
 * opens the file again), or -ENOENT once it is closed. */
static int fd_get_link(struct inode *link, struct inode **res)
{
	struct file *f = task_file(proc_inode_task(link), PROC_I(link)->fd);

	if (!f)
		return -ENOENT;
	*res = f->f_inode;
	return 0;
}

static const struct inode_operations proc_fd_link_iops = {
	.get_link = fd_get_link,
	.evict = free_pid_inode,
};

/* Linux's mode of a descriptor's link: r and w as its file is open,
 * x with either. */
static u32 fd_link_mode(const struct file *f)
{
	u32 acc = f->f_flags & O_ACCMODE;
	u32 mode = S_IFLNK;

	if (acc != O_WRONLY)
		mode |= 0500;
	if (acc != O_RDONLY)
		mode |= 0300;
	return mode;
}

static int fd_dir_lookup(struct inode *dir, const char *name, size_t len,
			 struct inode **res)
{
	struct task_struct *task = proc_inode_task(dir);
	int fd = name_to_pid(name, len);
	struct file *f = task_file(task, fd);

	if (!f)
		return -ENOENT;
	*res = pid_inode(task, &fd_link_entry, dir, fd);
	if (!*res)
		return -ENOMEM;
	(*res)->i_mode = fd_link_mode(f);
	return 0;
}

/* Entry idx: the idx-th open descriptor, in order. */
static bool fd_dir_readdir(struct inode *dir, long idx, struct dir_entry *de)
{
	struct task_struct *task = proc_inode_task(dir);

	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		struct file *f = task_file(task, fd);

		if (!f || idx-- > 0)
			continue;
		de->len = snprintf(de->name, sizeof(de->name), "%d", fd);
		de->ino = 0x90000000UL + fd;	/* any number */
		de->mode = fd_link_mode(f);
		return true;
	}
	return false;
}

static const struct inode_operations proc_fd_dir_iops = {
	.lookup = fd_dir_lookup,
	.readdir = fd_dir_readdir,
	.evict = free_pid_inode,
};

static int proc_pid_comm(struct seq_file *m, struct task_struct *task)
{
	seq_printf(m, "%s\n", task->comm);
	return 0;
}

/* As Linux: the first 15 bytes become the name (a newline too), and only
 * a process may rename itself (-EINVAL for others). */
static ssize_t proc_pid_comm_write(struct task_struct *task, const char *buf,
				   size_t n, loff_t pos)
{
	(void)pos;
	if (task != current)
		return -EINVAL;
	memset(task->comm, 0, sizeof(task->comm));
	memcpy(task->comm, buf, min(n, sizeof(task->comm) - 1));
	return n;
}

/* ---- another process's memory ---------------------------------------- */

/*
 * /proc/PID/mem at a user address (the file offset), through
 * get_user_pages with FOLL_FORCE, as Linux: reads fault pages in (an
 * untouched page reads as the zero page), writes COW a private copy even
 * in a read-only private mapping. -EIO if the first byte cannot be used.
 */
static ssize_t mem_rw(struct mm_struct *mm, void *buf, size_t n,
		      loff_t pos, unsigned int flags)
{
	unsigned long addr = (unsigned long)pos;
	long done;

	if (pos < 0 || addr >= TASK_SIZE)
		return -EIO;
	if (n > TASK_SIZE - addr)
		n = TASK_SIZE - addr;
	done = access_remote_vm(mm, addr, buf, n, flags | FOLL_FORCE);
	return done ? done : -EIO;
}

ssize_t proc_pid_mem_read(struct mm_struct *mm, char *buf, size_t n,
			  loff_t pos)
{
	return mem_rw(mm, buf, n, pos, 0);
}

ssize_t proc_pid_mem_write(struct mm_struct *mm, const char *buf,
			   size_t n, loff_t pos)
{
	return mem_rw(mm, (void *)buf, n, pos, FOLL_WRITE);
}

/* ---- mounting -------------------------------------------------------- */

void proc_root_init(void)
{
	struct proc_inode *pi;

	if (proc_root)
		return;
	pi = proc_new_inode(S_IFDIR | 0555, PROC_NO_PID, NULL);
	BUG_ON(!pi);
	proc_root = &pi->vfs_inode;
	proc_root->i_op = &proc_root_iops;
	proc_sb.s_root = proc_root;
	pi = proc_new_inode(L, PROC_NO_PID, NULL);
	BUG_ON(!pi);
	proc_self = &pi->vfs_inode;	/* kept: its i_count of 1 is ours */
	proc_self->i_op = &proc_self_iops;
	proc_self->i_parent = proc_root;
	BUG_ON(ramfs_link(vfs_root, "proc", 4, proc_root));
	iput(proc_root);	/* the name holds it */
	BUG_ON(proc_mkdir("sys") || proc_mkdir("sys/vm") ||
	       proc_mkdir("sys/kernel") || proc_mkdir("sys/fs"));
	proc_meminfo_init();
	proc_page_init();
	BUG_ON(proc_symlink("mounts", "self/mounts"));
	proc_misc_init();
	proc_stat_init();
	proc_sysvipc_init();
	proc_swaps_init();
}
