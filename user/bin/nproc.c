/* user/bin/nproc.c — nproc: how many CPUs this process may run on, from
 * sched_getaffinity (coreutils' count); --all: sysconf's configured CPUs. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	cpu_set_t set;

	if (argc > 1 && !strcmp(argv[1], "--all")) {
		printf("%ld\n", sysconf(_SC_NPROCESSORS_CONF));
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "usage: nproc [--all]\n");
		return 1;
	}
	if (sched_getaffinity(0, sizeof(set), &set)) {
		perror("nproc: sched_getaffinity");
		return 1;
	}
	printf("%d\n", CPU_COUNT(&set));
	return 0;
}
