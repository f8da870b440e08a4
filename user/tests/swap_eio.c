/* user/tests/swap_eio.c — a read error at swap-in (do_swap_page): the
 * slot that tests/qemu/blk.sh's blkdebug makes unreadable ("EIO-SLOT N"
 * on the scratch disk's first line) gives the process that touches its
 * page a SIGBUS (BUS_ADRERR at the address), as Linux's VM_FAULT_SIGBUS
 * for a page that is not Uptodate, and the log Linux's "Read-error on
 * swap-device" line, no segfault line; the other pages, the processes
 * sharing the slot and the kernel go on, and no page or slot is lost.
 * Skips without such a disk (Linux, a plain scratch disk). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "procfs.h"
#include "scratch.h"
#include "ulib.h"

#define DEV	"/dev/vda"
#define PAGE	4096
#define NP	64		/* pages swapped out, one on the bad slot */
#define THREADS	4

static char *m;			/* NP pages of pattern */
static int bad = -1;		/* the page on the unreadable slot */

static unsigned char pat(unsigned long i)
{
	return (unsigned char)(i * 13 + 5 + (i >> 12));
}

/* The page of m whose swap PTE names slot, or -1 (pagemap: the offset
 * above the 5 type bits). Also counts the pages in swap. */
static int page_on_slot(long long slot, int *swapped)
{
	uint64_t e[NP];
	int found = -1;

	*swapped = 0;
	if (pagemap_read(0, (unsigned long)m, e, NP) != NP)
		return -1;
	for (int i = 0; i < NP; i++) {
		if (!(e[i] & PM_SWAP) || (e[i] & PM_PRESENT))
			continue;
		++*swapped;
		if ((long long)(PM_PFN(e[i]) >> 5) == slot)
			found = i;
	}
	return found;
}

/* Bytes of pages other than bad that differ from the pattern. */
static long others_differ(void)
{
	long n = 0;

	for (unsigned long i = 0; i < NP * PAGE; i++)
		if ((int)(i / PAGE) != bad)
			n += (unsigned char)m[i] != pat(i);
	return n;
}

static void read_bad(void *arg)
{
	(void)arg;
	peek(m + bad * PAGE + 100);
}

static volatile void *bus_addr;
static volatile int bus_code;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	bus_code = si->si_code;
	bus_addr = si->si_addr;
	_exit(bus_addr == m + bad * PAGE + 7 && bus_code == BUS_ADRERR ? 0 : 3);
}

/* A write with a handler: the fault's SIGBUS says BUS_ADRERR and the
 * byte's address, as Linux's do_sigbus. */
static void write_bad(void *arg)
{
	struct sigaction sa = { .sa_sigaction = on_bus, .sa_flags = SA_SIGINFO };

	(void)arg;
	sigaction(SIGBUS, &sa, NULL);
	poke(m + bad * PAGE + 7, 1);
	_exit(4);			/* the write went through */
}

static int arrived, generation;

static void *touch_bad(void *arg)
{
	(void)arg;
	spin_barrier(&arrived, &generation, THREADS);
	peek(m + bad * PAGE + 200);
	return NULL;
}

/* Threads fault the page at once: one reads, the others wait for that
 * read in the swap cache and must not map the page it failed to fill. */
static void threads_bad(void *arg)
{
	pthread_t t[THREADS];

	(void)arg;
	for (int k = 0; k < THREADS; k++)
		pthread_create(&t[k], NULL, touch_bad, NULL);
	for (int k = 0; k < THREADS; k++)
		pthread_join(t[k], NULL);
	_exit(5);			/* every thread read it */
}

static int killed_by_sigbus(int status)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS;
}

/* How often s is in the kernel log, or -1 if it cannot be read. */
static int log_count(const char *s)
{
	static char buf[1 << 17];
	int n = klogctl(3, buf, sizeof(buf) - 1), count = 0;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (char *p = strstr(buf, s); p; p = strstr(p + 1, s))
		count++;
	return count;
}

int main(void)
{
	long long bytes = scratch_disk_size(DEV);
	long long slot = scratch_word(DEV, "EIO-SLOT");
	long free0, in0;
	int r, swapped, st[3], pipefd[2], status = -1, segv;
	char line[64], c;
	pid_t sibling;

	if (bytes < 4 * NP * PAGE || slot < 1 || slot > NP) {
		tap_plan(1);
		tap_skip(DEV " is not a scratch disk whose slot 1..%d fails "
			 "to read (EIO-SLOT, blk.sh's blkdebug)", NP);
		tap_done();
	}
	need_proc();
	tap_plan(13);
	r = scratch_swapon(DEV, bytes);
	tap_ok(r == 0, "swapon (%s)", r ? strerror(errno) : "ok");
	free0 = proc_kb("/proc/meminfo", "SwapFree");
	m = mmap(NULL, NP * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (unsigned long i = 0; i < NP * PAGE; i++)
		m[i] = pat(i);
	madvise(m, NP * PAGE, MADV_PAGEOUT);
	bad = page_on_slot(slot, &swapped);
	tap_ok(bad >= 0 && swapped == NP, "%d of %d pages out; page %d is on "
	       "slot %lld, whose reads fail", swapped, NP, bad, slot);
	if (bad < 0)
		tap_done();
	/* A process sharing every slot, which reads its pages (not the bad
	 * one) after the others have failed on it. */
	if (pipe(pipefd) || (sibling = fork()) < 0)
		tap_done();
	if (sibling == 0) {
		close(pipefd[1]);
		_exit(read(pipefd[0], &c, 1) == 0 && others_differ() == 0 ?
		      0 : 1);
	}
	close(pipefd[0]);
	in0 = proc_vmstat_read("pswpin");
	segv = log_count(": segfault at ");
	st[0] = in_child(read_bad, NULL);
	st[1] = in_child(write_bad, NULL);
	st[2] = in_child(threads_bad, NULL);
	tap_ok(killed_by_sigbus(st[0]), "a read of the page: SIGBUS (%s)",
	       status_str(st[0]));
	tap_ok(st[1] != -1 && WIFEXITED(st[1]) && WEXITSTATUS(st[1]) == 0,
	       "a write, handled: SIGBUS, BUS_ADRERR at the byte's address "
	       "(%s)", status_str(st[1]));
	tap_ok(killed_by_sigbus(st[2]), "%d threads at once: SIGBUS, none "
	       "maps the page the read failed to fill (%s)", THREADS,
	       status_str(st[2]));
	tap_ok(proc_vmstat_read("pswpin") - in0 >= 3, "each fault tried "
	       "the disk again (pswpin %+lld)",
	       proc_vmstat_read("pswpin") - in0);
	/* Linux: 254 is virtio-blk's usual dynamic major; zpk's is fixed. */
	snprintf(line, sizeof(line), "Read-error on swap-device (254:0:%lld)",
		 slot * 8);
	r = log_count(line);
	tap_ok(!is_zpk() || r >= 3, "the log: \"%s\" %d times", line, r);
	tap_ok(log_count(": segfault at ") == segv, "... and no segfault "
	       "line: Linux logs none for a SIGBUS");
	close(pipefd[1]);
	waitpid(sibling, &status, 0);
	tap_ok(status == 0, "the process sharing the slots reads every other "
	       "page intact (%s)", status_str(status));
	tap_ok(others_differ() == 0, "... and so does this one");
	tap_ok(mm_verify_clean(), "mm_verify, the bad slot still held");
	madvise(m + bad * PAGE, PAGE, MADV_DONTNEED);
	tap_ok(self_kb("VmSwap") == 0 && proc_kb("/proc/meminfo", "SwapFree")
	       == free0, "MADV_DONTNEED of the bad page: VmSwap %lld kB, "
	       "SwapFree %lld kB (was %ld): no slot lost", self_kb("VmSwap"),
	       proc_kb("/proc/meminfo", "SwapFree"), free0);
	munmap(m, NP * PAGE);
	r = scratch_swapoff(DEV);
	tap_ok(r == 0, "swapoff (%s)", r ? strerror(errno) : "ok");
	tap_done();
}
