/* user/tests/jobctl.c — stopped processes: SIGSTOP, SIGTSTP and SIGCONT,
 * wait4's WUNTRACED and WCONTINUED, SIGCHLD with CLD_STOPPED and
 * CLD_CONTINUED (and SA_NOCLDSTOP), every thread of a process stopping,
 * system calls going on after a stop, orphaned process groups. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

static volatile sig_atomic_t chld_count, chld_code, chld_status, chld_pid;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	chld_count++;
	chld_code = si->si_code;
	chld_status = si->si_status;
	chld_pid = si->si_pid;
}

static void catch_chld(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | flags;
	sigaction(SIGCHLD, &sa, NULL);
}

/* "State:" of /proc/PID/status, first letter, or '?'. */
static char state_of(pid_t pid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, "State:\t")))
		return '?';
	return p[7];
}

static pid_t spinning_child(int own_group)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		for (;;)
			usleep(5000);
	}
	if (own_group)
		setpgid(pid, pid);
	return pid;
}

static void wait_chld(int n)
{
	for (int i = 0; i < 500 && chld_count < n; i++)
		usleep(2000);
}

static void test_stop_continue(void)
{
	pid_t pid = spinning_child(0), w, w2;
	int st = 0, st2 = 0;

	catch_chld(0);
	chld_count = 0;
	kill(pid, SIGSTOP);
	w = waitpid(pid, &st, WUNTRACED);
	tap_ok(w == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	       "SIGSTOP: waitpid(WUNTRACED) reports it stopped by SIGSTOP (%#x)",
	       st);
	wait_chld(1);
	tap_ok(chld_count == 1 && chld_code == CLD_STOPPED &&
	       chld_status == SIGSTOP && chld_pid == pid,
	       "SIGCHLD with CLD_STOPPED, si_status SIGSTOP (%d, code %d)",
	       (int)chld_count, (int)chld_code);
	tap_ok(state_of(pid) == 'T', "/proc/PID/status State T (%c)",
	       state_of(pid));
	w = waitpid(pid, &st, WUNTRACED | WNOHANG);
	w2 = waitpid(pid, &st2, WNOHANG);
	tap_ok(w == 0 && w2 == 0,
	       "the stop is reported once; without WUNTRACED not at all (%d %d)",
	       w, w2);
	kill(pid, SIGCONT);
	w = waitpid(pid, &st, WCONTINUED);
	tap_ok(w == pid && WIFCONTINUED(st),
	       "SIGCONT: waitpid(WCONTINUED) reports it continued (%#x)", st);
	wait_chld(2);
	tap_ok(chld_count == 2 && chld_code == CLD_CONTINUED &&
	       chld_status == SIGCONT,
	       "SIGCHLD with CLD_CONTINUED, si_status SIGCONT (%d, code %d)",
	       (int)chld_count, (int)chld_code);
	tap_ok(state_of(pid) != 'T' &&
	       waitpid(pid, &st, WCONTINUED | WNOHANG) == 0,
	       "it runs again, and the continue is reported once (State %c)",
	       state_of(pid));
	catch_chld(SA_NOCLDSTOP);
	chld_count = 0;
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGCONT);
	waitpid(pid, &st, WCONTINUED);
	usleep(20000);
	tap_ok(chld_count == 0, "SA_NOCLDSTOP: no SIGCHLD for stop and continue (%d)",
	       (int)chld_count);
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGKILL);
	w = waitpid(pid, &st, 0);
	tap_ok(w == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	       "SIGKILL ends a stopped process (%s)", status_str(st));
	signal(SIGCHLD, SIG_DFL);
}

/* SIGTSTP stops a process whose group has a parent in the session; in
 * an orphaned group (its own session, here) it is dropped. */
static void test_tstp(void)
{
	pid_t a = spinning_child(1), b;
	int st = 0, p[2];
	char c = 0;

	kill(a, SIGTSTP);
	waitpid(a, &st, WUNTRACED);
	tap_ok(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP,
	       "SIGTSTP stops a child in its own group of our session (%#x)", st);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	pipe(p);
	b = fork();
	if (b == 0) {
		setsid();	/* nobody outside the group in its session */
		kill(getpid(), SIGTSTP);
		write(p[1], "r", 1);	/* not stopped: it goes on */
		pause();
		_exit(0);
	}
	read(p[0], &c, 1);
	tap_ok(c == 'r' && waitpid(b, &st, WUNTRACED | WNOHANG) == 0,
	       "SIGTSTP in an orphaned process group is dropped");
	kill(b, SIGSTOP);
	waitpid(b, &st, WUNTRACED);
	tap_ok(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	       "SIGSTOP stops it all the same");
	kill(b, SIGKILL);
	waitpid(b, NULL, 0);
	close(p[0]);
	close(p[1]);
}

/* A read on a pipe and a nanosleep go on after a stop and a continue
 * (no handler ran): no EINTR. */
static void test_restart(void)
{
	int p[2], st = -1;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 300 * 1000000 };
		char c = 0;
		ssize_t n = read(p[0], &c, 1);

		if (n != 1 || c != 'd')
			_exit(1);
		_exit(nanosleep(&ts, NULL) == 0 ? 0 : 2);
	}
	usleep(50000);
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGCONT);
	usleep(20000);
	write(p[1], "d", 1);
	usleep(100000);		/* now in nanosleep */
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	kill(pid, SIGCONT);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a read and a nanosleep stopped and continued go on to their end (%s)",
	       status_str(st));
	close(p[0]);
	close(p[1]);
}

static volatile long spins[2];

static void *spin(void *arg)
{
	volatile long *n = arg;

	for (;;) {
		(*n)++;
		usleep(1000);
	}
	return NULL;
}

/* Field 3 (state) of /proc/PID/task/TID/stat for every thread: how many
 * are 'T'. */
static int stopped_threads(pid_t pid, const pid_t *tids, int n)
{
	char path[96], buf[512], *p;
	int k = 0;

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid,
			 tids[i]);
		if (read_file(path, buf, sizeof(buf)) > 0 &&
		    (p = strrchr(buf, ')')) && p[2] == 'T')
			k++;
	}
	return k;
}

/* A stop stops every thread, a continue continues them all. */
static void test_group_stop(void)
{
	int p[2], st = 0, stopped;
	pid_t pid, tids[2] = { 0, 0 };

	pipe(p);
	pid = fork();
	if (pid == 0) {
		pthread_t th;

		pthread_create(&th, NULL, spin, (void *)&spins[1]);
		while (!spins[1])
			usleep(1000);
		tids[0] = getpid();
		tids[1] = 0;
		write(p[1], tids, sizeof(tids));
		spin((void *)&spins[0]);
	}
	read(p[0], tids, sizeof(tids));
	/* the second thread's tid: the other entry of /proc/PID/task */
	{
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		for (int t = pid + 1; t < pid + 64 && !tids[1]; t++) {
			char tp[96];

			snprintf(tp, sizeof(tp), "%s/%d/stat", path, t);
			if (access(tp, R_OK) == 0)
				tids[1] = t;
		}
	}
	kill(pid, SIGSTOP);
	waitpid(pid, &st, WUNTRACED);
	stopped = stopped_threads(pid, tids, 2);
	tap_ok(WIFSTOPPED(st) && tids[1] && stopped == 2,
	       "SIGSTOP of a process with two threads: both are stopped (%d)",
	       stopped);
	kill(pid, SIGCONT);
	usleep(30000);
	stopped = stopped_threads(pid, tids, 2);
	tap_ok(stopped == 0, "SIGCONT: both run again (%d stopped)", stopped);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
}

static volatile sig_atomic_t got_hup;

static void on_hup(int sig)
{
	(void)sig;
	got_hup = 1;
}

/*
 * A process group becomes orphaned with a stopped member: when P, its
 * link to the session, exits, the stopped G gets SIGHUP and SIGCONT.
 */
static void test_orphaned_stopped(void)
{
	int p[2], st = 0;
	pid_t pid;
	char c = 0;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		pid_t g;

		setpgid(0, 0);
		g = fork();
		if (g == 0) {
			sigset_t hup, none;

			signal(SIGHUP, on_hup);
			sigemptyset(&none);
			sigemptyset(&hup);
			sigaddset(&hup, SIGHUP);
			sigprocmask(SIG_BLOCK, &hup, NULL);
			raise(SIGSTOP);
			/* continued: SIGHUP is pending if it was orphaned */
			while (!got_hup)
				sigsuspend(&none);
			write(p[1], "h", 1);
			_exit(0);
		}
		waitpid(g, &st, WUNTRACED);
		_exit(WIFSTOPPED(st) ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	close(p[1]);
	read(p[0], &c, 1);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && c == 'h',
	       "its parent's exit orphans a group with a stopped member: SIGHUP and SIGCONT reach it");
	close(p[0]);
}

int main(void)
{
	tap_plan(16);
	need_proc();
	test_stop_continue();
	test_tstp();
	test_restart();
	test_group_stop();
	test_orphaned_stopped();
	tap_done();
}
