/* user/tests/punch_hole.c — a hole punched in a mapped shmem file, as on
 * Linux (shmem_fallocate): the hole's pages leave the file and every
 * mapping of them, so a shared mapping and read() see zeros there, a
 * private mapping's own copies stay and its other pages read the hole;
 * MADV_REMOVE does the same. Then threads fault on a shared mapping
 * while the whole file is punched again and again: afterwards the
 * mapping and read() agree on every page (no PTE keeps a page the file
 * let go of; mm_verify checks the same at exit). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ulib.h"

#define FALLOC_FL_KEEP_SIZE	1
#define FALLOC_FL_PUNCH_HOLE	2
#define PUNCH	(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)

#define NPAGES		16
#define NTHREADS	3
#define ROUNDS		2000
#define SIZE		(NPAGES * PAGE_SIZE)

static char *map;
static volatile int stop;

static long file_word(int fd, int page)
{
	long v = -1;

	if (pread(fd, &v, sizeof(v), (off_t)page * PAGE_SIZE) != sizeof(v))
		return -1;
	return v;
}

static long map_word(char *m, int page)
{
	return *(volatile long *)(m + page * PAGE_SIZE);
}

static void set_word(char *m, int page, long v)
{
	*(volatile long *)(m + page * PAGE_SIZE) = v;
}

/* Pages 0-3 hold 0xa0 + page through the shared mapping; the private
 * mapping has its own copy of page 1 and maps the file's page 2. */
static void semantics(int fd, char *shared, char *priv)
{
	int r;

	for (int p = 0; p < 4; p++)
		set_word(shared, p, 0xa0 + p);
	set_word(priv, 1, 0xb1);
	tap_ok(map_word(priv, 2) == 0xa2, "a private mapping reads the "
	       "file's page before the hole (%#lx)", map_word(priv, 2));
	r = fallocate(fd, PUNCH, PAGE_SIZE, 2 * PAGE_SIZE);
	tap_ok(r == 0, "fallocate(PUNCH_HOLE | KEEP_SIZE) of pages 1-2 (%s)",
	       r ? strerror(errno) : "ok");
	tap_ok(map_word(shared, 1) == 0 && map_word(shared, 2) == 0 &&
	       file_word(fd, 1) == 0 && file_word(fd, 2) == 0,
	       "the shared mapping and read() see zeros in the hole: %#lx "
	       "%#lx, %#lx %#lx", map_word(shared, 1), map_word(shared, 2),
	       file_word(fd, 1), file_word(fd, 2));
	tap_ok(map_word(shared, 0) == 0xa0 && map_word(shared, 3) == 0xa3,
	       "and the data around it: %#lx %#lx", map_word(shared, 0),
	       map_word(shared, 3));
	tap_ok(map_word(priv, 1) == 0xb1, "a private mapping keeps its own "
	       "copy (%#lx)", map_word(priv, 1));
	tap_ok(map_word(priv, 2) == 0, "and reads the hole where it mapped "
	       "the file's page (%#lx)", map_word(priv, 2));
	set_word(shared, 2, 0xc2);
	tap_ok(file_word(fd, 2) == 0xc2 && map_word(priv, 2) == 0xc2,
	       "a write into the hole is the file's again, for read() and "
	       "the private mapping (%#lx, %#lx)", file_word(fd, 2),
	       map_word(priv, 2));
	r = madvise(shared + 3 * PAGE_SIZE, PAGE_SIZE, MADV_REMOVE);
	tap_ok(r == 0 && map_word(shared, 3) == 0 && file_word(fd, 3) == 0,
	       "MADV_REMOVE punches the same hole (%s): %#lx, %#lx",
	       r ? strerror(errno) : "ok", map_word(shared, 3),
	       file_word(fd, 3));
}

static void *worker(void *arg)
{
	long id = (long)arg;

	while (!stop)
		for (int p = 0; p < NPAGES && !stop; p++)
			((volatile long *)(map + p * PAGE_SIZE))[id + 1] = id;
	return NULL;
}

/* Punches the whole file ROUNDS times while the workers write. */
static int race(int fd)
{
	pthread_t t[NTHREADS];
	int err = 0;

	stop = 0;
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return -1;
	for (int r = 0; r < ROUNDS && !err; r++)
		err = fallocate(fd, PUNCH, 0, SIZE);
	stop = 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	return err;
}

/* Pages where a word written through the mapping does not read back
 * through read(). */
static int disagree(int fd)
{
	int bad = 0;

	for (int p = 0; p < NPAGES; p++) {
		set_word(map, p, 0x5eed0000L + p);
		bad += file_word(fd, p) != 0x5eed0000L + p;
	}
	return bad;
}

int main(void)
{
	int fd = syscall(SYS_memfd_create, "punch", 0), bad;
	char *priv;

	tap_plan(10);
	if (fd < 0 || ftruncate(fd, SIZE))
		return tap_ok(0, "memfd_create: %s", strerror(errno)), 1;
	map = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	priv = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || priv == MAP_FAILED)
		return tap_ok(0, "mmap: %s", strerror(errno)), 1;
	semantics(fd, map, priv);
	tap_ok(race(fd) == 0, "%d threads write while the whole file is "
	       "punched %d times", NTHREADS, ROUNDS);
	bad = disagree(fd);
	tap_ok(bad == 0, "then the mapping and read() agree on every page "
	       "(%d of %d do not)", bad, NPAGES);
	munmap(priv, SIZE);
	munmap(map, SIZE);
	close(fd);
	tap_done();
}
