/* user/tests/cow_uaccess.c — copy-on-write through the kernel's own
 * writes: a read() from a pipe into a page shared with a forked child
 * (xv6 cowtest's filetest) must copy it, so neither side sees the other. */
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PAGE	4096

/* The child reads "child" from the pipe into buf, then checks its copy. */
static int child(char *buf, int fd)
{
	if (read(fd, buf, 6) != 6 || strcmp(buf, "child") != 0)
		_exit(2);
	_exit(buf[PAGE - 1] == 'p' ? 0 : 3);
}

int main(void)
{
	int fds[2], st = -1;
	char *buf;
	pid_t pid;

	tap_plan(5);
	buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(buf != MAP_FAILED && pipe(fds) == 0, "mmap and pipe"))
		tap_done();
	strcpy(buf, "parent");
	buf[PAGE - 1] = 'p';
	pid = fork();
	if (pid == 0)
		child(buf, fds[0]);
	tap_ok(pid > 0 && write(fds[1], "child", 6) == 6,
	       "fork, and the child's data written into the pipe");
	if (pid > 0 && waitpid(pid, &st, 0) != pid)
		st = -1;
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child's read() landed in its own "
	       "copy of the page (%s)", status_str(st));
	tap_ok(strcmp(buf, "parent") == 0, "the parent's page still says "
	       "\"parent\" (\"%.8s\")", buf);
	strcpy(buf + 100, "later");
	tap_ok(strcmp(buf + 100, "later") == 0 && buf[PAGE - 1] == 'p',
	       "the parent writes its page afterwards");
	tap_done();
}
