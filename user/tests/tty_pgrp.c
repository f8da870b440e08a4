/* user/tests/tty_pgrp.c — the controlling terminal of a session: TIOCSCTTY,
 * tcgetpgrp/tcsetpgrp/tcgetsid and their errnos, /dev/tty, ^C ^Z ^\ to the
 * foreground process group only, SIGTTIN and SIGTTOU (TOSTOP) for the
 * background, SIGHUP to the foreground when the session leader exits. On
 * zpk the terminal is /dev/console (typing is TIOCSTI); on Linux a pty
 * (typing is a write to its master), skipped if there is none. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "ulib.h"

#define NCHECKS	13

static int tty = -1, master = -1;
static char tty_path[64];

/* The terminal to test on, without making it anyone's: 0, or -1. */
static int open_terminal(void)
{
	if (is_zpk()) {
		strcpy(tty_path, "/dev/console");
		return 0;
	}
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master) ||
	    !ptsname(master))
		return -1;
	snprintf(tty_path, sizeof(tty_path), "%s", ptsname(master));
	return 0;
}

/* c as if typed on the terminal. */
static void type(const char *s)
{
	for (; *s; s++) {
		if (master >= 0)
			write(master, s, 1);
		else
			ioctl(tty, TIOCSTI, s);
	}
}

static volatile sig_atomic_t got;

static void on_sig(int sig)
{
	got = sig;
}

/* A child in group pgrp (0: its own) that counts signals: it exits with
 * the last one it handled (0 if none) once fd has a byte. */
static pid_t member(pid_t pgrp, int fd)
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		signal(SIGINT, on_sig);
		signal(SIGQUIT, on_sig);
		signal(SIGHUP, on_sig);
		setpgid(0, pgrp);
		while (read(fd, &c, 1) < 0)
			;
		_exit(got);
	}
	setpgid(pid, pgrp ? pgrp : pid);
	return pid;
}

static int exit_code(pid_t pid)
{
	int st = -1;

	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + WTERMSIG(st);
}

static void test_ctty(void)
{
	pid_t me = getpid();
	int r1, e1, r2, e2, fd, st = -1;
	pid_t c;

	errno = 0;
	r1 = tcgetpgrp(tty);
	e1 = errno;
	fd = open("/dev/tty", O_RDWR);
	e2 = errno;
	tap_ok(r1 == -1 && e1 == ENOTTY && fd < 0 && e2 == ENXIO,
	       "no controlling tty yet: tcgetpgrp ENOTTY, /dev/tty ENXIO (%s, %s)",
	       strerror(e1), strerror(e2));
	c = fork();
	if (c == 0)	/* not a session leader */
		_exit(ioctl(tty, TIOCSCTTY, 0) == -1 && errno == EPERM ? 0 : 1);
	waitpid(c, &st, 0);
	r1 = ioctl(tty, TIOCSCTTY, 0);
	tap_ok(st == 0 && r1 == 0,
	       "TIOCSCTTY: EPERM for a process that leads no session, 0 for the session leader");
	r1 = tcgetpgrp(tty);
	r2 = tcgetsid(tty);
	fd = open("/dev/tty", O_RDWR);
	tap_ok(r1 == me && r2 == me && fd >= 0,
	       "tcgetpgrp and tcgetsid are ours (%d, %d), /dev/tty opens", r1, r2);
	if (fd >= 0)
		close(fd);
}

/* A reader in a background group stops with SIGTTIN; once made the
 * foreground and continued, its read goes on. With SIGTTIN ignored the
 * read is EIO. */
static void test_background_read(void)
{
	int st = -1, r = 0;
	pid_t d, e;

	d = fork();
	if (d == 0) {
		char buf[8] = "";

		setpgid(0, 0);
		r = (int)read(tty, buf, sizeof(buf));
		_exit(r == 2 && buf[0] == 'x' ? 0 : 1);
	}
	setpgid(d, d);
	waitpid(d, &st, WUNTRACED);
	tap_ok(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTIN,
	       "a background read stops the reader with SIGTTIN (%#x)", st);
	r = tcsetpgrp(tty, d);
	kill(d, SIGCONT);
	usleep(50000);
	type("x\n");
	tap_ok(r == 0 && exit_code(d) == 0,
	       "made the foreground group and continued, its read gets the line");
	r = tcsetpgrp(tty, getpgrp());	/* we ignore SIGTTOU */
	e = fork();
	if (e == 0) {
		char c;

		setpgid(0, 0);
		signal(SIGTTIN, SIG_IGN);
		_exit(read(tty, &c, 1) == -1 && errno == EIO ? 0 : 1);
	}
	setpgid(e, e);
	tap_ok(r == 0 && exit_code(e) == 0,
	       "a background read with SIGTTIN ignored is EIO");
}

/* A child in a background group of its own that writes a newline and
 * exits 0 if it could. */
static pid_t background_writer(void)
{
	pid_t f = fork();

	if (f == 0) {
		setpgid(0, 0);
		signal(SIGTTOU, SIG_DFL);
		_exit(write(tty, "\n", 1) == 1 ? 0 : 1);
	}
	setpgid(f, f);
	return f;
}

/* TOSTOP: a background writer stops with SIGTTOU; without it, it
 * writes. */
static void test_background_write(void)
{
	struct termios t;
	int st = -1, ok;
	pid_t f;

	tcgetattr(tty, &t);
	t.c_lflag |= TOSTOP;
	ok = tcsetattr(tty, TCSANOW, &t) == 0;
	f = background_writer();
	waitpid(f, &st, WUNTRACED);
	tap_ok(ok && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTOU,
	       "with TOSTOP a background write stops the writer with SIGTTOU (%#x)",
	       st);
	kill(f, SIGKILL);
	waitpid(f, NULL, 0);
	t.c_lflag &= ~TOSTOP;
	tcsetattr(tty, TCSANOW, &t);
	f = background_writer();
	tap_ok(exit_code(f) == 0, "without TOSTOP it writes");
}

static void test_tcsetpgrp_errnos(void)
{
	int r1, e1, r2, e2, r3, e3;

	errno = 0;
	r1 = tcsetpgrp(tty, 0x3ffffff0);
	e1 = errno;
	r2 = tcsetpgrp(tty, getpgid(getppid()));	/* another session */
	e2 = errno;
	r3 = tcsetpgrp(tty, -1);
	e3 = errno;
	tap_ok(r1 == -1 && e1 == ESRCH && r2 == -1 && e2 == EPERM &&
	       r3 == -1 && e3 == EINVAL,
	       "tcsetpgrp: ESRCH for no such group, EPERM for another session's, EINVAL for -1 (%s, %s, %s)",
	       strerror(e1), strerror(e2), strerror(e3));
}

/* ^C and ^\ reach the foreground group only; ^Z stops it. */
static void test_isig(void)
{
	int p[2], st = -1;
	pid_t fg, bg, z;

	pipe(p);
	fg = member(0, p[0]);
	bg = member(0, p[0]);
	tcsetpgrp(tty, fg);
	usleep(50000);
	type("\003");
	usleep(50000);
	write(p[1], "xx", 2);
	tap_ok(exit_code(fg) == SIGINT && exit_code(bg) == 0,
	       "^C: SIGINT to the foreground group, not the background one");
	fg = member(0, p[0]);
	tcsetpgrp(tty, fg);
	usleep(50000);
	type("\034");
	usleep(50000);
	write(p[1], "x", 1);
	tap_ok(exit_code(fg) == SIGQUIT, "^\\: SIGQUIT to the foreground group");
	z = fork();
	if (z == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(z, z);
	tcsetpgrp(tty, z);
	usleep(50000);
	type("\032");
	waitpid(z, &st, WUNTRACED);
	tap_ok(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP,
	       "^Z: the foreground group stops with SIGTSTP (%#x)", st);
	kill(z, SIGKILL);
	waitpid(z, NULL, 0);
	tcsetpgrp(tty, getpgrp());
	close(p[0]);
	close(p[1]);
}

/* The session leader's exit: its foreground group gets SIGHUP. The
 * group's one member holds the write end of alive[]: its death is the
 * reader's EOF. */
static void session_leader_exits(int alive[2])
{
	pid_t fg = fork();

	if (fg == 0) {
		setpgid(0, 0);
		for (;;)
			pause();	/* SIGHUP's default ends it */
	}
	setpgid(fg, fg);
	close(alive[1]);
	tcsetpgrp(tty, fg);
	_exit(0);
}

/* The session: everything above, in a child that leads it. */
static void in_session(void)
{
	int alive[2], i;
	pid_t leader;
	char c;

	tty = open(tty_path, O_RDWR | O_NOCTTY);
	signal(SIGTTOU, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	test_ctty();
	test_background_read();
	test_background_write();
	test_tcsetpgrp_errnos();
	test_isig();
	/* a new session for the leader that exits */
	pipe(alive);
	leader = fork();
	if (leader == 0) {
		setsid();
		close(alive[0]);
		close(tty);
		tty = open(tty_path, O_RDWR | O_NOCTTY);
		if (ioctl(tty, TIOCSCTTY, 1))	/* take it from ours */
			_exit(1);
		session_leader_exits(alive);
	}
	close(alive[1]);
	waitpid(leader, NULL, 0);
	fcntl(alive[0], F_SETFL, O_NONBLOCK);
	for (i = 0; i < 200; i++) {
		if (read(alive[0], &c, 1) == 0)
			break;		/* the member is gone */
		usleep(10000);
	}
	tap_ok(i < 200,
	       "the session leader's exit sends SIGHUP to its foreground group");
	tap_done();
}

int main(void)
{
	pid_t c;
	int st = -1;

	if (open_terminal()) {
		tap_plan(1);
		tap_skip("no pseudo-terminal to test on (%s)", strerror(errno));
		tap_done();
	}
	setpgid(0, 0);	/* a group of our session for the EPERM check */
	c = fork();
	if (c == 0) {
		setsid();
		tap_plan(NCHECKS);
		in_session();
	}
	waitpid(c, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
