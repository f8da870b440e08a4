/* user/tests/pthreads.c — musl's pthreads on the kernel's threads: create
 * and join, detach, mutex, condvar, barrier, thread-local storage, thread
 * ids, pthread_kill, /proc's Threads: and task/, a thread calling exit. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

#define NTHREADS	4
#define ROUNDS		2000

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* ---- create, join, ids, TLS ----------------------------------------- */

static __thread long tls_word = 7;

struct ids {
	long arg;
	pid_t pid, tid;
	long tls_before, tls_after;
};

static void *report_ids(void *p)
{
	struct ids *id = p;

	id->pid = getpid();
	id->tid = gettid_();
	id->tls_before = tls_word;	/* a fresh copy: its initial value */
	tls_word = 1000 + id->arg;
	sched_yield();			/* the others set theirs meanwhile */
	id->tls_after = tls_word;
	return (void *)(id->arg * 2);
}

static void test_create_join(void)
{
	pthread_t th[NTHREADS];
	struct ids id[NTHREADS];
	int ok_ret = 1, ok_pid = 1, ok_tid = 1, ok_tls = 1, err = 0;
	void *ret;

	tls_word = 99;
	for (int i = 0; i < NTHREADS; i++) {
		id[i] = (struct ids){ .arg = i + 1 };
		err |= pthread_create(&th[i], NULL, report_ids, &id[i]);
	}
	tap_ok(!err, "pthread_create of %d threads", NTHREADS);
	for (int i = 0; i < NTHREADS; i++) {
		err |= pthread_join(th[i], &ret);
		ok_ret &= (long)ret == id[i].arg * 2;
		ok_pid &= id[i].pid == getpid();
		ok_tid &= id[i].tid != getpid() && id[i].tid > 0;
		for (int j = 0; j < i; j++)
			ok_tid &= id[i].tid != id[j].tid;
		ok_tls &= id[i].tls_before == 7 &&
			  id[i].tls_after == 1000 + id[i].arg;
	}
	tap_ok(!err && ok_ret, "pthread_join returns each thread's value");
	tap_ok(ok_pid, "getpid in every thread is the process's pid %d",
	       getpid());
	tap_ok(ok_tid, "gettid differs from the pid and between threads (%d %d)",
	       id[0].tid, id[1].tid);
	tap_ok(ok_tls && tls_word == 99,
	       "__thread: each thread starts from the initial value, keeps its own (main's %ld)",
	       tls_word);
	tap_ok(gettid_() == getpid(), "the main thread's tid is the pid");
}

/* ---- mutex ----------------------------------------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *add_rounds(void *p)
{
	(void)p;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		long c = counter;

		if (i % 64 == 0)
			sched_yield();	/* let the others contend */
		counter = c + 1;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void test_mutex(void)
{
	pthread_t th[NTHREADS];

	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, add_rounds, NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	tap_ok(counter == NTHREADS * ROUNDS,
	       "a mutex keeps %d threads' read-yield-write increments exact (%ld)",
	       NTHREADS, counter);
}

/* ---- condvar --------------------------------------------------------- */

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int queue[64], qlen, qtaken, go;

static void *consume(void *p)
{
	long got = 0;

	(void)p;
	pthread_mutex_lock(&lock);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	for (;;) {
		while (qlen == qtaken && qtaken < 64)
			pthread_cond_wait(&cond, &lock);
		if (qtaken == 64)
			break;
		got += queue[qtaken++];
	}
	pthread_mutex_unlock(&lock);
	return (void *)got;
}

static void test_condvar(void)
{
	pthread_t th[NTHREADS];
	long sum = 0, want = 0;
	struct timespec ts;
	void *r;
	int e;

	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, consume, NULL);
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_broadcast(&cond);	/* all waiters wake (requeue) */
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < 64; i++) {
		pthread_mutex_lock(&lock);
		queue[qlen++] = i + 1;
		want += i + 1;
		pthread_cond_signal(&cond);
		pthread_mutex_unlock(&lock);
		if (i % 8 == 0)
			sched_yield();
	}
	pthread_mutex_lock(&lock);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], &r);
		sum += (long)r;
	}
	tap_ok(sum == want,
	       "condvar signal and broadcast: %d consumers took every item once (%ld of %ld)",
	       NTHREADS, sum, want);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 50 * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&lock);
	e = pthread_cond_timedwait(&cond, &lock, &ts);
	pthread_mutex_unlock(&lock);
	tap_ok(e == ETIMEDOUT, "pthread_cond_timedwait with nobody to signal: ETIMEDOUT (%s)",
	       strerror(e));
}

/* ---- barrier, /proc Threads: ------------------------------------------ */

static pthread_barrier_t barrier;
static int arrived, passed_early, serial;

static void *at_barrier(void *p)
{
	(void)p;
	for (int round = 0; round < 3; round++) {
		__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
		if (pthread_barrier_wait(&barrier) ==
		    PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_add_fetch(&serial, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) <
		    (round + 1) * (NTHREADS + 1))
			__atomic_add_fetch(&passed_early, 1, __ATOMIC_SEQ_CST);
		pthread_barrier_wait(&barrier);
	}
	return NULL;
}

/* "Threads:" of /proc/self/status, or -1. */
static long proc_threads(void)
{
	char buf[4096], *p;

	if (read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nThreads:");
	return p ? strtol(p + 9, NULL, 10) : -1;
}

static void test_barrier(void)
{
	pthread_t th[NTHREADS];
	long n;

	pthread_barrier_init(&barrier, NULL, NTHREADS + 1);
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, at_barrier, NULL);
	n = proc_threads();
	at_barrier(NULL);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	tap_ok(!passed_early && serial == 3,
	       "a barrier of %d lets nobody through early, one serial thread a round (%d early, %d serial)",
	       NTHREADS + 1, passed_early, serial);
	tap_ok(n == NTHREADS + 1, "/proc/self/status Threads: %ld with %d threads",
	       n, NTHREADS + 1);
	tap_ok(proc_threads() == 1, "Threads: 1 again once they are joined (%ld)",
	       proc_threads());
	pthread_barrier_destroy(&barrier);
}

/* ---- detach, semaphores ----------------------------------------------- */

static sem_t sem;

static void *post_and_leave(void *p)
{
	(void)p;
	sem_post(&sem);
	return NULL;
}

static void test_detach(void)
{
	pthread_t th[NTHREADS];
	int err = 0;

	sem_init(&sem, 0, 0);
	for (int i = 0; i < NTHREADS; i++) {
		err |= pthread_create(&th[i], NULL, post_and_leave, NULL);
		err |= pthread_detach(th[i]);
	}
	for (int i = 0; i < NTHREADS; i++)
		err |= sem_wait(&sem);
	tap_ok(!err, "detached threads post a semaphore %d times", NTHREADS);
	/* A detached thread unmaps its own stack and exits: wait for them
	 * all to be gone from the process. */
	for (int i = 0; i < 200 && proc_threads() != 1; i++)
		usleep(10000);
	tap_ok(proc_threads() == 1, "the detached threads are gone (Threads: %ld)",
	       proc_threads());
}

/* ---- pthread_kill ------------------------------------------------------ */

static volatile pid_t handled_in;
static volatile int waiting;

static void on_usr1(int sig)
{
	(void)sig;
	handled_in = gettid_();
}

static void *wait_for_signal(void *p)
{
	pid_t *tid = p;

	*tid = gettid_();
	waiting = 1;
	while (!handled_in)
		usleep(1000);
	return NULL;
}

static void test_pthread_kill(void)
{
	pthread_t th;
	pid_t tid = 0;

	signal(SIGUSR1, on_usr1);
	pthread_create(&th, NULL, wait_for_signal, &tid);
	while (!waiting)
		sched_yield();
	tap_ok(pthread_kill(th, SIGUSR1) == 0, "pthread_kill(SIGUSR1)");
	pthread_join(th, NULL);
	tap_ok(handled_in == tid && tid != getpid(),
	       "the handler ran in the target thread (tid %d, handled in %d)",
	       tid, handled_in);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- /proc/PID/task ------------------------------------------------------ */

static volatile pid_t named_tid;
static volatile int done_looking;

static void *named_thread(void *p)
{
	(void)p;
	prctl(PR_SET_NAME, "worker");
	named_tid = gettid_();
	while (!done_looking)
		usleep(1000);
	return NULL;
}

/* Field n (from 1) of a stat line, after the comm in parentheses. */
static long stat_field(const char *buf, int n)
{
	const char *p = strrchr(buf, ')');

	for (int i = 2; p && i < n; i++)
		p = strchr(p + 1, ' ');
	return p ? strtol(p + 1, NULL, 10) : -1;
}

static void test_proc_task(void)
{
	char path[128], buf[4096], comm[32] = "", main_comm[32] = "";
	int entries = 0, has_tid = 0, has_pid = 0;
	struct dirent *de;
	pthread_t th;
	DIR *d;

	pthread_create(&th, NULL, named_thread, NULL);
	while (!named_tid)
		usleep(1000);
	d = opendir("/proc/self/task");
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		entries++;
		has_tid |= atoi(de->d_name) == named_tid;
		has_pid |= atoi(de->d_name) == getpid();
	}
	if (d)
		closedir(d);
	tap_ok(entries == 2 && has_tid && has_pid,
	       "/proc/self/task lists the main thread and the other (%d entries)",
	       entries);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", named_tid);
	read_file(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "\nPid:\t%d\n", named_tid);
	tap_ok(strstr(buf, path) && strstr(buf, "Name:\tworker\n") &&
	       (snprintf(comm, sizeof(comm), "\nTgid:\t%d\n", getpid()),
		strstr(buf, comm)),
	       "task/TID/status: the thread's Name and Pid, the process's Tgid");
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", named_tid);
	read_file(path, comm, sizeof(comm));
	read_file("/proc/self/comm", main_comm, sizeof(main_comm));
	tap_ok(!strcmp(comm, "worker\n") && strcmp(main_comm, "worker\n"),
	       "task/TID/comm is the thread's own name, /proc/self/comm the main thread's (%.*s)",
	       (int)strcspn(main_comm, "\n"), main_comm);
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", named_tid);
	read_file(path, buf, sizeof(buf));
	tap_ok(strtol(buf, NULL, 10) == named_tid && stat_field(buf, 20) == 2,
	       "task/TID/stat: the tid first, num_threads 2 (%ld)",
	       stat_field(buf, 20));
	done_looking = 1;
	pthread_join(th, NULL);
}

/* ---- a thread calls exit, main calls pthread_exit ----------------------- */

static void *exit_42(void *p)
{
	(void)p;
	usleep(20000);
	exit(42);
}

static int pfd[2];
static char *self_path;

static void *outlive_main(void *p)
{
	(void)p;
	usleep(50000);			/* main is gone by now */
	write(pfd[1], "late", 4);
	return NULL;			/* the last thread: exit(0) */
}

static void test_exits(void)
{
	pthread_t th;
	char buf[8] = "";
	int st = -1;
	pid_t pid = fork();

	if (pid == 0) {
		pthread_create(&th, NULL, exit_42, NULL);
		pthread_join(th, NULL);	/* never returns */
		_exit(1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 42,
	       "exit(42) in a thread ends the process with 42, the blocked main thread too (%s)",
	       status_str(st));
	pipe(pfd);
	pid = fork();
	if (pid == 0) {
		/* A new program: musl's fork child has no exit futex for its
		 * main thread, so its pthread_exit would keep musl's thread
		 * list locked (on Linux too). */
		char fd[16], *argv[] = { self_path, "outlive-main", fd, NULL };

		close(pfd[0]);
		snprintf(fd, sizeof(fd), "%d", pfd[1]);
		execv(self_path, argv);
		_exit(127);
	}
	close(pfd[1]);
	read(pfd[0], buf, sizeof(buf) - 1);
	close(pfd[0]);
	waitpid(pid, &st, 0);
	tap_ok(!strcmp(buf, "late") && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "after main's pthread_exit the other thread runs on, and its return ends the process with 0 (%s, \"%s\")",
	       status_str(st), buf);
}

int main(int argc, char **argv)
{
	pthread_t th;

	self_path = argv[0];
	if (argc == 3 && !strcmp(argv[1], "outlive-main")) {
		pfd[1] = atoi(argv[2]);
		pthread_create(&th, NULL, outlive_main, NULL);
		pthread_exit(NULL);
	}
	tap_plan(22);
	test_create_join();
	test_mutex();
	test_condvar();
	test_barrier();
	test_detach();
	test_pthread_kill();
	test_proc_task();
	test_exits();
	tap_done();
}
