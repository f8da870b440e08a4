/* user/init.c — /sbin/init, PID 1: turns on the swap areas of
 * /etc/fstab; then "init" runs /etc/rc and a shell forever, "init PROG
 * ARGS..." runs PROG once and exits with its status. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void say(const char *s)
{
	write(2, s, strlen(s));
}

/* The kernel may start us with no files open: give us a console. */
static void open_console(void)
{
	int fd;

	for (fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) != -1)
			continue;
		if (open("/dev/console", O_RDWR) != fd) {
			/* Nothing to report the failure on; carry on. */
			return;
		}
	}
}

/* Run argv[0] and wait for it; as PID 1 we also reap orphans meanwhile.
 * With ctty, the child leads a session whose controlling terminal is
 * the console, so that its shell has job control (busybox init's
 * "cttyhack"). Returns an exit status: the child's, or 128 + signal, or
 * 127. */
static int run(char **argv, int ctty)
{
	int status;
	pid_t pid, w;

	pid = fork();
	if (pid < 0) {
		say("init: fork failed\n");
		return 127;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		if (ctty && isatty(0)) {
			setsid();
			ioctl(0, TIOCSCTTY, 0);
		}
		execve(argv[0], argv, environ);
		say("init: cannot run ");
		say(argv[0]);
		say(": ");
		say(strerror(errno));
		say("\n");
		_exit(127);
	}
	for (;;) {
		w = wait(&status);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return 127;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* swapon -a: each "DEVICE none swap ..." line of /etc/fstab whose device
 * exists (the boot may have no disk); a failure is said, not fatal. */
static void swapon_fstab(void)
{
	char line[256], dev[128], dir[64], type[16];
	FILE *f = fopen("/etc/fstab", "r");
	struct stat st;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %63s %15s", dev, dir, type) != 3 ||
		    dev[0] == '#' || strcmp(type, "swap") || stat(dev, &st))
			continue;
		if (swapon(dev, 0)) {
			say("init: swapon ");
			say(dev);
			say(": ");
			say(strerror(errno));
			say("\n");
		}
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	char *rc[] = { "/bin/sh", "/etc/rc", NULL };
	char *sh[] = { "/bin/sh", NULL };
	struct timespec pause = { 0, 100000000 };
	int status;

	open_console();
	/* Ctrl-C is for the foreground program, never for PID 1. */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);

	swapon_fstab();
	if (argc > 1)
		return run(argv + 1, 0);
	if (access(rc[1], R_OK) == 0)
		run(rc, 0);
	for (;;) {
		status = run(sh, 1);
		if (status == 127) {
			say("init: no shell, giving up\n");
			return 127;
		}
		/* A shell on a pipe or file has ended its input for good. */
		if (!isatty(0))
			return status;
		say("init: shell exited, starting a new one\n");
		nanosleep(&pause, NULL);
	}
}
