/* user/tests/thp_zero_switch.c — /proc/sys/vm/huge_zero_page switched
 * at run time, with huge zero PMDs of every lifetime mapped at once: each
 * new PMD counts as the lifetime now says (refcount +1, per-mm +1 for
 * the mm's first, persistent 0), and each PMD that goes gives back what
 * it took when it was made, whatever the lifetime is by then (a split,
 * munmap, MADV_DONTNEED, a child's exit). The runner's mm_verify then
 * balances the count against every holder. zpk's file: skipped on Linux.
 * persistent pins the page for good, so it is switched to only when the
 * kernel booted with it (the runner's leak check would see the pin). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define FILE	"/proc/sys/vm/huge_zero_page"
#define NPMD	8

static char *p;

/* Writes name to FILE: 0, or the errno of the write. */
static int set_lifetime(const char *name)
{
	int fd = open(FILE, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, name, strlen(name)) != (ssize_t)strlen(name))
		err = errno;
	close(fd);
	return err;
}

/* One read fault in each of huge pages [from, to). */
static void read_pmds(int from, int to)
{
	for (int i = from; i < to; i++)
		(void)*(volatile char *)(p + i * HPAGE_SIZE);
}

static void check(long long want, const char *what)
{
	long long n = huge_zero_holders();

	tap_ok(n == want, "%s: %lld holders (want %lld)", what, n, want);
}

int main(void)
{
	char orig[64] = "", mode[64] = "", name[32] = "";
	int booted_persistent, status;
	long long h0;
	pid_t pid;

	need_proc();
	if (read_file(FILE, orig, sizeof(orig)) < 0)
		goto skip_all;
	if (read_file("/sys/kernel/mm/transparent_hugepage/enabled", mode,
		      sizeof(mode)) < 0 || strstr(mode, "[never]") ||
	    read_file("/proc/sys/vm/zero_page", mode, sizeof(mode)) < 0 ||
	    strstr(mode, "[off]")) {
		tap_plan(1);
		tap_skip("no huge zero page here (THP never, or zero_page=off)");
		tap_done();
	}
	booted_persistent = strstr(orig, "[persistent]") != NULL;
	p = huge_area(NPMD * HPAGE_SIZE);
	tap_plan(16);
	if (!p) {
		tap_ok(0, "an 8-PMD area with MADV_HUGEPAGE");
		tap_done();
	}

	tap_ok(set_lifetime("refcount\n") == 0, "switch to refcount");
	h0 = huge_zero_holders();
	read_pmds(0, 2);
	check(h0 + 2, "refcount: 2 PMDs, 2 references");
	tap_ok(set_lifetime("per-mm") == 0, "switch to per-mm (no newline)");
	read_pmds(2, 4);
	check(h0 + 3, "per-mm: 2 PMDs more, 1 reference for the mm");
	tap_ok(self_kb("RssZero") == 4 * 2048, "RssZero %lld kB for 4 PMDs",
	       self_kb("RssZero"));

	/* fork under per-mm: the child's copies take its mm's one. */
	pid = fork();
	if (pid == 0)
		_exit(huge_zero_holders() == h0 + 4 ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "fork under per-mm: the child's 4 PMDs hold its mm's reference");
	check(h0 + 3, "and its exit gives it back");
	/* fork under refcount: one per copied PMD, whatever the parent's. */
	set_lifetime("refcount");
	pid = fork();
	if (pid == 0)
		_exit(huge_zero_holders() == h0 + 7 ? 0 : 1);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "fork under refcount: the child's 4 PMDs hold 4");
	check(h0 + 3, "and its exit gives them back");

	/* Still refcount: per-mm's PMDs give nothing back, refcount's one. */
	munmap(p + 2 * HPAGE_SIZE, HPAGE_SIZE);
	p[0] = 1;		/* a split: the PMD's reference goes */
	check(h0 + 2, "munmap of a per-mm PMD, a write to a refcount one");
	set_lifetime("per-mm");
	madvise(p + HPAGE_SIZE, HPAGE_SIZE, MADV_DONTNEED);
	check(h0 + 1, "per-mm again: MADV_DONTNEED of a refcount PMD");

	if (booted_persistent) {
		set_lifetime("persistent");
		read_pmds(4, 6);
		check(h0 + 1, "persistent: 2 PMDs, no reference");
		set_lifetime("refcount");
		munmap(p + 4 * HPAGE_SIZE, HPAGE_SIZE);
		read_pmds(6, 7);
		set_lifetime("persistent");
		munmap(p + 6 * HPAGE_SIZE, HPAGE_SIZE);
		check(h0 + 1, "persistent's PMD unmapped under refcount, and "
		      "refcount's under persistent");
	} else {
		tap_skip("persistent pins the page for good: only when booted "
			 "with it");
		tap_skip("persistent pins the page for good: only when booted "
			 "with it");
	}

	tap_ok(set_lifetime("never") == EINVAL, "another word: EINVAL");
	tap_ok(set_lifetime("per-mm ") == EINVAL,
	       "a trailing space: EINVAL (only a newline may end it)");
	/* the booted lifetime back: the name between the brackets */
	sscanf(strchr(orig, '[') ? strchr(orig, '[') : "[", "[%31[^]]", name);
	tap_ok(set_lifetime(name) == 0 && read_file(FILE, mode,
						    sizeof(mode)) >= 0 &&
	       strcmp(mode, orig) == 0, "%s again: %s", name, mode);
	munmap(p, NPMD * HPAGE_SIZE);
	tap_done();

skip_all:
	tap_plan(1);
	tap_skip("no %s (zpk's)", FILE);
	tap_done();
}
