/* user/bin/c2cprobe.c — the workload for the c2c plugin (docs/c2c.md):
 * N processes, each pinned to its own CPU, read-fault fresh pages with
 * mmap/munmap inside the plugin's window, which the parent opens and
 * closes by storing to the marker addresses.
 *   c2cprobe [procs=4] [pages=256] [rounds=10]                         */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define C2C_MARK_START	0x6c2c0000ul	/* tools/c2c/c2c.c */
#define C2C_MARK_STOP	0x6c2c0040ul

static void mark(unsigned long addr)
{
	*(volatile char *)addr = 1;
}

static long faults(int pages, int rounds)
{
	long n = 0, sum = 0;

	for (int r = 0; r < rounds; r++) {
		char *p = mmap(NULL, (size_t)pages * 4096, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			exit(2);
		for (int i = 0; i < pages; i++, n++)
			sum += ((volatile char *)p)[i * 4096];
		munmap(p, (size_t)pages * 4096);
	}
	return sum ? -1 : n;
}

/* child: pin to cpu, say ready, wait for go, fault, report done, exit. */
static void child(int cpu, int go, int done, int pages, int rounds)
{
	cpu_set_t one;
	char c = 0;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		exit(3);
	if (write(done, &c, 1) != 1 || read(go, &c, 1) != 1)
		exit(4);
	c = faults(pages, rounds) < 0;
	if (write(done, &c, 1) != 1)
		exit(5);
	exit(c);
}

int main(int argc, char **argv)
{
	int procs = argc > 1 ? atoi(argv[1]) : 4;
	int pages = argc > 2 ? atoi(argv[2]) : 256;
	int rounds = argc > 3 ? atoi(argv[3]) : 10;
	int go[2], done[2], bad = 0, status;
	char c;

	if (mmap((void *)C2C_MARK_START, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
	    pipe(go) || pipe(done)) {
		perror("c2cprobe");
		return 1;
	}
	*(volatile char *)(C2C_MARK_START + 0x80) = 0;	/* fault it in now */
	for (int i = 0; i < procs; i++)
		if (fork() == 0)
			child(i, go[0], done[1], pages, rounds);
	for (int i = 0; i < procs; i++)	/* all pinned before the window */
		bad |= read(done[0], &c, 1) != 1 || c;
	mark(C2C_MARK_START);
	for (int i = 0; i < procs; i++)
		bad |= write(go[1], "g", 1) != 1;
	for (int i = 0; i < procs; i++)
		bad |= read(done[0], &c, 1) != 1 || c;
	mark(C2C_MARK_STOP);
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	printf("c2cprobe: procs=%d pages=%d rounds=%d faults=%ld%s\n", procs,
	       pages, rounds, (long)procs * pages * rounds, bad ? " FAILED" : "");
	return bad;
}
