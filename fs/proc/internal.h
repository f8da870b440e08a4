/* fs/proc/internal.h — what the files of /proc share: the proc
 * inode (which entry, which pid) and the generators of each file. */
#ifndef PROC_INTERNAL_H
#define PROC_INTERNAL_H

#include <zpk/proc_fs.h>
#include <zpk/list.h>

#define PROC_NO_PID	(-1)	/* a file of /proc itself, not of a pid */
#define PROC_NUMBUF	13	/* a number written to /proc, as Linux's */

struct proc_inode {
	struct inode vfs_inode;		/* first: the VFS sees only this */
	int pid;			/* PROC_NO_PID, or the process's */
	struct task_struct *task;	/* /proc/PID's: held (get_task_struct),
					 * so a reused pid is not this one */
	const struct proc_entry *entry;	/* NULL for /proc/PID itself */
	int fd;				/* /proc/PID/fd/N: N, else -1 */
	struct list_head cache;		/* base.c's per-pid inodes */
};

/* Every proc_inode is followed by room for its name as a dentry (used by
 * /proc/PID's: a pid, a descriptor, an entry's name), so that naming
 * one allocates nothing more. */
#define PROC_NAME_LEN	15

static inline struct proc_inode *PROC_I(struct inode *inode)
{
	return (struct proc_inode *)inode;
}

/* generic.c: a new proc inode (i_count 1, i_nlink 0). */
/* Shared with sysfs (fs/sysfs.c), which serves its files the same way. */
int pseudo_add(struct super_block *sb, const char *full, u32 mode,
	       struct proc_entry *e, int fixed);
struct proc_entry *proc_entry_new(const char *name, u32 mode,
				  proc_show_fn show, proc_read_fn read,
				  proc_write_fn write, int *data);
struct proc_inode *proc_new_inode(u32 mode, int pid,
				  const struct proc_entry *entry);
extern const struct file_operations proc_file_ops;
/* base.c: a /proc/PID inode's live process, or NULL. */
struct task_struct *proc_inode_task(struct inode *inode);

/* The files of /proc/PID (array.c, task_mmu.c, base.c). */
int proc_pid_status(struct seq_file *m, struct task_struct *task);
int proc_pid_stat(struct seq_file *m, struct task_struct *task);
int proc_tid_stat(struct seq_file *m, struct task_struct *task);
int proc_pid_statm(struct seq_file *m, struct task_struct *task);
int proc_pid_cmdline(struct seq_file *m, struct task_struct *task);
int proc_pid_maps(struct seq_file *m, struct task_struct *task);
int proc_pid_smaps(struct seq_file *m, struct task_struct *task);
int proc_pid_smaps_rollup(struct seq_file *m, struct task_struct *task);
ssize_t proc_pid_pagemap(struct mm_struct *mm, char *buf, size_t n,
			 loff_t pos);
ssize_t proc_pid_clear_refs_write(struct task_struct *task, const char *buf,
				  size_t n, loff_t pos);
ssize_t proc_pid_mem_read(struct mm_struct *mm, char *buf, size_t n,
			  loff_t pos);
ssize_t proc_pid_mem_write(struct mm_struct *mm, const char *buf,
			   size_t n, loff_t pos);

/* The files of /proc itself, registered by their own files' init. */
void proc_meminfo_init(void);
void proc_page_init(void);
void proc_misc_init(void);
void proc_stat_init(void);

#endif
