/* user/tests/fork_loop.c — 200 rounds of fork and exit, each reaped with
 * its status; on zpk the free page count must come back exactly. */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define ROUNDS 200

/* One round: fork, child exits with code, parent reaps; true if right. */
static int round_trip(int code)
{
	int st;
	pid_t pid, w;

	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0)
		_exit(code);
	w = waitpid(pid, &st, 0);
	return w == pid && WIFEXITED(st) && WEXITSTATUS(st) == code;
}

int main(void)
{
	int i, ok = 0, batch = 0, err, st;
	long before, after;
	pid_t w;

	tap_plan(5);
	/* One round first: kernel caches grown by the first fork stay. */
	round_trip(0);
	before = sysinfo_free_pages();
	for (i = 0; i < ROUNDS; i++)
		ok += round_trip(i & 0xff);
	after = sysinfo_free_pages();
	tap_ok(ok == ROUNDS, "%d fork/exit/wait rounds, every status right "
	       "(%d)", ROUNDS, ok);

	/* Several at once, reaped in any order. */
	for (i = 0; i < 20; i++)
		if (fork() == 0)
			_exit(0);
	while ((w = wait(&st)) > 0)
		batch += WIFEXITED(st) && WEXITSTATUS(st) == 0;
	err = errno;
	tap_ok(batch == 20, "20 children alive at once, all reaped (%d)",
	       batch);
	tap_ok(w == -1 && err == ECHILD, "then wait gives ECHILD (%s)",
	       strerror(err));
	tap_ok(getppid() > 0 && getpid() > 0, "parent still fine");

	if (is_zpk())
		tap_ok(after >= before - LEAK_SLACK, "no page leak over %d "
		       "rounds (free pages %ld -> %ld)", ROUNDS, before,
		       after);
	else
		tap_skip("no page leak over %d rounds: zpk-only (Linux: %+ld "
			 "pages, system-wide noise)", ROUNDS, after - before);
	tap_done();
}
