/* user/tests/zeropage/dev_zero.c — /dev/zero: read() gives zeros; a
 * MAP_PRIVATE mapping is anonymous (zero page on read); MAP_SHARED is
 * shared anonymous memory (RssShmem, shared with a child); under
 * refcount a whole-page read() maps the zero page (2.6.23's read_zero). */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	128	/* 512 kB: above Linux's RSS slack */

static char buf[N * PAGE_SIZE];

static void private_map(int fd)
{
	struct zp_sample s0, s1;
	char *p, *q;

	/* Map /dev/zero over a zp_map block: its page table exists. */
	q = zp_map(N, PROT_READ | PROT_WRITE);
	p = mmap(q, N * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_FIXED, fd, 0);
	tap_ok(p == q, "mmap MAP_PRIVATE of /dev/zero");
	zp_baseline(&s0);
	tap_ok(zp_read(p, N) == 0, "... reads zeros");
	zp_sample(&s1);
	zp_check_read(&s0, &s1, N, "MAP_PRIVATE /dev/zero read");
	zp_check_pfns(p, N, "MAP_PRIVATE /dev/zero");
	zp_unmap(q, N);
}

static void shared_map(int fd)
{
	struct zp_sample s0, s1;
	int st = -1;
	pid_t pid;
	char *p;

	p = mmap(NULL, N * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 0);
	zp_baseline(&s0);
	zp_write(p, N, 4);
	zp_sample(&s1);
	tap_ok(kb_near(s1.shmem - s0.shmem, N * 4LL) &&
	       kb_near(s1.anon - s0.anon, 0), "MAP_SHARED /dev/zero written: "
	       "RssShmem %+lld kB, RssAnon %+lld (want %+d, +0)",
	       s1.shmem - s0.shmem, s1.anon - s0.anon, N * 4);
	pid = fork();
	if (pid == 0) {
		_exit(p[0] == 4 && (p[PAGE_SIZE] = 8) ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0 && p[PAGE_SIZE] == 8, "... shared with a child: it "
	       "sees our data, we see its write (%s)", status_str(st));
	munmap(p, N * PAGE_SIZE);
}

/* read() of whole pages from /dev/zero into a private buffer. */
static void read_zero(int fd)
{
	struct zp_sample s0, s1;
	long long want;
	ssize_t n;
	char *p;

	memset(buf, 1, sizeof(buf));
	n = read(fd, buf, sizeof(buf));
	tap_ok(n == sizeof(buf) && zp_is_zero(buf, n), "read() of /dev/zero "
	       "into a written buffer: %zd bytes of zeros", n);
	p = zp_map(N, PROT_READ | PROT_WRITE);
	zp_baseline(&s0);
	n = read(fd, p, N * PAGE_SIZE);
	zp_sample(&s1);
	tap_ok(n == N * PAGE_SIZE && zp_is_zero(p, n), "read() of %d whole "
	       "pages into an untouched buffer: zeros", N);
	if (zp_mode() == ZP_REFCOUNT) {
		zp_ok(kb_near(s1.anon - s0.anon, 0), "refcount's read_zero "
		      "maps the zero page: RssAnon %+lld kB (want +0)",
		      s1.anon - s0.anon);
		zp_zpk_ok(s1.zero - s0.zero == N * 4, "... RssZero %+lld kB "
			  "(want %+d)", s1.zero - s0.zero, N * 4);
	} else {
		want = N * 4LL;
		zp_ok(kb_near(s1.anon - s0.anon, want), "read() of /dev/zero "
		      "writes the pages: RssAnon %+lld kB (want %+lld)",
		      s1.anon - s0.anon, want);
		zp_zpk_ok(s1.zero == s0.zero, "... RssZero %+lld kB (want +0)",
			  s1.zero - s0.zero);
	}
	zp_unmap(p, N);
}

int main(void)
{
	int fd;

	need_proc();
	tap_plan(14);
	zp_note_mode();
	fd = open("/dev/zero", O_RDWR);
	if (!tap_ok(fd >= 0, "open /dev/zero"))
		tap_done();
	private_map(fd);
	shared_map(fd);
	read_zero(fd);
	close(fd);
	tap_done();
}
