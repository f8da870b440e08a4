/* fs/locks.c — advisory file locks as Linux's fs/locks.c: POSIX record
 * locks (fcntl F_SETLK, F_SETLKW, F_GETLK), open file description locks
 * (F_OFD_*) and flock(2), kept per inode; F_SETLKW's deadlock detection.
 * Everything here runs under the big kernel lock. */
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#define OFFSET_MAX	((loff_t)0x7fffffffffffffffLL)

#define FL_POSIX	1	/* fcntl's, owned by a files_struct */
#define FL_FLOCK	2	/* flock(2)'s, owned by a struct file */
#define FL_SLEEP	128	/* F_SETLKW, flock without LOCK_NB */
#define FL_OFDLCK	1024	/* F_OFD_*: POSIX ranges, owned by a file */

#define FILE_LOCK_DEFERRED	1	/* blocked: sleep and try again */
#define MAX_DEADLK_ITERATIONS	10

/* The locks of one inode (Linux's file_lock_context, i_flctx): made at
 * its first lock, freed with the inode. flc_wait holds the tasks blocked
 * on any of them. */
struct file_lock_context {
	struct list_head flc_flock;
	struct list_head flc_posix;	/* each owner's together, by start */
	struct wait_queue_head flc_wait;
};

struct file_lock {
	struct list_head fl_list;	/* in flc_posix or flc_flock */
	struct list_head fl_link;	/* in file_lock_list (/proc/locks) */
	void *fl_owner;			/* files_struct, or the file (OFD) */
	unsigned int fl_flags;
	unsigned char fl_type;		/* F_RDLCK, F_WRLCK, F_UNLCK */
	int fl_pid;			/* the taker's tgid */
	struct file *fl_file;		/* the file it was taken through */
	loff_t fl_start, fl_end;	/* bytes, both inclusive */
};

/* A task asleep on a lock held by a classic POSIX owner (Linux's
 * blocked_hash): what the deadlock detection follows. The waker takes it
 * off the list before the sleeper runs, as Linux's __locks_delete_block. */
struct lock_waiter {
	struct list_head list;		/* in blocked_list */
	struct file_lock_context *ctx;
	void *owner;			/* the sleeper's files_struct */
	void *blocker;			/* the owner it waits for */
};

static LIST_HEAD(blocked_list);
static LIST_HEAD(file_lock_list);	/* every lock held, oldest first */

static struct file_lock_context *locks_get_lock_context(struct inode *inode)
{
	struct file_lock_context *ctx = inode->i_flctx;

	if (ctx)
		return ctx;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return NULL;
	if (inode->i_flctx) {		/* made while kzalloc slept */
		kfree(ctx);
		return inode->i_flctx;
	}
	INIT_LIST_HEAD(&ctx->flc_flock);
	INIT_LIST_HEAD(&ctx->flc_posix);
	init_waitqueue_head(&ctx->flc_wait);
	inode->i_flctx = ctx;
	return ctx;
}

/* evict: an inode with no file left holds no lock. */
void locks_free_lock_context(struct inode *inode)
{
	struct file_lock_context *ctx = inode->i_flctx;

	if (!ctx)
		return;
	if (!list_empty(&ctx->flc_posix) || !list_empty(&ctx->flc_flock))
		pr_err("locks: BUG: inode %lu freed with locks held\n",
		       inode->i_ino);
	kfree(ctx);
	inode->i_flctx = NULL;
}

static struct file_lock *locks_alloc_lock(void)
{
	struct file_lock *fl = kzalloc(sizeof(*fl), GFP_KERNEL);

	if (fl) {
		INIT_LIST_HEAD(&fl->fl_list);
		INIT_LIST_HEAD(&fl->fl_link);
	}
	return fl;
}

/* new takes everything of fl but its places in the lists. */
static void locks_copy_lock(struct file_lock *new, const struct file_lock *fl)
{
	new->fl_owner = fl->fl_owner;
	new->fl_flags = fl->fl_flags;
	new->fl_type = fl->fl_type;
	new->fl_pid = fl->fl_pid;
	new->fl_file = fl->fl_file;
	new->fl_start = fl->fl_start;
	new->fl_end = fl->fl_end;
}

/* Wakes every task blocked on ctx's locks, off the blocked list first:
 * they look again when they run (Linux wakes those of one lock only). */
static void locks_wake_up(struct file_lock_context *ctx)
{
	struct lock_waiter *w, *n;

	list_for_each_entry_safe(w, n, &blocked_list, list)
		if (w->ctx == ctx)
			list_del_init(&w->list);
	wake_up(&ctx->flc_wait);
}

/* fl goes into ctx's list before pos. */
static void locks_insert_lock_ctx(struct file_lock *fl, struct list_head *pos)
{
	list_add_tail(&fl->fl_list, pos);
	list_add_tail(&fl->fl_link, &file_lock_list);
}

static void locks_delete_lock_ctx(struct file_lock_context *ctx,
				  struct file_lock *fl)
{
	list_del(&fl->fl_list);
	list_del(&fl->fl_link);
	kfree(fl);
	locks_wake_up(ctx);
}

static bool posix_same_owner(const struct file_lock *a,
			     const struct file_lock *b)
{
	return a->fl_owner == b->fl_owner;
}

static bool locks_overlap(const struct file_lock *a, const struct file_lock *b)
{
	return a->fl_end >= b->fl_start && b->fl_end >= a->fl_start;
}

/* Two locks conflict if either is a write lock (Linux's). */
static bool locks_conflict(const struct file_lock *a,
			   const struct file_lock *b)
{
	return a->fl_type == F_WRLCK || b->fl_type == F_WRLCK;
}

static bool posix_locks_conflict(const struct file_lock *caller,
				 const struct file_lock *sys)
{
	if (posix_same_owner(caller, sys) || !locks_overlap(caller, sys))
		return false;
	return locks_conflict(caller, sys);
}

/* flock locks of one open file never conflict: a second flock through
 * it converts the lock. */
static bool flock_locks_conflict(const struct file_lock *caller,
				 const struct file_lock *sys)
{
	if (caller->fl_file == sys->fl_file)
		return false;
	return locks_conflict(caller, sys);
}

/* The owner that owner's blocked request waits for, or NULL. */
static void *what_owner_is_waiting_for(void *owner)
{
	struct lock_waiter *w;

	list_for_each_entry(w, &blocked_list, list)
		if (w->owner == owner)
			return w->blocker;
	return NULL;
}

/*
 * Would caller, waiting for block_fl, close a cycle of waits (Linux's
 * posix_locks_deadlock)? Follows who waits for whom from block_fl's
 * owner; OFD locks have no process to follow, so are never checked.
 */
static bool posix_locks_deadlock(const struct file_lock *caller,
				 const struct file_lock *block_fl)
{
	void *owner = block_fl->fl_owner;
	int i = 0;

	if (caller->fl_flags & FL_OFDLCK)
		return false;
	while ((owner = what_owner_is_waiting_for(owner))) {
		if (i++ > MAX_DEADLK_ITERATIONS)
			return false;
		if (owner == caller->fl_owner)
			return true;
	}
	return false;
}

/* F_GETLK: the first lock that conflicts with fl into fl, or fl's type
 * F_UNLCK if none (Linux's posix_test_lock). */
static void posix_test_lock(struct inode *inode, struct file_lock *fl)
{
	struct file_lock_context *ctx = inode->i_flctx;
	struct file_lock *cfl;

	if (ctx)
		list_for_each_entry(cfl, &ctx->flc_posix, fl_list)
			if (posix_locks_conflict(fl, cfl)) {
				locks_copy_lock(fl, cfl);
				return;
			}
	fl->fl_type = F_UNLCK;
}

/*
 * Applies request to ctx's POSIX locks as Linux's posix_lock_inode: the
 * owner's locks of the same type that overlap or touch it merge into one,
 * those of another type are cut back, split in two or replaced, so that
 * each owner's ranges stay disjoint and sorted. new_fl and new_fl2 are
 * the caller's preallocated locks (NULL if kzalloc failed; this sleeps
 * nowhere), taken when used (set to NULL). Returns 0, -EAGAIN (a
 * conflict and no FL_SLEEP), -EDEADLK, -ENOLCK, or FILE_LOCK_DEFERRED
 * with the blocking lock in *blocker.
 */
static int posix_lock_inode(struct file_lock_context *ctx,
			    struct file_lock *request,
			    struct file_lock **new_fl, struct file_lock **new_fl2,
			    struct file_lock **blocker)
{
	struct file_lock *fl, *left = NULL, *right = NULL;
	struct list_head *pos, *next, *at;
	bool added = false;

	if (request->fl_type != F_UNLCK) {
		list_for_each_entry(fl, &ctx->flc_posix, fl_list) {
			if (!posix_locks_conflict(request, fl))
				continue;
			if (!(request->fl_flags & FL_SLEEP))
				return -EAGAIN;
			if (posix_locks_deadlock(request, fl))
				return -EDEADLK;
			*blocker = fl;
			return FILE_LOCK_DEFERRED;
		}
	}

	/* The owner's first lock, then each of its locks in order. */
	for (pos = ctx->flc_posix.next; pos != &ctx->flc_posix; pos = pos->next)
		if (posix_same_owner(request, list_entry(pos, struct file_lock,
							 fl_list)))
			break;
	for (; pos != &ctx->flc_posix; pos = next) {
		fl = list_entry(pos, struct file_lock, fl_list);
		next = pos->next;
		if (!posix_same_owner(request, fl))
			break;
		if (request->fl_type == fl->fl_type) {
			/* Adjacent or overlapping: one lock over both. */
			if (fl->fl_end < request->fl_start - 1)
				continue;
			if (fl->fl_start - 1 > request->fl_end)
				break;
			if (fl->fl_start > request->fl_start)
				fl->fl_start = request->fl_start;
			else
				request->fl_start = fl->fl_start;
			if (fl->fl_end < request->fl_end)
				fl->fl_end = request->fl_end;
			else
				request->fl_end = fl->fl_end;
			if (added) {
				locks_delete_lock_ctx(ctx, fl);
				continue;
			}
			request = fl;
			added = true;
		} else {
			if (fl->fl_end < request->fl_start)
				continue;
			if (fl->fl_start > request->fl_end)
				break;
			if (request->fl_type == F_UNLCK)
				added = true;
			if (fl->fl_start < request->fl_start)
				left = fl;
			if (fl->fl_end > request->fl_end) {
				right = fl;
				break;
			}
			if (fl->fl_start >= request->fl_start) {
				/* request covers fl: fl goes. */
				if (added) {
					locks_delete_lock_ctx(ctx, fl);
					continue;
				}
				if (!*new_fl)
					return -ENOLCK;
				locks_copy_lock(*new_fl, request);
				request = *new_fl;
				*new_fl = NULL;
				locks_insert_lock_ctx(request, pos);
				locks_delete_lock_ctx(ctx, fl);
				added = true;
			}
		}
	}

	/* Nothing was inserted yet: it is still safe to fail. */
	if (right && left == right && !*new_fl2)
		return -ENOLCK;
	at = pos;
	if (!added) {
		if (request->fl_type == F_UNLCK)
			return 0;
		if (!*new_fl)
			return -ENOLCK;
		locks_copy_lock(*new_fl, request);
		locks_insert_lock_ctx(*new_fl, pos);
		at = &(*new_fl)->fl_list;
		*new_fl = NULL;
	}
	if (right) {
		if (left == right) {
			/* request splits one lock in two. */
			left = *new_fl2;
			*new_fl2 = NULL;
			locks_copy_lock(left, right);
			locks_insert_lock_ctx(left, at);
		}
		right->fl_start = request->fl_end + 1;
		locks_wake_up(ctx);
	}
	if (left) {
		left->fl_end = request->fl_start - 1;
		locks_wake_up(ctx);
	}
	return 0;
}

/*
 * flock(2)'s change for request (Linux's flock_lock_inode): the file's
 * own lock is dropped first (an upgrade that must wait has lost it, as
 * on Linux), then the new one taken unless another file's conflicts.
 * new_fl as above. 0, -EAGAIN, -ENOLCK or FILE_LOCK_DEFERRED.
 */
static int flock_lock_inode(struct file_lock_context *ctx,
			    struct file_lock *request, struct file_lock **new_fl)
{
	struct file_lock *fl;

	list_for_each_entry(fl, &ctx->flc_flock, fl_list) {
		if (request->fl_file != fl->fl_file)
			continue;
		if (request->fl_type == fl->fl_type)
			return 0;
		locks_delete_lock_ctx(ctx, fl);
		break;
	}
	if (request->fl_type == F_UNLCK)
		return 0;
	list_for_each_entry(fl, &ctx->flc_flock, fl_list) {
		if (!flock_locks_conflict(request, fl))
			continue;
		return request->fl_flags & FL_SLEEP ? FILE_LOCK_DEFERRED
						    : -EAGAIN;
	}
	if (!*new_fl)
		return -ENOLCK;
	locks_copy_lock(*new_fl, request);
	locks_insert_lock_ctx(*new_fl, &ctx->flc_flock);
	*new_fl = NULL;
	return 0;
}

/* A context with no lock and no sleeper goes at once: zpk's inodes of
 * the initrd and /dev live for ever, and so would it (Linux keeps it
 * until the inode goes; nothing tells the two apart but memory). */
static void locks_put_lock_context(struct inode *inode)
{
	struct file_lock_context *ctx = inode->i_flctx;

	if (ctx && list_empty(&ctx->flc_posix) &&
	    list_empty(&ctx->flc_flock) && list_empty(&ctx->flc_wait.head)) {
		kfree(ctx);
		inode->i_flctx = NULL;
	}
}

/*
 * Takes (or drops) the lock request on f's inode, sleeping while
 * another's blocks it if FL_SLEEP (Linux's do_lock_file_wait). A classic
 * POSIX sleeper goes on blocked_list meanwhile, for the deadlock
 * detection. The context is looked up again after each allocation (which
 * may sleep): one without locks or sleepers may have gone meanwhile.
 * Returns 0, -EAGAIN, -EDEADLK, -ENOLCK, -ENOMEM, or -ERESTARTSYS if a
 * signal ends the wait.
 */
static int locks_lock_file_wait(struct file *f, struct file_lock *request)
{
	struct inode *inode = f->f_inode;
	struct file_lock *new_fl, *new_fl2, *blocker = NULL;
	struct file_lock_context *ctx;
	int error;

	for (;;) {
		struct lock_waiter w = { .owner = request->fl_owner };

		/* Before the look, not after: kzalloc may sleep. */
		new_fl = locks_alloc_lock();
		new_fl2 = locks_alloc_lock();
		ctx = locks_get_lock_context(inode);
		if (!ctx)
			error = -ENOMEM;
		else if (request->fl_flags & FL_FLOCK)
			error = flock_lock_inode(ctx, request, &new_fl);
		else
			error = posix_lock_inode(ctx, request, &new_fl,
						 &new_fl2, &blocker);
		kfree(new_fl);
		kfree(new_fl2);
		if (error != FILE_LOCK_DEFERRED)
			break;
		w.ctx = ctx;
		INIT_LIST_HEAD(&w.list);
		if ((request->fl_flags & FL_POSIX) &&
		    !(blocker->fl_flags & FL_OFDLCK)) {
			w.blocker = blocker->fl_owner;
			list_add_tail(&w.list, &blocked_list);
		}
		error = sleep_on(&ctx->flc_wait);
		list_del(&w.list);
		if (error)
			break;
	}
	locks_put_lock_context(inode);
	return error;
}

/* Removes the POSIX locks on inode whose owner is owner: every close of
 * a file by a process drops its locks on that file (Linux's
 * locks_remove_posix), the last close of a file its OFD locks. */
static void posix_remove_owner(struct inode *inode, void *owner)
{
	struct file_lock_context *ctx = inode->i_flctx;
	struct file_lock *fl, *n;

	if (!ctx)
		return;
	list_for_each_entry_safe(fl, n, &ctx->flc_posix, fl_list)
		if (fl->fl_owner == owner)
			locks_delete_lock_ctx(ctx, fl);
}

void locks_remove_posix(struct file *f, struct files_struct *files)
{
	posix_remove_owner(f->f_inode, files);
	locks_put_lock_context(f->f_inode);
}

/* The last reference to f is going: its OFD and flock locks go. */
void locks_remove_file(struct file *f)
{
	struct file_lock_context *ctx = f->f_inode->i_flctx;
	struct file_lock *fl, *n;

	if (!ctx)
		return;
	posix_remove_owner(f->f_inode, f);
	list_for_each_entry_safe(fl, n, &ctx->flc_flock, fl_list)
		if (fl->fl_file == f)
			locks_delete_lock_ctx(ctx, fl);
	locks_put_lock_context(f->f_inode);
}

/* ---- fcntl(2) ------------------------------------------------------ */

struct flock {
	short l_type;
	short l_whence;
	loff_t l_start;
	loff_t l_len;
	int l_pid;
};

/* The range l names (whence, start, len; a negative len reaches back)
 * into fl, with Linux's errnos (flock_to_posix_lock): -EINVAL,
 * -EOVERFLOW. */
static int flock_to_posix_lock(struct file *f, struct file_lock *fl,
			       const struct flock *l)
{
	loff_t start;

	switch (l->l_whence) {
	case SEEK_SET:
		start = 0;
		break;
	case SEEK_CUR:
		start = f->f_pos;
		break;
	case SEEK_END:
		start = (loff_t)f->f_inode->i_size;
		break;
	default:
		return -EINVAL;
	}
	if (l->l_start > OFFSET_MAX - start)
		return -EOVERFLOW;
	start += l->l_start;
	if (start < 0)
		return -EINVAL;
	if (l->l_len > 0) {
		if (l->l_len - 1 > OFFSET_MAX - start)
			return -EOVERFLOW;
		fl->fl_start = start;
		fl->fl_end = start + l->l_len - 1;
	} else if (l->l_len < 0) {
		if (start + l->l_len < 0)
			return -EINVAL;
		fl->fl_start = start + l->l_len;
		fl->fl_end = start - 1;
	} else {
		fl->fl_start = start;
		fl->fl_end = OFFSET_MAX;
	}
	fl->fl_owner = current_files();
	fl->fl_pid = current->tgid;
	fl->fl_file = f;
	fl->fl_flags = FL_POSIX;
	if (l->l_type != F_RDLCK && l->l_type != F_WRLCK &&
	    l->l_type != F_UNLCK)
		return -EINVAL;
	fl->fl_type = (unsigned char)l->l_type;
	return 0;
}

/* F_GETLK and F_OFD_GETLK (Linux's fcntl_getlk): the first lock that
 * would conflict, or l_type F_UNLCK; an OFD lock's l_pid is -1. */
static long fcntl_getlk(struct file *f, unsigned int cmd,
			struct flock __user *ul)
{
	struct file_lock fl = { 0 };
	struct flock l;
	int error;

	if (copy_from_user(&l, ul, sizeof(l)))
		return -EFAULT;
	if (l.l_type != F_RDLCK && l.l_type != F_WRLCK)
		return -EINVAL;
	error = flock_to_posix_lock(f, &fl, &l);
	if (error)
		return error;
	if (cmd == F_OFD_GETLK) {
		if (l.l_pid != 0)
			return -EINVAL;
		fl.fl_flags |= FL_OFDLCK;
		fl.fl_owner = f;
	}
	posix_test_lock(f->f_inode, &fl);
	l.l_type = fl.fl_type;
	if (fl.fl_type != F_UNLCK) {
		l.l_pid = fl.fl_flags & FL_OFDLCK ? -1 : fl.fl_pid;
		l.l_whence = SEEK_SET;
		l.l_start = fl.fl_start;
		l.l_len = fl.fl_end == OFFSET_MAX ? 0
						  : fl.fl_end - fl.fl_start + 1;
	}
	return copy_to_user(ul, &l, sizeof(l)) ? -EFAULT : 0;
}

/* A read lock needs the file open for reading, a write lock for
 * writing (Linux's check_fmode_for_setlk). */
static int check_fmode_for_setlk(struct file *f, int type)
{
	unsigned int acc = f->f_flags & O_ACCMODE;

	if (type == F_RDLCK && acc == O_WRONLY)
		return -EBADF;
	if (type == F_WRLCK && acc == O_RDONLY)
		return -EBADF;
	return 0;
}

/*
 * F_SETLK, F_SETLKW and their OFD forms (Linux's fcntl_setlk). A classic
 * lock taken while another thread closed fd is dropped again: -EBADF.
 */
static long fcntl_setlk(int fd, struct file *f, unsigned int cmd,
			struct flock __user *ul)
{
	struct file_lock fl = { 0 };
	struct flock l;
	int error;

	if (copy_from_user(&l, ul, sizeof(l)))
		return -EFAULT;
	error = flock_to_posix_lock(f, &fl, &l);
	if (error)
		return error;
	error = check_fmode_for_setlk(f, fl.fl_type);
	if (error)
		return error;
	switch (cmd) {
	case F_OFD_SETLKW:
	case F_OFD_SETLK:
		if (l.l_pid != 0)
			return -EINVAL;
		fl.fl_flags |= FL_OFDLCK | (cmd == F_OFD_SETLKW ? FL_SLEEP : 0);
		fl.fl_owner = f;
		break;
	case F_SETLKW:
		fl.fl_flags |= FL_SLEEP;
	}
	error = locks_lock_file_wait(f, &fl);
	if (!error && fl.fl_type != F_UNLCK && !(fl.fl_flags & FL_OFDLCK) &&
	    current_files()->fd[fd] != f) {
		fl.fl_type = F_UNLCK;
		fl.fl_flags &= ~FL_SLEEP;
		locks_lock_file_wait(f, &fl);
		error = -EBADF;
	}
	return error;
}

/* fcntl's lock commands (fs/fcntl.c hands them here). */
long fcntl_lock(int fd, struct file *f, unsigned int cmd, unsigned long arg)
{
	struct flock __user *ul = (struct flock __user *)arg;

	if (cmd == F_GETLK || cmd == F_OFD_GETLK)
		return fcntl_getlk(f, cmd, ul);
	return fcntl_setlk(fd, f, cmd, ul);
}

/* ---- flock(2) ------------------------------------------------------ */

#define LOCK_SH		1
#define LOCK_EX		2
#define LOCK_NB		4
#define LOCK_UN		8
#define LOCK_MAND	32

/*
 * flock(fd, LOCK_SH | LOCK_EX | LOCK_UN [| LOCK_NB]): a whole-file lock
 * owned by the open file, so shared across dup and fork and dropped with
 * the file's last close; -EWOULDBLOCK (EAGAIN) with LOCK_NB. As Linux 6's:
 * LOCK_MAND is ignored (0), a bad command is -EINVAL before a bad fd.
 */
static long sys_flock(int fd, unsigned int cmd)
{
	struct file_lock fl = { 0 };
	struct file *f;
	long error;

	if (cmd & LOCK_MAND)
		return 0;
	switch (cmd & ~LOCK_NB) {
	case LOCK_SH:
		fl.fl_type = F_RDLCK;
		break;
	case LOCK_EX:
		fl.fl_type = F_WRLCK;
		break;
	case LOCK_UN:
		fl.fl_type = F_UNLCK;
		break;
	default:
		return -EINVAL;
	}
	f = fget(fd);
	if (!f)
		return -EBADF;
	fl.fl_flags = FL_FLOCK | (cmd & LOCK_NB ? 0 : FL_SLEEP);
	fl.fl_owner = f;
	fl.fl_file = f;
	fl.fl_pid = current->tgid;
	fl.fl_end = OFFSET_MAX;
	error = locks_lock_file_wait(f, &fl);
	fput(f);
	return error;
}
SYSCALL(__NR_flock, sys_flock);
