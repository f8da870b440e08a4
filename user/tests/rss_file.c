/* user/tests/rss_file.c — RssFile and RssShmem follow file and shared
 * mappings: reads map file pages, a private write moves one to RssAnon. */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

#define NS	64	/* shared anonymous pages */

/* Present pages of [p, p + n pages) that pagemap shows as file pages
 * (*file) and as anonymous ones (the return); -1 if it cannot be read. */
static int present_pages(char *p, int n, int *file)
{
	static uint64_t e[256];
	int anon = 0;

	*file = 0;
	if (n > 256 || pagemap_read(0, (unsigned long)p, e, n) != n)
		return -1;
	for (int i = 0; i < n; i++)
		if (e[i] & PM_PRESENT)
			(e[i] & PM_FILE) ? (*file)++ : anon++;
	return anon;
}

/* Our own executable is a file on a real file system on both kernels
 * (/tmp may be tmpfs on Linux, whose pages count as RssShmem). A
 * read-only private mapping of it shows reads as RssFile; a writable one
 * is counted as pagemap shows it, whenever the kernel maps its pages
 * (at the first touch, or at the mmap), and a write moves a file page
 * to RssAnon. */
static void file_checks(const char *path)
{
	long long f0, f1, f2, f3, a0, a1, a2, a3;
	int fd, i, np, ok_pm = 1, nf, na, rf, ra;
	uint64_t e[256];
	struct stat st;
	char *r, *w, c;

	fd = open(path, O_RDONLY);
	if (!tap_ok(fd >= 0 && fstat(fd, &st) == 0, "open %s read-only", path))
		tap_done();
	np = (st.st_size + PAGE_SIZE - 1) / PAGE_SIZE;
	if (np > 256)
		np = 256;
	f0 = self_kb("RssFile");
	a0 = self_kb("RssAnon");
	r = mmap(NULL, np * PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0);
	w = mmap(NULL, np * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		 fd, 0);
	if (!tap_ok(r != MAP_FAILED && w != MAP_FAILED, "mmap MAP_PRIVATE "
		    "its %d pages, read-only and writable", np))
		tap_done();
	a1 = self_kb("RssAnon");
	f1 = self_kb("RssFile");
	na = present_pages(w, np, &nf);
	ra = present_pages(r, np, &rf);
	tap_ok(ra == 0 && kb_near(f1 - f0, (rf + nf) * 4LL) &&
	       kb_near(a1 - a0, na * 4LL), "the mmaps add what pagemap shows "
	       "present: %d file pages (%+lld kB), %d anonymous (%+lld kB)",
	       rf + nf, f1 - f0, na, a1 - a0);
	for (i = 0; i < np; i++)
		peek(r + (long)i * PAGE_SIZE);
	f2 = self_kb("RssFile");
	tap_ok(kb_near(f2 - f0, (np + nf) * 4LL), "with the %d read-only "
	       "pages read, RssFile is %d kB above what it was before (%+lld)",
	       np, np * 4, f2 - f0 - nf * 4LL);
	if (pagemap_read(0, (unsigned long)r, e, np) != np)
		ok_pm = 0;
	for (i = 0; ok_pm && i < np; i++)
		ok_pm = (e[i] & PM_PRESENT) && (e[i] & PM_FILE);
	tap_ok(ok_pm, "pagemap: every page present with the file bit (61)");

	c = peek(w + PAGE_SIZE);
	ok_pm = pagemap_read(0, (unsigned long)w + PAGE_SIZE, e, 1) == 1 &&
		(e[0] & PM_FILE);
	f2 = self_kb("RssFile");
	a2 = self_kb("RssAnon");
	poke(w + PAGE_SIZE, c ^ 0xff);
	f3 = self_kb("RssFile");
	a3 = self_kb("RssAnon");
	if (ok_pm)
		tap_ok(kb_near(f3, f2 - 4) && kb_near(a3, a2 + 4), "a write "
		       "moves the page from RssFile to RssAnon (file %+lld, anon "
		       "%+lld kB)", f3 - f2, a3 - a2);
	else
		tap_ok(kb_near(f3, f2) && kb_near(a3, a2), "a write to a page "
		       "already private moves nothing (file %+lld, anon %+lld kB)",
		       f3 - f2, a3 - a2);
	na = present_pages(w, np, &nf);
	tap_ok(na >= 1 && kb_near(a3 - a0, na * 4LL), "RssAnon counts the "
	       "writable mapping's %d anonymous pages (%+lld kB)", na, a3 - a0);
	ok_pm = pagemap_read(0, (unsigned long)w + PAGE_SIZE, e, 1) == 1 &&
		(e[0] & PM_PRESENT) && !(e[0] & PM_FILE) &&
		(e[0] & PM_EXCLUSIVE);
	tap_ok(ok_pm, "pagemap: the written page is anonymous, exclusive "
	       "(%#llx)", (unsigned long long)e[0]);
	tap_ok(pread(fd, &c, 1, PAGE_SIZE) == 1 &&
	       c != (char)peek(w + PAGE_SIZE), "the file itself is unchanged");
	munmap(r, np * PAGE_SIZE);
	munmap(w, np * PAGE_SIZE);
	close(fd);
	tap_ok(kb_near(self_kb("RssFile"), f0), "munmap lowers RssFile back "
	       "(%lld kB, was %lld)", self_kb("RssFile"), f0);
}

/* Every page i of p holds v + i in its first byte? */
static int holds(char *p, int v)
{
	int i;

	for (i = 0; i < NS; i++)
		if (p[(long)i * PAGE_SIZE] != (char)(v + i))
			return 0;
	return 1;
}

static void fill(char *p, int v)
{
	int i;

	for (i = 0; i < NS; i++)
		p[(long)i * PAGE_SIZE] = v + i;
}

static void shared_checks(void)
{
	long long s0, s1;
	int go[2], back[2], st = -1, seen = 0;
	uint64_t e;
	char *p, c = 0;
	pid_t pid;

	s0 = self_kb("RssShmem");
	p = mmap(NULL, NS * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(p != MAP_FAILED, "mmap MAP_SHARED|MAP_ANONYMOUS %d pages",
		    NS))
		tap_done();
	fill(p, 1);
	s1 = self_kb("RssShmem");
	tap_ok(kb_near(s1 - s0, NS * 4LL), "with them written, RssShmem is %d "
	       "kB above what it was before the mmap (%+lld)", NS * 4, s1 - s0);
	tap_ok(pagemap_read(0, (unsigned long)p, &e, 1) == 1 &&
	       (e & PM_PRESENT) && (e & PM_FILE), "pagemap: a shared anonymous "
	       "page has the file/shared bit (61)");

	pipe(go);
	pipe(back);
	pid = fork();
	if (pid == 0) {
		/* Report what we see, write our own values, report done. */
		c = holds(p, 1);
		fill(p, 50);
		write(back[1], &c, 1);
		read(go[0], &c, 1);
		c = holds(p, 100);
		write(back[1], &c, 1);
		_exit(0);
	}
	read(back[0], &c, 1);
	seen = holds(p, 50);
	tap_ok(c == 1, "the child sees the parent's writes");
	tap_ok(seen, "the parent sees the child's writes");
	fill(p, 100);
	write(go[1], "g", 1);
	c = 0;
	read(back[0], &c, 1);
	waitpid(pid, &st, 0);
	tap_ok(c == 1 && st == 0, "the child sees the parent's later writes "
	       "(%s)", status_str(st));
	munmap(p, NS * PAGE_SIZE);
	tap_ok(kb_near(self_kb("RssShmem"), s0), "munmap lowers RssShmem back "
	       "(%lld kB)", self_kb("RssShmem"));
	close(go[0]);
	close(go[1]);
	close(back[0]);
	close(back[1]);
}

int main(int argc, char **argv)
{
	(void)argc;
	need_proc();
	tap_plan(17);
	file_checks(argv[0]);
	shared_checks();
	tap_done();
}
