/* user/bin/zptouch.c — zptouch: one page at 0x10000000, read, then written,
 * with the RSS lines of /proc/self/status after each step (gdb walk-through). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define ADDR	((char *)0x10000000)

/* "RssAnon: 4 kB" style lines of /proc/self/status we care about. */
static void show(const char *step)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "r");

	printf("%-12s", step);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "RssAnon:", 8) || !strncmp(line, "RssZero:", 8))
			printf(" %.*s", (int)strcspn(line, "\n"), line);
	printf("\n");
	if (f)
		fclose(f);
}

int main(void)
{
	volatile char *p = mmap(ADDR, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	if (p == MAP_FAILED) {
		perror("zptouch: mmap");
		return 1;
	}
	show("mapped");
	printf("read  %p: %d\n", (void *)p, p[0]);	/* read fault */
	show("after read");
	p[0] = 42;					/* COW fault */
	printf("wrote %p: %d\n", (void *)p, p[0]);
	show("after write");
	return 0;
}
