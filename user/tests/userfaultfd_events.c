/* user/tests/userfaultfd_events.c — userfaultfd's events and shmem: FORK
 * (the child's faults on the child's uffd), REMAP (the range moves with
 * its registration), REMOVE (MADV_DONTNEED, MADV_REMOVE), faults read
 * before events, fills refused while an event waits; missing and minor
 * faults of shmem resolved by COPY, ZEROPAGE and CONTINUE. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "uffd.h"
#include "ulib.h"

#define FLAGS	(O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY)
#define MISSING	UFFDIO_REGISTER_MODE_MISSING

static char src[PAGE_SIZE];

static char *map_anon(size_t pages)
{
	char *p = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A thread reads one message from fd, which an event's thread waits on. */
struct event_reader {
	int fd;
	struct uffd_msg m;
	int r;
	pthread_t th;
};

static void *read_event(void *arg)
{
	struct event_reader *e = arg;

	e->r = uffd_read(e->fd, &e->m, 10000);
	return NULL;
}

static void reader_start(struct event_reader *e, int fd)
{
	e->fd = fd;
	pthread_create(&e->th, NULL, read_event, e);
}

static int reader_join(struct event_reader *e, int event)
{
	pthread_join(e->th, NULL);
	return !e->r && e->m.event == event;
}

/* The forked child touches p: its fault must come on the child's uffd,
 * which we resolve with 'f's. */
static void forking(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_EVENT_FORK), cfd, st, ok;
	char *p = map_anon(1);
	struct event_reader e;
	struct uffd_msg m;
	pid_t pid;

	memset(src, 'f', sizeof(src));
	uffd_register(fd, p, PAGE_SIZE, MISSING, NULL);
	reader_start(&e, fd);
	pid = fork();
	if (pid == 0)
		_exit(peek(p) == 'f' ? 0 : 1);
	tap_ok(reader_join(&e, UFFD_EVENT_FORK), "fork: UFFD_EVENT_FORK, with "
	       "a descriptor (%u) for the child's uffd", e.m.arg.fork.ufd);
	cfd = e.m.arg.fork.ufd;
	ok = !uffd_read(cfd, &m, 10000) && m.event == UFFD_EVENT_PAGEFAULT &&
	     m.arg.pagefault.address == (uintptr_t)p &&
	     !uffd_copy(cfd, p, src, PAGE_SIZE, 0, NULL);
	ok = waitpid(pid, &st, 0) == pid && ok;
	tap_ok(ok && WIFEXITED(st) && !WEXITSTATUS(st), "the child's fault "
	       "comes there; COPY into the child resolves it (%s)",
	       status_str(st));
	tap_ok(uffd_read(fd, &m, 0) == -1, "nothing on the parent's uffd");
	close(cfd);
	close(fd);
	munmap(p, PAGE_SIZE);
}

static void remapping(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_EVENT_REMAP);
	char *p = map_anon(2), *to = map_anon(2), *q;
	struct event_reader e;
	struct uffd_toucher t;
	struct uffd_msg m = { 0 };

	memset(src, 'r', sizeof(src));
	uffd_register(fd, p, 2 * PAGE_SIZE, MISSING, NULL);
	uffd_copy(fd, p, src, PAGE_SIZE, 0, NULL);
	reader_start(&e, fd);
	q = mremap(p, 2 * PAGE_SIZE, 2 * PAGE_SIZE,
		   MREMAP_MAYMOVE | MREMAP_FIXED, to);
	tap_ok(q == to && reader_join(&e, UFFD_EVENT_REMAP) &&
	       e.m.arg.remap.from == (uintptr_t)p &&
	       e.m.arg.remap.to == (uintptr_t)to &&
	       e.m.arg.remap.len == 2 * PAGE_SIZE, "mremap: UFFD_EVENT_REMAP "
	       "with from, to and len");
	uffd_toucher_start(&t, q + PAGE_SIZE, 0, 0);
	tap_ok(q[0] == 'r' && !uffd_read(fd, &m, 5000) &&
	       m.arg.pagefault.address == (uintptr_t)q + PAGE_SIZE,
	       "the moved range keeps its page and stays registered");
	uffd_zeropage(fd, q + PAGE_SIZE, PAGE_SIZE, NULL);
	uffd_toucher_join(&t);
	close(fd);
	fd = uffd_new(FLAGS, 0);
	uffd_register(fd, q, 2 * PAGE_SIZE, MISSING, NULL);
	madvise(q + PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED);
	p = mremap(q, 2 * PAGE_SIZE, 2 * PAGE_SIZE,
		   MREMAP_MAYMOVE | MREMAP_FIXED, to = map_anon(2));
	uffd_toucher_start(&t, p + PAGE_SIZE, 0, 0);
	m.event = 0;
	if (!uffd_read(fd, &m, 200))	/* wrong, but let it go on */
		uffd_zeropage(fd, p + PAGE_SIZE, PAGE_SIZE, NULL);
	uffd_toucher_join(&t);
	tap_ok(p == to && m.event != UFFD_EVENT_PAGEFAULT && p[0] == 'r',
	       "without EVENT_REMAP the moved range is no longer registered");
	munmap(p, 2 * PAGE_SIZE);
	close(fd);
}

struct dontneed {
	char *p;
	size_t len;
	int r;
};

static void *do_dontneed(void *arg)
{
	struct dontneed *d = arg;

	d->r = madvise(d->p, d->len, MADV_DONTNEED);
	return NULL;
}

static void removing(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_EVENT_REMOVE);
	char *p = map_anon(8);
	struct dontneed d = { p + 2 * PAGE_SIZE, 2 * PAGE_SIZE, -1 };
	struct uffd_toucher t;
	struct uffd_msg m1, m2;
	pthread_t th;
	long r;

	memset(src, 'd', sizeof(src));
	uffd_register(fd, p, 4 * PAGE_SIZE, MISSING, NULL);
	uffd_toucher_start(&t, p, 0, 0);
	uffd_settle(200);	/* the fault first, then the event */
	pthread_create(&th, NULL, do_dontneed, &d);
	uffd_settle(200);
	r = uffd_copy(fd, p, src, PAGE_SIZE, 0, NULL);
	tap_ok(r == -EAGAIN, "COPY while an event waits: EAGAIN (%ld)", r);
	tap_ok(!uffd_read(fd, &m1, 5000) && !uffd_read(fd, &m2, 5000) &&
	       m1.event == UFFD_EVENT_PAGEFAULT && m2.event ==
	       UFFD_EVENT_REMOVE && m2.arg.remove.start == (uintptr_t)d.p &&
	       m2.arg.remove.end == (uintptr_t)d.p + d.len,
	       "the fault is read before the older UFFD_EVENT_REMOVE of "
	       "MADV_DONTNEED, with its start and end");
	pthread_join(th, NULL);
	r = uffd_copy(fd, p, src, PAGE_SIZE, 0, NULL);
	uffd_toucher_join(&t);
	tap_ok(d.r == 0 && r == 0 && t.got == 'd', "the event read, madvise "
	       "returns and COPY works again");
	p[4 * PAGE_SIZE] = 1;	/* the VMA goes on past the range */
	d = (struct dontneed){ p + 4 * PAGE_SIZE, PAGE_SIZE, -1 };
	do_dontneed(&d);
	tap_ok(d.r == 0 && p[4 * PAGE_SIZE] == 0 && uffd_read(fd, &m1, 0),
	       "MADV_DONTNEED of an unregistered part: no event");
	close(fd);
	munmap(p, 8 * PAGE_SIZE);
}

/* A memfd mapped twice: q (registered) and a (its alias). */
static int shmem_pair(size_t pages, char **q, char **a)
{
	int mfd = syscall(SYS_memfd_create, "uffd", 0);

	ftruncate(mfd, pages * PAGE_SIZE);
	*q = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		  mfd, 0);
	*a = mmap(NULL, pages * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		  mfd, 0);
	return mfd;
}

static void shmem_missing(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_MISSING_SHMEM |
			  UFFD_FEATURE_EVENT_REMOVE);
	char *q, *a;
	int mfd = shmem_pair(3, &q, &a);
	struct event_reader e;
	struct uffd_toucher t;
	struct uffd_msg m;
	int64_t res;
	long r;

	memset(src, 'h', sizeof(src));
	uffd_register(fd, q, 3 * PAGE_SIZE, MISSING, NULL);
	uffd_toucher_start(&t, q, 0, 0);
	r = uffd_read(fd, &m, 5000);
	uffd_copy(fd, q, src, PAGE_SIZE, 0, NULL);
	uffd_toucher_join(&t);
	tap_ok(!r && m.arg.pagefault.address == (uintptr_t)q && t.got == 'h' &&
	       a[0] == 'h', "shmem: a missing fault; COPY puts the page in "
	       "the file, the alias sees it");
	poke(a + PAGE_SIZE, 'x');
	tap_ok(q[PAGE_SIZE] == 'x', "a page the file has is no missing "
	       "fault");
	r = uffd_zeropage(fd, q + 2 * PAGE_SIZE, PAGE_SIZE, &res);
	tap_ok(!r && q[2 * PAGE_SIZE] == 0 &&
	       uffd_zeropage(fd, q + 2 * PAGE_SIZE, PAGE_SIZE, NULL) ==
	       -EEXIST && uffd_copy(fd, q + 2 * PAGE_SIZE, src, PAGE_SIZE, 0,
				    NULL) == -EEXIST,
	       "ZEROPAGE puts a zeroed page in the file; again: EEXIST");
	reader_start(&e, fd);
	r = madvise(q, PAGE_SIZE, MADV_REMOVE);
	tap_ok(!r && reader_join(&e, UFFD_EVENT_REMOVE) &&
	       e.m.arg.remove.start == (uintptr_t)q && a[0] == 0,
	       "MADV_REMOVE: UFFD_EVENT_REMOVE, then the page leaves the "
	       "file");
	close(fd);
	munmap(q, 3 * PAGE_SIZE);
	munmap(a, 3 * PAGE_SIZE);
	close(mfd);
}

static void shmem_minor(void)
{
	int fd = uffd_new(FLAGS, UFFD_FEATURE_MINOR_SHMEM);
	struct uffdio_continue c;
	struct uffd_toucher t;
	struct uffd_msg m;
	char *q, *a;
	int mfd = shmem_pair(1, &q, &a);
	long r;

	r = uffd_register(fd, q, PAGE_SIZE, UFFDIO_REGISTER_MODE_MINOR, NULL);
	poke(a, 'm');
	uffd_toucher_start(&t, q, 0, 0);
	tap_ok(!r && !uffd_read(fd, &m, 5000) &&
	       m.arg.pagefault.flags == UFFD_PAGEFAULT_FLAG_MINOR,
	       "MINOR: the file has the page, unmapped here: FLAG_MINOR");
	poke(a, 'M');
	c = (struct uffdio_continue){ { (uintptr_t)q, PAGE_SIZE }, 0, 0 };
	r = ioctl(fd, UFFDIO_CONTINUE, &c);
	uffd_toucher_join(&t);
	tap_ok(!r && c.mapped == PAGE_SIZE && t.got == 'M', "UFFDIO_CONTINUE "
	       "maps the file's page as it is now ('%c')", t.got);
	c.mapped = 0;
	r = ioctl(fd, UFFDIO_CONTINUE, &c);
	tap_ok(r == -1 && errno == EEXIST && c.mapped == -EEXIST,
	       "CONTINUE again: EEXIST");
	close(fd);
	munmap(q, PAGE_SIZE);
	munmap(a, PAGE_SIZE);
	close(mfd);
}

int main(void)
{
	tap_plan(17);
	forking();
	remapping();
	removing();
	shmem_missing();
	shmem_minor();
	tap_done();
}
