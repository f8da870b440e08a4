/* user/tests/thread_exit.c — raw clone threads: exit (one thread) against
 * exit_group (all), the leader a zombie until its last thread is gone,
 * CLONE_CHILD_CLEARTID's futex wake at a thread's exit, wait4 across the
 * threads of a process and __WCLONE/__WALL. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/* musl's pthread_create flags, without CLONE_SETTLS: the thread runs raw
 * system calls only, on the TLS of the thread that made it. */
#define THREAD_FLAGS	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
			 CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID | \
			 CLONE_CHILD_CLEARTID)
#define STACK_SIZE	65536
#define FUTEX_WAIT	0

static int ctl[2];			/* the parent tells a thread to go on */

static int sys_read1(int fd)
{
	char c;

	return (int)syscall(SYS_read, fd, &c, 1);
}

/* Starts fn in a new raw thread; its tid is also stored at *ctid, which
 * the kernel clears (and wakes) when it exits. */
static int raw_thread(int (*fn)(void *), void *arg, int *ctid)
{
	char *stack = malloc(STACK_SIZE);

	return clone(fn, stack + STACK_SIZE, THREAD_FLAGS, arg, ctid, NULL,
		     ctid);
}

/* "Key:\tvalue" of /proc/PID/status into buf, or "" */
static const char *status_of(int pid, const char *key, char *out, size_t n)
{
	char path[64], buf[4096], *p, *e;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	out[0] = 0;
	if (read_file(path, buf, sizeof(buf)) < 0 || !(p = strstr(buf, key)))
		return out;
	p += strlen(key) + 1;
	while (*p == '\t' || *p == ' ')
		p++;
	e = strchr(p, '\n');
	snprintf(out, n, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
	return out;
}

static int wait_then_exit7(void *arg)
{
	(void)arg;
	sys_read1(ctl[0]);
	syscall(SYS_exit, 7);
	return 0;
}

/* The leader exits with 5 while a thread lives: it is a zombie wait4
 * cannot reap, Threads: 2; when the thread exits with 7, wait4 gets 7,
 * the last thread's status (Linux 5.19's synchronize_group_exit). */
static void test_leader_zombie(void)
{
	char state[64], threads[16];
	int st = -1, tid = 0;
	pid_t pid, w;

	pipe(ctl);
	pid = fork();
	if (pid == 0) {
		raw_thread(wait_then_exit7, NULL, &tid);
		syscall(SYS_exit, 5);
	}
	usleep(100000);
	w = waitpid(pid, &st, WNOHANG);
	tap_ok(w == 0, "a leader that exited with its thread alive is not reapable (waitpid WNOHANG %d)",
	       w);
	status_of(pid, "State:", state, sizeof(state));
	status_of(pid, "Threads:", threads, sizeof(threads));
	tap_ok(!strcmp(state, "Z (zombie)") && !strcmp(threads, "2"),
	       "/proc/PID/status: State %s, Threads %s", state, threads);
	write(ctl[1], "x", 1);
	w = waitpid(pid, &st, 0);
	tap_ok(w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	       "once its last thread exits (7), wait4 reaps it with that status (%s)",
	       status_str(st));
	close(ctl[0]);
	close(ctl[1]);
}

static int exit_group9(void *arg)
{
	(void)arg;
	syscall(SYS_exit_group, 9);
	return 0;
}

/* exit_group in a thread ends the main thread blocked in read too. */
static void test_exit_group(void)
{
	int st = -1, tid = 0;
	pid_t pid;

	pipe(ctl);
	pid = fork();
	if (pid == 0) {
		raw_thread(exit_group9, NULL, &tid);
		sys_read1(ctl[0]);
		_exit(1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 9,
	       "exit_group(9) in a thread ends the process, its blocked main thread too (%s)",
	       status_str(st));
	close(ctl[0]);
	close(ctl[1]);
}

static int exit3(void *arg)
{
	(void)arg;
	syscall(SYS_exit, 3);
	return 0;
}

/* A thread's exit: its CLONE_CHILD_CLEARTID word becomes 0 and a
 * FUTEX_WAIT on it returns; the process goes on, Threads: 1. */
static void child_thread_exit(void *arg)
{
	static int tid;
	char threads[16];
	int t, r;

	(void)arg;
	t = raw_thread(exit3, NULL, &tid);
	while ((r = __atomic_load_n(&tid, __ATOMIC_SEQ_CST)) != 0)
		syscall(SYS_futex, &tid, FUTEX_WAIT, r, NULL);
	for (int i = 0; i < 100; i++) {
		status_of(getpid(), "Threads:", threads, sizeof(threads));
		if (!strcmp(threads, "1"))
			break;
		usleep(10000);
	}
	_exit(t > 0 && t != getpid() && !strcmp(threads, "1") ? 0 : 1);
}

static int fork_grandchild(void *arg)
{
	int *pid = arg;

	*pid = (int)syscall(SYS_fork);
	if (*pid == 0)
		syscall(SYS_exit_group, 12);
	syscall(SYS_exit, 0);
	return 0;
}

/* A child a thread forked is the process's child: the main thread's
 * wait4 reaps it, after the thread that forked it is gone. */
static void child_wait_other_thread(void *arg)
{
	static int tid, gc;
	int st = -1, r;

	(void)arg;
	raw_thread(fork_grandchild, &gc, &tid);
	while ((r = __atomic_load_n(&tid, __ATOMIC_SEQ_CST)) != 0)
		syscall(SYS_futex, &tid, FUTEX_WAIT, r, NULL);
	r = waitpid(gc, &st, 0);
	_exit(r == gc && gc > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 12 ?
	      0 : 1);
}

static int exit0(void *arg)
{
	(void)arg;
	return 0;
}

/* A clone child that signals its end with nothing (exit_signal 0) is a
 * "clone" child: wait4 sees it only with __WCLONE or __WALL. */
static void test_wclone(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	int st = -1, r1, e1, r2;
	int pid = clone(exit0, stack + sizeof(stack), 0, NULL);

	usleep(50000);
	r1 = waitpid(pid, &st, WNOHANG);
	e1 = errno;
	r2 = waitpid(pid, &st, __WALL);
	tap_ok(pid > 0 && r1 == -1 && e1 == ECHILD && r2 == pid,
	       "a child with exit signal 0: waitpid is ECHILD without __WCLONE, __WALL reaps it (%d %s, %d)",
	       r1, strerror(e1), r2);
}

int main(void)
{
	int st;

	tap_plan(7);
	need_proc();
	test_leader_zombie();
	test_exit_group();
	st = in_child(child_thread_exit, NULL);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a thread's exit clears and wakes its CLONE_CHILD_CLEARTID word; the process goes on with Threads: 1 (%s)",
	       status_str(st));
	st = in_child(child_wait_other_thread, NULL);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "the main thread reaps the child another thread forked (%s)",
	       status_str(st));
	test_wclone();
	tap_done();
}
