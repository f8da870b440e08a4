/* user/tests/cow_exclusive.c — only a page that this mm holds alone may
 * be written through a read-only PTE without a fault (Linux's
 * PageAnonExclusive rule): mprotect back to read-write leaves a page that
 * fork shares read-only, so a write still copies it; and a debugger's
 * write through /proc/PID/mem (get_user_pages with FOLL_FORCE) lands in
 * the target's own copy, whether the mapping is writable or read-only.
 * In each case the other process never sees the write. A page this mm
 * holds alone, mprotect makes writable again at once. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

struct side {
	int go[2], res[2];
	pid_t pid;
};

/* A child that waits for "g", then reports *p. */
static void fork_reader(struct side *s, volatile char *p)
{
	char c, v;

	pipe(s->go);
	pipe(s->res);
	s->pid = fork();
	if (s->pid == 0) {
		read(s->go[0], &c, 1);
		v = *p;
		write(s->res[1], &v, 1);
		_exit(0);
	}
}

static char child_sees(struct side *s)
{
	char v = -1;
	int st;

	write(s->go[1], "g", 1);
	read(s->res[0], &v, 1);
	waitpid(s->pid, &st, 0);
	return v;
}

/* Pokes 2 into the child's p through /proc/PID/mem. */
static int poke_child(struct side *s, volatile char *p)
{
	char path[64], two = 2;
	int mem, ok;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)s->pid);
	mem = open(path, O_RDWR);
	ok = mem >= 0 && pwrite(mem, &two, 1, (off_t)(unsigned long)p) == 1;
	if (mem >= 0)
		close(mem);
	return ok;
}

int main(void)
{
	struct side s;
	char *p, v;
	long f0;
	int ok;

	tap_plan(7);
	p = mmap(NULL, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap 3 private pages"))
		tap_done();
	p[0] = p[PAGE_SIZE] = p[2 * PAGE_SIZE] = 1;

	/* Ours alone: mprotect gives the write back at once. */
	mprotect(p, 3 * PAGE_SIZE, PROT_READ);
	mprotect(p, 3 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	f0 = self_minflt();
	p[0] = p[PAGE_SIZE] = p[2 * PAGE_SIZE] = 1;
	f0 = self_minflt() - f0;
	tap_ok(f0 == 0, "pages this mm holds alone are writable again after "
	       "mprotect read-only and back: no fault (minflt +%ld)", f0);

	fork_reader(&s, p);
	mprotect(p, PAGE_SIZE, PROT_READ);
	mprotect(p, PAGE_SIZE, PROT_READ | PROT_WRITE);
	p[0] = 3;
	v = child_sees(&s);
	tap_ok(v == 1, "mprotect read-only and back does not make a page "
	       "fork shares writable: the parent's write copies it, the "
	       "child reads 1 (%d)", v);

	fork_reader(&s, p + PAGE_SIZE);
	ok = poke_child(&s, p + PAGE_SIZE);
	v = child_sees(&s);
	tap_ok(ok && v == 2, "a write through /proc/PID/mem reaches the "
	       "child's copy of a writable page (%s, child reads %d)",
	       ok ? "written" : "refused", v);
	tap_ok(p[PAGE_SIZE] == 1, "and not the parent's (%d)", p[PAGE_SIZE]);

	mprotect(p + 2 * PAGE_SIZE, PAGE_SIZE, PROT_READ);
	fork_reader(&s, p + 2 * PAGE_SIZE);
	ok = poke_child(&s, p + 2 * PAGE_SIZE);
	v = child_sees(&s);
	tap_ok(ok && v == 2, "a write through /proc/PID/mem reaches the "
	       "child's copy of a read-only page (%s, child reads %d)",
	       ok ? "written" : "refused", v);
	tap_ok(p[2 * PAGE_SIZE] == 1, "and not the parent's (%d)",
	       p[2 * PAGE_SIZE]);
	tap_done();
}
