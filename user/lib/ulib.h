/* user/lib/ulib.h — helpers shared by zpk's user tests: TAP output, memory
 * figures from sysinfo, small file and child-process helpers. */
#ifndef ULIB_H
#define ULIB_H

#include <stddef.h>
#include <sys/mman.h>

#define PAGE_SIZE 4096

/* madvise advice newer than some libcs' headers (Linux's values). */
#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE		14
#define MADV_NOHUGEPAGE		15
#endif
#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK		18
#define MADV_KEEPONFORK		19
#endif
#ifndef MADV_COLD
#define MADV_COLD		20
#define MADV_PAGEOUT		21
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE		25
#endif

/* TAP: "1..N", then one "ok"/"not ok" line per check, exit 0 iff all passed.
 * Output goes straight to write(1): no stdio buffer to duplicate on fork. */
void tap_plan(int n);
int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_done(void) __attribute__((noreturn));
/* "N passed, N failed" (", N skipped" when some were): the runner's end. */
void tap_summary(void);

/* Pages a test may leave allocated on zpk and still pass a leak check
 * (a slab cache that grew and stays grown).  0: come back exactly. */
#define LEAK_SLACK 0

/* Free RAM in 4 KiB pages (sysinfo freeram * mem_unit / 4096). */
long sysinfo_free_pages(void);
/* The free pages once those of before (less LEAK_SLACK) are back, or
 * after 100 ms: what a leak check reads. The kernel frees some pages just
 * after the call that let them go returns: a dead thread's stack when its
 * CPU next switches, which may be after its process was reaped. */
long free_pages_back(long before);

/* Pins the caller (and the children it forks) to one CPU, the first it
 * may run on: a test that counts free pages across a fork then sees the
 * parent asleep before the child counts, as on one CPU (the count is
 * system-wide, and a parent running beside its child copies its stack).
 * 0, or -1 if the affinity calls failed. */
int pin_to_one_cpu(void);
/* Pins the caller (a process, or with threads the calling thread) to the
 * k-th CPU it may run on, counting round; 0, or -1 if the calls failed. */
int pin_to_nth_cpu(int k);
/* Waits until n parties (threads, or processes sharing the two ints in
 * MAP_SHARED memory, both 0 at first) have called it, spinning so that
 * they leave together; after a few microseconds a party sleeps on a futex
 * instead (fewer CPUs than parties, or a virtual CPU its host preempted),
 * and the last to arrive wakes them. */
void spin_barrier(int *arrived, int *generation, int n);

/* Read up to n-1 bytes of path into buf, NUL-terminated; bytes or -1. */
long read_file(const char *path, char *buf, size_t n);
/* Write text to path, created or truncated (0644): 1 if all of it went. */
int write_text(const char *path, const char *text);

/* r is -1 with errno want: one check, "what: <want> (<what happened>)". */
int tap_fails(long r, int want, const char *what);

/* A test's own directory for its files, /tmp/NAME.PID: made (0) or not
 * (-1); at(name) names a file in it (the last two results stay valid). */
int test_dir_make(const char *name);
const char *test_dir(void);
const char *at(const char *name);

/* Writes s to path in one write(): 0, or the errno (EIO if short). */
int write_file(const char *path, const char *s);

/* zpk: the whole-system mm_verify sweep (/proc/sys/vm/mm_verify: every
 * mm, and every swap slot's count against its PTEs and the swap cache),
 * which the kernel makes at each exit only for the exiting mm; under
 * mm_verify=exit a difference is a BUG. 1 if clean (or not there:
 * Linux), 0 if the write failed. */
int mm_verify_clean(void);

/* True when running on zpk (uname sysname), false on Linux. */
int is_zpk(void);

/* Run fn(arg) in a forked child that then _exits 0; return the raw wait
 * status, or -1 if fork or wait failed. */
int in_child(void (*fn)(void *), void *arg);

/* A store and a load the compiler can neither drop nor prove faulting:
 * tests use them to touch addresses that are meant to fault. */
void poke(volatile void *addr, unsigned char v);
unsigned char peek(const volatile void *addr);

/* A wait status as text: "exit 3", "signal 11 (Segmentation fault)". */
const char *status_str(int status);
/* Waits until pid sleeps ('S' in /proc/PID/stat), polling every
 * millisecond: 1, or 0 if it has not after 5 s. */
int wait_asleep(int pid);

/* Tests that read /proc start with this.  /proc has not merged into zpk
 * yet: there, with no /proc/self/status, the whole test is one skip ("skip:
 * no /proc on this kernel yet"; remove once /proc lands).  On Linux a
 * missing /proc fails the test. */
void need_proc(void);

/* A "Key: N kB" field of /proc/self/status, or -1 if absent. */
long long self_kb(const char *key);

/* The kernel log (user/lib/klog.c): cleared, and all of it since the
 * last clear (16 KiB at most), NUL-terminated, in a static buffer. */
void klog_clear(void);
const char *klog_read(void);

/* This process's minor and major faults so far (getrusage's ru_minflt
 * and ru_majflt). */
long self_minflt(void);
long self_majflt(void);

/* RSS figures must agree exactly on zpk.  Linux before 6.2 caches RSS
 * per task and folds it into the mm every 64 faults (6.2..6.15: per-CPU
 * counters, read unsummed), so /proc may lag by up to 64 pages there. */
#define LINUX_RSS_SLACK_KB	(64 * 4)
int kb_near(long long got, long long want);

/* 2 MiB, the PMD's huge page. */
#define HPAGE_SIZE	(2UL << 20)
/* len bytes (a multiple of 2 MiB), 2 MiB-aligned, private anonymous,
 * with MADV_HUGEPAGE: the unaligned ends of a mapping 2 MiB larger are
 * unmapped (Linux 6.1 does not align anonymous mappings). NULL if mmap
 * or madvise refused. */
char *huge_area(size_t len);

#endif
