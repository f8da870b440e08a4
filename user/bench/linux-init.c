/* user/bench/linux-init.c — /init of make bench-linux's initramfs: mounts
 * /proc, runs /bin/zpbench with the arguments after "--" on Linux's command
 * line (Linux passes them to init as argv), then powers the machine off.
 * A first argument that is a path ("/bin/cow ...") runs that program
 * instead (make kselftest).  "--kallsyms" instead prints /proc/kallsyms
 * (for scripts/bench-profile.sh; boot with nokaslr so the addresses hold
 * for the next boot too). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *args[16] = { "/bin/zpbench" };
	char **run = args;
	int i, j = 1, st = -1;
	pid_t pid;

	/* Linux hands init the options it does not know, like nokaslr. */
	for (i = 1; i < argc && j < 15; i++)
		if (strcmp(argv[i], "nokaslr"))
			args[j++] = argv[i];
	args[j] = NULL;
	/* No /dev/console in the archive: then stdio is closed; open it. */
	if (fcntl(1, F_GETFD) < 0 &&
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) == 0) {
		i = open("/dev/console", O_RDWR);
		dup2(i, 0), dup2(i, 1), dup2(i, 2);
	}
	if (mount("proc", "/proc", "proc", 0, NULL) < 0)
		perror("linux-init: mount /proc");
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (args[1] && !strcmp(args[1], "--kallsyms")) {
		args[0] = "/bin/cat";
		args[1] = "/proc/kallsyms";
	} else if (args[1] && args[1][0] == '/') {
		run = args + 1;
	}
	pid = fork();
	if (pid == 0) {
		execv(run[0], run);
		fprintf(stderr, "linux-init: exec %s: %m\n", run[0]);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	printf("linux-init: %s exited with status %d\n", run[0],
	       WIFEXITED(st) ? WEXITSTATUS(st) :
	       WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 128);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
