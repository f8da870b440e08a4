/* user/helpers/crasher.c — a core for the host's gdb (tests/qemu/gdb.sh):
 * a child crashes in crash_in_leaf, called by caller_of_leaf, with
 * RLIMIT_CORE unlimited and /tmp its cwd; the parent prints its status
 * and then the core file in base64 between two marker lines, for the
 * test to take from the console. Built by the host's gcc, static, with
 * debug information (the initrd's copy is stripped; gdb reads the
 * build's). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void crash_in_leaf(volatile int *p)
{
	*p = 42;
}

__attribute__((noinline)) void caller_of_leaf(void)
{
	crash_in_leaf((volatile int *)16);
}

int main(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	int status = 0;
	pid_t pid;

	if (chdir("/tmp") || setrlimit(RLIMIT_CORE, &rl))
		return 1;
	pid = fork();
	if (pid == 0) {
		caller_of_leaf();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("crasher: status %#x%s\n", status,
	       WCOREDUMP(status) ? " (core dumped)" : "");
	printf("-----BEGIN CORE-----\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/bin/base64", "base64", "core", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("-----END CORE-----\n");
	return status;
}
