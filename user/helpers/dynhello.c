/* user/helpers/dynhello.c — built by the host's gcc, dynamically linked
 * with glibc (and by musl as a static PIE, static-pie-hello): prints its arguments and
 * what the auxiliary vector says about how it was loaded, for
 * user/tests/exec_dynamic.c. */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <sys/auxv.h>

extern char _start[];

int main(int argc, char **argv)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM), base = getauxval(AT_BASE);
	int phdr_ok = 0;

	/* AT_PHDR/AT_PHNUM are the program's own headers: with a PT_LOAD
	 * among them (a static PIE has no PT_PHDR). */
	for (unsigned long i = 0; ph && i < n; i++)
		if (ph[i].p_type == PT_LOAD)
			phdr_ok = 1;
	printf("%s:", argc > 1 ? "hello" : "no arguments");
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("|AT_BASE %s|AT_ENTRY %s|AT_PHDR %s\n",
	       base ? "set" : "0",
	       getauxval(AT_ENTRY) == (unsigned long)_start ? "_start" : "?",
	       phdr_ok ? "ok" : "?");
	return 7;
}
