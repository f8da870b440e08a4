/* kernel/itimer.c — the interval timers (Linux's kernel/time/itimer.c):
 * ITIMER_REAL counts real time and sends SIGALRM, ITIMER_VIRTUAL the
 * process's user time (SIGVTALRM), ITIMER_PROF its user and system time
 * (SIGPROF); getitimer, setitimer and alarm. They are the process's (its
 * signal_struct): threads share them, execve keeps them, a fork child
 * starts without. The tick counts them down; the signal is sent from
 * process context, under the big kernel lock: SIGALRM by the kworker,
 * SIGVTALRM and SIGPROF by the thread whose tick fired them, on its way
 * back to user mode. */
#include <zpk/errno.h>
#include <zpk/itimer.h>
#include <zpk/sched.h>
#include <zpk/spinlock.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>
#include <zpk/workqueue.h>

#define ITIMER_REAL	0
#define ITIMER_VIRTUAL	1
#define ITIMER_PROF	2
#define NSEC_PER_USEC_L	1000L

struct itimerval {
	struct __kernel_old_timeval it_interval, it_value;
};

/* Every signal_struct's it_* fields and both lists; interrupts off (the
 * tick takes it). */
static DEFINE_SPINLOCK(itimer_lock);
static LIST_HEAD(real_timers);		/* it_real_queued: counting down */
static LIST_HEAD(real_fired);		/* expired, SIGALRM still to send */

static void send_sigalrm(struct work_struct *work);
static DECLARE_WORK(sigalrm_work, send_sigalrm);

/* ---- the tick ----------------------------------------------------------- */

/* CPU 0's tick: real timers whose time has come go to the kworker's list
 * (once: SIGALRM is a legacy signal, queued once); a periodic one is
 * started again when its SIGALRM is taken (itimer_rearm_real). */
static void run_real_timers(void)
{
	struct signal_struct *sig, *n;
	u64 now = ktime_get_ns();
	bool fired = false;

	spin_lock(&itimer_lock);
	list_for_each_entry_safe(sig, n, &real_timers, it_real_node) {
		if (sig->it_real_expires > now)
			continue;
		list_del(&sig->it_real_node);
		sig->it_real_queued = false;
		sig->it_real_last = sig->it_real_expires;
		if (!sig->it_real_fired) {
			sig->it_real_fired = true;
			list_add_tail(&sig->it_fired_node, &real_fired);
		}
		fired = true;
	}
	spin_unlock(&itimer_lock);
	if (fired) {
		schedule_work(&sigalrm_work);
		/* The kworker runs as this interrupt returns, not at the end
		 * of the slice of whatever runs here. */
		if (!is_idle_task(current))
			current->need_resched = true;
	}
}

/* One CPU timer of p's process, i (0 virtual, 1 prof), loses a tick:
 * expired, it goes on by its interval (or stops) and p is to send sig. */
static void cpu_timer_tick(struct task_struct *p, int i, int signo)
{
	struct signal_struct *sig = p->signal;

	if (!(sig->it_cpu_armed & (1 << i)))
		return;
	sig->it_left[i] -= (s64)TICK_NSEC;
	if (sig->it_left[i] > 0)
		return;
	if (sig->it_incr[i])
		sig->it_left[i] += (s64)sig->it_incr[i];
	else
		sig->it_cpu_armed &= ~(1 << i);
	p->itimer_sigs |= sigmask(signo);
}

void itimer_tick(struct task_struct *p, bool user)
{
	if (smp_processor_id() == 0)
		run_real_timers();
	if (is_idle_task(p) || !READ_ONCE(p->signal->it_cpu_armed))
		return;
	spin_lock(&itimer_lock);
	if (user)
		cpu_timer_tick(p, 0, SIGVTALRM);
	cpu_timer_tick(p, 1, SIGPROF);
	spin_unlock(&itimer_lock);
}

/* ---- sending ------------------------------------------------------------ */

/* The kworker, under the big kernel lock: SIGALRM to each process whose
 * real timer fired (to the process, as Linux's kill_pid_info). do_exit
 * takes a dying process off the list under the same lock. */
static void send_sigalrm(struct work_struct *work)
{
	struct signal_struct *sig;
	unsigned long flags;

	(void)work;
	for (;;) {
		spin_lock_irqsave(&itimer_lock, flags);
		sig = list_empty(&real_fired) ? NULL :
		      list_first_entry(&real_fired, struct signal_struct,
				       it_fired_node);
		if (sig) {
			list_del(&sig->it_fired_node);
			sig->it_real_fired = false;
		}
		spin_unlock_irqrestore(&itimer_lock, flags);
		if (!sig)
			return;
		send_signal(list_first_entry(&sig->thread_head,
					     struct task_struct, thread_node),
			    SIGALRM, NULL);
	}
}

void itimer_send_signals(void)
{
	sigset_t sigs = current->itimer_sigs;

	current->itimer_sigs = 0;
	if (sigs & sigmask(SIGVTALRM))
		send_signal(current, SIGVTALRM, NULL);
	if (sigs & sigmask(SIGPROF))
		send_signal(current, SIGPROF, NULL);
}

/* Puts a real timer on the tick's list. itimer_lock held. */
static void queue_real(struct signal_struct *sig, u64 expires)
{
	sig->it_real_expires = expires;
	sig->it_real_used = true;
	if (!sig->it_real_queued)
		list_add_tail(&sig->it_real_node, &real_timers);
	sig->it_real_queued = true;
}

static void cancel_real(struct signal_struct *sig)
{
	if (sig->it_real_queued)
		list_del(&sig->it_real_node);
	sig->it_real_queued = false;
	sig->it_real_expires = 0;
}

/* Linux's hrtimer_forward: the first expiry after now on the timer's
 * grid of intervals. */
void itimer_rearm_real(struct signal_struct *sig)
{
	unsigned long flags;
	u64 now = ktime_get_ns(), e;

	spin_lock_irqsave(&itimer_lock, flags);
	if (!sig->it_real_queued && sig->it_real_incr) {
		e = sig->it_real_last;
		if (e <= now)
			e += ((now - e) / sig->it_real_incr + 1) *
			     sig->it_real_incr;
		queue_real(sig, e);
	}
	spin_unlock_irqrestore(&itimer_lock, flags);
}

void exit_itimers(struct signal_struct *sig)
{
	unsigned long flags;

	/* Most processes never set a timer: their exit need not write the
	 * lock's line, which every CPU's exits would share. Only the
	 * process's own calls queue its real timer, and none is left. */
	if (!sig->it_real_used && !READ_ONCE(sig->it_cpu_armed))
		return;
	spin_lock_irqsave(&itimer_lock, flags);
	cancel_real(sig);
	if (sig->it_real_fired)
		list_del(&sig->it_fired_node);
	sig->it_real_fired = false;
	sig->it_cpu_armed = 0;
	spin_unlock_irqrestore(&itimer_lock, flags);
}

/* ---- the system calls --------------------------------------------------- */

static struct __kernel_old_timeval ns_to_timeval(u64 ns)
{
	return (struct __kernel_old_timeval){
		(long)(ns / NSEC_PER_SEC),
		(long)(ns % NSEC_PER_SEC) / NSEC_PER_USEC_L };
}

static u64 timeval_to_ns(const struct __kernel_old_timeval *tv)
{
	return (u64)tv->tv_sec * NSEC_PER_SEC +
	       (u64)tv->tv_usec * NSEC_PER_USEC;
}

/* Linux's timeval_valid. */
static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && (unsigned long)tv->tv_usec < 1000000;
}

/* The timer which of current's process now (Linux's do_getitimer): the
 * time left (1 us for a real timer past due, a tick for a CPU timer),
 * the interval. itimer_lock held. */
static void get_itimer(int which, struct itimerval *v)
{
	struct signal_struct *sig = current->signal;
	u64 now = ktime_get_ns(), left = 0;
	int i = which - 1;

	if (which == ITIMER_REAL) {
		if (sig->it_real_queued)
			left = sig->it_real_expires > now ?
			       sig->it_real_expires - now : NSEC_PER_USEC;
		v->it_value = ns_to_timeval(left);
		v->it_interval = ns_to_timeval(sig->it_real_incr);
		return;
	}
	if (sig->it_cpu_armed & (1 << i))
		left = sig->it_left[i] > 0 ? (u64)sig->it_left[i] : TICK_NSEC;
	v->it_value = ns_to_timeval(left);
	v->it_interval = ns_to_timeval(sig->it_incr[i]);
}

/* Linux's do_setitimer: a real timer counts from now to the exact ns (the
 * tick after it fires it); a CPU timer gets a tick more, as Linux's
 * set_cpu_itimer gives, and keeps the interval even when it stops. */
static void set_itimer(int which, const struct itimerval *v)
{
	struct signal_struct *sig = current->signal;
	u64 val = timeval_to_ns(&v->it_value);
	u64 incr = timeval_to_ns(&v->it_interval);
	int i = which - 1;

	if (which == ITIMER_REAL) {
		cancel_real(sig);
		sig->it_real_incr = val ? incr : 0;
		if (val)
			queue_real(sig, ktime_get_ns() + val);
		return;
	}
	sig->it_incr[i] = incr;
	if (val) {
		sig->it_left[i] = (s64)(val + TICK_NSEC);
		sig->it_cpu_armed |= 1 << i;
	} else {
		sig->it_cpu_armed &= ~(1 << i);
	}
}

static long do_setitimer(int which, const struct itimerval *v,
			 struct itimerval *old)
{
	unsigned long flags;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	spin_lock_irqsave(&itimer_lock, flags);
	if (old)
		get_itimer(which, old);
	set_itimer(which, v);
	spin_unlock_irqrestore(&itimer_lock, flags);
	return 0;
}

static long sys_getitimer(int which, struct itimerval __user *uv)
{
	struct itimerval v;
	unsigned long flags;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	spin_lock_irqsave(&itimer_lock, flags);
	get_itimer(which, &v);
	spin_unlock_irqrestore(&itimer_lock, flags);
	return copy_to_user(uv, &v, sizeof(v)) ? -EFAULT : 0;
}
SYSCALL(__NR_getitimer, sys_getitimer);

/* A NULL new value disarms, as Linux still allows ("misfeature"). */
static long sys_setitimer(int which, const struct itimerval __user *unew,
			  struct itimerval __user *uold)
{
	struct itimerval v = { 0 }, old;
	long err;

	if (unew) {
		if (copy_from_user(&v, unew, sizeof(v)))
			return -EFAULT;
		if (!timeval_valid(&v.it_value) ||
		    !timeval_valid(&v.it_interval))
			return -EINVAL;
	}
	err = do_setitimer(which, &v, uold ? &old : NULL);
	if (err || !uold)
		return err;
	return copy_to_user(uold, &old, sizeof(old)) ? -EFAULT : 0;
}
SYSCALL(__NR_setitimer, sys_setitimer);

/* Linux's alarm_setitimer: the seconds left of the one before, rounded
 * to the nearest, and never 0 while it was running. */
static long sys_alarm(unsigned int seconds)
{
	struct itimerval v = { .it_value = { seconds, 0 } }, old;

	do_setitimer(ITIMER_REAL, &v, &old);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) ||
	    old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
SYSCALL(__NR_alarm, sys_alarm);
