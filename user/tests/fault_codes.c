/* user/tests/fault_codes.c — what a page fault the kernel cannot resolve
 * tells the program (Linux's do_user_addr_fault and bad_area): SIGSEGV
 * with SEGV_MAPERR where no VMA is, SEGV_ACCERR where one is but forbids
 * the access (write, read, execute), SIGBUS past a file's end, si_addr
 * the faulting address; and what faults it does resolve: a write after a
 * read of a private file page (a copy), a write after mprotect, a kernel
 * copy into untouched memory. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ulib.h"

static sigjmp_buf back;
static volatile int got_sig, got_code;
static void *volatile got_addr;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	got_sig = sig;
	got_code = si->si_code;
	got_addr = si->si_addr;
	siglongjmp(back, 1);
}

enum how { READ, WRITE, EXEC };

/* Accesses addr; 0 if it ran, else the signal (got_code, got_addr). */
static int access_at(void *addr, enum how how)
{
	got_sig = 0;
	if (sigsetjmp(back, 1))
		return got_sig;
	if (how == READ)
		peek(addr);
	else if (how == WRITE)
		poke(addr, 1);
	else
		((void (*)(void))addr)();
	return 0;
}

static void expect(void *addr, enum how how, int sig, int code,
		   const char *what)
{
	int s = access_at(addr, how);

	tap_ok(s == sig && got_code == code && got_addr == addr,
	       "%s: signal %d code %d at %p (got %d, code %d at %p)", what,
	       sig, code, addr, s, got_code, got_addr);
}

static char *map(int prot)
{
	char *p = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		tap_done();
	p[0] = (char)0xc3;	/* ret, were it executed */
	mprotect(p, 2 * PAGE_SIZE, prot);
	return p;
}

static void refused(void)
{
	char *hole = map(PROT_READ), *ro = map(PROT_READ);
	char *none = map(PROT_NONE), *nx = map(PROT_READ | PROT_WRITE);

	munmap(hole, 2 * PAGE_SIZE);
	expect(hole + 8, READ, SIGSEGV, SEGV_MAPERR, "a read where no VMA is");
	expect(hole + PAGE_SIZE + 3, WRITE, SIGSEGV, SEGV_MAPERR,
	       "a write where no VMA is");
	expect(ro + PAGE_SIZE + 5, WRITE, SIGSEGV, SEGV_ACCERR,
	       "a write to an untouched read-only page");
	expect(ro + 5, WRITE, SIGSEGV, SEGV_ACCERR,
	       "a write to a present read-only page");
	expect(none + 7, READ, SIGSEGV, SEGV_ACCERR, "a read of PROT_NONE");
	expect(nx, EXEC, SIGSEGV, SEGV_ACCERR, "a call into a data page");
	expect((void *)0xffffffff80100000UL, READ, SIGSEGV, SEGV_MAPERR,
	       "a read of the kernel's half");
	tap_ok(access_at(ro, READ) == 0 && access_at(nx, WRITE) == 0,
	       "what is allowed there still runs");
}

/* Page 1 of a one-page file's two-page mapping is past its end. */
static void file_faults(void)
{
	static char page[PAGE_SIZE];
	char *p, *s;
	int fd;

	fd = test_dir_make("fault_codes") ? -1 :
	     open(at("f"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(page, 'a', sizeof(page));
	if (!tap_ok(fd >= 0 && write(fd, page, PAGE_SIZE) == PAGE_SIZE,
		    "a one-page file"))
		return;
	p = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		 fd, 0);
	s = mmap(NULL, PAGE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	if (!tap_ok(p != MAP_FAILED && s != MAP_FAILED, "mapped"))
		return;
	expect(p + PAGE_SIZE + 9, READ, SIGBUS, BUS_ADRERR,
	       "a read past the file's end");
	expect(s + 1, WRITE, SIGSEGV, SEGV_ACCERR,
	       "a write to a read-only shared file mapping");
	tap_ok(p[1] == 'a', "a private mapping reads the file");
	p[1] = 'b';
	tap_ok(p[1] == 'b' && s[1] == 'a' && pread(fd, page, 2, 0) == 2 &&
	       page[1] == 'a', "a write after the read is private: the file "
	       "and a shared mapping still read 'a'");
	munmap(p, 2 * PAGE_SIZE);
	munmap(s, PAGE_SIZE);
	close(fd);
	unlink(at("f"));
	rmdir(test_dir());
}

/* Faults that succeed: after mprotect, and inside the kernel's copy. */
static void resolved(void)
{
	char *p = map(PROT_READ | PROT_WRITE), *q = map(PROT_READ);
	int fds[2];

	p[0] = 1;
	mprotect(p, 2 * PAGE_SIZE, PROT_READ);
	mprotect(p, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE);
	tap_ok(access_at(p, WRITE) == 0 && access_at(p + PAGE_SIZE, WRITE) == 0,
	       "writes after mprotect(PROT_READ) and back run");
	munmap(p, 2 * PAGE_SIZE);
	p = mmap(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pipe(fds) || write(fds[1], "demand", 6) != 6)
		tap_done();
	tap_ok(read(fds[0], p + PAGE_SIZE - 3, 6) == 6 &&
	       !memcmp(p + PAGE_SIZE - 3, "demand", 6),
	       "read() into untouched memory across two pages faults them in");
	if (write(fds[1], "x", 1) != 1)
		tap_done();
	tap_fails(read(fds[0], q + PAGE_SIZE, 1), EFAULT,
		  "read() into a read-only page");
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO | SA_NODEFER };

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	tap_plan(17);
	refused();
	file_faults();
	resolved();
	tap_done();
}
