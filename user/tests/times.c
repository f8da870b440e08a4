/* user/tests/times.c — times (100) as Linux: the process's user and
 * system clock ticks (every thread's), its reaped children's (and theirs,
 * once reaped), and a return value that counts ticks of real time; and
 * getrusage's times, which agree. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static long sys_times(struct tms *t)
{
	return syscall(SYS_times, t);
}

static long cpu_ticks(void)
{
	struct tms t;

	sys_times(&t);
	return t.tms_utime + t.tms_stime;
}

/* Spins in user mode until this process has used n more ticks of CPU
 * time (10 s of real time at most); the ticks it saw. */
static long spin_ticks(long n)
{
	long start = cpu_ticks(), now = start;
	time_t end = time(NULL) + 10;

	while (now - start < n && time(NULL) < end) {
		for (volatile int i = 0; i < 100000; i++)
			;
		now = cpu_ticks();
	}
	return now - start;
}

/* A rusage's user and system time in ticks of 1/100 s. */
static long ru_ticks(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 100 +
	       (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 10000;
}

static void *spin_thread(void *arg)
{
	(void)arg;
	spin_ticks(20);
	return NULL;
}

int main(void)
{
	struct tms t0, t1;
	long r0, r1, got;
	struct rusage ru;
	pthread_t th;
	pid_t pid;
	int st;

	tap_plan(11);
	r0 = sys_times(&t0);
	tap_ok(r0 != -1 && t0.tms_cutime == 0 && t0.tms_cstime == 0,
	       "a new process: no children's time (%ld %ld)",
	       (long)t0.tms_cutime, (long)t0.tms_cstime);
	got = spin_ticks(30);
	sys_times(&t1);
	tap_ok(got >= 30 && t1.tms_utime - t0.tms_utime >= 15,
	       "a user-mode spin counts, mostly in tms_utime (%ld ticks: "
	       "%ld user, %ld system)", got,
	       (long)(t1.tms_utime - t0.tms_utime),
	       (long)(t1.tms_stime - t0.tms_stime));

	r0 = sys_times(NULL);
	usleep(300000);
	r1 = sys_times(NULL);
	tap_ok(r1 - r0 >= 25 && r1 - r0 <= 200,
	       "the return value counts real time in ticks of 1/100 s "
	       "(%ld in 0.3 s)", r1 - r0);
	errno = 0;
	tap_ok(syscall(SYS_times, (void *)8) == -1 && errno == EFAULT,
	       "a bad buffer is EFAULT");

	sys_times(&t0);
	pthread_create(&th, NULL, spin_thread, NULL);
	pthread_join(th, NULL);
	sys_times(&t1);
	tap_ok(t1.tms_utime + t1.tms_stime - t0.tms_utime - t0.tms_stime >= 20,
	       "a thread's time is the process's, after it is gone (%ld)",
	       (long)(t1.tms_utime + t1.tms_stime - t0.tms_utime -
		      t0.tms_stime));

	sys_times(&t0);
	pid = fork();
	if (pid == 0) {
		spin_ticks(40);
		_exit(cpu_ticks() > 255 ? 255 : (int)cpu_ticks());
	}
	usleep(100000);
	sys_times(&t1);
	tap_ok(t1.tms_cutime == t0.tms_cutime,
	       "a child's time is not counted before it is reaped");
	waitpid(pid, &st, 0);
	sys_times(&t1);
	got = t1.tms_cutime + t1.tms_cstime - t0.tms_cutime - t0.tms_cstime;
	tap_ok(WIFEXITED(st) && got >= 40 && got <= WEXITSTATUS(st) + 2,
	       "once reaped it is (%ld ticks, the child saw %d)", got,
	       WEXITSTATUS(st));
	getrusage(RUSAGE_CHILDREN, &ru);
	tap_ok(labs(ru_ticks(&ru) - (t1.tms_cutime + t1.tms_cstime)) <= 2,
	       "getrusage(RUSAGE_CHILDREN) says the same (%ld ticks)",
	       ru_ticks(&ru));
	sys_times(&t1);
	getrusage(RUSAGE_SELF, &ru);
	tap_ok(labs(ru_ticks(&ru) - (t1.tms_utime + t1.tms_stime)) <= 2,
	       "getrusage(RUSAGE_SELF) is the process's time (%ld ticks, "
	       "times %ld)", ru_ticks(&ru),
	       (long)(t1.tms_utime + t1.tms_stime));

	/* A grandchild reaped by the child counts in the child's cutime,
	 * which its own reaping adds to ours. */
	sys_times(&t0);
	pid = fork();
	if (pid == 0) {
		pid_t g = fork();

		if (g == 0) {
			spin_ticks(30);
			_exit(0);
		}
		waitpid(g, NULL, 0);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	sys_times(&t1);
	got = t1.tms_cutime + t1.tms_cstime - t0.tms_cutime - t0.tms_cstime;
	tap_ok(got >= 30, "a reaped grandchild's time counts too (%ld)", got);

	sys_times(&t0);
	pid = fork();
	if (pid == 0) {
		if (fork() == 0) {
			spin_ticks(30);
			_exit(0);
		}
		_exit(0);	/* its child is not reaped by it */
	}
	waitpid(pid, NULL, 0);
	usleep(500000);
	sys_times(&t1);
	got = t1.tms_cutime + t1.tms_cstime - t0.tms_cutime - t0.tms_cstime;
	tap_ok(got < 30, "one its parent did not reap does not (%ld)", got);
	tap_done();
}
