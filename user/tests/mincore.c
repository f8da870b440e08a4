/* user/tests/mincore.c — mincore (27) as Linux answers it: untouched
 * anonymous memory is not resident, a read fault's page is (the zero page
 * is mapped), DONTNEED drops it; a file or shmem mapping answers from the
 * file's pages; a hole is ENOMEM (the bytes before it written), and the
 * errors: EINVAL for an unaligned start, ENOMEM outside user space,
 * EFAULT for vec. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PG	PAGE_SIZE

static unsigned char vec[64];

static long mc(void *start, size_t len, void *v)
{
	return syscall(SYS_mincore, start, len, v) ? -errno : 0;
}

/* vec[0..n) as a string of 0/1 (other bytes as '?'). */
static const char *bits(int n)
{
	static char s[65];

	for (int i = 0; i < n; i++)
		s[i] = vec[i] == 0 ? '0' : vec[i] == 1 ? '1' : '?';
	s[n] = 0;
	return s;
}

/* mincore of n pages at p into vec, prefilled with 0x55: the bits. */
static const char *query(void *p, int n)
{
	memset(vec, 0x55, sizeof(vec));
	if (mc(p, (size_t)n * PG, vec))
		return "error";
	return bits(n);
}

static void check_anon(void)
{
	char *p = mmap(NULL, 8 * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *b;
	long r;

	b = query(p, 8);
	tap_ok(!strcmp(b, "00000000"), "untouched anonymous memory: none "
	       "resident (%s)", b);
	peek(p);
	peek(p + 2 * PG);
	poke(p + 4 * PG, 1);
	b = query(p, 8);
	tap_ok(!strcmp(b, "10101000"), "read (the zero page mapped) and "
	       "written pages are resident (%s)", b);
	madvise(p, 8 * PG, MADV_DONTNEED);
	b = query(p, 8);
	tap_ok(!strcmp(b, "00000000"), "MADV_DONTNEED drops them (%s)", b);
	poke(p + PG, 1);
	mprotect(p, 8 * PG, PROT_NONE);
	b = query(p, 8);
	tap_ok(!strcmp(b, "01000000"), "PROT_NONE: still resident (%s)", b);
	mprotect(p, 8 * PG, PROT_READ | PROT_WRITE);

	memset(vec, 0x55, sizeof(vec));
	tap_ok(mc(p + PG, 1, vec) == 0 && vec[0] == 1 && vec[1] == 0x55,
	       "a length under a page: one byte");
	memset(vec, 0x55, sizeof(vec));
	tap_ok(mc(p, 0, vec) == 0 && vec[0] == 0x55 &&
	       mc((void *)PG, 0, vec) == 0,
	       "length 0: 0, nothing written, even where nothing is mapped");
	tap_ok(mc(p + 1, PG, vec) == -EINVAL && mc(p + 1, 0, vec) == -EINVAL,
	       "an unaligned start is EINVAL (length 0 too)");
	tap_ok(mc(p, PG, (void *)8) == -EFAULT &&
	       mc(p, PG, (void *)0xffff880000000000UL) == -EFAULT,
	       "a bad vec is EFAULT");
	tap_ok(mc((void *)0xffff800000000000UL, PG, vec) == -ENOMEM &&
	       mc((void *)0x7ffffffff000UL, 2 * PG, vec) == -ENOMEM,
	       "a range outside user space is ENOMEM");

	munmap(p + 3 * PG, PG);
	memset(vec, 0x55, sizeof(vec));
	r = mc(p, 8 * PG, vec);
	tap_ok(r == -ENOMEM && vec[1] == 1 &&
	       vec[2] == 0 && vec[3] == 0x55, "a hole is ENOMEM, the bytes "
	       "before it written (%s)", bits(4));
	tap_ok(mc(p + 3 * PG, PG, vec) == -ENOMEM, "an unmapped page is "
	       "ENOMEM");
	mprotect(p + 4 * PG, 4 * PG, PROT_READ);
	poke(p + 2 * PG, 1);
	peek(p + 5 * PG);
	b = query(p + 4 * PG, 4);
	tap_ok(!strcmp(b, "0100"), "across two VMAs (%s)", b);
	munmap(p, 8 * PG);
}

static void fork_child(void *arg)
{
	char *p = arg;

	_exit(strcmp(query(p, 4), "1010") ? 1 : 0);
}

static void check_shared_and_fork(void)
{
	char *s = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *p = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *b;
	int st;

	b = query(s, 4);
	tap_ok(!strcmp(b, "0000"), "untouched shared anonymous: none (%s)", b);
	poke(s + PG, 1);
	peek(s + 3 * PG);
	b = query(s, 4);
	tap_ok(!strcmp(b, "0101"), "touched shared pages are (%s)", b);
	poke(p, 1);
	peek(p + 2 * PG);
	st = in_child(fork_child, p);
	tap_ok(st == 0, "a fork child sees the pages it shares (%s)",
	       status_str(st));
	munmap(s, 4 * PG);
	munmap(p, 4 * PG);
}

static void check_file(void)
{
	char page[PG];
	char *p;
	const char *b;
	int fd;

	if (test_dir_make("mincore")) {
		tap_ok(0, "cannot make the test's directory");
		return;
	}
	fd = open(at("f"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	memset(page, 'x', sizeof(page));
	pwrite(fd, page, PG, 0);
	pwrite(fd, page, PG, 2 * PG);
	ftruncate(fd, 4 * PG);
	p = mmap(NULL, 4 * PG, PROT_READ, MAP_PRIVATE, fd, 0);
	b = query(p, 4);
	tap_ok(!strcmp(b, "1010"), "a file mapping never touched: the "
	       "file's pages are resident, its holes not (%s)", b);
	peek(p + PG);
	b = query(p, 4);
	tap_ok(b[1] == '1', "a hole read through the mapping is (%s)", b);
	munmap(p, 4 * PG);
	close(fd);
	unlink(at("f"));
	rmdir(test_dir());

	fd = (int)syscall(SYS_memfd_create, "mc", 0);
	ftruncate(fd, 4 * PG);
	pwrite(fd, page, PG, 3 * PG);
	p = mmap(NULL, 4 * PG, PROT_READ, MAP_SHARED, fd, 0);
	b = query(p, 4);
	tap_ok(!strcmp(b, "0001"), "a memfd mapping: the page written by "
	       "write() (%s)", b);
	munmap(p, 4 * PG);
	close(fd);
}

int main(void)
{
	tap_plan(18);
	check_anon();
	check_shared_and_fork();
	check_file();
	tap_done();
}
