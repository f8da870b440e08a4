/* user/tests/unshare.c — unshare(2): CLONE_FS and CLONE_FILES give a
 * thread its own cwd and descriptor table; CLONE_VM, CLONE_SIGHAND and
 * CLONE_THREAD are 0 only when nothing shares them; flags unshare does
 * not know are EINVAL, and namespaces, which zpk lacks, too. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static int fd;

static void check_err(int r, int err, const char *what)
{
	int e = errno;

	tap_ok(r == -1 && e == err, "%s: %s (%s)", what, strerror(err),
	       r == -1 ? strerror(e) : "no error");
}

/* A thread's own cwd and table: it moves and closes, we do not see it. */
static void *own(void *arg)
{
	long ok = unshare(CLONE_FS | CLONE_FILES) == 0 && chdir("/tmp") == 0 &&
		  close(fd) == 0;

	(void)arg;
	return (void *)ok;
}

static void *multi(void *arg)
{
	(void)arg;
	return (void *)(long)(unshare(CLONE_VM) == -1 && errno == EINVAL);
}

int main(void)
{
	char cwd[64] = "";
	void *ok = NULL;
	pthread_t t;
	int st;
	pid_t pid;

	tap_plan(7);
	tap_ok(unshare(0) == 0, "unshare(0)");
	chdir("/");
	fd = open("/dev/null", O_RDONLY);
	pthread_create(&t, NULL, own, NULL);
	pthread_join(t, &ok);
	tap_ok(ok && getcwd(cwd, sizeof(cwd)) && !strcmp(cwd, "/"),
	       "a thread's CLONE_FS: its chdir leaves ours (%s)", cwd);
	tap_ok(fcntl(fd, F_GETFD) >= 0, "... CLONE_FILES: its close leaves "
	       "our descriptor open");
	pthread_create(&t, NULL, multi, NULL);
	pthread_join(t, &ok);
	tap_ok(ok != NULL, "CLONE_VM with another thread: EINVAL");
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_VM | CLONE_SIGHAND | CLONE_THREAD) ? 1 : 0);
	waitpid(pid, &st, 0);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "CLONE_VM, CLONE_SIGHAND "
	       "and CLONE_THREAD alone in a process: 0 (%s)", status_str(st));
	check_err(unshare(0x2000), EINVAL, "CLONE_PTRACE, which unshare "
		  "does not take");
	if (is_zpk())
		check_err(unshare(CLONE_NEWUTS), EINVAL, "CLONE_NEWUTS: zpk has "
			  "no namespaces");
	else
		tap_skip("namespaces: Linux has them");
	tap_done();
}
