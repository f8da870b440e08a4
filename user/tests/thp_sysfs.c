/* user/tests/thp_sysfs.c — /sys/kernel/mm/transparent_hugepage as Linux
 * 6.1's: the files and their modes, the texts, EINVAL for a bad word or
 * number, EACCES for a read-only file and for a non-root writer, and
 * use_zero_page 0 giving a read fault a real THP. Writes that change a
 * value run on zpk only (on Linux they would change this host's THP);
 * writing a value back, and bad writes, which change nothing, run on
 * both. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define THP	"/sys/kernel/mm/transparent_hugepage/"
#define HPAGE	(2UL << 20)

static const struct {
	const char *name;
	int mode;
} files[] = {
	{ "enabled", 0644 }, { "defrag", 0644 }, { "use_zero_page", 0644 },
	{ "hpage_pmd_size", 0444 }, { "shmem_enabled", 0644 },
	{ "khugepaged/defrag", 0644 }, { "khugepaged/pages_to_scan", 0644 },
	{ "khugepaged/scan_sleep_millisecs", 0644 },
	{ "khugepaged/alloc_sleep_millisecs", 0644 },
	{ "khugepaged/max_ptes_none", 0644 },
	{ "khugepaged/max_ptes_swap", 0644 },
	{ "khugepaged/max_ptes_shared", 0644 },
	{ "khugepaged/pages_collapsed", 0444 },
	{ "khugepaged/full_scans", 0444 },
};
#define NFILES	(sizeof(files) / sizeof(files[0]))

static char *thp_read(const char *name, char *buf, size_t n)
{
	char path[128];

	snprintf(path, sizeof(path), THP "%s", name);
	if (read_file(path, buf, n) < 0)
		buf[0] = '\0';
	return buf;
}

/* One write(2) of text to the file: 0, or the errno. */
static int thp_write(const char *name, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), THP "%s", name);
	return write_file(path, text);
}

/* words, space-separated, with exactly one of them bracketed: Linux's
 * text of a choice ("always [madvise] never\n"). */
static int is_choice(const char *text, const char *const *words, int n)
{
	char want[160], *b;
	size_t k;
	int chosen = 0;

	for (int i = 0; i < n && !chosen; i++) {
		want[0] = '\0';
		for (int j = 0; j < n; j++) {
			k = strlen(want);
			snprintf(want + k, sizeof(want) - k,
				 j == i ? "%s[%s]" : "%s%s", j ? " " : "",
				 words[j]);
		}
		strcat(want, "\n");
		chosen = !strcmp(text, want);
	}
	b = strchr(text, '[');
	return chosen && b && !strchr(b + 1, '[');
}

static const char *const enabled_words[] = { "always", "madvise", "never" };
static const char *const defrag_words[] = {
	"always", "defer", "defer+madvise", "madvise", "never" };
static const char *const shmem_words[] = {
	"always", "within_size", "advise", "never", "deny", "force" };

/* The bracketed word of a choice, for writing back. */
static char *chosen(char *text)
{
	char *b = strchr(text, '['), *e = b ? strchr(b, ']') : NULL;

	if (!e)
		return text;
	*e = '\0';
	return b + 1;
}

static void test_files(void)
{
	struct stat st;
	char buf[256], bad[160] = "";
	size_t i;

	for (i = 0; i < NFILES; i++) {
		snprintf(buf, sizeof(buf), THP "%s", files[i].name);
		if (stat(buf, &st) || !S_ISREG(st.st_mode) ||
		    (st.st_mode & 07777) != (unsigned)files[i].mode)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " %s", files[i].name);
	}
	tap_ok(!bad[0] && !stat(THP "khugepaged", &st) && S_ISDIR(st.st_mode),
	       "Linux 6.1's files, 0644 where writable, 0444 not (wrong:%s)",
	       bad[0] ? bad : " none");
	thp_read("enabled", buf, sizeof(buf));
	tap_ok(is_choice(buf, enabled_words, 3), "enabled: %.*s",
	       (int)strcspn(buf, "\n"), buf);
	thp_read("defrag", buf, sizeof(buf));
	tap_ok(is_choice(buf, defrag_words, 5), "defrag: %.*s",
	       (int)strcspn(buf, "\n"), buf);
	thp_read("shmem_enabled", buf, sizeof(buf));
	tap_ok(is_choice(buf, shmem_words, 6), "shmem_enabled: %.*s",
	       (int)strcspn(buf, "\n"), buf);
	thp_read("use_zero_page", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "0\n") || !strcmp(buf, "1\n"),
	       "use_zero_page: %.*s", (int)strcspn(buf, "\n"), buf);
	thp_read("hpage_pmd_size", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "2097152\n"), "hpage_pmd_size: %.*s",
	       (int)strcspn(buf, "\n"), buf);
	bad[0] = '\0';
	for (i = 5; i < NFILES; i++) {
		char *end;

		thp_read(files[i].name, buf, sizeof(buf));
		strtoul(buf, &end, 10);
		if (end == buf || strcmp(end, "\n"))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 " %s", files[i].name);
	}
	tap_ok(!bad[0], "khugepaged's files read as numbers (not:%s)",
	       bad[0] ? bad : " none");
}

/* Writes that change nothing: a bad word or number (EINVAL), a value
 * written back as read (its length), a read-only file (EACCES). */
static void test_writes_any(void)
{
	static const char *const bad[][2] = {
		{ "enabled", "sometimes" }, { "enabled", "alway" },
		{ "enabled", "[madvise]" }, { "defrag", "defer+" },
		{ "shmem_enabled", "within" }, { "use_zero_page", "2" },
		{ "use_zero_page", "yes" }, { "khugepaged/defrag", "2" },
		{ "khugepaged/max_ptes_none", "512" },
		{ "khugepaged/max_ptes_swap", "-1" },
		{ "khugepaged/max_ptes_shared", "512" },
		{ "khugepaged/pages_to_scan", "0" },
		{ "khugepaged/scan_sleep_millisecs", "4294967296" },
		{ "khugepaged/alloc_sleep_millisecs", "1s" },
	};
	char buf[256], wrong[200] = "";
	size_t i;
	int fd, e;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (thp_write(bad[i][0], bad[i][1]) != EINVAL)
			snprintf(wrong + strlen(wrong),
				 sizeof(wrong) - strlen(wrong), " %s=%s",
				 bad[i][0], bad[i][1]);
	tap_ok(!wrong[0], "bad words and numbers: EINVAL (not:%s)",
	       wrong[0] ? wrong : " none");
	wrong[0] = '\0';
	for (i = 0; i < NFILES; i++) {
		char *v;

		if (files[i].mode != 0644)
			continue;
		thp_read(files[i].name, buf, sizeof(buf));
		v = chosen(buf);
		if (thp_write(files[i].name, v))
			snprintf(wrong + strlen(wrong),
				 sizeof(wrong) - strlen(wrong), " %s",
				 files[i].name);
	}
	tap_ok(!wrong[0], "each value written back as read is taken "
	       "(not:%s)", wrong[0] ? wrong : " none");
	fd = open(THP "hpage_pmd_size", O_WRONLY);
	e = errno;
	tap_ok(fd < 0 && e == EACCES, "hpage_pmd_size for writing: EACCES (%s)",
	       fd < 0 ? strerror(e) : "opened");
	if (fd >= 0)
		close(fd);
}

/* A non-root writer: EACCES at the open, as the 0644 mode says. */
static void test_non_root(void)
{
	int status = 0;
	pid_t pid;

	if (is_zpk()) {
		tap_skip("non-root writer: every zpk process is root (no "
			 "setuid)");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(THP "enabled", O_WRONLY);
		_exit(fd < 0 && errno == EACCES ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		status = -1;
	tap_ok(status == 0, "a non-root writer: EACCES (%s)",
	       status_str(status));
}

/* zpk only: each write takes, and a read shows it; then back. */
static void test_writes_zpk(void)
{
	static const char *const set[][3] = {
		{ "enabled", "never\n", "always madvise [never]\n" },
		{ "enabled", "always", "[always] madvise never\n" },
		{ "defrag", "defer+madvise",
		  "always defer [defer+madvise] madvise never\n" },
		{ "shmem_enabled", "force\n",
		  "always within_size advise never deny [force]\n" },
		{ "use_zero_page", "0", "0\n" },
		{ "use_zero_page", "+1\n", "1\n" },
		{ "khugepaged/defrag", "0", "0\n" },
		{ "khugepaged/max_ptes_none", "511", "511\n" },
		{ "khugepaged/max_ptes_none", "0", "0\n" },
		{ "khugepaged/pages_to_scan", "1", "1\n" },
		{ "khugepaged/scan_sleep_millisecs", "4294967295",
		  "4294967295\n" },
	};
	char saved[NFILES][64], buf[256], wrong[256] = "";
	size_t i;

	if (!is_zpk()) {
		tap_skip("writes that change a value: this host's own THP");
		return;
	}
	for (i = 0; i < NFILES; i++)
		snprintf(saved[i], sizeof(saved[i]), "%s",
			 chosen(thp_read(files[i].name, buf, sizeof(buf))));
	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++)
		if (thp_write(set[i][0], set[i][1]) ||
		    strcmp(thp_read(set[i][0], buf, sizeof(buf)), set[i][2]))
			snprintf(wrong + strlen(wrong),
				 sizeof(wrong) - strlen(wrong), " %s=%.*s",
				 set[i][0], (int)strcspn(set[i][1], "\n"),
				 set[i][1]);
	for (i = 0; i < NFILES; i++)
		if (files[i].mode == 0644)
			thp_write(files[i].name, saved[i]);
	tap_ok(!wrong[0], "writes take and read back (not:%s)",
	       wrong[0] ? wrong : " none");
}

static long long vmstat(const char *name)
{
	char *text = proc_read("/proc/vmstat", NULL);
	long long v = text ? proc_vmstat(text, name) : -1;

	free(text);
	return v;
}

/* zpk only: use_zero_page 0 gives a read fault a THP of its own. */
static void test_use_zero_page(void)
{
	long long alloc = vmstat("thp_fault_alloc");
	long long fallback = vmstat("thp_fault_fallback");
	char *raw, *p, old[16];

	if (!is_zpk() || strstr(thp_read("enabled", old, sizeof(old)),
				"[never]")) {
		tap_skip("use_zero_page 0: %s", is_zpk() ? "THP is never" :
			 "this host's own THP");
		return;
	}
	thp_read("use_zero_page", old, sizeof(old));
	raw = mmap(NULL, 2 * HPAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = (char *)(((unsigned long)raw + HPAGE - 1) & ~(HPAGE - 1));
	thp_write("use_zero_page", "0");
	madvise(p, HPAGE, MADV_HUGEPAGE);
	(void)peek(p);
	thp_write("use_zero_page", old);
	if (vmstat("thp_fault_fallback") > fallback)
		tap_skip("use_zero_page 0: no free 2 MiB block");
	else
		tap_ok(vmstat("thp_fault_alloc") == alloc + 1 &&
		       self_kb("RssAnon") >= 2048,
		       "use_zero_page 0: a read fault allocates a THP "
		       "(thp_fault_alloc %+lld, RssAnon %lld kB)",
		       vmstat("thp_fault_alloc") - alloc, self_kb("RssAnon"));
	munmap(raw, 2 * HPAGE);
}

int main(void)
{
	need_proc();
	if (access(THP, F_OK)) {
		tap_plan(1);
		tap_skip("no %s on this kernel", THP);
		tap_done();
	}
	tap_plan(13);
	test_files();
	if (geteuid()) {
		tap_skip("bad writes: not root");
		tap_skip("writes back: not root");
		tap_skip("read-only file: not root");
	} else {
		test_writes_any();
	}
	test_non_root();
	test_writes_zpk();
	test_use_zero_page();
	tap_done();
}
