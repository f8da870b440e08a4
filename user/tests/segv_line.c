/* user/tests/segv_line.c — an unhandled SIGSEGV from a fault logs Linux's
 * line, "COMM[PID]: segfault at ADDR ip IP sp SP error CODE" (x86's
 * show_signal_msg), with the fault's address, the faulting instruction,
 * the user stack and the page-fault error code; a handled one logs
 * nothing. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define ERR_WRITE	2	/* x86 page-fault error code bits */
#define ERR_USER	4
#define ERR_PRESENT	1

static char log_buf[1 << 17];

struct line {
	unsigned long addr, ip, sp, error;
};

/* The last segfault line of pid in the kernel log: 1 if found. */
static int find_line(int pid, struct line *l)
{
	char key[64], *p, *last = NULL;
	int n = klogctl(3, log_buf, sizeof(log_buf) - 1);

	if (n <= 0)
		return 0;
	log_buf[n] = 0;
	snprintf(key, sizeof(key), "[%d]: segfault at ", pid);
	for (p = strstr(log_buf, key); p; p = strstr(p + 1, key))
		last = p;
	return last && sscanf(last + strlen(key), "%lx ip %lx sp %lx error "
			      "%lx", &l->addr, &l->ip, &l->sp, &l->error) == 4;
}

static void null_write(void *a)
{
	(void)a;
	poke(NULL, 1);
}

static void unmapped_read(void *a)
{
	(void)a;
	peek((void *)0x1000);
}

static void readonly_write(void *a)
{
	char *p = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	(void)a;
	peek(p);	/* present: the write's error has bit 0 */
	poke(p, 1);
}

static void on_segv(int sig)
{
	(void)sig;
	_exit(0);
}

static void handled_write(void *a)
{
	(void)a;
	signal(SIGSEGV, on_segv);
	poke(NULL, 1);
}

/* Runs fn in a child, once its pid is known, and reads its line: the
 * pid if the line is there, else minus the pid. */
static int child_line(void (*fn)(void *), struct line *l, int *st)
{
	int pipefd[2], pid;
	char c;

	if (pipe(pipefd))
		return 0;
	pid = fork();
	if (pid == 0) {
		read(pipefd[0], &c, 1);
		fn(NULL);
		_exit(0);
	}
	write(pipefd[1], "g", 1);
	waitpid(pid, st, 0);
	close(pipefd[0]);
	close(pipefd[1]);
	return find_line(pid, l) ? pid : -pid;
}

int main(void)
{
	unsigned long text = (unsigned long)poke, stack = (unsigned long)&text;
	struct line l;
	int st, pid;

	tap_plan(7);
	if (klogctl(10, NULL, 0) < 0) {
		tap_skip("no kernel log to read (klogctl: not root?)");
		tap_done();
	}
	memset(&l, 0, sizeof(l));
	pid = child_line(null_write, &l, &st);
	tap_ok(pid > 0 && l.addr == 0 && l.error == (ERR_USER | ERR_WRITE),
	       "a write to NULL logs 'segfault at 0 ... error 6' (pid %d: at "
	       "%#lx error %lx)", pid, l.addr, l.error);
	tap_ok(l.ip - text < 256, "its ip is the faulting instruction, in "
	       "poke() at %#lx (ip %#lx)", text, l.ip);
	tap_ok(l.sp < stack + 65536 && stack - l.sp < 65536, "its sp is the "
	       "user stack pointer, near %#lx (sp %#lx)", stack, l.sp);
	pid = child_line(unmapped_read, &l, &st);
	tap_ok(pid > 0 && l.addr == 0x1000 && l.error == ERR_USER,
	       "a read of 0x1000 logs 'segfault at 1000 ... error 4' (at "
	       "%#lx error %lx)", l.addr, l.error);
	pid = child_line(readonly_write, &l, &st);
	tap_ok(pid > 0 && l.error == (ERR_USER | ERR_WRITE | ERR_PRESENT),
	       "a write to a read-only page logs error 7 (error %lx)",
	       l.error);
	pid = child_line(handled_write, &l, &st);
	tap_ok(st == 0, "a child that handles SIGSEGV exits 0 from its "
	       "handler (%s)", status_str(st));
	tap_ok(pid < 0, "and logs no segfault line (%s)",
	       pid < 0 ? "none" : "one found");
	tap_done();
}
