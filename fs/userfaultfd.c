/* fs/userfaultfd.c — userfaultfd(2) and /dev/userfaultfd as Linux's
 * fs/userfaultfd.c: a file whose reader resolves the page faults of the
 * ranges it registers, while the faulting threads sleep on it. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/mm_lifecycle.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include <zpk/userfaultfd_k.h>

/* What UFFDIO_API offers: Linux 6.1's features but EVENT_UNMAP. The
 * hugetlbfs ones as Linux reports them without hugetlbfs: there is no
 * hugetlbfs VMA to register. */
#define UFFD_API_FEATURES (UFFD_FEATURE_PAGEFAULT_FLAG_WP |		\
			   UFFD_FEATURE_EVENT_FORK |			\
			   UFFD_FEATURE_EVENT_REMAP |			\
			   UFFD_FEATURE_EVENT_REMOVE |			\
			   UFFD_FEATURE_MISSING_HUGETLBFS |		\
			   UFFD_FEATURE_MISSING_SHMEM |			\
			   UFFD_FEATURE_SIGBUS |			\
			   UFFD_FEATURE_THREAD_ID |			\
			   UFFD_FEATURE_MINOR_HUGETLBFS |		\
			   UFFD_FEATURE_MINOR_SHMEM |			\
			   UFFD_FEATURE_EXACT_ADDRESS |			\
			   UFFD_FEATURE_WP_HUGETLBFS_SHMEM)
#define UFFD_FEATURE_INITIALIZED	(1U << 31)	/* UFFDIO_API done */
#define UFFD_API_REGISTER_MODES	(UFFDIO_REGISTER_MODE_MISSING |	\
				 UFFDIO_REGISTER_MODE_WP |	\
				 UFFDIO_REGISTER_MODE_MINOR)
#define UFFD_SHARED_FCNTL_FLAGS	(O_CLOEXEC | O_NONBLOCK)

/*
 * One userfaultfd (Linux's userfaultfd_ctx). Faults and events queue
 * oldest first; a read takes pending faults before events. The VMAs
 * registered with it point to it without a reference: they change, and
 * release clears them, under the mm's mmap_lock for writing, so a fault
 * (which holds it for reading) finds ctx alive. The lists, each queued
 * entry's waken or event, and released are ctx->lock's (faults and
 * madvise's events come without the big kernel lock); the ioctls, read
 * and release hold the big kernel lock as well.
 */
struct userfaultfd_ctx {
	spinlock_t lock;		/* the lists, waken, released */
	struct list_head fault_pending;	/* faults not read yet */
	struct list_head fault_read;	/* read, not resolved yet */
	struct list_head events;	/* fork, remap, remove: not read yet */
	struct wait_queue_head fd_wqh;	/* readers and pollers */
	atomic_t refcount;		/* the file's, each sleeper's */
	unsigned int flags;		/* userfaultfd(2)'s */
	unsigned int features;		/* UFFDIO_API's | INITIALIZED */
	bool released;			/* the file is closed */
	atomic_t mmap_changing;		/* events in flight: no fills now */
	struct mm_struct *mm;		/* its registered VMAs' (mmgrab) */
};

/* A sleeping fault, or an event waiting to be read (on its thread's
 * stack); msg.event 0 marks an event read. */
struct userfaultfd_wait_queue {
	struct uffd_msg msg;
	struct task_struct *task;
	struct list_head entry;
	bool waken;
	struct userfaultfd_ctx *fork_ctx;	/* UFFD_EVENT_FORK's child */
};

static const struct file_operations userfaultfd_fops;

static bool userfaultfd_is_initialized(struct userfaultfd_ctx *ctx)
{
	return ctx->features & UFFD_FEATURE_INITIALIZED;
}

/* A new context on mm with one reference, or NULL. */
static struct userfaultfd_ctx *userfaultfd_ctx_alloc(struct mm_struct *mm,
						     unsigned int flags,
						     unsigned int features)
{
	struct userfaultfd_ctx *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	spin_lock_init(&ctx->lock);
	INIT_LIST_HEAD(&ctx->fault_pending);
	INIT_LIST_HEAD(&ctx->fault_read);
	INIT_LIST_HEAD(&ctx->events);
	init_waitqueue_head(&ctx->fd_wqh);
	atomic_set(&ctx->refcount, 1);
	ctx->flags = flags;
	ctx->features = features;
	ctx->mm = mm;
	mmgrab(mm);
	return ctx;
}

static void userfaultfd_ctx_get(struct userfaultfd_ctx *ctx)
{
	atomic_inc(&ctx->refcount);
}

static void userfaultfd_ctx_put(struct userfaultfd_ctx *ctx)
{
	BUG_ON(atomic_read(&ctx->refcount) <= 0);
	if (!atomic_dec_and_test(&ctx->refcount))
		return;
	BUG_ON(!list_empty(&ctx->fault_pending) ||
	       !list_empty(&ctx->fault_read) || !list_empty(&ctx->events));
	mmdrop(ctx->mm);
	kfree(ctx);
}

/* The file of ctx, taking over the caller's reference, in a new fd of
 * current's: the fd or -errno (the reference stays the caller's). */
static int userfaultfd_install(struct userfaultfd_ctx *ctx)
{
	struct file *f = anon_inode_getfile("[userfaultfd]",
					    &userfaultfd_fops, ctx, O_RDONLY |
					    (ctx->flags & O_NONBLOCK));
	int fd;

	if (!f)
		return -ENOMEM;
	fd = fd_install_new(f, 0, ctx->flags & O_CLOEXEC);
	if (fd < 0) {
		f->private_data = NULL;	/* release must not put ctx */
		fput(f);
	}
	return fd;
}

/* ---- faults ------------------------------------------------------------ */

static struct uffd_msg userfault_msg(unsigned long address, unsigned int flags,
				     unsigned long reason,
				     unsigned int features)
{
	struct uffd_msg msg = { .event = UFFD_EVENT_PAGEFAULT };

	msg.arg.pagefault.address = features & UFFD_FEATURE_EXACT_ADDRESS ?
				    address : address & PAGE_MASK;
	if (flags & FAULT_FLAG_WRITE)
		msg.arg.pagefault.flags |= UFFD_PAGEFAULT_FLAG_WRITE;
	if (reason & VM_UFFD_WP)
		msg.arg.pagefault.flags |= UFFD_PAGEFAULT_FLAG_WP;
	if (reason & VM_UFFD_MINOR)
		msg.arg.pagefault.flags |= UFFD_PAGEFAULT_FLAG_MINOR;
	if (features & UFFD_FEATURE_THREAD_ID)
		msg.arg.pagefault.ptid = current->pid;
	return msg;
}

/*
 * Is the fault still the reader's (Linux's userfaultfd_must_wait)? The
 * PTE lock went before the message was queued: a fill or an unprotect
 * in between found no one to wake, and we must not sleep for it. The
 * message is queued first, so a fill after this look wakes us.
 * mmap_lock held for reading.
 */
static bool userfaultfd_must_wait(struct vm_area_struct *vma,
				  unsigned long address, unsigned long reason)
{
	spinlock_t *ptl;
	pte_t *pte = pte_lookup_lock(vma->vm_mm, address, &ptl);
	bool ret = true;

	if (!pte)
		return true;
	if (!pte_none_mostly(*pte))
		ret = (reason & VM_UFFD_WP) && !pte_write(*pte);
	pte_unmap_unlock(pte, ptl);
	return ret;
}

/*
 * Whether a signal ends the wait. A user fault returns to user mode to
 * take any signal, then faults again. A kernel one (uaccess, or
 * get_user_pages in read()) would fail its system call with EFAULT:
 * Linux gives those up only for a fatal signal (fault_signal_pending;
 * its gup waits killable), so that the call completes and the handler
 * runs after. Linux retries the fault in a loop meanwhile; zpk sleeps.
 */
static bool userfault_interrupted(unsigned int flags)
{
	return flags & FAULT_FLAG_USER ? signal_pending(current) :
					 fatal_signal_pending(current);
}

vm_fault_t handle_userfault(struct vm_area_struct *vma, unsigned long address,
			    unsigned int flags, unsigned long reason)
{
	struct userfaultfd_ctx *ctx = vma->vm_userfaultfd_ctx;
	struct userfaultfd_wait_queue uwq = { .task = current };
	struct mm_struct *mm = vma->vm_mm;
	bool must_wait;

	if (current->flags & PF_EXITING)	/* clear_child_tid at exit */
		return VM_FAULT_SIGBUS;
	if (ctx->features & UFFD_FEATURE_SIGBUS)
		return VM_FAULT_SIGBUS;
	if (!(flags & FAULT_FLAG_USER) && (ctx->flags & UFFD_USER_MODE_ONLY))
		return VM_FAULT_SIGBUS;
	uwq.msg = userfault_msg(address, flags, reason, ctx->features);
	userfaultfd_ctx_get(ctx);	/* the VMA may lose it meanwhile */
	spin_lock(&ctx->lock);
	list_add_tail(&uwq.entry, &ctx->fault_pending);
	spin_unlock(&ctx->lock);
	must_wait = userfaultfd_must_wait(vma, address, reason);
	mmap_read_unlock(mm);
	if (must_wait)	/* the reader hears of it after the look, as Linux */
		wake_up(&ctx->fd_wqh);
	spin_lock(&ctx->lock);
	while (must_wait) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (uwq.waken || ctx->released || userfault_interrupted(flags))
			break;
		spin_unlock(&ctx->lock);
		schedule();
		spin_lock(&ctx->lock);
	}
	__set_current_state(TASK_RUNNING);
	if (!uwq.waken)
		list_del(&uwq.entry);
	spin_unlock(&ctx->lock);
	userfaultfd_ctx_put(ctx);
	mmap_read_lock(mm);
	return VM_FAULT_RETRY;
}

/* Wakes the faults of [start, start + len) (len 0: all), read or not:
 * their messages, if unread, go with them. */
static void wake_userfault(struct userfaultfd_ctx *ctx, unsigned long start,
			   unsigned long len)
{
	struct list_head *lists[] = { &ctx->fault_pending, &ctx->fault_read };
	struct userfaultfd_wait_queue *uwq, *n;

	spin_lock(&ctx->lock);	/* uwq lives while it is queued */
	for (int i = 0; i < 2; i++)
		list_for_each_entry_safe(uwq, n, lists[i], entry) {
			unsigned long a = uwq->msg.arg.pagefault.address;

			if (len && (a < start || a - start >= len))
				continue;
			list_del(&uwq->entry);
			uwq->waken = true;
			wake_up_process(uwq->task);
		}
	spin_unlock(&ctx->lock);
}

/* ---- events ------------------------------------------------------------ */

/* The child's VMAs that a fork gave ctx are unregistered again. */
static void userfaultfd_forget(struct userfaultfd_ctx *ctx)
{
	struct vm_area_struct *vma;

	mmap_write_lock(ctx->mm);
	list_for_each_entry(vma, &ctx->mm->mmap, vm_list)
		if (vma->vm_userfaultfd_ctx == ctx) {
			vma->vm_userfaultfd_ctx = NULL;
			vma->vm_flags &= ~__VM_UFFD_FLAGS;
		}
	mmap_write_unlock(ctx->mm);
}

/*
 * Queues the event ewq on ctx and sleeps until a read takes it, the uffd
 * is closed or current is killed (then a fork's child uffd is dropped).
 * Ends the event: the reference and mmap_changing its prep took go.
 * Called with no mmap_lock held: the reader may fault on its way.
 */
static void
userfaultfd_event_wait_completion(struct userfaultfd_ctx *ctx,
				  struct userfaultfd_wait_queue *ewq)
{
	struct userfaultfd_ctx *dropped = NULL;

	ewq->task = current;
	spin_lock(&ctx->lock);
	list_add_tail(&ewq->entry, &ctx->events);
	spin_unlock(&ctx->lock);
	wake_up(&ctx->fd_wqh);
	spin_lock(&ctx->lock);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!ewq->msg.event)
			break;
		if (ctx->released || fatal_signal_pending(current)) {
			list_del(&ewq->entry);
			dropped = ewq->fork_ctx;
			break;
		}
		spin_unlock(&ctx->lock);
		schedule();
		spin_lock(&ctx->lock);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock(&ctx->lock);
	if (dropped) {
		userfaultfd_forget(dropped);
		userfaultfd_ctx_put(dropped);
	}
	atomic_dec(&ctx->mmap_changing);
	userfaultfd_ctx_put(ctx);
}

/* A read took ewq: its thread goes on. ctx->lock held (ewq, on that
 * thread's stack, goes once it sees msg.event 0). */
static void userfaultfd_event_complete(struct userfaultfd_wait_queue *ewq)
{
	list_del(&ewq->entry);
	ewq->msg.event = 0;
	wake_up_process(ewq->task);
}

/* Holds ctx for an event about to be queued. */
static void userfaultfd_event_prep(struct userfaultfd_ctx *ctx)
{
	userfaultfd_ctx_get(ctx);
	atomic_inc(&ctx->mmap_changing);
}

/* A fork's list: the parent's uffd and the child's one made for it. */
struct userfaultfd_fork_ctx {
	struct userfaultfd_ctx *orig, *new;
	struct list_head list;
};

/* The child's uffd for octx on fcs, made if it is the first. */
static struct userfaultfd_ctx *fork_ctx_of(struct userfaultfd_ctx *octx,
					   struct mm_struct *mm,
					   struct list_head *fcs)
{
	struct userfaultfd_fork_ctx *fctx;

	list_for_each_entry(fctx, fcs, list)
		if (fctx->orig == octx)
			return fctx->new;
	fctx = kmalloc(sizeof(*fctx), GFP_KERNEL);
	if (!fctx)
		return NULL;
	fctx->new = userfaultfd_ctx_alloc(mm, octx->flags, octx->features);
	if (!fctx->new) {
		kfree(fctx);
		return NULL;
	}
	fctx->orig = octx;
	userfaultfd_event_prep(octx);
	list_add_tail(&fctx->list, fcs);
	return fctx->new;
}

int dup_userfaultfd(struct vm_area_struct *vma, struct list_head *fcs)
{
	struct userfaultfd_ctx *octx = vma->vm_userfaultfd_ctx, *ctx;

	if (!octx || !(octx->features & UFFD_FEATURE_EVENT_FORK)) {
		vma->vm_userfaultfd_ctx = NULL;
		vma->vm_flags &= ~__VM_UFFD_FLAGS;
		return 0;
	}
	ctx = fork_ctx_of(octx, vma->vm_mm, fcs);
	if (!ctx)
		return -ENOMEM;
	vma->vm_userfaultfd_ctx = ctx;
	return 0;
}

void dup_userfaultfd_complete(struct list_head *fcs)
{
	struct userfaultfd_fork_ctx *fctx, *n;

	list_for_each_entry_safe(fctx, n, fcs, list) {
		struct userfaultfd_wait_queue ewq = {
			.msg.event = UFFD_EVENT_FORK, .fork_ctx = fctx->new };

		userfaultfd_event_wait_completion(fctx->orig, &ewq);
		list_del(&fctx->list);
		kfree(fctx);
	}
}

void dup_userfaultfd_fail(struct list_head *fcs)
{
	struct userfaultfd_fork_ctx *fctx, *n;

	list_for_each_entry_safe(fctx, n, fcs, list) {
		atomic_dec(&fctx->orig->mmap_changing);
		userfaultfd_ctx_put(fctx->orig);
		userfaultfd_ctx_put(fctx->new);
		list_del(&fctx->list);
		kfree(fctx);
	}
}

void mremap_userfaultfd_prep(struct vm_area_struct *vma,
			     struct userfaultfd_ctx **ctx)
{
	struct userfaultfd_ctx *c = vma->vm_userfaultfd_ctx;

	*ctx = NULL;
	if (!c)
		return;
	if (c->features & UFFD_FEATURE_EVENT_REMAP) {
		userfaultfd_event_prep(c);
		*ctx = c;
		return;
	}
	if (userfaultfd_wp(vma))
		uffd_wp_range(vma, vma->vm_start, vma->vm_end - vma->vm_start,
			      false);
	vma->vm_userfaultfd_ctx = NULL;
	vma->vm_flags &= ~__VM_UFFD_FLAGS;
}

void mremap_userfaultfd_complete(struct userfaultfd_ctx *ctx,
				 unsigned long from, unsigned long to,
				 unsigned long len)
{
	struct userfaultfd_wait_queue ewq = {
		.msg.event = UFFD_EVENT_REMAP,
		.msg.arg.remap = { from, to, len } };

	if (!ctx)
		return;
	if (to & ~PAGE_MASK) {		/* -errno: nothing moved */
		atomic_dec(&ctx->mmap_changing);
		userfaultfd_ctx_put(ctx);
		return;
	}
	userfaultfd_event_wait_completion(ctx, &ewq);
}

bool userfaultfd_remove(struct vm_area_struct *vma, unsigned long start,
			unsigned long end)
{
	struct userfaultfd_ctx *ctx = vma->vm_userfaultfd_ctx;
	struct mm_struct *mm = vma->vm_mm;
	struct userfaultfd_wait_queue ewq = {
		.msg.event = UFFD_EVENT_REMOVE,
		.msg.arg.remove = { start, end } };

	if (!ctx || !(ctx->features & UFFD_FEATURE_EVENT_REMOVE))
		return true;
	userfaultfd_event_prep(ctx);
	mmap_read_unlock(mm);
	userfaultfd_event_wait_completion(ctx, &ewq);
	mmap_read_lock(mm);
	return false;
}

/* ---- the file ---------------------------------------------------------- */

/* Unregisters every VMA of ctx (after clearing its uffd-wp PTEs), so
 * that no fault can reach ctx any more. */
static void userfaultfd_unregister_all(struct userfaultfd_ctx *ctx)
{
	struct mm_struct *mm = ctx->mm;
	struct vm_area_struct *vma;
	unsigned long addr = 0;

	mmap_write_lock(mm);
	while ((vma = find_vma(mm, addr))) {
		addr = vma->vm_end;
		if (vma->vm_userfaultfd_ctx != ctx)
			continue;
		if (userfaultfd_wp(vma))
			uffd_wp_range(vma, vma->vm_start,
				      vma->vm_end - vma->vm_start, false);
		/* Only a merge can happen: no split, so no -ENOMEM. */
		vma_modify_flags_uffd(mm, vma, vma->vm_start, vma->vm_end,
				      vma->vm_flags & ~__VM_UFFD_FLAGS, NULL);
	}
	mmap_write_unlock(mm);
}

/* The last close: the VMAs forget ctx, and every fault and event
 * waiting on it goes on (the faults retry, unregistered now). */
static void userfaultfd_release(struct file *f)
{
	struct userfaultfd_ctx *ctx = f->private_data;
	struct userfaultfd_wait_queue *ewq, *n;

	if (!ctx)
		return;
	spin_lock(&ctx->lock);
	ctx->released = true;
	spin_unlock(&ctx->lock);
	if (mmget_not_zero(ctx->mm)) {
		userfaultfd_unregister_all(ctx);
		mmput(ctx->mm);
	}
	wake_userfault(ctx, 0, 0);
	spin_lock(&ctx->lock);
	list_for_each_entry_safe(ewq, n, &ctx->events, entry)
		wake_up_process(ewq->task);
	spin_unlock(&ctx->lock);
	wake_up(&ctx->fd_wqh);
	userfaultfd_ctx_put(ctx);
}

/* A fault or an event waits to be read. */
static bool userfaultfd_has_msg(struct userfaultfd_ctx *ctx)
{
	bool ret;

	spin_lock(&ctx->lock);
	ret = !list_empty(&ctx->fault_pending) || !list_empty(&ctx->events);
	spin_unlock(&ctx->lock);
	return ret;
}

/* Readable while a fault or an event waits; POLLERR before UFFDIO_API
 * and on a blocking uffd, whose read could wait after all. */
static unsigned int userfaultfd_poll(struct file *f, struct poll_table *pt)
{
	struct userfaultfd_ctx *ctx = f->private_data;

	poll_wait(f, &ctx->fd_wqh, pt);
	if (!userfaultfd_is_initialized(ctx) || !(f->f_flags & O_NONBLOCK))
		return POLLERR;
	return userfaultfd_has_msg(ctx) ? POLLIN : 0;
}

/*
 * A UFFD_EVENT_FORK read: the reader gets a descriptor for the child's
 * uffd, then the fork goes on. On error the event stays queued. The fd
 * is made without ctx->lock (it allocates); ewq stays queued meanwhile,
 * since only its forker takes it off, and that holds the big kernel lock
 * as we do (fork), which we do not give up here.
 */
static int resolve_userfault_fork(struct userfaultfd_ctx *ctx,
				  struct userfaultfd_wait_queue *ewq,
				  struct uffd_msg *msg)
{
	int fd = userfaultfd_install(ewq->fork_ctx);

	if (fd < 0)
		return fd;
	msg->arg.fork.ufd = fd;
	spin_lock(&ctx->lock);
	userfaultfd_event_complete(ewq);
	spin_unlock(&ctx->lock);
	return 0;
}

/* One message as userfaultfd_ctx_read says, or -EAGAIN if none waits;
 * *fork: a fork's event, left queued for resolve_userfault_fork. */
static int userfaultfd_take_msg(struct userfaultfd_ctx *ctx,
				struct uffd_msg *msg,
				struct userfaultfd_wait_queue **fork)
{
	struct userfaultfd_wait_queue *uwq;
	int ret = 0;

	*fork = NULL;
	spin_lock(&ctx->lock);
	if (!list_empty(&ctx->fault_pending)) {
		uwq = list_first_entry(&ctx->fault_pending,
				       struct userfaultfd_wait_queue, entry);
		*msg = uwq->msg;
		list_move_tail(&uwq->entry, &ctx->fault_read);
	} else if (!list_empty(&ctx->events)) {
		uwq = list_first_entry(&ctx->events,
				       struct userfaultfd_wait_queue, entry);
		*msg = uwq->msg;
		if (msg->event == UFFD_EVENT_FORK)
			*fork = uwq;
		else
			userfaultfd_event_complete(uwq);
	} else {
		ret = -EAGAIN;
	}
	spin_unlock(&ctx->lock);
	return ret;
}

/* One message: the oldest pending fault (now read, still asleep), else
 * the oldest event (done, unless a fork's: once its fd is made). 0,
 * -EAGAIN (no_wait) or -ERESTARTSYS. Faults queue without the big kernel
 * lock: the wait tests for them once on fd_wqh (wait_event_interruptible). */
static int userfaultfd_ctx_read(struct userfaultfd_ctx *ctx, bool no_wait,
				struct uffd_msg *msg)
{
	struct userfaultfd_wait_queue *fork;

	for (;;) {
		if (!userfaultfd_take_msg(ctx, msg, &fork))
			return fork ? resolve_userfault_fork(ctx, fork, msg) : 0;
		if (no_wait)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->fd_wqh,
					     userfaultfd_has_msg(ctx)))
			return -ERESTARTSYS;
	}
}

/* Whole messages only; blocks (without O_NONBLOCK) for the first. */
static ssize_t userfaultfd_read(struct file *f, char __user *buf, size_t n,
				loff_t *pos)
{
	struct userfaultfd_ctx *ctx = f->private_data;
	bool no_wait = f->f_flags & O_NONBLOCK;
	struct uffd_msg msg;
	ssize_t ret = 0;
	int err;

	(void)pos;
	if (!userfaultfd_is_initialized(ctx))
		return -EINVAL;
	while (n >= sizeof(msg)) {
		err = userfaultfd_ctx_read(ctx, no_wait, &msg);
		if (!err && copy_to_user(buf + ret, &msg, sizeof(msg)))
			err = -EFAULT;
		if (err)
			return ret ? ret : err;
		ret += sizeof(msg);
		n -= sizeof(msg);
		no_wait = true;
	}
	return ret ? ret : -EINVAL;
}

/* ---- ioctls ------------------------------------------------------------ */

/* Linux's validate_range: page-aligned, not empty, in user space. */
static int validate_range(u64 start, u64 len)
{
	if ((start | len) & ~PAGE_MASK || !len)
		return -EINVAL;
	if (start >= TASK_SIZE || len > TASK_SIZE - start)
		return -EINVAL;
	return 0;
}

/* Private anonymous memory and shmem, MINOR only on shmem. */
static bool vma_can_userfault(const struct vm_area_struct *vma,
			      unsigned long vm_flags)
{
	if (vm_flags & VM_UFFD_MINOR)
		return vma_is_shmem(vma);
	return !vma->vm_file || vma_is_shmem(vma);
}

/* The register mode as VM_UFFD_* flags; 0 for a bad mode. */
static unsigned long register_flags(u64 mode)
{
	unsigned long vm_flags = 0;

	if (!mode || (mode & ~(u64)UFFD_API_REGISTER_MODES))
		return 0;
	if (mode & UFFDIO_REGISTER_MODE_MISSING)
		vm_flags |= VM_UFFD_MISSING;
	if (mode & UFFDIO_REGISTER_MODE_WP)
		vm_flags |= VM_UFFD_WP;
	if (mode & UFFDIO_REGISTER_MODE_MINOR)
		vm_flags |= VM_UFFD_MINOR;
	return vm_flags;
}

/*
 * The VMAs of [start, end) for UFFDIO_REGISTER (reg) or _UNREGISTER:
 * -ENOMEM if none lies at or above start, -EINVAL if none is in the
 * range or one cannot take vm_flags (unregistering: its own); and when
 * registering, -EPERM for one that is not VM_MAYWRITE, -EBUSY for one of
 * another uffd.
 */
static int check_vmas(struct userfaultfd_ctx *ctx, unsigned long start,
		      unsigned long end, unsigned long vm_flags, bool reg)
{
	struct vm_area_struct *vma = find_vma(ctx->mm, start);

	if (!vma)
		return -ENOMEM;
	if (vma->vm_start >= end)
		return -EINVAL;
	for (; vma && vma->vm_start < end;
	     vma = find_vma(ctx->mm, vma->vm_end)) {
		if (!vma_can_userfault(vma, reg ? vm_flags : vma->vm_flags))
			return -EINVAL;
		if (!reg)
			continue;
		if (!(vma->vm_flags & VM_MAYWRITE))
			return -EPERM;
		if (vma->vm_userfaultfd_ctx && vma->vm_userfaultfd_ctx != ctx)
			return -EBUSY;
	}
	return 0;
}

/* Each VMA of [start, end) gets vm_flags (in place of its VM_UFFD_*) and
 * ctx, unless it has them already. mmap_lock held for writing. */
static int register_range(struct userfaultfd_ctx *ctx, unsigned long start,
			  unsigned long end, unsigned long vm_flags)
{
	struct vm_area_struct *vma;
	unsigned long s, e;
	int err;

	for (s = start; s < end && (vma = find_vma(ctx->mm, s)) &&
	     vma->vm_start < end; s = e) {
		s = max(s, vma->vm_start);
		e = min(end, vma->vm_end);
		if (vma->vm_userfaultfd_ctx == ctx &&
		    (vma->vm_flags & vm_flags) == vm_flags)
			continue;
		err = vma_modify_flags_uffd(ctx->mm, vma, s, e,
					    (vma->vm_flags & ~__VM_UFFD_FLAGS) |
					    vm_flags, ctx);
		if (err)
			return err;
	}
	return 0;
}

/* UFFDIO_REGISTER: the range and a mode in, the ioctls it has out. */
static long userfaultfd_register(struct userfaultfd_ctx *ctx,
				 struct uffdio_register __user *ureg)
{
	struct uffdio_register reg;
	unsigned long vm_flags;
	u64 ioctls = UFFD_API_RANGE_IOCTLS;
	long err;

	if (copy_from_user(&reg, ureg, sizeof(reg) - sizeof(reg.ioctls)))
		return -EFAULT;
	vm_flags = register_flags(reg.mode);
	if (!vm_flags)
		return -EINVAL;
	err = validate_range(reg.range.start, reg.range.len);
	if (err)
		return err;
	if (!mmget_not_zero(ctx->mm))
		return -ENOMEM;
	mmap_write_lock(ctx->mm);
	err = check_vmas(ctx, reg.range.start,
			 reg.range.start + reg.range.len, vm_flags, true);
	if (!err)
		err = register_range(ctx, reg.range.start,
				     reg.range.start + reg.range.len, vm_flags);
	mmap_write_unlock(ctx->mm);
	mmput(ctx->mm);
	if (err)
		return err;
	if (!(reg.mode & UFFDIO_REGISTER_MODE_WP))
		ioctls &= ~(1ULL << _UFFDIO_WRITEPROTECT);
	if (!(reg.mode & UFFDIO_REGISTER_MODE_MINOR))
		ioctls &= ~(1ULL << _UFFDIO_CONTINUE);
	return put_user(ioctls, &ureg->ioctls);
}

/* Unregisters one VMA's part [s, e): its faults wake, its uffd-wp PTEs
 * are cleared. mmap_lock held for writing. */
static int unregister_vma(struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long s, unsigned long e)
{
	if (userfaultfd_missing(vma))
		wake_userfault(vma->vm_userfaultfd_ctx, s, e - s);
	if (userfaultfd_wp(vma))
		uffd_wp_range(vma, s, e - s, false);
	return vma_modify_flags_uffd(mm, vma, s, e,
				     vma->vm_flags & ~__VM_UFFD_FLAGS, NULL);
}

/* UFFDIO_UNREGISTER: every registered VMA of the range, whichever uffd
 * it is registered with (as Linux 6.1). */
static long userfaultfd_unregister(struct userfaultfd_ctx *ctx,
				   struct uffdio_range __user *urange)
{
	struct mm_struct *mm = ctx->mm;
	struct vm_area_struct *vma;
	struct uffdio_range r;
	unsigned long start, end, e;
	long err;

	if (copy_from_user(&r, urange, sizeof(r)))
		return -EFAULT;
	err = validate_range(r.start, r.len);
	if (err)
		return err;
	start = r.start;
	end = start + r.len;
	if (!mmget_not_zero(mm))
		return -ENOMEM;
	mmap_write_lock(mm);
	err = check_vmas(ctx, start, end, 0, false);
	for (; !err && start < end && (vma = find_vma(mm, start)) &&
	     vma->vm_start < end; start = e) {
		start = max(start, vma->vm_start);
		e = min(end, vma->vm_end);
		if (vma->vm_userfaultfd_ctx)
			err = unregister_vma(mm, vma, start, e);
	}
	mmap_write_unlock(mm);
	mmput(mm);
	return err;
}

static long userfaultfd_wake(struct userfaultfd_ctx *ctx,
			     struct uffdio_range __user *urange)
{
	struct uffdio_range r;
	long err;

	if (copy_from_user(&r, urange, sizeof(r)))
		return -EFAULT;
	err = validate_range(r.start, r.len);
	if (!err)
		wake_userfault(ctx, r.start, r.len);
	return err;
}

/*
 * The fill of COPY, ZEROPAGE and CONTINUE on ctx's mm (-ESRCH once it
 * is gone): the bytes filled or -errno into *uret, the faults of what was
 * filled woken unless dontwake. 0 when all of len was filled, -EAGAIN
 * when part of it.
 */
static long mfill_ioctl(struct userfaultfd_ctx *ctx, unsigned long dst,
			unsigned long src, unsigned long len,
			enum mfill_mode mode, bool wp, bool dontwake,
			s64 __user *uret)
{
	long ret;

	if (!mmget_not_zero(ctx->mm))
		return -ESRCH;
	ret = mfill_atomic(ctx->mm, dst, src, len, mode, wp);
	mmput(ctx->mm);
	if (put_user((s64)ret, uret))
		return -EFAULT;
	if (ret < 0)
		return ret;
	if (!dontwake)
		wake_userfault(ctx, dst, ret);
	return (unsigned long)ret == len ? 0 : -EAGAIN;
}

static long userfaultfd_copy(struct userfaultfd_ctx *ctx,
			     struct uffdio_copy __user *ucopy)
{
	struct uffdio_copy c;
	long ret;

	if (atomic_read(&ctx->mmap_changing))
		return -EAGAIN;
	if (copy_from_user(&c, ucopy, sizeof(c) - sizeof(c.copy)))
		return -EFAULT;
	ret = validate_range(c.dst, c.len);
	if (ret)
		return ret;
	if (c.src + c.len <= c.src ||
	    (c.mode & ~(u64)(UFFDIO_COPY_MODE_DONTWAKE | UFFDIO_COPY_MODE_WP)))
		return -EINVAL;
	return mfill_ioctl(ctx, c.dst, c.src, c.len, MFILL_COPY,
			   c.mode & UFFDIO_COPY_MODE_WP,
			   c.mode & UFFDIO_COPY_MODE_DONTWAKE, &ucopy->copy);
}

/* UFFDIO_ZEROPAGE and UFFDIO_CONTINUE: the same layout (a range, a mode
 * whose one bit is DONTWAKE, the result), as struct uffdio_zeropage. */
static long userfaultfd_fill_range(struct userfaultfd_ctx *ctx,
				   struct uffdio_zeropage __user *uz,
				   enum mfill_mode mode)
{
	struct uffdio_zeropage z;
	long ret;

	if (atomic_read(&ctx->mmap_changing))
		return -EAGAIN;
	if (copy_from_user(&z, uz, sizeof(z) - sizeof(z.zeropage)))
		return -EFAULT;
	ret = validate_range(z.range.start, z.range.len);
	if (ret)
		return ret;
	if (z.mode & ~(u64)UFFDIO_ZEROPAGE_MODE_DONTWAKE)
		return -EINVAL;
	return mfill_ioctl(ctx, z.range.start, 0, z.range.len, mode, false,
			   z.mode & UFFDIO_ZEROPAGE_MODE_DONTWAKE,
			   &uz->zeropage);
}

/* UFFDIO_WRITEPROTECT: protecting wakes nobody; unprotecting wakes the
 * range's faults unless DONTWAKE (protecting with DONTWAKE: -EINVAL). */
static long userfaultfd_writeprotect(struct userfaultfd_ctx *ctx,
				     struct uffdio_writeprotect __user *uwp)
{
	struct uffdio_writeprotect w;
	bool wp, dontwake;
	long ret;

	if (atomic_read(&ctx->mmap_changing))
		return -EAGAIN;
	if (copy_from_user(&w, uwp, sizeof(w)))
		return -EFAULT;
	ret = validate_range(w.range.start, w.range.len);
	if (ret)
		return ret;
	if (w.mode & ~(u64)(UFFDIO_WRITEPROTECT_MODE_DONTWAKE |
			    UFFDIO_WRITEPROTECT_MODE_WP))
		return -EINVAL;
	wp = w.mode & UFFDIO_WRITEPROTECT_MODE_WP;
	dontwake = w.mode & UFFDIO_WRITEPROTECT_MODE_DONTWAKE;
	if (wp && dontwake)
		return -EINVAL;
	if (!mmget_not_zero(ctx->mm))
		return -ESRCH;
	ret = mwriteprotect_range(ctx->mm, w.range.start, w.range.len, wp);
	mmput(ctx->mm);
	if (!ret && !wp && !dontwake)
		wake_userfault(ctx, w.range.start, w.range.len);
	return ret;
}

/*
 * UFFDIO_API: the version must be UFFD_API and the features asked for a
 * subset of those offered (-EINVAL, the struct zeroed); it writes back
 * the features offered and the ioctls, and may be done once.
 */
static long userfaultfd_api(struct userfaultfd_ctx *ctx,
			    struct uffdio_api __user *uapi)
{
	struct uffdio_api api;
	u64 features;

	if (copy_from_user(&api, uapi, sizeof(api)))
		return -EFAULT;
	features = api.features;
	if (api.api != UFFD_API || (features & ~(u64)UFFD_API_FEATURES))
		goto err;
	api.features = UFFD_API_FEATURES;
	api.ioctls = UFFD_API_IOCTLS;
	if (copy_to_user(uapi, &api, sizeof(api)))
		return -EFAULT;
	if (userfaultfd_is_initialized(ctx))
		goto err;
	ctx->features = (unsigned int)features | UFFD_FEATURE_INITIALIZED;
	return 0;
err:
	memset(&api, 0, sizeof(api));
	return copy_to_user(uapi, &api, sizeof(api)) ? -EFAULT : -EINVAL;
}

static long userfaultfd_ioctl(struct file *f, unsigned int cmd,
			      unsigned long arg)
{
	struct userfaultfd_ctx *ctx = f->private_data;
	void __user *p = (void __user *)arg;

	if (cmd != UFFDIO_API && !userfaultfd_is_initialized(ctx))
		return -EINVAL;
	switch (cmd) {
	case UFFDIO_API:
		return userfaultfd_api(ctx, p);
	case UFFDIO_REGISTER:
		return userfaultfd_register(ctx, p);
	case UFFDIO_UNREGISTER:
		return userfaultfd_unregister(ctx, p);
	case UFFDIO_WAKE:
		return userfaultfd_wake(ctx, p);
	case UFFDIO_COPY:
		return userfaultfd_copy(ctx, p);
	case UFFDIO_ZEROPAGE:
		return userfaultfd_fill_range(ctx, p, MFILL_ZEROPAGE);
	case UFFDIO_WRITEPROTECT:
		return userfaultfd_writeprotect(ctx, p);
	case UFFDIO_CONTINUE:
		return userfaultfd_fill_range(ctx, p, MFILL_CONTINUE);
	}
	return -EINVAL;
}

static const struct file_operations userfaultfd_fops = {
	.read_user = userfaultfd_read,
	.poll = userfaultfd_poll,
	.ioctl = userfaultfd_ioctl,
	.release = userfaultfd_release,
};

/* ---- making one -------------------------------------------------------- */

/* A uffd on current's mm: flags O_CLOEXEC, O_NONBLOCK and
 * UFFD_USER_MODE_ONLY (others -EINVAL). The fd or -errno. */
static long new_userfaultfd(unsigned long flags)
{
	struct userfaultfd_ctx *ctx;
	int fd;

	if (flags & ~(unsigned long)(UFFD_SHARED_FCNTL_FLAGS |
				     UFFD_USER_MODE_ONLY))
		return -EINVAL;
	ctx = userfaultfd_ctx_alloc(current->mm, flags, 0);
	if (!ctx)
		return -ENOMEM;
	fd = userfaultfd_install(ctx);
	if (fd < 0)
		userfaultfd_ctx_put(ctx);
	return fd;
}

/* Everything runs as root: kernel faults are allowed too. */
static long sys_userfaultfd(int flags)
{
	return new_userfaultfd((unsigned int)flags);
}
SYSCALL(__NR_userfaultfd, sys_userfaultfd);

/* /dev/userfaultfd (Linux 6.1): USERFAULTFD_IOC_NEW makes a uffd. */
static long userfaultfd_dev_ioctl(struct file *f, unsigned int cmd,
				  unsigned long flags)
{
	(void)f;
	if (cmd != USERFAULTFD_IOC_NEW)
		return -EINVAL;
	return new_userfaultfd(flags);
}

static const struct file_operations userfaultfd_dev_fops = {
	.ioctl = userfaultfd_dev_ioctl,
};

void userfaultfd_init(void)
{
	BUG_ON(vfs_mknod(NULL, "/dev/userfaultfd", S_IFCHR | 0600,
			 MKDEV(10, 126), &userfaultfd_dev_fops));
}
