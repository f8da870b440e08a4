/* user/tests/zeropage/fork_zero.c — fork copies zero-page PTEs and
 * allocates no pages for them; the child's writes COW only its own. */
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N		256
#define FORK_PAGES	64	/* page tables and task structures of one fork */

struct report {
	struct zp_sample fork, before, wrote;	/* before: the writes */
	long zero, excl, distinct;
	int data_zero, data_ok;
};

static void child(char *p, int fd)
{
	struct report r;
	int i;

	zp_sample(&r.fork);
	r.zero = zp_count_zero(p, N, &r.excl);
	r.distinct = zp_count_distinct(p, N);
	r.data_zero = zp_read(p, N) == 0;
	zp_sample(&r.before);	/* the counts above may have grown the stack */
	zp_write(p, N / 2, 9);
	zp_sample(&r.wrote);
	r.data_ok = 1;
	for (i = 0; i < N; i++)
		r.data_ok &= p[i * PAGE_SIZE] == (i < N / 2 ? 9 : 0);
	write(fd, &r, sizeof(r));
	_exit(0);
}

int main(void)
{
	struct zp_sample s0, s1, s2;
	long long fc0, fc1;
	struct report r;
	int pfd[2], st = -1, m;
	pid_t pid;
	ssize_t n;
	char *p;

	need_proc();
	tap_plan(11);
	zp_note_mode();
	m = zp_mode();
	p = zp_map(N, PROT_READ | PROT_WRITE);
	if (!tap_ok(p != NULL && pipe(pfd) == 0, "map %d pages, a pipe", N))
		tap_done();
	zp_read(p, N);
	memset(&r, 0, sizeof(r));
	zp_baseline(&s0);
	fc0 = zp_vmstat("zero_page_fork_copy");
	pid = fork();
	if (pid == 0)
		child(p, pfd[1]);
	n = read(pfd[0], &r, sizeof(r));
	waitpid(pid, &st, 0);
	fc1 = zp_vmstat("zero_page_fork_copy");
	zp_sample(&s1);
	tap_ok(n == sizeof(r) && st == 0, "child reported back (%s)",
	       status_str(st));
	tap_ok(kb_near(r.fork.anon, s0.anon) && kb_near(r.fork.file, s0.file),
	       "child's RssAnon/RssFile after fork equal the parent's "
	       "(%lld/%lld kB, parent %lld/%lld)", r.fork.anon, r.fork.file,
	       s0.anon, s0.file);
	zp_zpk_ok(r.fork.zero == s0.zero && s0.free - r.fork.free < FORK_PAGES,
		  "child's RssZero equals the parent's (%lld kB, %lld); fork "
		  "took %ld pages (< %d)", r.fork.zero, s0.zero,
		  s0.free - r.fork.free, FORK_PAGES);
	if (m == ZP_OFF)
		zp_ok(r.distinct == N, "child maps the parent's %d pages, "
		      "distinct pfns (%ld)", N, r.distinct);
	else
		zp_ok(r.zero == N && r.excl == 0, "child's %d pages map the "
		      "zero pfn (%ld), none exclusive (%ld)", N, r.zero,
		      r.excl);
	zp_zpk_ok(fc1 - fc0 == (m == ZP_OFF ? 0 : N), "vmstat "
		  "zero_page_fork_copy %+lld (want %d)", fc1 - fc0,
		  m == ZP_OFF ? 0 : N);
	tap_ok(r.data_zero && r.data_ok, "child reads zeros, then its %d "
	       "writes show and the rest stays zero", N / 2);
	/* Off: the pages were the parent's, shared; COW replaces them. */
	zp_ok(kb_near(r.wrote.anon - r.before.anon, m == ZP_OFF ? 0 :
		      N / 2 * 4LL), "child's %d writes: RssAnon %+lld kB (want "
	      "%+d)", N / 2, r.wrote.anon - r.before.anon,
	      m == ZP_OFF ? 0 : N / 2 * 4);
	zp_zpk_ok(r.wrote.zero - r.before.zero == (m == ZP_OFF ? 0 : -N / 2 * 4),
		  "child's writes: RssZero %+lld kB", r.wrote.zero -
		  r.before.zero);
	tap_ok(zp_read(p, N) == 0 && kb_near(s1.anon, s0.anon), "parent "
	       "still reads zeros, its RssAnon unchanged (%+lld kB)",
	       s1.anon - s0.anon);
	zp_unmap(p, N);
	zp_sample(&s2);
	zp_zpk_ok(s2.zp_refcount == s0.zp_refcount - (m == ZP_REFCOUNT ? N : 0),
		  "zero page refcount after child exit and munmap: %lld "
		  "(%lld before)", s2.zp_refcount, s0.zp_refcount);
	tap_done();
}
