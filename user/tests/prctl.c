/* user/tests/prctl.c — prctl's PR_SET_PDEATHSIG (sent when the parent
 * thread exits, even if its process lives on), PR_SET_DUMPABLE (fork
 * keeps it, execve resets it, an undumpable process dumps no core) and
 * PR_SET_NO_NEW_PRIVS, with Linux's errnos. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/* What the orphan saw: its signal, si_code, si_pid, and parent after. */
struct report {
	int sig, code, pid, ppid;
};

static volatile sig_atomic_t got_sig, got_code, got_pid;

static void on_pdeath(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_pid = si->si_pid;
}

/* In the orphan-to-be: ask for SIGUSR1, say so on ready, wait for it
 * (5 s at most), and write what came to out. */
static void orphan(int ready, int out)
{
	struct sigaction sa = { .sa_sigaction = on_pdeath,
				.sa_flags = SA_SIGINFO };
	struct report r;

	sigaction(SIGUSR1, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	for (int i = 0; i < 500 && !got_sig; i++)
		usleep(10000);
	r = (struct report){ got_sig, got_code, got_pid, getppid() };
	_exit(write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

/* The middle process forks the orphan, waits until it is ready, and
 * leaves it (exit, or, with a thread, the thread's own exit). */
static void *middle(void *arg)
{
	int *out = arg, ready[2];
	char c;

	if (pipe(ready) < 0)
		_exit(1);
	if (fork() == 0)
		orphan(ready[1], *out);
	if (read(ready[0], &c, 1) != 1)
		_exit(1);
	return NULL;
}

static void middle_process(void *arg)
{
	middle(arg);
	_exit(0);
}

/* The middle thread leaves; its process waits for the orphan's report
 * and passes it on. */
static void middle_thread(void *arg)
{
	int *out = arg, p[2];
	pthread_t t;
	struct report r;

	if (pipe(p) < 0 || pthread_create(&t, NULL, middle, &p[1]))
		_exit(1);
	pthread_join(t, NULL);
	if (read(p[0], &r, sizeof(r)) != sizeof(r))
		_exit(1);
	r.ppid = r.ppid == getpid();	/* still its parent? */
	_exit(write(*out, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

/* Runs fn in a child that gets the report's pipe; returns the report. */
static struct report run(void (*fn)(void *), pid_t *mid)
{
	struct report r = { 0 };
	int p[2], st;

	if (pipe(p) < 0)
		return r;
	*mid = fork();
	if (*mid == 0)
		fn(&p[1]);
	close(p[1]);
	waitpid(*mid, &st, 0);
	if (read(p[0], &r, sizeof(r)) != sizeof(r))
		memset(&r, 0, sizeof(r));
	close(p[0]);
	return r;
}

/* A call that must fail with err. */
static void tap_err(long r, int err, const char *what)
{
	int e = errno;

	tap_ok(r == -1 && e == err, "%s is %s (%s)", what, strerror(err),
	       r == -1 ? strerror(e) : "no error");
}

static void pdeathsig(void)
{
	int v = -1, st;
	struct report r;
	pid_t mid, pid;

	r.sig = prctl(PR_GET_PDEATHSIG, &v);
	tap_ok(r.sig == 0 && v == 0, "PR_GET_PDEATHSIG is 0 at first (%d)",
	       v);
	r.sig = prctl(PR_SET_PDEATHSIG, SIGUSR2) ||
		prctl(PR_GET_PDEATHSIG, &v);
	tap_ok(r.sig == 0 && v == SIGUSR2,
	       "PR_SET_PDEATHSIG then PR_GET_PDEATHSIG (%d)", v);
	tap_err(prctl(PR_SET_PDEATHSIG, 65), EINVAL, "PR_SET_PDEATHSIG(65)");
	tap_err(prctl(PR_GET_PDEATHSIG, (int *)8), EFAULT,
		"PR_GET_PDEATHSIG to a bad pointer");
	pid = fork();
	if (pid == 0)
		_exit(prctl(PR_GET_PDEATHSIG, &v) == 0 && v == 0 ? 0 : 1);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "a fork child does not inherit it (%s)", status_str(st));
	prctl(PR_SET_PDEATHSIG, 0);

	r = run(middle_process, &mid);
	tap_ok(r.sig == SIGUSR1 && r.code == SI_USER && r.pid == mid &&
	       r.ppid != mid, "the parent exits: the orphan gets SIGUSR1 "
	       "(%d), SI_USER (%d), from the parent (%d of %d), and a new "
	       "parent", r.sig, r.code, r.pid, (int)mid);
	r = run(middle_thread, &mid);
	tap_ok(r.sig == SIGUSR1 && r.ppid == 1, "the parent thread exits, "
	       "its process lives: the signal comes all the same (%d), and "
	       "the process is still the parent", r.sig);
}

/* execve of ourselves with "dumpable": exit status is PR_GET_DUMPABLE. */
static int dumpable_after_exec(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		prctl(PR_SET_DUMPABLE, 0);
		execl("/proc/self/exe", "prctl", "dumpable", (char *)NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void dumpable(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	int st, r;
	pid_t pid;

	tap_ok(prctl(PR_GET_DUMPABLE) == 1, "PR_GET_DUMPABLE is 1");
	tap_err(prctl(PR_SET_DUMPABLE, 2), EINVAL, "PR_SET_DUMPABLE(2)");
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_DUMPABLE, 0);
		if (fork() == 0)
			_exit(prctl(PR_GET_DUMPABLE));
		wait(&st);
		_exit(prctl(PR_GET_DUMPABLE) == 0 && WIFEXITED(st) ?
		      WEXITSTATUS(st) : 9);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "set to 0, and a fork "
	       "child keeps it (%s)", status_str(st));
	r = dumpable_after_exec();
	tap_ok(r == 1, "execve makes it 1 again (%d)", r);
	pid = fork();
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &rl);
		prctl(PR_SET_DUMPABLE, 0);
		chdir("/tmp");
		kill(getpid(), SIGQUIT);
		_exit(1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGQUIT && !WCOREDUMP(st),
	       "an undumpable process killed by SIGQUIT dumps no core (%s)",
	       status_str(st));
}

static void no_new_privs(void)
{
	int st;
	pid_t pid;

	tap_ok(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 0,
	       "PR_GET_NO_NEW_PRIVS is 0 at first");
	tap_err(prctl(PR_SET_NO_NEW_PRIVS, 0, 0, 0, 0), EINVAL,
		"PR_SET_NO_NEW_PRIVS to 0");
	tap_err(prctl(PR_SET_NO_NEW_PRIVS, 1, 1, 0, 0), EINVAL,
		"PR_SET_NO_NEW_PRIVS with a nonzero arg3");
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(1);
		if (fork() == 0)
			_exit(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
		wait(&st);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 9);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "set to 1, and a fork "
	       "child has it (%s)", status_str(st));
	pid = fork();
	if (pid == 0) {
		char buf[4096];

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		_exit(read_file("/proc/self/status", buf, sizeof(buf)) > 0 &&
		      strstr(buf, "\nNoNewPrivs:\t1\n") ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status says "
	       "NoNewPrivs: 1 (%s)", status_str(st));
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "dumpable"))
		return prctl(PR_GET_DUMPABLE);
	tap_plan(17);
	pdeathsig();
	dumpable();
	no_new_privs();
	tap_done();
}
