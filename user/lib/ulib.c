/* user/lib/ulib.c — helpers shared by zpk's user tests: TAP output, memory
 * figures from sysinfo, small file and child-process helpers. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "procfs.h"
#include "ulib.h"

static int tap_planned, tap_count, tap_failed, tap_skipped;

/* One line per write(2), so lines from several processes never interleave. */
static void tap_vline(const char *prefix, const char *fmt, va_list ap,
		      const char *suffix)
{
	char buf[512];
	int n, m;

	n = snprintf(buf, sizeof(buf), "%s", prefix);
	m = vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	n = m < 0 ? n : n + m;
	if (n > (int)sizeof(buf) - 32)
		n = sizeof(buf) - 32;
	n += snprintf(buf + n, sizeof(buf) - n, "%s\n", suffix);
	write(1, buf, n);
}

void tap_plan(int n)
{
	char buf[32];

	tap_planned = n;
	write(1, buf, snprintf(buf, sizeof(buf), "1..%d\n", n));
}

int tap_ok(int cond, const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	snprintf(prefix, sizeof(prefix), "%sok %d - ", cond ? "" : "not ",
		 tap_count);
	va_start(ap, fmt);
	tap_vline(prefix, fmt, ap, "");
	va_end(ap);
	return cond;
}

void tap_skip(const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	tap_count++;
	tap_skipped++;
	snprintf(prefix, sizeof(prefix), "ok %d # SKIP ", tap_count);
	va_start(ap, fmt);
	tap_vline(prefix, fmt, ap, "");
	va_end(ap);
}

void tap_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline("# ", fmt, ap, "");
	va_end(ap);
}

void tap_done(void)
{
	if (tap_count != tap_planned) {
		tap_note("planned %d checks, ran %d", tap_planned, tap_count);
		_exit(1);
	}
	_exit(tap_failed ? 1 : 0);
}

void tap_summary(void)
{
	char buf[96];
	int n;

	n = snprintf(buf, sizeof(buf), "%d passed, %d failed",
		     tap_count - tap_failed - tap_skipped, tap_failed);
	if (tap_skipped)
		n += snprintf(buf + n, sizeof(buf) - n, ", %d skipped",
			      tap_skipped);
	buf[n++] = '\n';
	write(1, buf, n);
}

long sysinfo_free_pages(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0)
		return -1;
	return (long)((unsigned long long)si.freeram * si.mem_unit / 4096);
}

long free_pages_back(long before)
{
	long now = sysinfo_free_pages();

	for (int i = 0; i < 100 && now < before - LEAK_SLACK; i++) {
		usleep(1000);
		now = sysinfo_free_pages();
	}
	return now;
}

int pin_to_one_cpu(void)
{
	return pin_to_nth_cpu(0);
}

int pin_to_nth_cpu(int k)
{
	cpu_set_t all, one;
	int cpu, n = 0;

	if (sched_getaffinity(0, sizeof(all), &all) || !CPU_COUNT(&all))
		return -1;
	k %= CPU_COUNT(&all);
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &all) && n++ == k)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? -1 : 0;
}

/* How long a party spins before it sleeps on the futex: a few
 * microseconds, enough for parties on CPUs of their own to leave together;
 * longer only burns the time a virtual CPU without a host core needs. */
#define BARRIER_SPINS	2000
#define FUTEX_WAIT	0	/* <linux/futex.h>, which musl lacks */
#define FUTEX_WAKE	1

void spin_barrier(int *arrived, int *generation, int n)
{
	int gen = __atomic_load_n(generation, __ATOMIC_ACQUIRE);

	if (__atomic_add_fetch(arrived, 1, __ATOMIC_ACQ_REL) == n) {
		__atomic_store_n(arrived, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(generation, 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, generation, FUTEX_WAKE, 0x7fffffff, NULL,
			NULL, 0);
		return;
	}
	for (int spins = 1;
	     __atomic_load_n(generation, __ATOMIC_ACQUIRE) == gen; spins++)
		if (spins >= BARRIER_SPINS)
			syscall(SYS_futex, generation, FUTEX_WAIT, gen, NULL,
				NULL, 0);
}

/* s to path in one write of a file opened with flags: 0 or the errno
 * (EIO if short). */
static int write_once(const char *path, int flags, const char *s)
{
	size_t n = strlen(s);
	int fd = open(path, flags, 0644), err = 0;
	ssize_t r;

	if (fd < 0)
		return errno;
	r = write(fd, s, n);
	if (r < 0)
		err = errno;
	else if ((size_t)r != n)
		err = EIO;
	close(fd);
	return err;
}

int write_text(const char *path, const char *text)
{
	return !write_once(path, O_WRONLY | O_CREAT | O_TRUNC, text);
}

int tap_fails(long r, int want, const char *what)
{
	int err = errno;

	return tap_ok(r == -1 && err == want, "%s: %s (%s)", what,
		      strerror(want), r == -1 ? strerror(err) : "succeeded");
}

static char test_top[64];

int test_dir_make(const char *name)
{
	snprintf(test_top, sizeof(test_top), "/tmp/%s.%d", name, getpid());
	return mkdir(test_top, 0755) ? -1 : 0;
}

const char *test_dir(void)
{
	return test_top;
}

const char *at(const char *name)
{
	static char buf[2][256];
	static int i;

	i ^= 1;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", test_top, name);
	return buf[i];
}

long read_file(const char *path, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r = 0;
	int fd;

	if (n == 0)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while (got < n - 1) {
		r = read(fd, buf + got, n - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	close(fd);
	buf[got] = '\0';
	return r < 0 ? -1 : (long)got;
}

int write_file(const char *path, const char *s)
{
	return write_once(path, O_WRONLY, s);
}

int is_zpk(void)
{
	struct utsname u;

	return uname(&u) == 0 && strcmp(u.sysname, "zpk") == 0;
}

int in_child(void (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

void poke(volatile void *addr, unsigned char v)
{
	*(volatile unsigned char *)addr = v;
}

unsigned char peek(const volatile void *addr)
{
	return *(const volatile unsigned char *)addr;
}

const char *status_str(int status)
{
	static char buf[64];

	if (status == -1)
		snprintf(buf, sizeof(buf), "fork/wait failed");
	else if (WIFEXITED(status))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof(buf), "signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, sizeof(buf), "status %#x", status);
	return buf;
}

void need_proc(void)
{
	int err;

	if (access("/proc/self/status", R_OK) == 0)
		return;
	err = errno;
	tap_plan(1);
	tap_ok(0, "/proc/self/status is readable (%s)", strerror(err));
	tap_done();
}

long self_minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

long self_majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

long long self_kb(const char *key)
{
	return proc_kb("/proc/self/status", key);
}

int kb_near(long long got, long long want)
{
	long long d = got - want;

	if (is_zpk())
		return d == 0;
	return d <= LINUX_RSS_SLACK_KB && d >= -LINUX_RSS_SLACK_KB;
}

int wait_asleep(int pid)
{
	struct timespec ms = { 0, 1000000 };
	struct proc_stat st;

	for (int i = 0; i < 5000; i++) {
		if (proc_stat_read(pid, &st) == 0 && st.state == 'S')
			return 1;
		nanosleep(&ms, NULL);
	}
	return 0;
}

char *huge_area(size_t len)
{
	char *raw = mmap(NULL, len + HPAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;

	if (raw == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)raw + HPAGE_SIZE - 1) &
		     ~(HPAGE_SIZE - 1));
	if (p > raw)
		munmap(raw, p - raw);
	munmap(p + len, raw + HPAGE_SIZE - p);
	if (madvise(p, len, MADV_HUGEPAGE)) {
		munmap(p, len);
		return NULL;
	}
	return p;
}
