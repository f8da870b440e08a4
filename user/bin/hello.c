/* user/bin/hello.c — hello: the first program to try on a new kernel.
 * Prints a greeting with its pid and arguments. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i;

	printf("hello from user space, pid %d\n", getpid());
	for (i = 1; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	return 0;
}
