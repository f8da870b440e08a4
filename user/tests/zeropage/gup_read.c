/* user/tests/zeropage/gup_read.c — the kernel reading and writing user
 * pages of another mm: process_vm_readv of untouched pages gives zeros
 * and allocates none (special, refcount); process_vm_writev into a
 * child's zero-mapped pages COWs them there; /proc/PID/mem reads zeros. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	128	/* 512 kB: above Linux's RSS slack */

static char back[N * PAGE_SIZE];	/* touched before each measure */

static long vm_rw(int nr, pid_t pid, void *local, void *remote, size_t len)
{
	struct iovec l = { local, len }, r = { remote, len };

	return syscall(nr, pid, &l, 1, &r, 1, 0);
}

/* Reading our own untouched pages through the kernel (GUP without
 * FOLL_WRITE): zeros, and no page of our own for any. */
static void read_self(const char *how)
{
	struct zp_sample s0, s1;
	long long want;
	long n;
	char *p;
	int fd;

	p = zp_map(N, PROT_READ | PROT_WRITE);
	memset(back, 1, sizeof(back));
	zp_baseline(&s0);
	if (strcmp(how, "process_vm_readv") == 0) {
		n = vm_rw(SYS_process_vm_readv, getpid(), back, p, sizeof(back));
	} else {
		fd = open("/proc/self/mem", O_RDONLY);
		n = pread(fd, back, sizeof(back), (unsigned long)p);
		close(fd);
	}
	zp_sample(&s1);
	want = zp_mode() == ZP_OFF ? N * 4LL : 0;
	tap_ok(n == (long)sizeof(back) && zp_is_zero(back, sizeof(back)),
	       "%s of %d untouched pages of ours: %ld bytes, all zero", how,
	       N, n);
	zp_ok(kb_near(s1.anon - s0.anon, want), "... RssAnon %+lld kB (want "
	      "%+lld)", s1.anon - s0.anon, want);
	zp_zpk_ok(s1.zero - s0.zero == (zp_mode() == ZP_OFF ? 0 : N * 4),
		  "... RssZero %+lld kB", s1.zero - s0.zero);
	zp_unmap(p, N);
}

struct report {
	struct zp_sample before, after;
	int data_ok;
};

/* A child with N read-faulted pages; the parent writes them through
 * process_vm_writev; the child reports what it sees. */
static void write_child(void)
{
	int go[2], res[2], st = -1, ok, m = zp_mode();
	struct report r;
	long n = -1;
	pid_t pid;
	char *p, c;

	p = zp_map(N, PROT_READ | PROT_WRITE);
	pipe(go);
	pipe(res);
	memset(&r, 0, sizeof(r));
	pid = fork();
	if (pid == 0) {
		zp_read(p, N);
		zp_sample(&r.before);
		zp_sample(&r.before);
		write(res[1], "r", 1);
		read(go[0], &c, 1);
		zp_sample(&r.after);
		memset(back, 0x5a, sizeof(back));	/* the parent's data */
		r.data_ok = memcmp(p, back, N * PAGE_SIZE) == 0;
		write(res[1], &r, sizeof(r));
		_exit(0);
	}
	memset(back, 0x5a, sizeof(back));
	if (read(res[0], &c, 1) == 1)
		n = vm_rw(SYS_process_vm_writev, pid, back, p, sizeof(back));
	write(go[1], "g", 1);
	ok = read(res[0], &r, sizeof(r)) == sizeof(r);
	waitpid(pid, &st, 0);
	tap_ok(ok && st == 0 && n == (long)sizeof(back) && r.data_ok,
	       "process_vm_writev of %d pages into a child's zero-mapped "
	       "pages: %ld bytes, the child sees them (%s)", N, n,
	       status_str(st));
	zp_ok(kb_near(r.after.anon - r.before.anon, m == ZP_OFF ? 0 : N * 4LL),
	      "... the child's RssAnon %+lld kB", r.after.anon - r.before.anon);
	zp_zpk_ok(r.after.zero - r.before.zero == (m == ZP_OFF ? 0 : -N * 4),
		  "... the child's RssZero %+lld kB", r.after.zero -
		  r.before.zero);
	zp_unmap(p, N);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

int main(void)
{
	need_proc();
	tap_plan(9);
	zp_note_mode();
	read_self("process_vm_readv");
	read_self("pread of /proc/self/mem");
	write_child();
	tap_done();
}
