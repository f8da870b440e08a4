/* user/tests/mmap.c — anonymous mmap, munmap and mprotect of part of a
 * mapping (the VMA splits), MAP_FIXED, the errnos of bad arguments and
 * the heuristic overcommit check. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>

#include "ulib.h"

#define NPAGES 4

static void do_write(void *p)
{
	poke(p, 1);
}

static void do_read(void *p)
{
	peek(p);
}

static int segv(int status)
{
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

/* Every byte of page i is c? */
static int page_is(char *base, int i, int c)
{
	char *p = base + i * PAGE_SIZE;
	int j;

	for (j = 0; j < PAGE_SIZE; j++)
		if (p[j] != c)
			return 0;
	return 1;
}

/* Maps len bytes with flags: 0, or the errno (the mapping is undone). */
static int map_errno(size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, len);
	return 0;
}

/*
 * Linux's heuristic overcommit (vm.overcommit_memory 0): one request for
 * memory that may need backing, private writable or shared anonymous,
 * larger than RAM + swap is ENOMEM; with MAP_NORESERVE it is not checked.
 */
static void overcommit(void)
{
	char mode[8] = "";
	struct sysinfo si;
	size_t len;
	int i;

	if (read_file("/proc/sys/vm/overcommit_memory", mode, sizeof(mode)) > 0 &&
	    mode[0] != '0') {
		for (i = 0; i < 4; i++)
			tap_skip("overcommit_memory is %c, not the heuristic", mode[0]);
		return;
	}
	sysinfo(&si);
	len = 2 * (si.totalram + si.totalswap) * si.mem_unit;
	tap_ok(map_errno(len, MAP_PRIVATE | MAP_ANONYMOUS) == ENOMEM,
	       "private writable mapping of twice RAM + swap: ENOMEM");
	tap_ok(map_errno(len, MAP_SHARED | MAP_ANONYMOUS) == ENOMEM,
	       "shared anonymous mapping of twice RAM + swap: ENOMEM");
	tap_ok(map_errno(len, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE) == 0,
	       "the private one with MAP_NORESERVE: mapped");
	tap_ok(map_errno(len, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE) == 0,
	       "the shared one with MAP_NORESERVE: mapped");
}

int main(void)
{
	char *base, *p, *big;
	int i, st, ok, err;
	long r;

	tap_plan(26);

	base = mmap(NULL, NPAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(base != MAP_FAILED && ((unsigned long)base & 4095) == 0,
		    "mmap 4 anonymous pages: page-aligned address %p", base))
		tap_done();
	for (ok = 1, i = 0; i < NPAGES; i++)
		ok &= page_is(base, i, 0);
	tap_ok(ok, "new anonymous pages read as zeros");
	for (i = 0; i < NPAGES; i++)
		memset(base + i * PAGE_SIZE, 'a' + i, PAGE_SIZE);
	for (ok = 1, i = 0; i < NPAGES; i++)
		ok &= page_is(base, i, 'a' + i);
	tap_ok(ok, "each page keeps what was written to it");

	/* Unmapping page 1 leaves two mappings around a hole. */
	tap_ok(munmap(base + PAGE_SIZE, PAGE_SIZE) == 0,
	       "munmap of the second page succeeds");
	tap_ok(page_is(base, 0, 'a') && page_is(base, 2, 'c') &&
	       page_is(base, 3, 'd'), "pages 0, 2, 3 keep their contents");
	base[0] = 'A';
	base[3 * PAGE_SIZE] = 'D';
	tap_ok(base[0] == 'A' && base[3 * PAGE_SIZE] == 'D',
	       "pages on both sides of the hole are still writable");
	st = in_child(do_read, base + PAGE_SIZE);
	tap_ok(segv(st), "reading the unmapped page: SIGSEGV (%s)",
	       status_str(st));

	/* mprotect of one page splits the permissions. */
	tap_ok(mprotect(base + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ) == 0,
	       "mprotect(page 2, PROT_READ) succeeds");
	tap_ok(page_is(base, 2, 'c'), "the read-only page is still readable");
	st = in_child(do_write, base + 2 * PAGE_SIZE);
	tap_ok(segv(st), "writing the read-only page: SIGSEGV (%s)",
	       status_str(st));
	st = in_child(do_write, base + 3 * PAGE_SIZE + 100);
	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "writing the page after it still works (%s)", status_str(st));
	r = mprotect(base + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE);
	if (r == 0)
		base[2 * PAGE_SIZE] = 'C';
	tap_ok(r == 0 && base[2 * PAGE_SIZE] == 'C' &&
	       base[3 * PAGE_SIZE - 1] == 'c',
	       "after mprotect back to RW the page is writable again");

	/* MAP_FIXED replaces what is there and fills what is not. */
	p = mmap(base + 3 * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	tap_ok(p == base + 3 * PAGE_SIZE && page_is(base, 3, 0),
	       "MAP_FIXED over page 3 returns that address, fresh zeros");
	p = mmap(base + PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == base + PAGE_SIZE)
		p[0] = 'B';
	tap_ok(p == base + PAGE_SIZE && base[PAGE_SIZE] == 'B',
	       "MAP_FIXED into the hole maps a usable page there");
	tap_ok(munmap(base, NPAGES * PAGE_SIZE) == 0,
	       "munmap of the whole range (now 3 pieces) succeeds");
	st = in_child(do_read, base);
	tap_ok(segv(st), "reading after munmap: SIGSEGV (%s)", status_str(st));

	/* Bad arguments. */
	r = munmap(base + 1, PAGE_SIZE);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "munmap of an unaligned address: "
	       "EINVAL (%s)", strerror(err));
	p = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	err = errno;
	tap_ok(p == MAP_FAILED && err == EINVAL,
	       "mmap of length 0: EINVAL (%s)", strerror(err));
	tap_ok(munmap(base, PAGE_SIZE) == 0,
	       "munmap of a range with nothing mapped succeeds (Linux)");
	r = mprotect(base, PAGE_SIZE, PROT_READ);
	err = errno;
	tap_ok(r == -1 && err == ENOMEM, "mprotect of an unmapped range: "
	       "ENOMEM (%s)", strerror(err));

	p = mmap(NULL, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	st = in_child(do_read, p);
	tap_ok(p != MAP_FAILED && segv(st), "reading a PROT_NONE page: SIGSEGV "
	       "(%s)", status_str(st));
	munmap(p, PAGE_SIZE);

	/* 256 MiB of address space costs nothing until touched. */
	big = mmap(NULL, 256 << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok = big != MAP_FAILED;
	for (i = 0; ok && i < 256; i++) {
		big[(long)i << 20] = i;
		ok = big[(long)i << 20] == (char)i;
	}
	tap_ok(ok, "256 MiB mapping, one byte per MiB written and read back");
	if (big != MAP_FAILED)
		munmap(big, 256 << 20);
	overcommit();
	tap_done();
}
