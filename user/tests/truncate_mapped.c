/* user/tests/truncate_mapped.c — truncating a mapped file, as Linux's
 * truncate_pagecache: every mapping of the pages past the new end goes,
 * private copies too, so they SIGBUS; the kept last page reads zeros past
 * the end; growing the file again reads zeros, not the old data. The
 * mappings stay until exit, where mm_verify=exit counts their pages. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PATH	"/tmp/truncate_mapped"
#define LEN	(3 * PAGE_SIZE)

/* The byte at p as a child reads it (0..255), or -signal. */
static int probe(const char *p)
{
	int st = -1;
	pid_t pid = fork();

	if (pid == 0)
		_exit(peek(p));
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1000;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

/* Maps the file shared and private, writes through both, truncates to
 * 100 bytes, and checks what each mapping reads then. */
int main(void)
{
	int fd = open(PATH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char *s = MAP_FAILED, *p = MAP_FAILED;

	tap_plan(7);
	if (fd >= 0 && ftruncate(fd, LEN) == 0) {
		s = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd,
			 0);
	}
	if (s == MAP_FAILED || p == MAP_FAILED) {
		tap_ok(0, "a file of 3 pages in /tmp, mapped twice");
		tap_done();
	}
	memset(s, 's', LEN);		/* the file's pages */
	p[PAGE_SIZE] = 'p';		/* a private copy of page 1 */
	(void)peek(p + 2 * PAGE_SIZE);	/* page 2 mapped, not copied */
	p[0] = 'q';			/* a private copy of page 0 */
	tap_ok(probe(s + PAGE_SIZE) == 's' && probe(p + PAGE_SIZE) == 'p' &&
	       probe(p + 2 * PAGE_SIZE) == 's', "before: shared 's', "
	       "private copy 'p', private mapping of the file 's'");
	tap_ok(ftruncate(fd, 100) == 0, "ftruncate to 100 bytes");
	tap_ok(probe(s + PAGE_SIZE) == -SIGBUS &&
	       probe(s + 2 * PAGE_SIZE) == -SIGBUS,
	       "the shared mapping past the end: SIGBUS (%d, %d)",
	       probe(s + PAGE_SIZE), probe(s + 2 * PAGE_SIZE));
	tap_ok(probe(p + PAGE_SIZE) == -SIGBUS &&
	       probe(p + 2 * PAGE_SIZE) == -SIGBUS,
	       "the private mapping past the end, its copy too: SIGBUS "
	       "(%d, %d)", probe(p + PAGE_SIZE), probe(p + 2 * PAGE_SIZE));
	tap_ok(probe(s + 99) == 's' && probe(s + 100) == 0 &&
	       probe(p) == 'q', "the last page: 's' up to the end, zeros "
	       "after; the private copy of page 0 keeps 'q'");
	if (ftruncate(fd, LEN))
		tap_note("ftruncate back to 3 pages failed");
	tap_ok(probe(s + PAGE_SIZE) == 0 && probe(p + PAGE_SIZE) == 0 &&
	       probe(p + 2 * PAGE_SIZE) == 0,
	       "grown again: zeros in both mappings (%d, %d)",
	       probe(s + PAGE_SIZE), probe(p + PAGE_SIZE));
	s[PAGE_SIZE] = 'n';
	tap_ok(probe(p + PAGE_SIZE) == 'n',
	       "the private mapping follows the file's new page ('n')");
	close(fd);
	unlink(PATH);
	tap_done();	/* the mappings go at exit */
}
