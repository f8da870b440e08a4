/* user/lib/procfs.c — the one parser for /proc files, used by the tools and
 * the tests alike, so zpk's /proc and Linux's are read by the same code. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "procfs.h"

char *proc_read(const char *path, size_t *len)
{
	size_t got = 0, cap = 4096;
	char *buf, *nb;
	ssize_t r;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		if (got + 1 >= cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + got, cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			buf = NULL;
			errno = err;
			break;
		}
		if (r == 0)
			break;
		got += r;
	}
	close(fd);
	if (!buf)
		return NULL;
	buf[got] = '\0';
	if (len)
		*len = got;
	return buf;
}

/* Keys match whole: "Rss" must not match "RssAnon:" nor "Pss_Rss". */
long long proc_field(const char *text, const char *end, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	if (!end)
		end = text + strlen(text);
	while (p < end) {
		if ((size_t)(end - p) > kl && memcmp(p, key, kl) == 0 &&
		    p[kl] == ':')
			return strtoll(p + kl + 1, NULL, 10);
		while (p < end && *p != '\n' && *p != '\0')
			p++;
		p++;
	}
	return -1;
}

long long proc_kb(const char *path, const char *key)
{
	long long v;
	char *t;

	t = proc_read(path, NULL);
	if (!t)
		return -1;
	v = proc_field(t, NULL, key);
	free(t);
	return v;
}

long long smaps_kb(const void *addr, const char *key)
{
	unsigned long a = (unsigned long)addr;
	struct proc_map m;
	long long v = -1;
	char *t, *cur;

	t = proc_read("/proc/self/smaps", NULL);
	if (!t)
		return -1;
	for (cur = t; proc_maps_next(&cur, &m);)
		if (m.start <= a && a < m.end) {
			v = proc_field(m.fields, m.fields_end, key);
			break;
		}
	free(t);
	return v;
}

long long proc_vmstat(const char *text, const char *name)
{
	size_t nl = strlen(name);
	const char *p = text;

	while (*p) {
		if (strncmp(p, name, nl) == 0 && p[nl] == ' ')
			return strtoll(p + nl + 1, NULL, 10);
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return -1;
}

int proc_stat_parse(const char *text, struct proc_stat *st)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	size_t n;

	memset(st, 0, sizeof(*st));
	if (!open || !close || close < open)
		return -1;
	st->pid = atoi(text);
	n = close - open - 1;
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';
	/* Fields 3..: state ppid pgrp session tty tpgid flags minflt cminflt
	 * majflt cmajflt utime stime cutime cstime prio nice threads
	 * itrealvalue starttime vsize rss. */
	if (sscanf(close + 1, " %c %d %*d %*d %*d %*d %*u %lu %*u %lu %*u "
		   "%lu %lu %*d %*d %*d %*d %*d %*d %*u %lu %ld",
		   &st->state, &st->ppid, &st->minflt, &st->majflt, &st->utime,
		   &st->stime, &st->vsize, &st->rss) != 8)
		return -1;
	return 0;
}

static char *pid_path(char *buf, size_t n, int pid, const char *file)
{
	if (pid)
		snprintf(buf, n, "/proc/%d/%s", pid, file);
	else
		snprintf(buf, n, "/proc/self/%s", file);
	return buf;
}

int proc_stat_read(int pid, struct proc_stat *st)
{
	char path[64], *t;
	int r;

	t = proc_read(pid_path(path, sizeof(path), pid, "stat"), NULL);
	if (!t)
		return -1;
	r = proc_stat_parse(t, st);
	free(t);
	if (r < 0)
		errno = EINVAL;
	return r;
}

int proc_statm_read(int pid, struct proc_statm *sm)
{
	char path[64], *t;
	int r;

	t = proc_read(pid_path(path, sizeof(path), pid, "statm"), NULL);
	if (!t)
		return -1;
	r = sscanf(t, "%ld %ld %ld %ld %ld %ld %ld", &sm->size, &sm->resident,
		   &sm->shared, &sm->text, &sm->lib, &sm->data, &sm->dt);
	free(t);
	if (r != 7) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* A maps line or smaps header: "start-end perms ..."; a field line's first
 * word ends in ':' and has no '-'. */
static int is_header(const char *p)
{
	const char *sp = p + strcspn(p, " \n");

	return isxdigit((unsigned char)*p) && memchr(p, '-', sp - p) &&
	       sp[-1] != ':';
}

static int parse_header(char *line, struct proc_map *m)
{
	int pos = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%lx-%lx %4s %lx %15s %lu %n", &m->start, &m->end,
		   m->perms, &m->offset, m->dev, &m->inode, &pos) < 6)
		return -1;
	m->name = pos ? line + pos : "";
	return 0;
}

int proc_maps_next(char **cur, struct proc_map *m)
{
	char *p = *cur, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		*cur = nl ? nl + 1 : p + strlen(p);
		if (is_header(p) && parse_header(p, m) == 0)
			break;
		p = *cur;
	}
	if (!*p)
		return 0;
	/* The smaps fields run to the next header. */
	m->fields = p = *cur;
	while (*p && !is_header(p)) {
		nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	m->fields_end = *cur = p;
	return 1;
}

long pagemap_read(int pid, unsigned long vaddr, uint64_t *ents, size_t n)
{
	char path[64];
	ssize_t r;
	int fd;

	fd = open(pid_path(path, sizeof(path), pid, "pagemap"), O_RDONLY);
	if (fd < 0)
		return -1;
	r = pread(fd, ents, n * 8, (off_t)(vaddr / 4096) * 8);
	close(fd);
	return r < 0 ? -1 : r / 8;
}

int pagemap_one_block(const void *p, size_t n)
{
	static uint64_t e[512];

	if (n > 512 || pagemap_read(0, (unsigned long)p, e, n) != (long)n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!(e[i] & PM_PRESENT) ||
		    (PM_PFN(e[0]) && PM_PFN(e[i]) != PM_PFN(e[0]) + i))
			return 0;
	return 1;
}

long kpage_read(const char *path, uint64_t pfn, uint64_t *out, size_t n)
{
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	r = pread(fd, out, n * 8, (off_t)pfn * 8);
	close(fd);
	return r < 0 ? -1 : r / 8;
}

static long long kpage_one(const char *path, uint64_t pfn)
{
	uint64_t v;

	if (kpage_read(path, pfn, &v, 1) != 1)
		return -1;
	return (long long)v;
}

long long kpageflags(uint64_t pfn)
{
	return kpage_one("/proc/kpageflags", pfn);
}

long long kpagecount(uint64_t pfn)
{
	return kpage_one("/proc/kpagecount", pfn);
}

/* Scan kpageflags in chunks for the first page marked ZERO_PAGE. */
static long long scan_zero_page(void)
{
	static uint64_t chunk[4096];
	uint64_t pfn = 0;
	long n, i;
	int fd;

	fd = open("/proc/kpageflags", O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = pread(fd, chunk, sizeof(chunk), pfn * 8) / 8) > 0) {
		for (i = 0; i < n; i++)
			if (chunk[i] >> KPF_ZERO_PAGE & 1) {
				close(fd);
				return pfn + i;
			}
		pfn += n;
	}
	close(fd);
	return -1;
}

long long zero_page_pfn(void)
{
	long long flags, pfn = -1;
	uint64_t e;
	char *p;

	/* A read of untouched anonymous memory maps the zero page when the
	 * kernel uses one: ask pagemap where, and check that pfn's flags. */
	p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		*(volatile char *)p;
		if (pagemap_read(0, (unsigned long)p, &e, 1) == 1 &&
		    (e & PM_PRESENT) && PM_PFN(e))
			pfn = PM_PFN(e);
		munmap(p, 4096);
	}
	if (pfn > 0) {
		flags = kpageflags(pfn);
		if (flags < 0)
			return -1;
		if (flags >> KPF_ZERO_PAGE & 1)
			return pfn;
	}
	return scan_zero_page();
}

static const char *const kpf_name[] = {
	"locked", "error", "referenced", "uptodate", "dirty", "lru",
	"active", "slab", "writeback", "reclaim", "buddy", "mmap", "anon",
	"swapcache", "swapbacked", "compound_head", "compound_tail", "huge",
	"unevictable", "hwpoison", "nopage", "ksm", "thp", "offline",
	"zero_page", "idle", "pgtable", NULL, NULL, NULL, NULL, NULL,
	/* 32..: Linux's kernel-internal bits, shown to root. */
	"reserved", "mlocked", "mappedtodisk", "private", "private_2",
	"owner_private", "arch", "uncached", "softdirty", "arch_2", "arch_3",
};

const char *kpf_names(uint64_t flags, char *buf, size_t n)
{
	size_t o = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < 64 && o < n; i++) {
		if (!(flags >> i & 1))
			continue;
		if (i < sizeof(kpf_name) / sizeof(kpf_name[0]) && kpf_name[i])
			o += snprintf(buf + o, n - o, "%s%s", o ? "," : "",
				      kpf_name[i]);
		else
			o += snprintf(buf + o, n - o, "%sbit%u", o ? "," : "",
				      i);
	}
	return buf;
}
