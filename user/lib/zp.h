/* user/lib/zp.h — what the zero-page tests share: the active policy, the
 * zero page's pfn, RSS/free/fault samples, fresh anonymous mappings. */
#ifndef ZP_H
#define ZP_H

#include <stddef.h>
#include <stdint.h>

enum zp_policy { ZP_SPECIAL, ZP_REFCOUNT, ZP_OFF };
extern const char *const zp_policy_names[3];

/* The active policy: the bracketed name in /proc/sys/vm/zero_page; else
 * special on Linux; on zpk zero_page= in /proc/cmdline, default special. */
int zp_policy(void);
const char *zp_policy_name(void);
/* Switch by writing name to /proc/sys/vm/zero_page: 0 or -1 (errno). */
int zp_set_policy(const char *name);
/* 1 if /proc/sys/vm/zero_page exists and we may write it. */
int zp_can_switch(void);

/* The zero page's pfn (cached), or -1 (no kpageflags, none flagged). */
long long zp_zero_pfn(void);
/* The behaviour to expect of a read fault of fresh anonymous memory.  zpk:
 * the policy.  Linux: special if pagemap shows the zero pfn, off if it
 * shows fresh pages (this 6.18 host does), special but unsure when pfns
 * are hidden (not root).  zp_why() says which, for notes and skips. */
int zp_mode(void);
int zp_sure(void);
const char *zp_why(void);
/* A "# policy ..., expecting ..." note: each test starts with it. */
void zp_note_mode(void);

/* tap_ok, or a skip when zp_sure() is false (the reason appended). */
int zp_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* tap_ok on zpk, a skip on Linux ("zpk-only"): RssZero, free pages,
 * vmstat zero_page_* counters. */
int zp_zpk_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One sample of a process's memory figures.  Files are read into static
 * pre-touched buffers: sampling itself adds no RSS. */
struct zp_sample {
	long long anon, file, shmem, zero;	/* kB; zero -1 if absent */
	long free;				/* sysinfo free pages */
	long minflt;				/* getrusage ru_minflt */
	long long refcount_ops, zp_refcount;	/* vmstat, -1 if absent */
	long long map;				/* vmstat zero_page_map */
};
void zp_sample(struct zp_sample *s);
/* The sample a test measures from: taken twice, so that the first one's
 * own start-up (pre-touching buffers and text, finding the zero pfn) is
 * behind it. */
void zp_baseline(struct zp_sample *s);
/* A vmstat counter, or -1 if absent. */
long long zp_vmstat(const char *name);

/* n fresh private anonymous pages (prot), inside one 2 MiB-aligned block
 * (n <= 511) whose page table already exists: the page after the last is
 * written (one RssAnon page), so faults in the n cost their pages only.
 * NULL on failure.  zp_unmap frees it, anchor page too. */
char *zp_map(size_t n, int prot);
void zp_unmap(char *p, size_t n);
/* A zero-page test's start: needs /proc, plans its checks, notes the
 * policy, and maps n fresh pages (zp_map) as its first check; exits
 * through tap_done if that fails. */
char *zp_begin(int plan, size_t n);

/* Touch one byte in each of n pages: read (summed, returned) or write. */
unsigned long zp_read(const char *p, size_t n);
void zp_write(char *p, size_t n, int v);

/* Pages of [p, p + n pages) that map the zero pfn (*excl: how many are
 * PM_EXCLUSIVE) / present pages with a pfn of their own (n <= 512); -1
 * if pagemap cannot be read. */
long zp_count_zero(const char *p, size_t n, long *excl);
long zp_count_distinct(const char *p, size_t n);

/* What n pages read-faulted between samples a and b must cost under the
 * mode: 4 checks (RssAnon, RssFile, RssZero, free pages), what names
 * them.  special: RssZero +n only; refcount: RssFile and RssZero +n;
 * off: RssAnon +n and n pages used. */
void zp_check_read(const struct zp_sample *a, const struct zp_sample *b,
		   long n, const char *what);
/* 1 check: the n pages at p all map the zero pfn and none is exclusive
 * (off: n present pages, all pfns distinct). */
void zp_check_pfns(const char *p, long n, const char *what);

/* 1 if every byte of len at p is zero. */
int zp_is_zero(const void *p, size_t len);

#endif
