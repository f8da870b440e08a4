/* user/tests/exec_dynamic.c — execve of programs linked by the host's gcc
 * against glibc (tests/helpers/, built by user/Makefile): a dynamic one
 * (PT_INTERP: the kernel loads ld.so, AT_BASE, AT_PHDR and AT_ENTRY are
 * the program's), a static PIE (musl's), ld.so run by name with the program as
 * its argument, and a `#!` script whose interpreter is dynamic. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define LDSO	"/lib64/ld-linux-x86-64.so.2"

/* execve(argv[0], argv) with stdout into a pipe: the output, or
 * "errno=N"; *status the wait status. */
static const char *run(char *const argv[], int *status)
{
	static char out[1024];
	char *envp[] = { NULL };
	ssize_t n, len = 0;
	int p[2];
	pid_t c;

	*status = -1;
	if (pipe(p))
		return "pipe failed";
	c = fork();
	if (c == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execve(argv[0], argv, envp);
		printf("errno=%d", errno);
		fflush(stdout);
		_exit(1);
	}
	close(p[1]);
	while (len < (ssize_t)sizeof(out) - 1 &&
	       (n = read(p[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += n;
	out[len] = '\0';
	close(p[0]);
	waitpid(c, status, 0);
	return out;
}

static void expect(const char *what, char *const argv[], const char *want)
{
	int st;
	const char *got = run(argv, &st);
	int ok = !strcmp(got, want) && WIFEXITED(st) && WEXITSTATUS(st) == 7;

	tap_ok(ok, "%s: %.*s (%s)%s%s", what, (int)strcspn(got, "\n"), got,
	       status_str(st), ok ? "" : ", want ", ok ? "" : want);
}

int main(void)
{
	char self[256] = "", dyn[300], pie[300], path[64], line[400];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct stat st;
	char *dir;
	int fd;

	tap_plan(4);
	self[n > 0 ? n : 0] = '\0';
	dir = dirname(self);
	snprintf(dyn, sizeof(dyn), "%s/helpers/dynhello", dir);
	snprintf(pie, sizeof(pie), "%s/helpers/static-pie-hello", dir);
	if (stat(dyn, &st) || stat(LDSO, &st)) {
		for (int i = 0; i < 4; i++)
			tap_skip("%s or %s missing (user/Makefile builds it)",
				 dyn, LDSO);
		tap_done();
	}
	expect("dynamic glibc program",
	       (char *[]){ dyn, "a", "b c", NULL },
	       "hello: a b c|AT_BASE set|AT_ENTRY _start|AT_PHDR ok\n");
	expect("musl static PIE (ET_DYN, no PT_INTERP)",
	       (char *[]){ pie, "x", NULL },
	       "hello: x|AT_BASE 0|AT_ENTRY _start|AT_PHDR ok\n");
	expect("ld.so run by name, the program its argument",
	       (char *[]){ LDSO, dyn, "via-ldso", NULL },
	       "hello: via-ldso|AT_BASE 0|AT_ENTRY _start|AT_PHDR ok\n");

	snprintf(path, sizeof(path), "/tmp/exec_dynamic.%d", getpid());
	snprintf(line, sizeof(line), "#!%s arg one\n", dyn);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0755);
	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		tap_note("cannot write %s", path);
	close(fd);
	snprintf(line, sizeof(line),
		 "hello: arg one %s x|AT_BASE set|AT_ENTRY _start|AT_PHDR ok\n",
		 path);
	expect("#! script run by the dynamic program",
	       (char *[]){ path, "x", NULL }, line);
	unlink(path);
	tap_done();
}
