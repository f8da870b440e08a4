/* user/tests/robust_futex.c — robust mutexes: a thread or process that
 * dies holding one leaves it marked FUTEX_OWNER_DIED by the kernel (its
 * set_robust_list list, walked at exit), so the next locker gets
 * EOWNERDEAD instead of waiting forever; set/get_robust_list's ABI. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ulib.h"

struct robust_list_head {
	void *next;
	long futex_offset;
	void *list_op_pending;
};

static pthread_mutex_t *new_robust(int shared)
{
	pthread_mutex_t *m = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
				  (shared ? MAP_SHARED : MAP_PRIVATE) |
				  MAP_ANONYMOUS, -1, 0);
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (shared)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);
	return m;
}

/* The next owner after a dead one: EOWNERDEAD (not ETIMEDOUT after 5 s,
 * the owner's death unseen), then consistent again. */
static int owner_died_then_consistent(pthread_mutex_t *m)
{
	struct timespec until;
	int r;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	r = pthread_mutex_timedlock(m, &until);

	if (r != EOWNERDEAD)
		return r ? r : -1;
	if (pthread_mutex_consistent(m) || pthread_mutex_unlock(m))
		return -2;
	r = pthread_mutex_lock(m);
	pthread_mutex_unlock(m);
	return r;
}

static void *lock_and_exit(void *m)
{
	pthread_mutex_lock(m);
	return NULL;		/* pthread_exit, the mutex still held */
}

static void thread_dies_holding(void)
{
	pthread_mutex_t *m = new_robust(0);
	pthread_t t;
	int r;

	pthread_create(&t, NULL, lock_and_exit, m);
	pthread_join(t, NULL);
	r = owner_died_then_consistent(m);
	tap_ok(r == 0, "a thread exits holding a robust mutex: the next lock "
	       "is EOWNERDEAD, and after pthread_mutex_consistent it works "
	       "again (%d)", r);
}

static void process_dies_holding(void)
{
	pthread_mutex_t *m = new_robust(1);
	pid_t pid = fork();
	int st, r;

	if (pid == 0) {
		pthread_mutex_lock(m);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	r = owner_died_then_consistent(m);
	tap_ok(r == 0, "a process exits holding a process-shared robust "
	       "mutex: EOWNERDEAD for the next process (%d)", r);
}

/* The parent waits in the lock (FUTEX_WAITERS set) when the holder is
 * killed: the kernel must wake it. */
static void waiter_woken_when_holder_killed(void)
{
	pthread_mutex_t *m = new_robust(1);
	int *locked = (int *)(m + 1);
	struct timespec ms = { 0, 1000000 };
	pid_t pid = fork(), waiter;
	int st, r = -1;

	if (pid == 0) {
		pthread_mutex_lock(m);
		*locked = 1;
		pause();
		_exit(0);
	}
	while (!*locked)
		nanosleep(&ms, NULL);
	waiter = fork();
	if (waiter == 0)
		_exit(pthread_mutex_lock(m) == EOWNERDEAD ? 0 : 1);
	/* Long enough for the waiter to block, most of the time; if not,
	 * it finds the owner dead when it gets there: the same answer. */
	for (int i = 0; i < 50; i++)
		nanosleep(&ms, NULL);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	for (int i = 0; i < 5000; i++) {
		if (waitpid(waiter, &st, WNOHANG) == waiter) {
			r = st;
			break;
		}
		nanosleep(&ms, NULL);
	}
	if (r == -1) {
		kill(waiter, SIGKILL);
		waitpid(waiter, &st, 0);
	}
	tap_ok(r == 0, "a process blocked on a robust mutex wakes with "
	       "EOWNERDEAD when its holder is killed (%s)",
	       r == -1 ? "still waiting after 5 s" : status_str(r));
}

static void abi(void)
{
	struct robust_list_head head = { &head, 0, NULL }, *got = NULL;
	size_t len = 0;
	long r;
	int err;

	r = syscall(SYS_set_robust_list, &head, sizeof(head) + 1);
	err = errno;
	tap_ok(r == -1 && err == EINVAL, "set_robust_list with a wrong "
	       "length: EINVAL (%s)", strerror(err));
	r = syscall(SYS_get_robust_list, 0, &got, &len);
	tap_ok(r == 0 && got != NULL && len == sizeof(head), "get_robust_list "
	       "of the caller: its head and 24 (len %zu)", len);
	r = syscall(SYS_get_robust_list, 0x3fffffff, &got, &len);
	err = errno;
	tap_ok(r == -1 && err == ESRCH, "get_robust_list of no such thread: "
	       "ESRCH (%s)", strerror(err));
	r = syscall(SYS_get_robust_list, 0, (void *)16, &len);
	err = errno;
	tap_ok(r == -1 && err == EFAULT, "get_robust_list to a bad pointer: "
	       "EFAULT (%s)", strerror(err));
}

int main(void)
{
	tap_plan(7);
	thread_dies_holding();
	process_dies_holding();
	waiter_woken_when_holder_killed();
	abi();
	tap_done();
}
