/* user/tests/coredump.c — core dumps as Linux writes them: a child killed
 * by SIGSEGV with RLIMIT_CORE above 0 leaves an ELF core file in its cwd
 * and WCOREDUMP in its status; with RLIMIT_CORE 0 (the default) neither.
 * The file: ET_CORE, a PT_NOTE with each thread's NT_PRSTATUS (the
 * crashing thread first, its ip in the crashing function), NT_PRPSINFO,
 * NT_SIGINFO, NT_AUXV and NT_FILE, and a PT_LOAD per mapping. Memory
 * that holds nothing (untouched, or the zero page) is a hole, so a
 * 48 MiB sparse mapping dumps small. A limit the dump passes cuts the
 * file there. core_pattern's %p is checked on zpk only (the host's is its
 * own; where it pipes to a program, the dump checks are skipped). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/procfs.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#undef PAGE_SIZE	/* sys/procfs.h's (musl's sys/user.h) */
#include "ulib.h"

#define SPARSE	(32UL << 20)	/* untouched */
#define READ	(16UL << 20)	/* read: the zero page, unless off */

static char core[1 << 16];	/* the file's first bytes: headers, notes */
static int pids[3];		/* the threads' ids (the child's) */
static char *bad;		/* a PROT_NONE page: the crash's address */
static char *sparse, *zeroed;	/* the child's mappings (made before fork) */

__attribute__((noinline)) static void crash_here(void)
{
	*(volatile int *)bad = 1;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* The child: reads one region, touches a page of the other, starts
 * threads - 1 more threads, then crashes. */
static void child(rlim_t limit, int threads)
{
	struct rlimit rl = { limit, RLIM_INFINITY };
	pthread_t t;

	setrlimit(RLIMIT_CORE, &rl);
	for (unsigned long i = 0; i < READ; i += PAGE_SIZE)
		(void)*(volatile char *)(zeroed + i);
	sparse[0] = 'z';
	for (int i = 1; i < threads; i++)
		pthread_create(&t, NULL, sleeper, NULL);
	usleep(20000);
	crash_here();
}

/* Forks the child; its wait status. */
static int run_child(rlim_t limit, int threads)
{
	int status = 0;
	pid_t pid;

	bad = mmap(NULL, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	sparse = mmap(NULL, SPARSE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	zeroed = mmap(NULL, READ, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid = fork();

	if (pid == 0)
		child(limit, threads);
	pids[0] = pid;
	waitpid(pid, &status, 0);
	munmap(bad, PAGE_SIZE);
	munmap(sparse, SPARSE);
	munmap(zeroed, READ);
	return status;
}

/* The first bytes of the file into core; its stat in *st. */
static int load(const char *name, struct stat *st)
{
	int fd = open(name, O_RDONLY);
	ssize_t n;

	if (fd < 0 || fstat(fd, st))
		return -1;
	n = read(fd, core, sizeof(core));
	close(fd);
	return n >= (ssize_t)sizeof(Elf64_Ehdr) ? 0 : -1;
}

/* The note of type in PT_NOTE (the k-th of that type), or NULL. */
static void *find_note(unsigned type, int k, size_t *size)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)core;
	Elf64_Phdr *ph = (Elf64_Phdr *)(core + eh->e_phoff);
	char *p, *end;

	if (ph->p_type != PT_NOTE || ph->p_offset + ph->p_filesz > sizeof(core))
		return NULL;
	p = core + ph->p_offset;
	end = p + ph->p_filesz;
	while (p + sizeof(Elf64_Nhdr) <= end) {
		Elf64_Nhdr *nh = (Elf64_Nhdr *)p;
		char *desc = p + sizeof(*nh) + ((nh->n_namesz + 3) & ~3U);

		if (nh->n_type == type && !strcmp(p + sizeof(*nh), "CORE") &&
		    k-- == 0) {
			*size = nh->n_descsz;
			return desc;
		}
		p = desc + ((nh->n_descsz + 3) & ~3U);
	}
	return NULL;
}

/* Whether a PT_LOAD holds all of [start, start + len) (Linux may have
 * merged it with its neighbour), dumped whole. */
static bool loaded(const char *start, unsigned long len)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)core;
	unsigned long a = (unsigned long)start;

	for (int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr *ph = (Elf64_Phdr *)(core + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && ph->p_vaddr <= a &&
		    a + len <= ph->p_vaddr + ph->p_memsz &&
		    ph->p_filesz == ph->p_memsz)
			return true;
	}
	return false;
}

static int zero_page_on(void)
{
	char buf[64] = "";
	int fd = open("/proc/sys/vm/zero_page", O_RDONLY);

	if (fd >= 0) {
		(void)!read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	return !strstr(buf, "[off]");
}

static void check_file(int status)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)core;
	struct elf_prstatus *pr;
	struct stat st;
	siginfo_t *si;
	Elf64_auxv_t *av;
	long *files;
	size_t size = 0, sz2 = 0;
	int pagesz = 0;
	unsigned long ip;

	tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV &&
	       WCOREDUMP(status), "SIGSEGV with RLIMIT_CORE unlimited: "
	       "WCOREDUMP (status %#x)", status);
	if (load("core", &st)) {
		tap_ok(0, "a file named core in the cwd");
		return;
	}
	tap_ok(S_ISREG(st.st_mode) && (st.st_mode & 0777) == 0600 &&
	       !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
	       eh->e_type == ET_CORE && eh->e_machine == EM_X86_64,
	       "core: a 0600 ELF file, ET_CORE, EM_X86_64");
	pr = find_note(NT_PRSTATUS, 0, &size);
	ip = pr ? pr->pr_reg[16] : 0;	/* user_regs_struct's rip */
	tap_ok(pr && size == sizeof(*pr) && pr->pr_pid == pids[0] &&
	       pr->pr_cursig == SIGSEGV &&
	       ip >= (unsigned long)crash_here &&
	       ip < (unsigned long)crash_here + 64,
	       "NT_PRSTATUS: the child's pid, SIGSEGV, ip %#lx in crash_here "
	       "(%p)", ip, (void *)crash_here);
	si = find_note(NT_SIGINFO, 0, &size);
	tap_ok(si && size == 128 && si->si_signo == SIGSEGV &&
	       si->si_code == SEGV_ACCERR && si->si_addr == bad,
	       "NT_SIGINFO: SIGSEGV, SEGV_ACCERR at the PROT_NONE page");
	av = find_note(NT_AUXV, 0, &size);
	for (size_t i = 0; av && i < size / sizeof(*av); i++)
		if (av[i].a_type == AT_PAGESZ)
			pagesz = (int)av[i].a_un.a_val;
	tap_ok(pagesz == 4096, "NT_AUXV: AT_PAGESZ 4096");
	files = find_note(NT_FILE, 0, &size);
	tap_ok(files && files[0] >= 1 && files[1] == 4096 &&
	       find_note(NT_PRPSINFO, 0, &sz2) &&
	       memmem(files, size, "coredump", 8),
	       "NT_FILE names the program; NT_PRPSINFO is there");
	tap_ok(loaded(sparse, SPARSE) && loaded(zeroed, READ),
	       "a PT_LOAD for each mapping, whole");
	/* Holes: the untouched 32 MiB, and the 16 MiB read under a zero
	 * page; the blocks hold the rest (stack, data, a page or two). */
	if (zero_page_on())
		tap_ok((long)st.st_size > (long)(SPARSE + READ) &&
		       st.st_blocks * 512L < 4L << 20,
		       "untouched and zero-page memory are holes: %ld bytes "
		       "long, %ld allocated", (long)st.st_size,
		       (long)st.st_blocks * 512L);
	else
		tap_ok((long)st.st_size > (long)(SPARSE + READ) &&
		       st.st_blocks * 512L < (long)READ + (8L << 20),
		       "untouched memory is a hole: %ld bytes long, %ld "
		       "allocated", (long)st.st_size, (long)st.st_blocks * 512L);
}

static void check_threads(int status)
{
	struct elf_prstatus *pr[3];
	struct stat st;
	size_t size;
	int n = 0;

	tap_ok(WCOREDUMP(status), "three threads: dumped too");
	if (load("core", &st)) {
		tap_ok(0, "three threads: a core file");
		return;
	}
	while (n < 3 && (pr[n] = find_note(NT_PRSTATUS, n, &size)))
		n++;
	tap_ok(n == 3 && !find_note(NT_PRSTATUS, 3, &size) &&
	       pr[0]->pr_pid == pids[0] && pr[1]->pr_pid != pr[0]->pr_pid &&
	       pr[2]->pr_pid != pr[1]->pr_pid && pr[1]->pr_pid > 0,
	       "an NT_PRSTATUS per thread, the crashing one first (%d)", n);
}

int main(void)
{
	char dir[64], pattern[256] = "";
	struct stat st;
	int status, fd;

	tap_plan(14);
	snprintf(dir, sizeof(dir), "/tmp/coredump.%d", getpid());
	if (mkdir(dir, 0700) || chdir(dir))
		return tap_ok(0, "a directory to dump in: %s", strerror(errno)), 1;
	fd = open("/proc/sys/kernel/core_pattern", O_RDONLY);
	if (fd >= 0) {
		(void)!read(fd, pattern, sizeof(pattern) - 1);
		close(fd);
	}

	status = run_child(0, 1);
	tap_ok(WIFSIGNALED(status) && !WCOREDUMP(status) &&
	       stat("core", &st) == -1, "RLIMIT_CORE 0: no core, no "
	       "WCOREDUMP (status %#x)", status);
	if (pattern[0] == '|' || (!is_zpk() && strcmp(pattern, "core\n"))) {
		for (int i = 0; i < 13; i++)
			tap_skip("the host's core_pattern is %s", pattern);
		tap_done();
	}
	check_file(run_child(RLIM_INFINITY, 1));
	unlink("core");
	check_threads(run_child(RLIM_INFINITY, 3));
	unlink("core");

	status = run_child(8192, 1);
	if (stat("core", &st))
		st.st_size = -1;
	tap_ok(WIFSIGNALED(status) && WCOREDUMP(status) &&
	       st.st_size > 0 && st.st_size <= 8192,
	       "RLIMIT_CORE 8 KiB: a core cut at 8 KiB (%ld bytes), and "
	       "WCOREDUMP, as Linux's once a dump begins (status %#x)",
	       (long)st.st_size, status);
	unlink("core");
	if (is_zpk()) {
		fd = open("/proc/sys/kernel/core_pattern", O_WRONLY);
		tap_ok(fd >= 0 && write(fd, "dump.%p.%s\n", 11) == 11,
		       "core_pattern takes dump.%%p.%%s");
		close(fd);
		status = run_child(RLIM_INFINITY, 1);
		snprintf(pattern, sizeof(pattern), "dump.%d.11", pids[0]);
		tap_ok(WCOREDUMP(status) && stat(pattern, &st) == 0,
		       "and the core is %s", pattern);
		unlink(pattern);
		fd = open("/proc/sys/kernel/core_pattern", O_WRONLY);
		(void)!write(fd, "core\n", 5);
		close(fd);
	} else {
		tap_skip("core_pattern's %%p: zpk only");
		tap_skip("core_pattern's %%p: zpk only");
	}
	rmdir(dir);
	tap_done();
}
