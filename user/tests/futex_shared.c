/* user/tests/futex_shared.c — futexes between processes, keyed as Linux's
 * get_futex_key: a futex in shared memory (anonymous or a file, at any
 * address) is the same futex in every process that maps it, unless the
 * calls say FUTEX_PRIVATE_FLAG; one in private memory is per process.
 * Process-shared semaphores and mutexes (musl's and glibc's) rest on it.
 * Then the other answers of Linux's futex code a program may meet: a
 * timeout too long to reach, FUTEX_WAKE_OP, a wake of 0 waiters, the
 * key of a shared op on private memory, and on read-only memory. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

/* linux/futex.h's: musl has no kernel headers. */
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_WAKE_OP		5
#define FUTEX_WAIT_BITSET	9
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_BITSET_MATCH_ANY	0xffffffffU
#define FUTEX_OP_SET		0
#define FUTEX_OP_ADD		1
#define FUTEX_OP_OR		2
#define FUTEX_OP_ANDN		3
#define FUTEX_OP_XOR		4
#define FUTEX_OP_OPARG_SHIFT	8
#define FUTEX_OP_CMP_EQ		0
#define FUTEX_OP_CMP_LT		2
#define FUTEX_OP_CMP_GT		4
#define FUTEX_OP(op, oparg, cmp, cmparg)				\
	((((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) |			\
	 (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))
#define FUTEX_WAIT_PRIVATE	(FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE	(FUTEX_WAKE | FUTEX_PRIVATE_FLAG)

static long futex(uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* Every argument: timeout is a timespec, or val2 for the ops that take
 * a number there. */
static long futex6(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
		   uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);
}

/* Reaps pid if it ends within 5 s, else kills it; its wait status. */
static int reap(pid_t pid)
{
	struct timespec ms = { 0, 1000000 };
	int st;

	for (int i = 0; i < 5000; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		nanosleep(&ms, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return st;
}

/* A child waiting (op, with timeout ts or none) on its word at
 * child_word; the parent wakes (wake_op) at parent_word: how many it
 * woke, and the child's status (exit 0 if its wait returned 0, else
 * its errno; killed if the wake found nobody). */
static long cross_wake(uint32_t *child_word, int op, const struct timespec *ts,
		       uint32_t *parent_word, int wake_op, int *status)
{
	pid_t pid = fork();
	long woke;

	if (pid == 0)
		_exit(futex6(child_word, op, 0, ts, NULL,
			     FUTEX_BITSET_MATCH_ANY) == 0 ? 0 : errno);
	if (!wait_asleep(pid)) {
		*status = reap(pid);
		return -1;
	}
	woke = futex(parent_word, wake_op, 1);
	if (woke <= 0)		/* nobody else will wake it */
		kill(pid, SIGKILL);
	*status = reap(pid);
	return woke;
}

static void shared_anonymous(void)
{
	uint32_t *w = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long woke;
	int st;

	*w = 0;
	woke = cross_wake(w, FUTEX_WAIT, NULL, w, FUTEX_WAKE, &st);
	tap_ok(woke == 1 && st == 0, "MAP_SHARED|MAP_ANONYMOUS: the parent's "
	       "FUTEX_WAKE wakes the child's FUTEX_WAIT (woke %ld, child %s)",
	       woke, status_str(st));
	woke = cross_wake(w, FUTEX_WAIT_PRIVATE, NULL, w, FUTEX_WAKE_PRIVATE,
			  &st);
	tap_ok(woke == 0 && WIFSIGNALED(st), "... but with FUTEX_PRIVATE_FLAG "
	       "each process has its own (woke %ld, child %s)", woke,
	       status_str(st));
	munmap(w, PAGE_SIZE);
}

/* One file mapped at two addresses: the same futex through both. */
static void shared_file(void)
{
	char path[] = "/tmp/futex_shared.XXXXXX";
	int fd = mkstemp(path);
	uint32_t *a, *b;
	long woke;
	int st;

	if (fd < 0 || ftruncate(fd, 2 * PAGE_SIZE) < 0) {
		tap_ok(0, "a file for the mapping: %s", strerror(errno));
		return;
	}
	unlink(path);
	a = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 0);
	b = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 PAGE_SIZE);
	close(fd);
	woke = cross_wake(a + PAGE_SIZE / 4 + 3, FUTEX_WAIT, NULL, b + 3,
			  FUTEX_WAKE, &st);
	tap_ok(woke == 1 && st == 0, "a shared file mapped at two addresses: "
	       "a wake at one finds the wait at the other (woke %ld, child "
	       "%s)", woke, status_str(st));
	woke = cross_wake(a + 1, FUTEX_WAIT, NULL, b + 1, FUTEX_WAKE, &st);
	tap_ok(woke == 0 && WIFSIGNALED(st), "... and not at another offset "
	       "of the file (woke %ld, child %s)", woke, status_str(st));
	munmap(a, 2 * PAGE_SIZE);
	munmap(b, PAGE_SIZE);
}

/* Private memory after fork: the same address, but two futexes. */
static void private_anonymous(void)
{
	static uint32_t word;
	long woke;
	int st;

	woke = cross_wake(&word, FUTEX_WAIT, NULL, &word, FUTEX_WAKE, &st);
	tap_ok(woke == 0 && WIFSIGNALED(st), "private memory: the same "
	       "address in parent and child is two futexes (woke %ld, child "
	       "%s)", woke, status_str(st));
}

/* A timeout too far to reach is no timeout: Linux clamps it to
 * KTIME_MAX (timespec64_to_ktime, ktime_add_safe) and sleeps until woken;
 * a product in 64 bits that wraps would time out at once. */
static void long_timeouts(void)
{
	static const struct {
		int op;
		struct timespec ts;
		const char *what;
	} t[] = {
		{ FUTEX_WAIT, { INT64_MAX, 0 }, "FUTEX_WAIT for {LONG_MAX, 0}" },
		{ FUTEX_WAIT, { INT64_MAX / 2, 0 },
		  "FUTEX_WAIT for {LONG_MAX / 2, 0}" },
		{ FUTEX_WAIT, { 9223372037, 0 },
		  "FUTEX_WAIT for {9223372037, 0} (just past 2^63 ns)" },
		{ FUTEX_WAIT_BITSET, { 18446744074, 0 },
		  "FUTEX_WAIT_BITSET until {18446744074, 0} (past 2^64 ns)" },
	};
	uint32_t *w = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long woke;
	int st;

	*w = 0;
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		woke = cross_wake(w, t[i].op, &t[i].ts, w, FUTEX_WAKE, &st);
		tap_ok(woke == 1 && st == 0, "%s sleeps until woken (woke "
		       "%ld, child %s)", t[i].what, woke, status_str(st));
	}
	munmap(w, PAGE_SIZE);
}

/* A child asleep in FUTEX_WAIT on word (for its value now); exits 0
 * when woken, else with the errno. */
static pid_t waiter(uint32_t *word)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(futex(word, FUTEX_WAIT, *word) == 0 ? 0 : errno);
	wait_asleep(pid);
	return pid;
}

static long wake_op(uint32_t *uaddr, int nr_wake, int nr_wake2,
		    uint32_t *uaddr2, uint32_t op)
{
	return futex6(uaddr, FUTEX_WAKE_OP, (uint32_t)nr_wake,
		      (void *)(long)nr_wake2, uaddr2, op);
}

/* FUTEX_WAKE_OP (glibc's old condition variables): *uaddr2 changed by
 * the op atomically, nr_wake woken at uaddr, and nr_wake2 at uaddr2 if
 * the old value met the comparison (Linux's futex_atomic_op_inuser). */
static void wake_ops(void)
{
	uint32_t *w = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t a, b;
	long woke;
	int sa, sb, ok;

	w[0] = 0;
	w[1] = 5;
	a = waiter(&w[0]);
	b = waiter(&w[1]);
	woke = wake_op(&w[0], 1, 1, &w[1],
		       FUTEX_OP(FUTEX_OP_ADD, 3, FUTEX_OP_CMP_GT, 4));
	if (woke != 2) {	/* nobody else will wake them */
		kill(a, SIGKILL);
		kill(b, SIGKILL);
	}
	sa = reap(a);
	sb = reap(b);
	tap_ok(woke == 2 && w[1] == 8 && sa == 0 && sb == 0, "FUTEX_WAKE_OP "
	       "ADD 3 on 5, 5 > 4: 8, both waiters woken (woke %ld, %u, "
	       "children %s, %s)", woke, w[1], status_str(sa),
	       status_str(sb));
	a = waiter(&w[0]);
	b = waiter(&w[1]);
	woke = wake_op(&w[0], 1, 1, &w[1],
		       FUTEX_OP(FUTEX_OP_OR | FUTEX_OP_OPARG_SHIFT, 4,
				FUTEX_OP_CMP_EQ, 0));
	if (woke != 1)
		kill(a, SIGKILL);
	sa = reap(a);
	tap_ok(woke == 1 && w[1] == 24 && sa == 0, "OR 1 << 4 on 8, 8 == 0 "
	       "false: 24, only uaddr's waiter woken (woke %ld, %u, child "
	       "%s)", woke, w[1], status_str(sa));
	if (futex(&w[1], FUTEX_WAKE, 1) != 1)
		kill(b, SIGKILL);
	reap(b);
	wake_op(&w[0], 1, 1, &w[1], FUTEX_OP(FUTEX_OP_ADD, -1,
					    FUTEX_OP_CMP_LT, -1));
	ok = w[1] == 23;
	wake_op(&w[0], 1, 1, &w[1], FUTEX_OP(FUTEX_OP_ANDN, 3, 0, 0));
	ok &= w[1] == 20;
	wake_op(&w[0], 1, 1, &w[1], FUTEX_OP(FUTEX_OP_XOR, 0x7ff, 0, 0));
	tap_ok(ok && w[1] == (20 ^ 0x7ff), "ADD -1 (12 bits, signed), "
	       "ANDN, XOR (%#x)", w[1]);
	w[1] = 1;
	tap_ok(wake_op(&w[0], 1, 1, &w[1], FUTEX_OP(5, 2, 0, 0)) == -1 &&
	       errno == ENOSYS && w[1] == 1 &&
	       wake_op(&w[0], 1, 1, &w[1], FUTEX_OP(FUTEX_OP_SET, 7, 6, 0)) ==
	       -1 && errno == ENOSYS && w[1] == 7, "an unknown op: ENOSYS, "
	       "nothing done; an unknown comparison: ENOSYS after the op");
	munmap(w, PAGE_SIZE);
}

/* Linux's futex_wake stops once it has woken nr_wake ("++ret >=
 * nr_wake"): a count of 0 (or less) wakes one, for FUTEX_WAKE and for
 * both of FUTEX_WAKE_OP's. */
static void wake_zero(void)
{
	uint32_t *w = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long woke, woke2, left;
	pid_t a, b;

	w[0] = w[1] = 0;
	a = waiter(&w[0]);
	b = waiter(&w[0]);
	woke = futex(&w[0], FUTEX_WAKE, 0);
	left = futex(&w[0], FUTEX_WAKE, 2);
	tap_ok(woke == 1 && left == 1, "FUTEX_WAKE of 0 with two waiters "
	       "wakes one (%ld, then %ld left)", woke, left);
	reap(a);
	reap(b);
	a = waiter(&w[0]);
	b = waiter(&w[1]);
	woke = wake_op(&w[0], 0, 0, &w[1],
		       FUTEX_OP(FUTEX_OP_SET, 0, FUTEX_OP_CMP_EQ, 0));
	woke2 = futex(&w[0], FUTEX_WAKE, 1) + futex(&w[1], FUTEX_WAKE, 1);
	tap_ok(woke == 2 && woke2 == 0, "FUTEX_WAKE_OP with counts 0 wakes "
	       "one on each (%ld; %ld left)", woke, woke2);
	reap(a);
	reap(b);
	munmap(w, PAGE_SIZE);
}

static uint32_t thread_word;

static void *wait_shared(void *arg)
{
	(void)arg;
	futex(&thread_word, FUTEX_WAIT, 0);
	return NULL;
}

/* A shared op on private memory has a key of its own (Linux's
 * FUT_OFF_MMSHARED): a FUTEX_PRIVATE wake does not find its waiter. */
static void private_vs_shared(void)
{
	long priv, shared;
	pthread_t t;

	pthread_create(&t, NULL, wait_shared, NULL);
	usleep(50000);		/* let it sleep */
	priv = futex(&thread_word, FUTEX_WAKE_PRIVATE, 1);
	shared = priv ? 0 : futex(&thread_word, FUTEX_WAKE, 1);
	tap_ok(priv == 0 && shared == 1, "a thread's FUTEX_WAIT (shared) on "
	       "private memory: a FUTEX_WAKE_PRIVATE finds nobody, a "
	       "FUTEX_WAKE wakes it (%ld, %ld)", priv, shared);
	pthread_join(t, NULL);
}

/* Read-only private anonymous memory never changes, so Linux's
 * get_futex_key refuses a shared key there (EFAULT); a private op only
 * reads the word and waits. */
static void read_only_private(void)
{
	struct timespec ms10 = { 0, 10000000 };
	uint32_t *r = mmap(NULL, PAGE_SIZE, PROT_READ,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long shared, priv;
	int e1, e2;

	shared = futex6(r, FUTEX_WAIT, 0, &ms10, NULL, 0);
	e1 = errno;
	priv = futex6(r, FUTEX_WAIT_PRIVATE, 0, &ms10, NULL, 0);
	e2 = errno;
	tap_ok(shared == -1 && e1 == EFAULT && priv == -1 && e2 == ETIMEDOUT,
	       "read-only private memory: a shared FUTEX_WAIT is EFAULT (%s), "
	       "a private one waits (%s)", strerror(e1), strerror(e2));
	munmap(r, PAGE_SIZE);
}

/* musl's and glibc's process-shared semaphore and mutex. */
struct shared_locks {
	sem_t sem;
	pthread_mutex_t mutex;
	int counter;
};

static void shared_sem_and_mutex(void)
{
	struct shared_locks *l = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t ma;
	pid_t pid;
	int st;

	sem_init(&l->sem, 1, 0);
	pid = fork();
	if (pid == 0)
		_exit(sem_wait(&l->sem) == 0 ? 0 : 1);
	wait_asleep(pid);
	sem_post(&l->sem);
	st = reap(pid);
	tap_ok(st == 0, "sem_init(pshared): a child's sem_wait ends at the "
	       "parent's sem_post (%s)", status_str(st));

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&l->mutex, &ma);
	l->counter = 0;
	pid = fork();
	for (int i = 0; i < 2000; i++) {
		pthread_mutex_lock(&l->mutex);
		l->counter++;
		pthread_mutex_unlock(&l->mutex);
	}
	if (pid == 0)
		_exit(0);
	st = reap(pid);
	tap_ok(st == 0 && l->counter == 4000, "a PTHREAD_PROCESS_SHARED mutex "
	       "between two processes: no update lost (%d of 4000, child %s)",
	       l->counter, status_str(st));
	munmap(l, PAGE_SIZE);
}

int main(void)
{
	tap_plan(19);
	shared_anonymous();
	shared_file();
	private_anonymous();
	shared_sem_and_mutex();
	long_timeouts();
	wake_ops();
	wake_zero();
	private_vs_shared();
	read_only_private();
	tap_done();
}
