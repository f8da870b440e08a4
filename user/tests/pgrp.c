/* user/tests/pgrp.c — process groups and sessions: setpgid, getpgid,
 * getpgrp, setsid, getsid with Linux's errnos, kill(-pgrp), kill(0),
 * wait4(-pgrp) and wait4(0). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static char *self_path;

/* A child that waits on the pipe (or for a signal) and exits 0. */
static pid_t idle_child(int fd)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		read(fd, &c, 1);
		_exit(0);
	}
	return pid;
}

static void test_ids(void)
{
	pid_t pid = getpid();
	int r1, e1, r2, e2;

	tap_ok(getpgid(0) == getpgrp() && getsid(0) == getsid(pid),
	       "getpgid(0) is getpgrp (%d), getsid(0) is getsid(getpid)",
	       getpgrp());
	errno = 0;
	r1 = getpgid(0x3ffffff0);
	e1 = errno;
	r2 = getsid(0x3ffffff0);
	e2 = errno;
	tap_ok(r1 == -1 && e1 == ESRCH && r2 == -1 && e2 == ESRCH,
	       "getpgid and getsid of a pid nobody has: ESRCH (%s, %s)",
	       strerror(e1), strerror(e2));
}

/* setpgid's errnos, in a child so the runner's groups stay as they are. */
static void child_setpgid(void *arg)
{
	int p[2], ok = 1;
	pid_t c, other;

	(void)arg;
	pipe(p);
	c = idle_child(p[0]);
	ok &= setpgid(0, -1) == -1 && errno == EINVAL;
	ok &= setpgid(0x3ffffff0, 0) == -1 && errno == ESRCH;
	ok &= setpgid(getppid(), 0) == -1 && errno == ESRCH; /* not ours */
	ok &= setpgid(c, c) == 0 && getpgid(c) == c;	/* a child: own group */
	ok &= setpgid(0, c) == 0 && getpgrp() == c;	/* we join it */
	ok &= setpgid(0, 0) == 0 && getpgrp() == getpid();
	ok &= setpgid(c, getpid()) == 0 && getpgid(c) == getpid();
	ok &= setpgid(0, 0x3ffffff0) == -1 && errno == EPERM; /* no group */
	write(p[1], "xx", 2);
	waitpid(c, NULL, 0);
	other = fork();
	if (other == 0) {
		/* A child in another session: EPERM. */
		setsid();
		read(p[0], (char[1]){0}, 1);
		_exit(0);
	}
	usleep(50000);
	ok &= setpgid(other, other) == -1 && errno == EPERM;
	write(p[1], "x", 1);
	waitpid(other, NULL, 0);
	_exit(ok ? 0 : 1);
}

/* EACCES: a child that has exec'd may no longer be moved. */
static void child_setpgid_exec(void *arg)
{
	char *argv[] = { self_path, "sleep", NULL };
	pid_t c = fork();
	int r, e;

	(void)arg;
	if (c == 0) {
		execv(self_path, argv);
		_exit(127);
	}
	usleep(300000);		/* it has exec'd and sleeps */
	r = setpgid(c, c);
	e = errno;
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	_exit(r == -1 && e == EACCES ? 0 : 1);
}

/* setsid: a new session and group with our pid, once; a group leader
 * may not. */
static void child_setsid(void *arg)
{
	pid_t pid = getpid(), sid;
	int ok = 1;

	(void)arg;
	setpgid(0, 0);				/* now a group leader */
	ok &= setsid() == -1 && errno == EPERM;
	if (fork() == 0) {
		sid = setsid();
		ok = sid == getpid() && getsid(0) == sid && getpgrp() == sid &&
		     getsid(pid) != sid;
		ok &= setsid() == -1 && errno == EPERM;	/* leads one now */
		ok &= setpgid(0, 0) == -1 && errno == EPERM;
		_exit(ok ? 0 : 1);
	}
	wait(&sid);
	_exit(ok && WIFEXITED(sid) && WEXITSTATUS(sid) == 0 ? 0 : 1);
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

/* A child in group g that exits 10 + the number of SIGUSR1s it got. */
static pid_t counting_child(pid_t g, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		char c;

		setpgid(0, g);
		while (read(fd, &c, 1) < 0)
			;
		_exit(10 + got_usr1);
	}
	setpgid(pid, g);
	return pid;
}

/* kill(-pgrp) reaches every member and no one else; kill(0) the
 * caller's group; wait4(-pgrp) and wait4(0) pick by group. */
static void child_kill_wait(void *arg)
{
	int p[2], ok = 1, st, n0 = 0, n1 = 0;
	pid_t a, b, c, w;

	(void)arg;
	signal(SIGUSR1, on_usr1);
	setpgid(0, 0);
	pipe(p);
	a = counting_child(0, p[0]);		/* its own group a */
	b = counting_child(a, p[0]);		/* joins group a */
	c = counting_child(getpid(), p[0]);	/* our group */
	usleep(50000);
	ok &= kill(-a, SIGUSR1) == 0;
	ok &= kill(-0x3ffffff0, SIGUSR1) == -1 && errno == ESRCH;
	usleep(50000);
	signal(SIGUSR1, SIG_IGN);		/* kill(0) reaches us too */
	ok &= kill(0, SIGUSR1) == 0;
	usleep(50000);
	write(p[1], "xxx", 3);
	w = waitpid(0, &st, 0);			/* our group: only c */
	ok &= w == c && WEXITSTATUS(st) == 11;
	ok &= waitpid(0, &st, WNOHANG) == -1 && errno == ECHILD;
	for (int i = 0; i < 2; i++) {
		w = waitpid(-a, &st, 0);
		ok &= (w == a || w == b) && WEXITSTATUS(st) == 11;
		n0 += w == a;
		n1 += w == b;
	}
	ok &= n0 == 1 && n1 == 1;
	ok &= waitpid(-a, &st, 0) == -1 && errno == ECHILD;
	_exit(ok ? 0 : 1);
}

int main(int argc, char **argv)
{
	int st;

	self_path = argv[0];
	if (argc == 2 && !strcmp(argv[1], "sleep")) {
		sleep(30);
		return 0;
	}
	tap_plan(6);
	test_ids();
	st = in_child(child_setpgid, NULL);
	tap_ok(st == 0, "setpgid: EINVAL, ESRCH (no such process, not a child), joining and leaving groups, EPERM (no such group, a child in another session) (%s)",
	       status_str(st));
	st = in_child(child_setpgid_exec, NULL);
	tap_ok(st == 0, "setpgid of a child that has exec'd: EACCES (%s)",
	       status_str(st));
	st = in_child(child_setsid, NULL);
	tap_ok(st == 0, "setsid: EPERM for a group leader; a new session and group with the caller's pid; EPERM again, and setpgid EPERM for the session leader (%s)",
	       status_str(st));
	st = in_child(child_kill_wait, NULL);
	tap_ok(st == 0, "kill(-pgrp) reaches the group's members only, kill(0) the caller's group, unknown group ESRCH; waitpid(0) and waitpid(-pgrp) reap by group (%s)",
	       status_str(st));
	tap_done();
}
