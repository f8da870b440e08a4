/* user/tests/zeropage/stress_integrity.c — 16 processes x 200 rounds of
 * fork, read, write, exit: fresh mappings always read zero, data written
 * is seen, no one ever sees another's writes in the zero page.  The
 * runner's leak check (free pages back, zpk) is the "no leak" check: the
 * parent's own COWed stack makes an in-test count off by a page.
 * stress_integrity [ROUNDS] (default 200; the runner gives zpk fewer:
 * 200 take ~107 s under TCG, near the 120 s boot budget). */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define PROCS	16
#define ROUNDS	200
#define PAGES	8

/* One round: map, read (zero), fork; the child writes and checks, the
 * parent checks it still reads zeros.  0 if all was well. */
static int round_once(int id, int r)
{
	int i, bad = 0, st = -1;
	char *p;
	pid_t pid;

	p = mmap(NULL, PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < PAGES; i++)
		bad |= peek(p + i * PAGE_SIZE + (r * 61 % PAGE_SIZE));
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < PAGES; i += 2)
			poke(p + i * PAGE_SIZE + id, id + 1);
		for (i = 0; i < PAGES; i++)
			bad |= peek(p + i * PAGE_SIZE + id) !=
			       (i % 2 ? 0 : id + 1);
		_exit(bad);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || st != 0)
		bad = 1;
	for (i = 0; i < PAGES; i++)
		bad |= peek(p + i * PAGE_SIZE + id);
	if (r % 3 == 0)
		poke(p + PAGE_SIZE, 1);	/* a COW from zero in the parent */
	munmap(p, PAGES * PAGE_SIZE);
	return bad;
}

static int rounds = ROUNDS;

static void worker(int id)
{
	int r, bad = 0;

	for (r = 0; r < rounds; r++)
		bad += round_once(id, r) != 0;
	_exit(bad ? 1 : 0);
}

int main(int argc, char **argv)
{
	int i, st, failed = 0;
	char *q;

	if (argc > 1 && atoi(argv[1]) > 0)
		rounds = atoi(argv[1]);
	tap_plan(2);
	for (i = 0; i < PROCS; i++)
		if (fork() == 0)
			worker(i);
	for (i = 0; i < PROCS; i++)
		if (wait(&st) < 0 || st != 0)
			failed++;
	tap_ok(failed == 0, "%d processes x %d rounds of map/read/fork/write/"
	       "exit: every fresh page read zero, every write seen (%d "
	       "failed)", PROCS, rounds, failed);
	q = mmap(NULL, 64 * PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	for (i = 0, st = 0; i < 64 * PAGE_SIZE; i++)
		st |= q[i];
	tap_ok(st == 0, "afterwards a fresh mapping still reads all zeros");
	munmap(q, 64 * PAGE_SIZE);
	tap_done();
}
