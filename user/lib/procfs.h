/* user/lib/procfs.h — the one parser for /proc files, used by the tools and
 * the tests alike, so zpk's /proc and Linux's are read by the same code. */
#ifndef PROCFS_H
#define PROCFS_H

#include <stddef.h>
#include <stdint.h>

/* Read all of path (a /proc file reports size 0, so read until EOF) into a
 * malloc'd, NUL-terminated buffer; *len gets the length if len is set.
 * NULL with errno set if it cannot be opened or read. */
char *proc_read(const char *path, size_t *len);

/* "Key:   value kB" (or "Key: value") in text, stopping at end (NULL: at
 * the NUL).  The value, or -1 if the key is absent: zpk-only fields such
 * as RssZero come back -1 on Linux. */
long long proc_field(const char *text, const char *end, const char *key);

/* proc_field on a whole file: proc_kb("/proc/self/status", "VmRSS"). */
long long proc_kb(const char *path, const char *key);

/* The field key of this process's smaps entry that holds addr:
 * smaps_kb(p, "AnonHugePages"). -1 if no VMA holds addr. */
long long smaps_kb(const void *addr, const char *key);

/* "name value" lines of /proc/vmstat: the value, or -1 if absent. */
long long proc_vmstat(const char *text, const char *name);

/* proc_vmstat on /proc/vmstat read now: proc_vmstat_read("pswpin"). */
long long proc_vmstat_read(const char *name);
/* zpk's huge zero page: its references beyond its own (/proc/vmstat
 * huge_zero_refcount - 1; 0 while there is no page, -1 on Linux). */
long long huge_zero_holders(void);

/* The fields of /proc/PID/stat that the tools and tests use. */
struct proc_stat {
	int pid;
	char comm[64];		/* may hold spaces and ')' */
	char state;
	int ppid;
	unsigned long minflt, majflt, utime, stime;
	unsigned long vsize;
	long rss;		/* pages */
};

/* Parse a stat line; comm is found from the last ')'.  0 or -1. */
int proc_stat_parse(const char *text, struct proc_stat *st);
/* Read /proc/PID/stat (pid 0: self).  0 or -1 (errno set). */
int proc_stat_read(int pid, struct proc_stat *st);

/* /proc/PID/statm, in pages. */
struct proc_statm {
	long size, resident, shared, text, lib, data, dt;
};
int proc_statm_read(int pid, struct proc_statm *sm);

/* One line of /proc/PID/maps, or the header line of an smaps entry. */
struct proc_map {
	unsigned long start, end, offset, inode;
	char perms[5];		/* "rw-p" */
	char dev[16];		/* "fd:01" */
	const char *name;	/* "" for anonymous; points into the buffer */
	/* smaps only: the entry's "Key: value" lines, [fields, fields_end). */
	const char *fields, *fields_end;
};

/* Iterate a maps or smaps buffer from proc_read, in place (it writes NULs
 * into it): set *cur = buf, then while (proc_maps_next(&cur, &m)) ... ;
 * for smaps, m.fields are the lines up to the next entry; read them with
 * proc_field(m.fields, m.fields_end, "Rss").  1 per entry, 0 at the end. */
int proc_maps_next(char **cur, struct proc_map *m);

/* pagemap: a u64 per virtual page at offset vaddr / 4096 * 8. */
#define PM_PRESENT	(1ULL << 63)
#define PM_SWAP		(1ULL << 62)
#define PM_FILE		(1ULL << 61)	/* file page or shared anon */
#define PM_EXCLUSIVE	(1ULL << 56)	/* mapped by this mm only */
#define PM_UFFD_WP	(1ULL << 57)	/* userfaultfd write-protected */
#define PM_SOFT_DIRTY	(1ULL << 55)
#define PM_PFN(e)	((e) & ((1ULL << 55) - 1))

/* kpageflags bits (Linux's include/uapi/linux/kernel-page-flags.h). */
#define KPF_LOCKED	0
#define KPF_REFERENCED	2
#define KPF_UPTODATE	3
#define KPF_DIRTY	4
#define KPF_LRU		5
#define KPF_SLAB	7
#define KPF_BUDDY	10
#define KPF_MMAP	11
#define KPF_ANON	12
#define KPF_SWAPBACKED	14
#define KPF_NOPAGE	20
#define KPF_ZERO_PAGE	24
#define KPF_PGTABLE	26
#define KPF_RESERVED	32	/* Linux's kernel-internal bits from here */

/* Read n pagemap entries of pid (0: self) from vaddr.  Entries read (n,
 * or fewer past the end) or -1 with errno set. */
long pagemap_read(int pid, unsigned long vaddr, uint64_t *ents, size_t n);

/* Whether this process's n pages from p are all present and, where
 * pagemap shows pfns (root), at consecutive pfns: one physical block, as
 * a THP is (n up to 512). */
int pagemap_one_block(const void *p, size_t n);

/* Read n u64s at index pfn of /proc/kpageflags or /proc/kpagecount
 * (path).  Entries read or -1 (errno: EACCES/EPERM without root). */
long kpage_read(const char *path, uint64_t pfn, uint64_t *out, size_t n);

/* One page's kpageflags / kpagecount, or -1 if unreadable. */
long long kpageflags(uint64_t pfn);
long long kpagecount(uint64_t pfn);

/* The zero page's pfn: the pfn that kpageflags marks KPF_ZERO_PAGE.  A
 * read fault's pfn is tried first, then kpageflags is scanned.  -1 if
 * kpageflags is unreadable or no page carries the flag. */
long long zero_page_pfn(void);

/* Names of the set kpageflags bits, "anon,mmap,lru", into buf. */
const char *kpf_names(uint64_t flags, char *buf, size_t n);

#endif
