/* user/tests/zeropage/gup_write.c — the kernel writing user pages: read()
 * into untouched or zero-mapped buffers COWs them; write() from untouched
 * buffers sends zeros and allocates nothing (special, refcount);
 * /proc/self/mem pwrite COWs a zero page, even a PROT_READ one. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	128	/* 512 kB: above Linux's RSS slack */
#define TMP	"/tmp/zp_gup_write"

static char src[N * PAGE_SIZE];		/* the pattern, touched */

/* read() of the pattern file into p (N pages): the RSS it costs. */
static void read_into(char *p, const char *what, long long want_anon)
{
	struct zp_sample s0, s1;
	ssize_t n;
	int fd;

	fd = open(TMP, O_RDONLY);
	zp_baseline(&s0);
	n = read(fd, p, N * PAGE_SIZE);
	zp_sample(&s1);
	close(fd);
	tap_ok(n == N * PAGE_SIZE && memcmp(p, src, N * PAGE_SIZE) == 0,
	       "read() into %s buffer: %zd bytes, data correct", what, n);
	zp_ok(kb_near(s1.anon - s0.anon, want_anon), "... RssAnon %+lld kB "
	      "(want %+lld)", s1.anon - s0.anon, want_anon);
}

/* write() of N untouched pages to path: full count, no pages under
 * special and refcount (off: N, unless the file never reads the buffer:
 * /dev/null, any_ok). */
static void write_from(const char *path, int fd, int any_ok)
{
	struct zp_sample s0, s1;
	long long want;
	ssize_t n;
	char *p;

	p = zp_map(N, PROT_READ | PROT_WRITE);
	zp_baseline(&s0);
	n = write(fd, p, N * PAGE_SIZE);
	zp_sample(&s1);
	want = zp_mode() == ZP_OFF ? N * 4LL : 0;
	tap_ok(n == N * PAGE_SIZE, "write() of %d untouched pages to %s: "
	       "%zd bytes", N, path, n);
	zp_ok(kb_near(s1.anon - s0.anon, want) ||
	      (any_ok && kb_near(s1.anon - s0.anon, 0)), "... RssAnon %+lld "
	      "kB (want %+lld%s)", s1.anon - s0.anon, want,
	      any_ok && want ? " or +0" : "");
	zp_unmap(p, N);
}

static void pipe_and_file(void)
{
	static char back[N * PAGE_SIZE];
	int fd, pfd[2];
	ssize_t got = 0, n;

	fd = open("/dev/null", O_WRONLY);
	write_from("/dev/null", fd, 1);
	close(fd);
	/* A pipe holds 16 pages: a child drains it and checks for zeros. */
	pipe(pfd);
	if (fork() == 0) {
		close(pfd[1]);
		memset(back, 1, sizeof(back));
		while ((n = read(pfd[0], back + got, sizeof(back) - got)) > 0)
			got += n;
		_exit(got == sizeof(back) && zp_is_zero(back, got) ? 0 : 1);
	}
	close(pfd[0]);
	write_from("a pipe", pfd[1], 0);
	close(pfd[1]);
	wait(&fd);
	tap_ok(WIFEXITED(fd) && WEXITSTATUS(fd) == 0, "the pipe's reader got "
	       "%d pages of zeros (%s)", N, status_str(fd));
	fd = open(TMP ".0", O_RDWR | O_CREAT | O_TRUNC, 0600);
	write_from(TMP ".0", fd, 0);
	memset(back, 1, sizeof(back));
	n = pread(fd, back, sizeof(back), 0);
	tap_ok(n == sizeof(back) && zp_is_zero(back, n), "the file reads "
	       "back %zd bytes of zeros", n);
	close(fd);
	unlink(TMP ".0");
}

static void poke_it(void *p)
{
	poke(p, 1);
}

/* pwrite to /proc/self/mem: COWs a zero page, FOLL_FORCE on PROT_READ. */
static void proc_mem(void)
{
	struct zp_sample s0, s1;
	ssize_t n;
	char *p;
	int fd, st, m = zp_mode();

	fd = open("/proc/self/mem", O_RDWR);
	p = zp_map(4, PROT_READ | PROT_WRITE);
	zp_read(p, 4);
	zp_baseline(&s0);
	n = pwrite(fd, "zpk", 3, (unsigned long)p + PAGE_SIZE + 100);
	zp_sample(&s1);
	tap_ok(fd >= 0 && n == 3 && memcmp(p + PAGE_SIZE + 100, "zpk", 3) == 0
	       && zp_is_zero(p + PAGE_SIZE, 100) && p[0] == 0,
	       "pwrite to /proc/self/mem of a zero-mapped page: %zd, visible",
	       n);
	zp_ok(kb_near(s1.anon - s0.anon, m == ZP_OFF ? 0 : 4), "... RssAnon "
	      "%+lld kB (want %+d)", s1.anon - s0.anon, m == ZP_OFF ? 0 : 4);
	zp_zpk_ok(s1.zero - s0.zero == (m == ZP_OFF ? 0 : -4), "... RssZero "
		  "%+lld kB", s1.zero - s0.zero);
	zp_unmap(p, 4);

	p = zp_map(4, PROT_READ);
	zp_read(p, 4);
	n = pwrite(fd, "ro", 2, (unsigned long)p + 10);
	tap_ok(n == 2 && memcmp(p + 10, "ro", 2) == 0, "pwrite to "
	       "/proc/self/mem of a PROT_READ private page (FOLL_FORCE): %zd,"
	       " visible", n);
	st = in_child(poke_it, p + 10);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "... the user "
	       "still cannot write it (%s)", status_str(st));
	zp_unmap(p, 4);
	close(fd);
}

int main(void)
{
	int i, fd, m;
	char *p;

	need_proc();
	tap_plan(18);
	zp_note_mode();
	m = zp_mode();
	for (i = 0; i < N * PAGE_SIZE; i++)
		src[i] = i * 7 + i / PAGE_SIZE;
	fd = open(TMP, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!tap_ok(fd >= 0 && write(fd, src, sizeof(src)) == sizeof(src),
		    "a %d-page pattern file in /tmp", N))
		tap_done();
	close(fd);
	p = zp_map(N, PROT_READ | PROT_WRITE);
	read_into(p, "an untouched", N * 4LL);
	zp_unmap(p, N);
	p = zp_map(N, PROT_READ | PROT_WRITE);
	zp_read(p, N);
	read_into(p, "a zero-mapped", m == ZP_OFF ? 0 : N * 4LL);
	zp_unmap(p, N);
	unlink(TMP);
	pipe_and_file();
	proc_mem();
	tap_done();
}
