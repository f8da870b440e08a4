/* ipc/shm.c — System V shared memory as Linux's ipc/shm.c: shmget makes
 * (or finds by key) a segment, an unlinked shmem file named SYSV<key> as
 * behind MAP_SHARED|MAP_ANONYMOUS (shmem_file_setup); shmat maps it
 * shared (do_mmap), shmdt unmaps an attach, shmctl reports, changes and
 * removes. A removed segment lives on, key 0 and SHM_DEST, until its last
 * mapping goes: the segment holds the file until IPC_RMID, each VMA holds
 * it too, and the file's last fput frees the segment. Its attaches are
 * the VMAs that map it (Linux counts VMAs too: a split one counts
 * twice). The segment table is the big kernel lock's. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/mman.h>
#include <zpk/proc_fs.h>
#include <zpk/rwsem.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/sprintf.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define IPC_PRIVATE	0
#define IPC_CREAT	00001000
#define IPC_EXCL	00002000
#define IPC_RMID	0
#define IPC_SET		1
#define IPC_STAT	2
#define IPC_INFO	3
#define IPC_64		0x0100
#define SHM_LOCK	11
#define SHM_UNLOCK	12
#define SHM_RDONLY	010000
#define SHM_RND		020000
#define SHM_REMAP	040000
#define SHM_EXEC	0100000
#define SHM_DEST	01000		/* in the mode: removed, still attached */
#define SHM_LOCKED	02000
#define S_IRWXUGO	0777

#define SHMMIN		1UL
#define SHMMNI		4096
#define SHMMAX		(~0UL - (1UL << 24))	/* Linux's defaults */
#define SHMALL		(~0UL - (1UL << 24))	/* pages */
#define SHMLBA		PAGE_SIZE
#define IPCMNI_SHIFT	15
#define IPCID_SEQ_MAX	(0x7fffffff >> IPCMNI_SHIFT)

struct ipc64_perm {
	int key;
	u32 uid, gid, cuid, cgid;
	u32 mode;
	u16 seq, __pad2;
	unsigned long __unused1, __unused2;
};

struct shmid64_ds {
	struct ipc64_perm shm_perm;
	size_t shm_segsz;
	long shm_atime, shm_dtime, shm_ctime;
	int shm_cpid, shm_lpid;
	unsigned long shm_nattch;
	unsigned long __unused4, __unused5;
};

struct shminfo64 {
	unsigned long shmmax, shmmin, shmmni, shmseg, shmall;
	unsigned long __unused1, __unused2, __unused3, __unused4;
};

struct shmid_kernel {
	struct list_head list;		/* in shm_segs, by index */
	int id;				/* seq << IPCMNI_SHIFT | index */
	int key;			/* IPC_PRIVATE once removed */
	u32 mode;			/* permissions | SHM_DEST | SHM_LOCKED */
	u32 uid, gid, cuid, cgid;
	size_t segsz;			/* as asked, not rounded */
	long atime, dtime, ctime;
	int cpid, lpid;
	struct file *file;		/* the shmem file: held by the segment
					 * until IPC_RMID, and by each VMA */
};

static LIST_HEAD(shm_segs);
static int shm_seq, shm_next_idx;
static unsigned long shm_tot;		/* pages of every segment */

static const struct file_operations shm_file_operations;

static long now_seconds(void)
{
	return (long)(ktime_get_real_ns() / NSEC_PER_SEC);
}

static struct shmid_kernel *shm_find_key(int key)
{
	struct shmid_kernel *shp;

	list_for_each_entry(shp, &shm_segs, list)
		if (shp->key == key)
			return shp;
	return NULL;
}

/* The segment id names, removed or not, or NULL (Linux's
 * ipc_obtain_object_check: the index and the sequence must match). */
static struct shmid_kernel *shm_find_id(int id)
{
	struct shmid_kernel *shp;

	if (id < 0)
		return NULL;
	list_for_each_entry(shp, &shm_segs, list)
		if (shp->id == id)
			return shp;
	return NULL;
}

static bool idx_used(int idx)
{
	struct shmid_kernel *shp;

	list_for_each_entry(shp, &shm_segs, list)
		if ((shp->id & ((1 << IPCMNI_SHIFT) - 1)) == idx)
			return true;
	return false;
}

/* The next free index from the last one given (Linux's cyclic idr), or
 * -ENOSPC when SHMMNI are in use. */
static int shm_alloc_idx(void)
{
	for (int i = 0; i < SHMMNI; i++) {
		int idx = (shm_next_idx + i) % SHMMNI;

		if (!idx_used(idx)) {
			shm_next_idx = idx + 1;
			return idx;
		}
	}
	return -ENOSPC;
}

static unsigned long shm_pages(size_t size)
{
	return (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/* Linux's newseg: a segment of size bytes for key, its id or -errno
 * (-EINVAL size, -ENOSPC over SHMALL or SHMMNI, -ENOMEM). */
static long newseg(int key, size_t size, int shmflg)
{
	unsigned long numpages = shm_pages(size);
	struct shmid_kernel *shp;
	char name[16];
	int idx;

	if (size < SHMMIN || size > SHMMAX)
		return -EINVAL;
	if (numpages << PAGE_SHIFT < size)
		return -ENOSPC;
	if (shm_tot + numpages < shm_tot || shm_tot + numpages > SHMALL)
		return -ENOSPC;
	idx = shm_alloc_idx();
	if (idx < 0)
		return idx;
	shp = kzalloc(sizeof(*shp), GFP_KERNEL);
	if (!shp)
		return -ENOMEM;
	snprintf(name, sizeof(name), "SYSV%08x", (unsigned int)key);
	shp->file = shmem_file_setup(name, size);
	if (!shp->file) {
		kfree(shp);
		return -ENOMEM;
	}
	shp->file->f_op = &shm_file_operations;
	shp->file->private_data = shp;
	shp->id = (shm_seq << IPCMNI_SHIFT) | idx;
	shm_seq = shm_seq >= IPCID_SEQ_MAX ? 0 : shm_seq + 1;
	shp->key = key;
	shp->mode = shmflg & S_IRWXUGO;
	shp->segsz = size;
	shp->cpid = current->tgid;
	shp->ctime = now_seconds();
	list_add_tail(&shp->list, &shm_segs);
	shm_tot += numpages;
	return shp->id;
}

/* shmget(key, size, shmflg) in Linux's order (ipcget): IPC_PRIVATE is
 * always new; a key not there is -ENOENT without IPC_CREAT; one there is
 * -EEXIST with IPC_CREAT|IPC_EXCL, -EINVAL if smaller than size. */
static long sys_shmget(int key, size_t size, int shmflg)
{
	struct shmid_kernel *shp;

	if (key == IPC_PRIVATE)
		return newseg(key, size, shmflg);
	shp = shm_find_key(key);
	if (!shp)
		return shmflg & IPC_CREAT ? newseg(key, size, shmflg)
					  : -ENOENT;
	if ((shmflg & IPC_CREAT) && (shmflg & IPC_EXCL))
		return -EEXIST;
	if (shp->segsz < size)
		return -EINVAL;
	return shp->id;
}
SYSCALL(__NR_shmget, sys_shmget);

/* The segment file's last fput: its last mapping went after IPC_RMID
 * (the segment itself held the file until then), so it goes too. */
static void shm_release(struct file *f)
{
	struct shmid_kernel *shp = f->private_data;

	list_del(&shp->list);
	shm_tot -= shm_pages(shp->segsz);
	kfree(shp);
}

/* The segment's mapping is its shmem file's (Linux's shm_mmap): the
 * pages come from that file's vm_ops->fault. */
static int shm_mmap(struct file *f, struct vm_area_struct *vma)
{
	return ramfs_file_ops.mmap(f, vma);
}

static const struct file_operations shm_file_operations = {
	.release = shm_release,
	.mmap = shm_mmap,
};

static bool is_shm_vma(const struct vm_area_struct *vma)
{
	return vma->vm_file && vma->vm_file->f_op == &shm_file_operations;
}

static bool count_vma(struct vm_area_struct *vma, void *arg)
{
	(void)vma;
	(*(unsigned long *)arg)++;
	return false;
}

/* shm_nattch: the VMAs of every mm that map the segment. */
static unsigned long shm_nattch(struct shmid_kernel *shp)
{
	unsigned long n = 0;

	walk_inode_mappings(shp->file->f_inode, count_vma, &n);
	return n;
}

/*
 * shmat: the whole segment mapped shared at shmaddr (rounded down to
 * SHMLBA with SHM_RND, else it must be aligned), or where mmap would put
 * it; read-only with SHM_RDONLY. Without SHM_REMAP a mapping already
 * there is -EINVAL. The address, or -EINVAL, -ENOMEM.
 */
static long sys_shmat(int shmid, unsigned long shmaddr, int shmflg)
{
	unsigned long addr = shmaddr, flags = MAP_SHARED, prot;
	struct mm_struct *mm = current->mm;
	struct shmid_kernel *shp;
	struct file *file;
	size_t size;
	long ret;

	if (shmid < 0)
		return -EINVAL;
	if (addr) {
		if (addr & (SHMLBA - 1)) {
			if (!(shmflg & SHM_RND))
				return -EINVAL;
			addr &= ~(SHMLBA - 1);
			if (!addr && (shmflg & SHM_REMAP))
				return -EINVAL;
		}
		flags |= MAP_FIXED;
	} else if (shmflg & SHM_REMAP) {
		return -EINVAL;
	}
	prot = shmflg & SHM_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE;
	if (shmflg & SHM_EXEC)
		prot |= PROT_EXEC;
	shp = shm_find_id(shmid);
	if (!shp)
		return -EINVAL;
	size = PAGE_ALIGN(shp->segsz);
	file = get_file(shp->file);	/* across the sleeps below */
	mmap_write_lock(mm);
	ret = -EINVAL;
	if (addr && !(shmflg & SHM_REMAP) &&
	    (addr + size < addr || find_vma_intersection(mm, addr,
							 addr + size)))
		goto out;
	ret = do_mmap(mm, addr, size, prot, flags, file, 0);
out:
	mmap_write_unlock(mm);
	if (!IS_ERR_VALUE((unsigned long)ret)) {
		shp->atime = now_seconds();
		shp->lpid = current->tgid;
	}
	fput(file);			/* the VMA holds its own */
	return ret;
}
SYSCALL(__NR_shmat, sys_shmat);

/*
 * shmdt: unmaps the attach at shmaddr (Linux's ksys_shmdt): the first
 * segment VMA from there whose offset matches its distance from shmaddr,
 * then the other pieces of the same attach within the segment's size.
 * -EINVAL if shmaddr is not page-aligned or no attach starts there.
 */
static long sys_shmdt(unsigned long shmaddr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct shmid_kernel *shp = NULL;
	unsigned long addr = shmaddr, size = 0;
	struct file *file = NULL;
	long ret = -EINVAL;

	if (addr & ~PAGE_MASK)
		return -EINVAL;
	mmap_write_lock(mm);
	for (vma = find_vma(mm, addr); vma; vma = find_vma(mm, vma->vm_end))
		if (is_shm_vma(vma) &&
		    (vma->vm_start - addr) / PAGE_SIZE == vma->vm_pgoff) {
			file = get_file(vma->vm_file);
			shp = file->private_data;
			size = PAGE_ALIGN(shp->segsz);
			break;
		}
	while (vma && vma->vm_end - addr <= size) {
		unsigned long start = vma->vm_start, end = vma->vm_end;

		if (vma->vm_file == file &&
		    (vma->vm_start - addr) / PAGE_SIZE == vma->vm_pgoff) {
			do_munmap(mm, start, end - start);
			ret = 0;
		}
		vma = find_vma(mm, end);
	}
	mmap_write_unlock(mm);
	if (file) {
		shp->dtime = now_seconds();
		shp->lpid = current->tgid;
		fput(file);	/* the last, if it was removed: it goes */
	}
	return ret;
}
SYSCALL(__NR_shmdt, sys_shmdt);

/* IPC_RMID (Linux's do_shm_rmid): no new shmget finds it (key 0) and it
 * is SHM_DEST; it goes with its last mapping, now if it has none. */
static void shm_rmid(struct shmid_kernel *shp)
{
	struct file *file = shp->file;

	if (shp->mode & SHM_DEST)
		return;
	shp->mode |= SHM_DEST;
	shp->key = IPC_PRIVATE;
	fput(file);
}

static void shm_stat(struct shmid_kernel *shp, struct shmid64_ds *ds)
{
	memset(ds, 0, sizeof(*ds));
	ds->shm_perm = (struct ipc64_perm){
		.key = shp->key, .uid = shp->uid, .gid = shp->gid,
		.cuid = shp->cuid, .cgid = shp->cgid, .mode = shp->mode,
		.seq = (u16)(shp->id >> IPCMNI_SHIFT) };
	ds->shm_segsz = shp->segsz;
	ds->shm_atime = shp->atime;
	ds->shm_dtime = shp->dtime;
	ds->shm_ctime = shp->ctime;
	ds->shm_cpid = shp->cpid;
	ds->shm_lpid = shp->lpid;
	ds->shm_nattch = shm_nattch(shp);
}

/* The highest index in use (IPC_INFO's answer), 0 if none. */
static int shm_max_idx(void)
{
	struct shmid_kernel *shp;
	int max = 0;

	list_for_each_entry(shp, &shm_segs, list)
		if ((shp->id & ((1 << IPCMNI_SHIFT) - 1)) > max)
			max = shp->id & ((1 << IPCMNI_SHIFT) - 1);
	return max;
}

/*
 * shmctl: IPC_STAT, IPC_SET (owner and permission bits), IPC_RMID,
 * SHM_LOCK and SHM_UNLOCK (the SHM_LOCKED bit: nothing swaps here),
 * IPC_INFO; IPC_64 is the only layout. -EINVAL for another command or
 * an id no segment has, -EFAULT.
 */
static long sys_shmctl(int shmid, int cmd, void __user *buf)
{
	struct shmid_kernel *shp;
	struct shmid64_ds ds;
	struct file *file;
	long ret = 0;

	if (cmd < 0 || shmid < 0)
		return -EINVAL;
	cmd &= ~IPC_64;
	if (cmd == IPC_INFO) {
		struct shminfo64 info = { .shmmax = SHMMAX, .shmmin = SHMMIN,
					  .shmmni = SHMMNI, .shmseg = SHMMNI,
					  .shmall = SHMALL };

		if (copy_to_user(buf, &info, sizeof(info)))
			return -EFAULT;
		return shm_max_idx();
	}
	if (cmd != IPC_STAT && cmd != IPC_SET && cmd != IPC_RMID &&
	    cmd != SHM_LOCK && cmd != SHM_UNLOCK)
		return -EINVAL;
	if (cmd == IPC_SET && copy_from_user(&ds, buf, sizeof(ds)))
		return -EFAULT;
	shp = shm_find_id(shmid);
	if (!shp)
		return -EINVAL;
	/* Held: counting the attaches sleeps on each mm's mmap_lock, and
	 * a segment removed meanwhile would go with its last mapping. */
	file = get_file(shp->file);
	switch (cmd) {
	case IPC_STAT:
		shm_stat(shp, &ds);
		if (copy_to_user(buf, &ds, sizeof(ds)))
			ret = -EFAULT;
		break;
	case IPC_SET:
		shp->uid = ds.shm_perm.uid;
		shp->gid = ds.shm_perm.gid;
		shp->mode = (shp->mode & ~S_IRWXUGO) |
			    (ds.shm_perm.mode & S_IRWXUGO);
		shp->ctime = now_seconds();
		break;
	case IPC_RMID:
		shm_rmid(shp);
		break;
	case SHM_LOCK:
		shp->mode |= SHM_LOCKED;
		break;
	default:
		shp->mode &= ~SHM_LOCKED;
	}
	fput(file);
	return ret;
}
SYSCALL(__NR_shmctl, sys_shmctl);

/* /proc/sysvipc/shm in Linux's format (sysvipc_shm_proc_show): rss is
 * the bytes of the segment's pages, swap 0. */
static int sysvipc_shm_show(struct seq_file *m, struct task_struct *task)
{
	struct list_head *pos = shm_segs.next;

	(void)task;
	seq_puts(m, "       key      shmid perms                  size  cpid  "
		 "lpid nattch   uid   gid  cuid  cgid      atime      dtime  "
		 "    ctime                   rss                  swap\n");
	while (pos != &shm_segs) {
		struct shmid_kernel *shp = list_entry(pos, struct shmid_kernel,
						      list);
		/* held while shm_nattch sleeps (see shmctl) */
		struct file *file = get_file(shp->file);

		seq_printf(m, "%10d %10d  %4o %21zu %5u %5u  %5lu %5u %5u %5u "
			   "%5u %10ld %10ld %10ld %21lu %21lu\n", shp->key,
			   shp->id, shp->mode, shp->segsz, (u32)shp->cpid,
			   (u32)shp->lpid, shm_nattch(shp), shp->uid, shp->gid,
			   shp->cuid, shp->cgid, shp->atime, shp->dtime,
			   shp->ctime, ramfs_nr_pages(file->f_inode) *
			   PAGE_SIZE, 0UL);
		pos = pos->next;	/* before the fput that may free it */
		fput(file);
	}
	return 0;
}

void proc_sysvipc_init(void)
{
	BUG_ON(proc_mkdir("sysvipc") ||
	       proc_create("sysvipc/shm", 0444, sysvipc_shm_show, NULL));
}
