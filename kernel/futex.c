/* kernel/futex.c — futex WAIT, WAKE, their bitset forms, REQUEUE and
 * WAKE_OP, what musl's and glibc's locks, condition variables and
 * barriers use: waiters are matched by key (get_futex_key), one queue
 * for all. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_REQUEUE		3
#define FUTEX_CMP_REQUEUE	4
#define FUTEX_WAKE_OP		5
#define FUTEX_WAIT_BITSET	9
#define FUTEX_WAKE_BITSET	10
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK		(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY	0xffffffffU

/*
 * What names a futex (Linux's union futex_key): in private memory, or
 * with FUTEX_PRIVATE_FLAG, the address space and the address; in a
 * shared mapping (MAP_SHARED of a file or of anonymous memory, a shmem
 * file), the file and the offset in it, which every process mapping it
 * shares whatever the address. Only compared, never followed: a key
 * left by a file that went and came back at the same address gives at
 * worst a spurious wakeup, which futex users allow for.
 */
struct futex_key {
	const void *object;		/* the mm, or the file's inode */
	unsigned long offset;		/* the address, or the file offset */
	bool shared;			/* not FUTEX_PRIVATE_FLAG: Linux's
					 * FUT_OFF_MMSHARED, so that a
					 * private wake misses a shared wait */
};

/* One sleeper in futex_wait, on its own kernel stack. */
struct futex_waiter {
	struct task_struct *task;
	struct futex_key key;		/* changes when requeued */
	u32 bitset;
	bool woken;
	struct list_head list;
};

static LIST_HEAD(futex_waiters);

/*
 * The key of the futex at uaddr for current: by file if the mapping is
 * shared and private does not say otherwise. 0, -EINVAL if uaddr is not
 * 4-byte aligned, -EFAULT if it is not user memory or (a shared key)
 * nothing is mapped there or it is read-only private anonymous memory
 * (which never changes: Linux's get_futex_key refuses a read-only anon
 * page, and the zero page, with -EFAULT). Takes the mmap_lock for reading, for a shared
 * one (Linux's get_futex_key). A private file mapping is keyed by
 * address space, untouched pages too (Linux keys those by the file until
 * their first write copies them).
 */
static int get_futex_key(u32 __user *uaddr, bool private,
			 struct futex_key *key)
{
	unsigned long address = (unsigned long)uaddr;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int err = 0;

	if (address % sizeof(u32))
		return -EINVAL;
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	key->object = mm;
	key->offset = address;
	key->shared = !private;
	if (private)
		return 0;
	mmap_read_lock(mm);
	vma = find_vma(mm, address);
	if (!vma || address < vma->vm_start)
		err = -EFAULT;
	else if (!vma->vm_file && !(vma->vm_flags & VM_WRITE))
		err = -EFAULT;
	else if (vma->vm_file && (vma->vm_flags & VM_MAYSHARE)) {
		key->object = vma->vm_file->f_inode;
		key->offset = (vma->vm_pgoff << PAGE_SHIFT) +
			      (address - vma->vm_start);
	}
	mmap_read_unlock(mm);
	return err;
}

static bool futex_key_equal(const struct futex_key *a,
			    const struct futex_key *b)
{
	return a->object == b->object && a->offset == b->offset &&
	       a->shared == b->shared;
}

static long futex_wait_restart(struct restart_block *rb);

/*
 * Sleeps while *uaddr == val until a wake whose bitset meets ours, a
 * signal or the absolute deadline (ktime ns, 0: none). 0 when woken,
 * -EAGAIN if *uaddr was not val, -EFAULT, -ETIMEDOUT; a signal gives
 * -ERESTARTSYS, or with a deadline -ERESTART_RESTARTBLOCK that
 * restart_syscall continues with the same deadline (Linux's futex_wait).
 * The big kernel lock keeps wakes out from the read of *uaddr until the
 * sleep: none is missed.
 */
static long futex_wait(u32 __user *uaddr, bool private, u32 val,
		       u64 deadline, u32 bitset)
{
	struct futex_waiter w = { .task = current, .bitset = bitset };
	long ret;
	u32 cur;

	if (!bitset)
		return -EINVAL;
	ret = get_futex_key(uaddr, private, &w.key);
	if (ret)
		return ret;
	if (get_user(cur, uaddr))
		return -EFAULT;
	if (cur != val)
		return -EAGAIN;
	list_add_tail(&w.list, &futex_waiters);
	while (!w.woken) {
		if (signal_pending(current)) {
			ret = deadline ? -ERESTART_RESTARTBLOCK : -ERESTARTSYS;
			break;
		}
		if (deadline && ktime_get_ns() >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		current->wake_at_ns = deadline;
		current->state = TASK_INTERRUPTIBLE;
		schedule();
		current->wake_at_ns = 0;
	}
	list_del(&w.list);
	if (ret == -ERESTART_RESTARTBLOCK)
		current->restart_block = (struct restart_block){
			.fn = futex_wait_restart, .uaddr = uaddr, .val = val,
			.deadline_ns = deadline, .bitset = bitset,
			.private = private };
	return ret;
}

static long futex_wait_restart(struct restart_block *rb)
{
	return futex_wait(rb->uaddr, rb->private, rb->val, rb->deadline_ns,
			  rb->bitset);
}

/* Wakes up to nr waiters on key whose bitset meets bitset; at least one,
 * as Linux's futex_wake, which counts before it compares: a wake of 0
 * (or less) wakes one. */
static long futex_wake_key(const struct futex_key *key, int nr, u32 bitset)
{
	struct futex_waiter *w;
	long woken = 0;

	list_for_each_entry(w, &futex_waiters, list) {
		if (w->woken || !futex_key_equal(&w->key, key) ||
		    !(w->bitset & bitset))
			continue;
		w->woken = true;
		wake_up_process(w->task);
		if (++woken >= nr)
			break;
	}
	return woken;
}

static long futex_wake_bitset(u32 __user *uaddr, bool private, int nr,
			      u32 bitset)
{
	struct futex_key key;
	int err;

	if (!bitset)
		return -EINVAL;
	err = get_futex_key(uaddr, private, &key);
	return err ? err : futex_wake_key(&key, nr, bitset);
}

/* As Linux's exit path: a shared wake, which finds the shared waits
 * only, on private memory too. */
long futex_wake(u32 __user *uaddr, int nr)
{
	return futex_wake_bitset(uaddr, false, nr, FUTEX_BITSET_MATCH_ANY);
}

/*
 * Wakes nr_wake waiters on uaddr and moves up to nr_requeue more to
 * uaddr2, where a wake of uaddr2 finds them (a condition variable's
 * broadcast hands them to the mutex). CMP_REQUEUE first checks *uaddr ==
 * *cmpval (-EAGAIN if not). The number woken and moved.
 */
static long futex_requeue(u32 __user *uaddr, u32 __user *uaddr2,
			  bool private, int nr_wake, int nr_requeue,
			  const u32 *cmpval)
{
	struct futex_key key, key2;
	struct futex_waiter *w;
	long done = 0;
	int err;
	u32 cur;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	err = get_futex_key(uaddr, private, &key);
	if (!err)
		err = get_futex_key(uaddr2, private, &key2);
	if (err)
		return err;
	if (cmpval) {
		if (get_user(cur, uaddr))
			return -EFAULT;
		if (cur != *cmpval)
			return -EAGAIN;
	}
	list_for_each_entry(w, &futex_waiters, list) {
		if (w->woken || !futex_key_equal(&w->key, &key))
			continue;
		if (done < nr_wake) {
			w->woken = true;
			wake_up_process(w->task);
		} else if (done < (long)nr_wake + nr_requeue) {
			w->key = key2;
		} else {
			break;
		}
		done++;
	}
	return done;
}

/* FUTEX_WAKE_OP's encoded op (Linux's uapi FUTEX_OP): bits 28-30 the
 * op, bit 31 "oparg is a shift", 24-27 the comparison, 12-23 oparg and
 * 0-11 cmparg, both signed. */
#define FUTEX_OP_SET		0	/* *uaddr2 = oparg */
#define FUTEX_OP_ADD		1	/* += oparg */
#define FUTEX_OP_OR		2	/* |= oparg */
#define FUTEX_OP_ANDN		3	/* &= ~oparg */
#define FUTEX_OP_XOR		4	/* ^= oparg */
#define FUTEX_OP_OPARG_SHIFT	8U	/* oparg is 1 << oparg */

/* The 12-bit field of encoded at bit shift, sign-extended. */
static int futex_op_arg(u32 encoded, int shift)
{
	return (int)(encoded >> shift << 20) >> 20;
}

/* What op makes of old in *new: 0, or -ENOSYS for an unknown op. */
static int futex_op_apply(unsigned int op, u32 old, u32 oparg, u32 *new)
{
	switch (op) {
	case FUTEX_OP_SET:	*new = oparg;		return 0;
	case FUTEX_OP_ADD:	*new = old + oparg;	return 0;
	case FUTEX_OP_OR:	*new = old | oparg;	return 0;
	case FUTEX_OP_ANDN:	*new = old & ~oparg;	return 0;
	case FUTEX_OP_XOR:	*new = old ^ oparg;	return 0;
	}
	return -ENOSYS;
}

/* Whether old meets comparison cmp (EQ, NE, LT, LE, GT, GE: signed, as
 * Linux's): 1 or 0, or -ENOSYS for an unknown one. */
static int futex_op_cmp(unsigned int cmp, int old, int cmparg)
{
	switch (cmp) {
	case 0:	return old == cmparg;
	case 1:	return old != cmparg;
	case 2:	return old < cmparg;
	case 3:	return old <= cmparg;
	case 4:	return old > cmparg;
	case 5:	return old >= cmparg;
	}
	return -ENOSYS;
}

/*
 * Linux's futex_atomic_op_inuser: *uaddr changed by the encoded op in a
 * compare-and-exchange loop (user threads may change it meanwhile), then
 * its old value compared: 1 or 0; -EFAULT; -ENOSYS for an unknown op
 * (nothing done) or comparison (done already, as Linux). A shift past
 * 31 is masked (Linux warns and masks).
 */
static int futex_atomic_op(u32 encoded, u32 __user *uaddr)
{
	unsigned int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	u32 oparg = (u32)futex_op_arg(encoded, 12), old, cur, new;

	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = 1U << (oparg & 31);
	if (futex_op_apply(op, 0, oparg, &new))
		return -ENOSYS;
	if (get_user(cur, uaddr))
		return -EFAULT;
	do {
		old = cur;
		futex_op_apply(op, old, oparg, &new);
		if (futex_atomic_cmpxchg(&cur, uaddr, old, new))
			return -EFAULT;
	} while (cur != old);
	return futex_op_cmp(cmp, (int)old, futex_op_arg(encoded, 0));
}

/*
 * FUTEX_WAKE_OP (Linux's futex_wake_op; glibc's older condition
 * variables): the op on *uaddr2, then up to nr_wake waiters woken on
 * uaddr and, if the old *uaddr2 met the comparison, up to nr_wake2 on
 * uaddr2. The number woken.
 */
static long futex_wake_op(u32 __user *uaddr, u32 __user *uaddr2,
			  bool private, int nr_wake, int nr_wake2, u32 op)
{
	struct futex_key key, key2;
	long woken;
	int err;

	err = get_futex_key(uaddr, private, &key);
	if (!err)
		err = get_futex_key(uaddr2, private, &key2);
	if (!err)
		err = futex_atomic_op(op, uaddr2);
	if (err < 0)
		return err;
	woken = futex_wake_key(&key, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (err)
		woken += futex_wake_key(&key2, nr_wake2,
					FUTEX_BITSET_MATCH_ANY);
	return woken;
}

/* The deadline of a wait in ktime ns: FUTEX_WAIT's timeout is relative,
 * WAIT_BITSET's absolute on CLOCK_MONOTONIC, or CLOCK_REALTIME with
 * the flag. 0 (none), or -EFAULT / -EINVAL. timespec_from_user cuts a
 * timeout past 2^63 ns there, as Linux clamps to KTIME_MAX: seconds
 * times NSEC_PER_SEC would wrap in 64 bits and time out at once. */
static long futex_deadline(int cmd, int op,
			   const struct __kernel_timespec __user *ut, u64 *ns)
{
	long err;
	u64 t;

	*ns = 0;
	if (!ut)
		return 0;
	err = timespec_from_user(ut, &t);
	if (err)
		return err;
	if (cmd == FUTEX_WAIT)
		t += ktime_get_ns();	/* < 2^64: no wrap */
	else if (op & FUTEX_CLOCK_REALTIME)
		t -= min(t, ktime_get_real_ns() - ktime_get_ns());
	*ns = t ? t : 1;	/* 0 would mean no deadline */
	return 0;
}

/*
 * futex(uaddr, op, val, timeout or val2, uaddr2, val3). FUTEX_PRIVATE_FLAG
 * keys the futex by address space and address, else a shared mapping's
 * futex is its file's (get_futex_key); CLOCK_REALTIME goes only with
 * WAIT_BITSET (else -ENOSYS, as Linux since 5.13); unknown operations
 * are -ENOSYS.
 */
static long sys_futex(u32 __user *uaddr, int op, u32 val,
		      const struct __kernel_timespec __user *timeout,
		      u32 __user *uaddr2, u32 val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool private = op & FUTEX_PRIVATE_FLAG;
	u64 deadline;
	long err;

	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
		err = futex_deadline(cmd, op, timeout, &deadline);
		if (err)
			return err;
		return futex_wait(uaddr, private, val, deadline,
				  cmd == FUTEX_WAIT ? FUTEX_BITSET_MATCH_ANY :
						      val3);
	case FUTEX_WAKE:
		return futex_wake_bitset(uaddr, private, (int)val,
					 FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		return futex_wake_bitset(uaddr, private, (int)val, val3);
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(uaddr, uaddr2, private, (int)val,
				     (int)(unsigned long)timeout,
				     cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL);
	case FUTEX_WAKE_OP:
		return futex_wake_op(uaddr, uaddr2, private, (int)val,
				     (int)(unsigned long)timeout, val3);
	}
	return -ENOSYS;
}
SYSCALL(__NR_futex, sys_futex);

/* ---- robust futexes ------------------------------------------------- */

/*
 * A thread's list of the robust mutexes it holds, in its own memory
 * (Linux's uapi): each entry's futex word lies futex_offset bytes past
 * it; list_op_pending is the one being locked or unlocked just now.
 */
struct robust_list {
	struct robust_list __user *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list __user *list_op_pending;
};

#define FUTEX_WAITERS		0x80000000
#define FUTEX_OWNER_DIED	0x40000000
#define FUTEX_TID_MASK		0x3fffffff
#define ROBUST_LIST_LIMIT	2048	/* a looping list ends here */

static long sys_set_robust_list(struct robust_list_head __user *head,
				size_t len)
{
	if (len != sizeof(*head))
		return -EINVAL;
	current->robust_list = head;
	return 0;
}
SYSCALL(__NR_set_robust_list, sys_set_robust_list);

/* Another's list too: every process is root's (ptrace's read check). */
static long sys_get_robust_list(int pid,
				struct robust_list_head __user *__user *head,
				size_t __user *len)
{
	struct task_struct *p = pid ? find_task_by_pid(pid) : current;

	if (!p)
		return -ESRCH;
	if (put_user(sizeof(**head), len))
		return -EFAULT;
	return put_user(p->robust_list, head);
}
SYSCALL(__NR_get_robust_list, sys_get_robust_list);

/* An entry pointer from user memory; its bit 0 marks a PI futex. */
static int fetch_robust_entry(struct robust_list __user **entry,
			      struct robust_list __user *__user *head,
			      bool *pi)
{
	unsigned long uentry;

	if (get_user(uentry, (unsigned long __user *)head))
		return -EFAULT;
	*entry = (void __user *)(uentry & ~1UL);
	*pi = uentry & 1;
	return 0;
}

/*
 * The futex at uaddr, if current (dying) owns it: FUTEX_OWNER_DIED set,
 * keeping FUTEX_WAITERS, and one waiter woken, whose lock then returns
 * EOWNERDEAD. pending: the entry being locked or unlocked, which may be
 * free with a waiter to wake. 0, or -1 to give up on the list.
 */
static int handle_futex_death(u32 __user *uaddr, bool pi, bool pending)
{
	u32 uval, nval;

	if ((unsigned long)uaddr % sizeof(u32))
		return -1;
	do {
		if (get_user(uval, uaddr))
			return -1;
		if (pending && !pi && !uval) {
			futex_wake(uaddr, 1);
			return 0;
		}
		if ((uval & FUTEX_TID_MASK) != (u32)current->pid)
			return 0;
		if (futex_atomic_cmpxchg(&nval, uaddr, uval,
					 (uval & FUTEX_WAITERS) |
					 FUTEX_OWNER_DIED))
			return -1;
	} while (nval != uval);
	if (!pi && (uval & FUTEX_WAITERS))
		futex_wake(uaddr, 1);
	return 0;
}

/* Linux's exit_robust_list: every entry, at most ROBUST_LIST_LIMIT, then
 * the pending one; a fault ends the walk. */
static void exit_robust_list(struct robust_list_head __user *head)
{
	struct robust_list __user *entry, *next, *pending;
	unsigned int limit = ROBUST_LIST_LIMIT;
	bool pi, next_pi, pending_pi;
	long offset;
	int rc;

	if (fetch_robust_entry(&entry, &head->list.next, &pi) ||
	    get_user(offset, &head->futex_offset) ||
	    fetch_robust_entry(&pending, &head->list_op_pending, &pending_pi))
		return;
	while (entry != &head->list) {
		rc = fetch_robust_entry(&next, &entry->next, &next_pi);
		if (entry != pending &&
		    handle_futex_death((void __user *)entry + offset, pi,
				       false))
			return;
		if (rc)
			return;
		entry = next;
		pi = next_pi;
		if (!--limit)
			break;
	}
	if (pending)
		handle_futex_death((void __user *)pending + offset, pending_pi,
				   true);
}

void futex_exit_release(struct task_struct *tsk)
{
	if (tsk->robust_list)
		exit_robust_list(tsk->robust_list);
	tsk->robust_list = NULL;
}
