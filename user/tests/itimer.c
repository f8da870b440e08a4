/* user/tests/itimer.c — the interval timers as Linux keeps them:
 * getitimer, setitimer and alarm (values, old values, rounding, errors);
 * ITIMER_REAL's SIGALRM never early, on its interval's grid, stopped
 * while its SIGALRM waits; ITIMER_VIRTUAL and ITIMER_PROF counting the
 * process's CPU time (a tick more than asked, as Linux); shared by
 * threads, kept by execve, not inherited by fork. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static volatile int alrm, vtalrm, prof;
static volatile long cpu_at_signal;	/* process CPU ticks then */
static volatile double t_alrm;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long cpu_ticks(int user_only)
{
	struct tms t;

	times(&t);
	return t.tms_utime + (user_only ? 0 : t.tms_stime);
}

static void on_alrm(int sig)
{
	(void)sig;
	alrm++;
	t_alrm = now_s();
}

static void on_vtalrm(int sig)
{
	(void)sig;
	vtalrm++;
	cpu_at_signal = cpu_ticks(1);
}

static void on_prof(int sig)
{
	(void)sig;
	prof++;
	cpu_at_signal = cpu_ticks(0);
}

static long set(int which, long s, long us, long is, long ius,
		struct itimerval *old)
{
	struct itimerval v = { { is, ius }, { s, us } };

	return syscall(SYS_setitimer, which, &v, old) ? -errno : 0;
}

static struct itimerval get(int which)
{
	struct itimerval v;

	memset(&v, 0x5a, sizeof(v));
	syscall(SYS_getitimer, which, &v);
	return v;
}

static long us_of(struct timeval tv)
{
	return tv.tv_sec * 1000000L + tv.tv_usec;
}

static void check_calls(void)
{
	struct itimerval v, old;
	int zero = 1;
	long r;

	for (int w = ITIMER_REAL; w <= ITIMER_PROF; w++) {
		v = get(w);
		zero &= !us_of(v.it_value) && !us_of(v.it_interval);
	}
	tap_ok(zero, "at first every timer is off");
	errno = 0;
	tap_ok(syscall(SYS_getitimer, 3, &v) == -1 && errno == EINVAL &&
	       set(3, 1, 0, 0, 0, NULL) == -EINVAL && set(-1, 1, 0, 0, 0,
							NULL) == -EINVAL,
	       "an unknown timer is EINVAL");
	tap_ok(syscall(SYS_getitimer, ITIMER_REAL, (void *)8) == -1 &&
	       errno == EFAULT && syscall(SYS_setitimer, ITIMER_REAL,
					 (void *)8, NULL) == -1 &&
	       errno == EFAULT, "bad pointers are EFAULT");
	tap_ok(set(ITIMER_REAL, 1, 1000000, 0, 0, NULL) == -EINVAL &&
	       set(ITIMER_REAL, -1, 0, 0, 0, NULL) == -EINVAL &&
	       set(ITIMER_REAL, 1, 0, 0, -1, NULL) == -EINVAL &&
	       !us_of(get(ITIMER_REAL).it_value),
	       "a usec out of 0..999999 or a negative sec is EINVAL, "
	       "nothing set");

	set(ITIMER_REAL, 2, 0, 0, 500000, NULL);
	v = get(ITIMER_REAL);
	tap_ok(us_of(v.it_value) > 1900000 && us_of(v.it_value) <= 2000000 &&
	       us_of(v.it_interval) == 500000, "ITIMER_REAL reads back what "
	       "is left (%ld us) and its interval", us_of(v.it_value));
	r = set(ITIMER_REAL, 0, 0, 0, 300000, &old);
	v = get(ITIMER_REAL);
	tap_ok(r == 0 && us_of(old.it_value) > 1900000 &&
	       us_of(old.it_interval) == 500000 && !us_of(v.it_value) &&
	       !us_of(v.it_interval), "setitimer gives the old one; a zero "
	       "value stops it, and its interval reads 0");
	set(ITIMER_VIRTUAL, 0, 0, 0, 300000, NULL);
	v = get(ITIMER_VIRTUAL);
	tap_ok(!us_of(v.it_value) && us_of(v.it_interval) == 300000,
	       "a stopped CPU timer keeps the interval it was given");
	set(ITIMER_VIRTUAL, 0, 0, 0, 0, NULL);

	set(ITIMER_PROF, 0, 100000, 0, 0, NULL);
	v = get(ITIMER_PROF);
	tap_ok(us_of(v.it_value) >= 100000 && us_of(v.it_value) <= 111000,
	       "a CPU timer counts a tick more than asked, as Linux "
	       "(%ld us for 100000)", us_of(v.it_value));
	set(ITIMER_PROF, 0, 0, 0, 0, NULL);

	set(ITIMER_REAL, 7, 0, 0, 0, NULL);
	tap_ok(syscall(SYS_setitimer, ITIMER_REAL, NULL, &old) == 0 &&
	       old.it_value.tv_sec >= 6 && !us_of(get(ITIMER_REAL).it_value),
	       "a NULL new value stops it (Linux's \"misfeature\")");

	tap_ok(alarm(5) == 0, "alarm with none running returns 0");
	usleep(20000);
	tap_ok(alarm(3) == 5, "alarm returns the seconds left, rounded "
	       "to the nearest (4.98 s: 5)");
	set(ITIMER_REAL, 0, 300000, 0, 0, NULL);
	tap_ok(alarm(0) == 1, "a fraction under 1 s returns 1, never 0");
}

static void wait_alrm(int n)
{
	while (alrm < n)
		pause();
}

static void check_real(void)
{
	struct itimerval v;
	sigset_t block;
	double t0, late;

	signal(SIGALRM, on_alrm);
	alrm = 0;
	t0 = now_s();
	set(ITIMER_REAL, 0, 100000, 0, 0, NULL);
	wait_alrm(1);
	late = t_alrm - t0 - 0.1;
	tap_ok(late >= 0 && late < 0.2, "SIGALRM comes after 100 ms, not "
	       "before (%.1f ms late)", late * 1000);
	tap_ok(!us_of(get(ITIMER_REAL).it_value), "a one-shot timer is off "
	       "after it fired");

	alrm = 0;
	t0 = now_s();
	set(ITIMER_REAL, 0, 30000, 0, 30000, NULL);
	wait_alrm(10);
	set(ITIMER_REAL, 0, 0, 0, 0, NULL);
	late = t_alrm - t0 - 0.3;
	tap_ok(late >= 0 && late < 0.3, "10 periods of 30 ms take 300 ms, "
	       "never less (%.1f ms more)", late * 1000);

	/* Linux restarts a periodic timer as its SIGALRM is taken: it
	 * waits meanwhile. */
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	alrm = 0;
	set(ITIMER_REAL, 0, 20000, 0, 20000, NULL);
	usleep(200000);
	v = get(ITIMER_REAL);
	tap_ok(!us_of(v.it_value) && us_of(v.it_interval) == 20000,
	       "while SIGALRM waits blocked the periodic timer stands "
	       "(%ld us)", us_of(v.it_value));
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	v = get(ITIMER_REAL);
	tap_ok(alrm == 1 && us_of(v.it_value) > 0 &&
	       us_of(v.it_value) <= 20000, "taken, it ran once and the "
	       "timer goes on (%d, %ld us)", alrm, us_of(v.it_value));
	set(ITIMER_REAL, 0, 0, 0, 0, NULL);
}

/* Spins in user mode until sig's count moves (10 s at most). */
static int spin_until(volatile int *count, int was)
{
	time_t end = time(NULL) + 10;

	while (*count == was && time(NULL) < end)
		for (volatile int i = 0; i < 10000; i++)
			;
	return *count != was;
}

static void check_cpu(void)
{
	long c0;
	int ok;

	signal(SIGVTALRM, on_vtalrm);
	signal(SIGPROF, on_prof);
	set(ITIMER_VIRTUAL, 0, 50000, 0, 0, NULL);
	usleep(300000);
	tap_ok(vtalrm == 0, "ITIMER_VIRTUAL does not count sleep");
	c0 = cpu_ticks(1);
	ok = spin_until(&vtalrm, 0);
	tap_ok(ok && cpu_at_signal - c0 >= 5 &&
	       cpu_at_signal - c0 <= 12, "SIGVTALRM after 50 ms of user time "
	       "and a tick (%ld ticks)", cpu_at_signal - c0);

	c0 = cpu_ticks(0);
	set(ITIMER_PROF, 0, 100000, 0, 0, NULL);
	ok = spin_until(&prof, 0);
	tap_ok(ok && cpu_at_signal - c0 >= 10 &&
	       cpu_at_signal - c0 <= 18, "SIGPROF after 100 ms of CPU time "
	       "and a tick (%ld ticks)", cpu_at_signal - c0);

	c0 = cpu_ticks(0);
	prof = 0;
	set(ITIMER_PROF, 0, 20000, 0, 20000, NULL);
	while (prof < 5 && spin_until(&prof, prof))
		;
	set(ITIMER_PROF, 0, 0, 0, 0, NULL);
	tap_ok(prof == 5 && cpu_at_signal - c0 >= 10 &&
	       cpu_at_signal - c0 <= 18, "periodic: 5 SIGPROFs of 20 ms in "
	       "about 100 ms of CPU (%ld ticks)", cpu_at_signal - c0);
}

static void *thread_get(void *arg)
{
	(void)arg;
	return (void *)us_of(get(ITIMER_REAL).it_value);
}

static void fork_child(void *arg)
{
	(void)arg;
	_exit(us_of(get(ITIMER_REAL).it_value) ||
	      us_of(get(ITIMER_VIRTUAL).it_value) ? 1 : 0);
}

static void check_inherit(const char *self)
{
	pthread_t t;
	void *seen = NULL;
	pid_t pid;
	int st;

	set(ITIMER_REAL, 5, 0, 0, 0, NULL);
	set(ITIMER_VIRTUAL, 5, 0, 0, 0, NULL);
	pthread_create(&t, NULL, thread_get, NULL);
	pthread_join(t, &seen);
	tap_ok((long)seen > 4000000, "a thread sees the process's timer "
	       "(%ld us)", (long)seen);
	st = in_child(fork_child, NULL);
	tap_ok(st == 0, "a fork child starts with none (%s)", status_str(st));
	set(ITIMER_REAL, 0, 0, 0, 0, NULL);
	set(ITIMER_VIRTUAL, 0, 0, 0, 0, NULL);

	pid = fork();
	if (pid == 0) {
		set(ITIMER_REAL, 5, 0, 0, 0, NULL);
		execl(self, self, "--exec-child", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0, "execve keeps it (%s)", status_str(st));

	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		set(ITIMER_REAL, 0, 50000, 0, 0, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM,
	       "SIGALRM's default action ends the process (%s)",
	       status_str(st));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--exec-child") == 0) {
		long left = us_of(get(ITIMER_REAL).it_value);

		return left > 4000000 && left <= 5000000 ? 0 : 1;
	}
	tap_plan(25);
	check_calls();
	check_real();
	check_cpu();
	check_inherit(argv[0]);
	tap_done();
}
