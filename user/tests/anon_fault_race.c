/* user/tests/anon_fault_race.c — threads fault the same fresh anonymous
 * pages at once, and after fork the same COW-shared pages, as on Linux.
 * The fault allocates with the PTE lock dropped and checks the PTE again
 * once it is back (docs/vm.md, "The fault path"): the thread that finds
 * it already mapped gives its page back. Each page must end with every
 * thread's word in it (no write lost to a page that lost the race), and
 * VmRSS must count each page once (munmap takes that many away); the
 * runner checks that every page came back, mm_verify every counter. */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define NPAGES		256
#define NTHREADS	4
#define ROUNDS		4
#define SIZE		(NPAGES * PAGE_SIZE)

static char *map;
static int arrived, generation;

/* All threads start together, then each writes its id into its own word
 * of every page, in the same order, so that they meet on each page. */
static void *writer(void *arg)
{
	long id = (long)arg;

	spin_barrier(&arrived, &generation, NTHREADS);
	for (int p = 0; p < NPAGES; p++)
		((volatile long *)(map + p * PAGE_SIZE))[id] = id + 1;
	return NULL;
}

/* The threads' words in every page, and nothing else but what was there
 * (base: the value every other word holds). */
static int all_words(long base)
{
	for (int p = 0; p < NPAGES; p++) {
		long *w = (long *)(map + p * PAGE_SIZE);

		for (long i = 0; i < NTHREADS; i++)
			if (w[i] != i + 1)
				return 0;
		if (w[NTHREADS] != base || w[PAGE_SIZE / sizeof(long) - 1] != base)
			return 0;
	}
	return 1;
}

static int race(void)
{
	pthread_t t[NTHREADS];

	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, writer, (void *)i))
			return -1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* First touch: one page each, with every thread's word in it. */
static void first_touch(void)
{
	int ok = 1, counted = 1;

	for (int r = 0; r < ROUNDS && ok; r++) {
		long long mapped, gone;

		map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED) {
			ok = 0;
			break;
		}
		ok = race() == 0 && all_words(0);
		mapped = self_kb("VmRSS");
		munmap(map, SIZE);
		gone = mapped - self_kb("VmRSS");
		if (!kb_near(gone, SIZE / 1024)) {
			tap_note("round %d: munmap took %lld kB of VmRSS, "
				 "want %d", r, gone, SIZE / 1024);
			counted = 0;
		}
	}
	tap_ok(ok, "%d threads writing the same %d fresh pages, %d times: "
	       "every write in its page", NTHREADS, NPAGES, ROUNDS);
	tap_ok(counted, "munmap took each page's VmRSS once");
}

/* In a child, the threads write the pages fork shares with the parent:
 * one copy each, the parent's untouched. */
static void cow_child(void *arg)
{
	(void)arg;
	if (race() || !all_words(-1))
		_exit(1);
}

static void cow(void)
{
	int ok = 1;

	for (int r = 0; r < ROUNDS && ok; r++) {
		int st;

		map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (map == MAP_FAILED) {
			ok = 0;
			break;
		}
		memset(map, 0xff, SIZE);
		st = in_child(cow_child, NULL);
		ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		for (int p = 0; p < NPAGES && ok; p++)
			ok = ((long *)(map + p * PAGE_SIZE))[0] == -1;
		munmap(map, SIZE);
	}
	tap_ok(ok, "%d threads of a fork child writing the same %d COW pages, "
	       "%d times: every write in its copy, the parent's unchanged",
	       NTHREADS, NPAGES, ROUNDS);
}

int main(void)
{
	need_proc();
	tap_plan(3);
	first_touch();
	cow();
	tap_done();
}
