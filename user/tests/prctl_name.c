/* user/tests/prctl_name.c — PR_SET_NAME/PR_GET_NAME (16 bytes with the
 * NUL), the name in /proc/self/comm and status, writing comm, EINVAL. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

/* /proc/self/status's Name: value, or "". */
static const char *status_name(char *buf, size_t n)
{
	char st[4096], *p, *e;

	buf[0] = '\0';
	if (read_file("/proc/self/status", st, sizeof(st)) < 0)
		return buf;
	p = strstr(st, "Name:\t");
	if (!p)
		return buf;
	p += 6;
	e = strchr(p, '\n');
	if (e && (size_t)(e - p) < n) {
		memcpy(buf, p, (size_t)(e - p));
		buf[e - p] = '\0';
	}
	return buf;
}

int main(void)
{
	char name[32], comm[64], st[32];
	int fd, status, r;
	pid_t pid;

	tap_plan(9);
	need_proc();
	r = prctl(PR_SET_NAME, "zpk-name-test");
	memset(name, 'x', sizeof(name));
	tap_ok(r == 0 && prctl(PR_GET_NAME, name) == 0 &&
	       strcmp(name, "zpk-name-test") == 0,
	       "PR_SET_NAME then PR_GET_NAME round-trips (%s)", name);
	tap_ok(read_file("/proc/self/comm", comm, sizeof(comm)) > 0 &&
	       strcmp(comm, "zpk-name-test\n") == 0,
	       "/proc/self/comm shows it with a newline");
	tap_ok(strcmp(status_name(st, sizeof(st)), "zpk-name-test") == 0,
	       "status Name: shows it (%s)", st);

	prctl(PR_SET_NAME, "0123456789abcdefXYZ");
	memset(name, 'x', sizeof(name));
	prctl(PR_GET_NAME, name);
	tap_ok(strcmp(name, "0123456789abcde") == 0 && name[16] == 'x',
	       "a long name is cut to 15 bytes, PR_GET_NAME writes 16 (%s)",
	       name);

	pid = fork();
	if (pid == 0) {
		char c[32];

		prctl(PR_GET_NAME, c);
		_exit(strcmp(c, "0123456789abcde") == 0 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a fork child inherits the name (%s)", status_str(status));

	fd = open("/proc/self/comm", O_WRONLY);
	r = fd >= 0 ? (int)write(fd, "viacomm", 7) : -1;
	if (fd >= 0)
		close(fd);
	prctl(PR_GET_NAME, name);
	tap_ok(r == 7 && strcmp(name, "viacomm") == 0,
	       "writing /proc/self/comm renames the process (%s)", name);

	errno = 0;
	r = prctl(PR_SET_NAME, (char *)8);
	tap_ok(r == -1 && errno == EFAULT, "PR_SET_NAME of a bad pointer: EFAULT (%s)",
	       strerror(errno));
	errno = 0;
	r = prctl(PR_GET_NAME, (char *)8);
	tap_ok(r == -1 && errno == EFAULT, "PR_GET_NAME to a bad pointer: EFAULT (%s)",
	       strerror(errno));
	errno = 0;
	r = prctl(0x7a706b00, 0, 0, 0, 0);
	tap_ok(r == -1 && errno == EINVAL, "an unknown option is EINVAL (%s)",
	       strerror(errno));
	tap_done();
}
