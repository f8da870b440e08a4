/* user/tests/exec_script.c — execve of `#!` scripts written to /tmp, as
 * Linux's binfmt_script: the interpreter gets its name, the one optional
 * argument whole, the script's path as given, then argv[1..]; scripts
 * naming scripts up to 5 rewrites (ELOOP past that); the 256-byte line
 * (a long argument is cut, a long name is ENOEXEC); ENOENT, EACCES,
 * ETXTBSY, ENOEXEC.  The interpreter is this test itself, run with ECHO set. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define ECHO	"EXEC_SCRIPT_ECHO=1"

static char self[256];
static int pid;

/* As the interpreter: argv joined by '|', then comm. */
static int echo_main(int argc, char **argv)
{
	char comm[64] = "";
	int fd = open("/proc/self/comm", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, comm, sizeof(comm) - 1) : 0;

	if (n > 0 && comm[n - 1] == '\n')
		comm[n - 1] = '\0';
	for (int i = 0; i < argc; i++)
		printf("%s%s", i ? "|" : "", argv[i]);
	printf("|comm=%s", comm);
	return 0;
}

/* /tmp/NAME.pid, in a static buffer of four. */
static const char *tmp(const char *name)
{
	static char buf[4][64];
	static int i;
	char *b = buf[i++ % 4];

	snprintf(b, 64, "/tmp/%s.%d", name, pid);
	return b;
}

static void make_file(const char *path, const char *text, size_t len,
		       int mode)
{
	int fd;

	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		tap_note("cannot write %s: %s", path, strerror(errno));
	close(fd);
}

static void script(const char *name, const char *line)
{
	make_file(tmp(name), line, strlen(line), 0755);
}

/*
 * execve(path, argv) in a child whose stdout is a pipe: what it printed,
 * or "errno=E" if execve failed.
 */
static const char *run(const char *path, char *const argv[])
{
	static char out[4096];
	char *envp[] = { ECHO, NULL };
	int p[2], st;
	ssize_t n, len = 0;
	pid_t c;

	out[0] = '\0';
	if (pipe(p))
		return "pipe failed";
	c = fork();
	if (c == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execve(path, argv, envp);
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
	waitpid(c, &st, 0);
	return out;
}

static void expect(const char *what, const char *got, const char *want)
{
	tap_ok(strcmp(got, want) == 0, "%s: %s%s%s", what, got,
	       strcmp(got, want) ? ", want " : "",
	       strcmp(got, want) ? want : "");
}

/* Compares run(path, argv) with want, built by printf; argv NULL is
 * { path, "x" }. */
static void checkv(const char *what, const char *path, char *const argv[],
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void checkv(const char *what, const char *path, char *const argv[],
		   const char *fmt, ...)
{
	char want[4096], *def[] = { (char *)path, "x", NULL };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!argv)
		argv = def;
	expect(what, run(path, argv), want);
}

#define check(what, path, ...) checkv(what, path, NULL, __VA_ARGS__)

static void arguments(void)
{
	char line[512];

	snprintf(line, sizeof(line), "#!%s\n", self);
	script("es_plain", line);
	checkv("no argument: interpreter, script path, argv[1..]",
	       tmp("es_plain"), (char *[]){ "argv0", "x", "y z", NULL },
	       "%s|%s|x|y z|comm=es_plain.%d", self, tmp("es_plain"), pid);
	snprintf(line, sizeof(line), "#! \t %s  one  two \t\n", self);
	script("es_arg", line);
	check("one argument, passed whole", tmp("es_arg"),
	      "%s|one  two|%s|x|comm=es_arg.%d", self, tmp("es_arg"), pid);
	checkv("argc 0: Linux's argv[0] \"\" is dropped as any argv[0]",
	       tmp("es_plain"), (char *[]){ NULL }, "%s|%s|comm=es_plain.%d",
	       self, tmp("es_plain"), pid);
	if (chdir("/tmp") == 0) {
		char rel[64];

		snprintf(rel, sizeof(rel), "./es_arg.%d", pid);
		check("the script's path as execve got it", rel,
		      "%s|one  two|%s|x|comm=es_arg.%d", self, rel, pid);
		if (chdir("/"))
			tap_note("chdir /: %s", strerror(errno));
	}
	snprintf(line, sizeof(line), "#!%s inner\n", tmp("es_arg"));
	script("es_nest", line);
	check("a script as interpreter", tmp("es_nest"),
	      "%s|one  two|%s|inner|%s|x|comm=es_nest.%d", self,
	      tmp("es_arg"), tmp("es_nest"), pid);
}

/* c0 runs this test; cK names c(K-1).  c4 is five scripts, five rewrites
 * (Linux's limit), and runs; c5 needs a sixth: ELOOP. */
static void depth(void)
{
	char line[512], name[8], want[2048];
	int n;

	for (int k = 0; k <= 5; k++) {
		snprintf(name, sizeof(name), "c%d", k - 1);
		snprintf(line, sizeof(line), "#!%s\n", k ? tmp(name) : self);
		snprintf(name, sizeof(name), "c%d", k);
		script(name, line);
	}
	n = snprintf(want, sizeof(want), "%s", self);
	for (int k = 0; k <= 4; k++) {
		snprintf(name, sizeof(name), "c%d", k);
		n += snprintf(want + n, sizeof(want) - n, "|%s", tmp(name));
	}
	check("five scripts deep, five rewrites", tmp("c4"),
	      "%s|x|comm=c4.%d", want, pid);
	check("six scripts deep: ELOOP", tmp("c5"), "errno=%d", ELOOP);
}

static void errors(void)
{
	char line[512];
	int fd;

	script("es_missing", "#!/no/such/interpreter arg\n");
	check("missing interpreter: ENOENT", tmp("es_missing"), "errno=%d", ENOENT);
	make_file(tmp("es_noexec"), "#!/bin/sh\n", 10, 0644);
	snprintf(line, sizeof(line), "#!%s\n", tmp("es_noexec"));
	script("es_interp_noexec", line);
	check("interpreter without x: EACCES", tmp("es_interp_noexec"),
	      "errno=%d", EACCES);
	snprintf(line, sizeof(line), "#!%s\n", self);
	make_file(tmp("es_self_noexec"), line, strlen(line), 0644);
	check("script without x: EACCES", tmp("es_self_noexec"),
	      "errno=%d", EACCES);
	script("es_busy", "#!/bin/sh\n");
	fd = open(tmp("es_busy"), O_WRONLY);
	snprintf(line, sizeof(line), "#!%s\n", tmp("es_busy"));
	script("es_busy_user", line);
	check("interpreter open for writing: ETXTBSY", tmp("es_busy_user"),
	      "errno=%d", ETXTBSY);
	close(fd);
	script("es_empty", "#!\n");
	check("#! and no name: ENOEXEC", tmp("es_empty"), "errno=%d", ENOEXEC);
	script("es_blank", "#!  \t \n");
	check("#! and blanks: ENOEXEC", tmp("es_blank"), "errno=%d", ENOEXEC);
	script("es_text", "echo no magic\n");
	check("neither ELF nor #!: ENOEXEC", tmp("es_text"), "errno=%d", ENOEXEC);
	snprintf(line, sizeof(line), "#!%s\r\n", self);
	script("es_crlf", line);
	check("CRLF: the name ends in \\r, ENOENT", tmp("es_crlf"),
	      "errno=%d", ENOENT);
}

/* The line is read in 256 bytes: a long argument is cut at byte 255, a
 * long run of blanks ends the name, a name that does not end is ENOEXEC. */
static void long_line(void)
{
	char line[600], arg[300];
	size_t n = strlen(self), keep = 255 - 3 - n;

	memset(arg, 'a', 299);
	arg[299] = '\0';
	snprintf(line, sizeof(line), "#!%s %s\n", self, arg);
	script("es_la", line);
	arg[keep] = '\0';
	check("300-byte argument: cut to the 256-byte line", tmp("es_la"),
	      "%s|%s|%s|x|comm=es_la.%d", self, arg, tmp("es_la"),
	      pid);
	memset(arg, ' ', 299);
	arg[299] = '\0';
	snprintf(line, sizeof(line), "#!%s%s\n", self, arg);
	script("es_lb", line);
	check("name then 300 blanks: no argument", tmp("es_lb"),
	      "%s|%s|x|comm=es_lb.%d", self, tmp("es_lb"), pid);
	memset(arg, 'b', 299);
	snprintf(line, sizeof(line), "#!/tmp/%s\n", arg);
	script("es_ln", line);
	check("a name longer than the line: ENOEXEC", tmp("es_ln"),
	      "errno=%d", ENOEXEC);
}

static const char *const names[] = {
	"es_plain", "es_arg", "es_nest", "c0", "c1", "c2", "c3", "c4", "c5",
	"es_missing", "es_noexec", "es_interp_noexec", "es_self_noexec",
	"es_busy", "es_busy_user", "es_empty", "es_blank", "es_text", "es_crlf", "es_la",
	"es_lb", "es_ln",
};

int main(int argc, char **argv)
{
	ssize_t n;

	if (getenv("EXEC_SCRIPT_ECHO"))
		return echo_main(argc, argv);
	pid = getpid();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	tap_plan(18);
	arguments();
	depth();
	errors();
	long_line();
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(tmp(names[i]));
	tap_done();
}
