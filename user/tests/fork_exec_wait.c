/* user/tests/fork_exec_wait.c — fork, execve and wait4: exit statuses, argv
 * and envp through exec, children killed by SIGKILL and SIGSEGV, ECHILD;
 * vfork, and a vfork parent killed while it waits. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

extern char **environ;

/* Re-executed as "fork_exec_wait child ARG...": exit with a code that says
 * whether argv and envp arrived intact. */
static int child_main(int argc, char **argv)
{
	const char *v = getenv("ZPK_TEST_VAR");

	if (argc != 5 || strcmp(argv[2], "one") || strcmp(argv[3], "") ||
	    strcmp(argv[4], "three four"))
		return 10;
	if (!v || strcmp(v, "value=with=equals"))
		return 11;
	return 42;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A vfork parent whose child stops before it execs: SIGKILL still ends
 * the parent (Linux's wait for the child is killable). */
static void vfork_parent_killed(void)
{
	volatile pid_t *kid = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t mid, w = 0;
	int status = 0, ms;

	mid = fork();
	if (mid == 0) {
		if (vfork() == 0) {
			*kid = getpid();
			kill(getpid(), SIGSTOP);
			_exit(0);
		}
		_exit(1);
	}
	for (ms = 0; !*kid && ms < 5000; ms += 10)
		sleep_ms(10);
	sleep_ms(50);		/* the child stopped, the parent asleep */
	kill(mid, SIGKILL);
	for (ms = 0; ms < 5000 && (w = waitpid(mid, &status, WNOHANG)) == 0;
	     ms += 10)
		sleep_ms(10);
	tap_ok(w == mid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	       "SIGKILL ends a vfork parent whose child is stopped (%s)",
	       w == mid ? status_str(status) : "still waiting");
	if (*kid)
		kill(*kid, SIGKILL);
	if (w == 0)
		waitpid(mid, &status, 0);
	munmap((void *)kid, 4096);
}

int main(int argc, char **argv)
{
	char *cargv[] = { argv[0], "child", "one", "", "three four", NULL };
	char *cenv[] = { "A=1", "ZPK_TEST_VAR=value=with=equals", NULL };
	char *nargv[] = { "/nonexistent/prog", NULL };
	int status, i, ok, err;
	pid_t pid, w, parent = getpid();
	struct rlimit nocore = { 0, 0 };

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main(argc, argv);
	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		return atoi(argv[2]);

	tap_plan(16);
	/* No core files: WCOREDUMP would differ between hosts. */
	setrlimit(RLIMIT_CORE, &nocore);

	pid = fork();
	if (pid == 0)
		_exit(getppid() == parent ? 7 : 1);
	w = waitpid(pid, &status, 0);
	tap_ok(pid > 0 && w == pid, "waitpid returns the child's pid (%d)", w);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 7,
	       "child sees getppid() == parent, exits 7 (%s)",
	       status_str(status));

	/* Only the low 8 bits of an exit code survive. */
	pid = fork();
	if (pid == 0)
		_exit(256 + 3);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 3,
	       "_exit(259) is seen as exit 3 (%s)", status_str(status));

	pid = fork();
	if (pid == 0) {
		execve(argv[0], cargv, cenv);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 42,
	       "execve passes argv (with an empty string) and envp (%s)",
	       status_str(status));

	pid = fork();
	if (pid == 0) {
		errno = 0;
		execve(nargv[0], nargv, environ);
		_exit(errno == ENOENT ? 5 : 6);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 5,
	       "execve of a missing file returns ENOENT, caller goes on (%s)",
	       status_str(status));

	/* WNOHANG on a running child, then SIGKILL it. */
	pid = fork();
	if (pid == 0) {
		for (;;)
			sleep_ms(1000);
	}
	w = waitpid(pid, &status, WNOHANG);
	tap_ok(w == 0, "WNOHANG on a running child returns 0 (%d)", w);
	tap_ok(kill(pid, SIGKILL) == 0, "kill(child, SIGKILL) succeeds");
	w = waitpid(pid, &status, 0);
	tap_ok(w == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	       "child killed by SIGKILL: WIFSIGNALED, WTERMSIG 9 (%s)",
	       status_str(status));

	pid = fork();
	if (pid == 0) {
		poke(NULL, 1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV &&
	       !WCOREDUMP(status),
	       "child writing to NULL: WTERMSIG SIGSEGV, no core (%s)",
	       status_str(status));

	/* wait(-1) reaps several children, each exactly once. */
	for (i = 0; i < 5; i++) {
		pid = fork();
		if (pid == 0)
			_exit(20 + i);
	}
	ok = 0;
	for (i = 0; i < 5; i++) {
		w = wait(&status);
		if (w > 0 && WIFEXITED(status) && WEXITSTATUS(status) >= 20 &&
		    WEXITSTATUS(status) < 25)
			ok |= 1 << (WEXITSTATUS(status) - 20);
	}
	tap_ok(ok == 0x1f, "wait() reaps 5 children, all statuses seen (%#x)",
	       ok);
	w = wait(&status);
	err = errno;
	tap_ok(w == -1 && err == ECHILD, "wait with no children: ECHILD (%s)",
	       strerror(err));
	w = waitpid(getpid(), &status, 0);
	err = errno;
	tap_ok(w == -1 && err == ECHILD,
	       "waitpid on a pid that is not a child: ECHILD (%s)",
	       strerror(err));

	/* A zombie stays until waited for; waitpid on a specific pid. */
	pid = fork();
	if (pid == 0)
		_exit(0);
	sleep_ms(50);
	tap_ok(kill(pid, 0) == 0,
	       "an unreaped zombie still exists for kill(pid, 0)");
	waitpid(pid, &status, 0);
	w = kill(pid, 0);
	err = errno;
	tap_ok(w == -1 && err == ESRCH,
	       "after reaping, kill(pid, 0) gives ESRCH (%s)", strerror(err));

	/* vfork: the child runs first and shares memory until it execs. */
	pid = vfork();
	if (pid == 0) {
		execve(argv[0], (char *[]){ argv[0], "exit", "17", NULL },
		       environ);
		_exit(99);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 17,
	       "vfork + execve, exit 17 (%s)", status_str(status));
	vfork_parent_killed();
	tap_done();
}
