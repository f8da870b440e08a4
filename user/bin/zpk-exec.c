/* user/bin/zpk-exec — "zpk-exec FILE": runs the program FILE names, with
 * the arguments FILE holds, each ended by a NUL byte (the first is the
 * program's path). scripts/zpk-run boots it as init, so that arguments
 * with spaces or quotes reach the program whole: the kernel's command
 * line would split them. With /etc/zpk-run.swap (zpk-run --swap), the
 * disk /dev/vda is swapped on first. Exit 127 if FILE cannot be read or
 * the program cannot be run. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#define MAX_ARGS	256

static char buf[128 * 1024];		/* execve's own limit, ARG_MAX */

int main(int argc, char **argv)
{
	char *args[MAX_ARGS + 1];
	ssize_t n = 0, r;
	int fd, nargs = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: zpk-exec FILE\n");
		return 127;
	}
	fd = open(argv[1], O_RDONLY);
	while (fd >= 0 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	if (fd < 0 || n == 0 || buf[n - 1] != 0) {
		fprintf(stderr, "zpk-exec: %s: no NUL-ended arguments\n",
			argv[1]);
		return 127;
	}
	for (char *p = buf; p < buf + n && nargs < MAX_ARGS;
	     p += strlen(p) + 1)
		args[nargs++] = p;
	args[nargs] = NULL;
	close(fd);
	if (access("/etc/zpk-run.swap", F_OK) == 0 && swapon("/dev/vda", 0))
		perror("zpk-exec: swapon /dev/vda");
	execv(args[0], args);
	perror(args[0]);
	return 127;
}
