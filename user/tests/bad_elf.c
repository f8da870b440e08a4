/* user/tests/bad_elf.c — execve of malformed ELF files written to /tmp:
 * each fails as it does on Linux, and the caller goes on. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define BASE 0x400000UL

/* A whole static program: ELF header, two program headers, code. */
struct img {
	Elf64_Ehdr e;
	Elf64_Phdr p[2];
	unsigned char code[16];
};

/* mov edi, 42; mov eax, 60 (exit); syscall */
static const unsigned char code[] = {
	0xbf, 42, 0, 0, 0, 0xb8, 60, 0, 0, 0, 0x0f, 0x05
};

/* How a case ends.  Linux checks the headers before the "point of no
 * return" (execve returns an errno) but maps segments after it: a bad
 * segment kills the process with SIGSEGV instead. */
enum { FAILS, RUNS, KILLED };

struct elf_case {
	const char *what;
	void (*make)(struct img *m, size_t *len, int *mode);
	int how, val;	/* FAILS: errno; RUNS: exit code; KILLED: signal */
	int root_runs;	/* Linux's root (CAP_SYS_RAWIO) may run it */
};

static void valid(struct img *m, size_t *len, int *mode)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->e.e_ident, ELFMAG, SELFMAG);
	m->e.e_ident[EI_CLASS] = ELFCLASS64;
	m->e.e_ident[EI_DATA] = ELFDATA2LSB;
	m->e.e_ident[EI_VERSION] = EV_CURRENT;
	m->e.e_type = ET_EXEC;
	m->e.e_machine = EM_X86_64;
	m->e.e_version = EV_CURRENT;
	m->e.e_entry = BASE + offsetof(struct img, code);
	m->e.e_phoff = offsetof(struct img, p);
	m->e.e_ehsize = sizeof(Elf64_Ehdr);
	m->e.e_phentsize = sizeof(Elf64_Phdr);
	m->e.e_phnum = 1;
	m->p[0].p_type = PT_LOAD;
	m->p[0].p_flags = PF_R | PF_X;
	m->p[0].p_vaddr = m->p[0].p_paddr = BASE;
	m->p[0].p_filesz = m->p[0].p_memsz = sizeof(*m);
	m->p[0].p_align = PAGE_SIZE;
	m->p[1] = m->p[0];
	memcpy(m->code, code, sizeof(code));
	*len = sizeof(*m);
	*mode = 0755;
}

static void truncated(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	*len = 40;
}

static void half_phdr(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	*len = sizeof(Elf64_Ehdr) + 20;
}

static void aarch64(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_machine = EM_AARCH64;
}

static void i386(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_machine = EM_386;
}

static void et_rel(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_type = ET_REL;
}

static void no_phdrs(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phnum = 0;
}

static void bad_phentsize(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phentsize = 40;
}

static void phoff_past_eof(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phoff = 1 << 20;
}

static void many_phdrs(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phnum = 60000;
}

static void not_elf(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	strcpy((char *)m, "echo this is not an ELF file\n");
	*len = strlen((char *)m);
}

static void empty(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	*len = 0;
}

static void not_executable(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	*mode = 0644;
}

static void overlap_same(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phnum = 2;
}

static void overlap_ro(struct img *m, size_t *len, int *mode)
{
	overlap_same(m, len, mode);
	m->p[1].p_flags = PF_R;
}

static void huge_memsz(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_memsz = 1UL << 47;
}

static void huge_bss(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_memsz = 1UL << 40;
}

static void filesz_gt_memsz(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_memsz = 10;
}

static void kernel_vaddr(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_vaddr = 0xffff800000000000UL;
	m->e.e_entry = m->p[0].p_vaddr + offsetof(struct img, code);
}

static void bad_entry(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_entry = BASE + 0x100000;
}

/* PT_INTERP: the second program header names an interpreter, its path
 * stored in the code array's place (16 bytes). */
static void with_interp(struct img *m, size_t *len, int *mode,
			const char *path, size_t n)
{
	valid(m, len, mode);
	m->e.e_phnum = 2;
	m->p[1].p_type = PT_INTERP;
	m->p[1].p_flags = PF_R;
	m->p[1].p_offset = offsetof(struct img, code);
	m->p[1].p_vaddr = m->p[1].p_paddr = BASE + m->p[1].p_offset;
	m->p[1].p_filesz = m->p[1].p_memsz = n;
	m->p[1].p_align = 1;
	memcpy(m->code, path, n);
}

static void interp_missing(struct img *m, size_t *len, int *mode)
{
	with_interp(m, len, mode, "/no/ld.so", sizeof("/no/ld.so"));
}

static void interp_no_nul(struct img *m, size_t *len, int *mode)
{
	with_interp(m, len, mode, "/no/ld.so", strlen("/no/ld.so"));
}

static void interp_huge(struct img *m, size_t *len, int *mode)
{
	with_interp(m, len, mode, "/no/ld.so", sizeof("/no/ld.so"));
	m->p[1].p_filesz = 1 << 20;
}

/* The interpreter cases: the program names INTERP, which the case writes
 * as interp (interp_len bytes, interp_mode). */
#define INTERP "/tmp/bad_interp"
static struct img interp;
static size_t interp_len;
static int interp_mode;

static void with_bad_interp(struct img *m, size_t *len, int *mode)
{
	with_interp(m, len, mode, INTERP, sizeof(INTERP));
	valid(&interp, &interp_len, &interp_mode);
	/* an ET_EXEC interpreter lies at its own addresses: not the
	 * program's */
	interp.p[0].p_vaddr = interp.p[0].p_paddr = 2 * BASE;
	interp.e.e_entry = 2 * BASE + offsetof(struct img, code);
}

static void interp_exec(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
}

/* ET_DYN at 0, placed by the kernel; its own PT_INTERP (a path without
 * a NUL) is not looked at. */
static void interp_dyn(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp.e.e_type = ET_DYN;
	interp.p[0].p_vaddr = interp.p[0].p_paddr = 0;
	interp.e.e_entry = offsetof(struct img, code);
	interp.e.e_phnum = 2;
	interp.p[1].p_type = PT_INTERP;
	interp.p[1].p_offset = 0;
	interp.p[1].p_filesz = 4;
}

static void interp_text(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	/* longer than an ELF header, which is read first */
	strcpy((char *)&interp,
	       "#!/bin/sh\n# an interpreter that is a shell script,\n"
	       "# not an ELF program\n");
	interp_len = strlen((char *)&interp);
}

static void interp_short(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp_len = 40;
}

static void interp_aarch64(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp.e.e_machine = EM_AARCH64;
}

static void interp_phentsize(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp.e.e_phentsize = 40;
}

static void interp_half_phdr(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp_len = sizeof(Elf64_Ehdr) + 20;
}

static void interp_rel(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp.e.e_type = ET_REL;
}

static void interp_noexec(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp_mode = 0644;
}

static void interp_no_load(struct img *m, size_t *len, int *mode)
{
	with_bad_interp(m, len, mode);
	interp.e.e_type = ET_DYN;
	interp.p[0].p_type = PT_NOTE;
}

static void entry_kernel(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_entry = 0xffffffff80100000UL;
}

static void entry_noncanon(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_entry = 0x0000800000000000UL;
}

static void vaddr_noncanon(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_vaddr = 0x0000800000000000UL;
	m->e.e_entry = m->p[0].p_vaddr + offsetof(struct img, code);
}

static void vaddr_zero(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_vaddr = 0;
	m->e.e_entry = offsetof(struct img, code);
}

static void crosses_top(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_vaddr = 0x00007ffffffff000UL - PAGE_SIZE;
	m->p[0].p_memsz = 4 * PAGE_SIZE;
	m->e.e_entry = m->p[0].p_vaddr + offsetof(struct img, code);
}

static void offset_past_eof(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_offset = 16 * PAGE_SIZE;
}

static void offset_misaligned(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->p[0].p_offset = 100;
}

static void phoff_huge(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_phoff = 0xfffffffffffff000UL;
}

static void class32(struct img *m, size_t *len, int *mode)
{
	valid(m, len, mode);
	m->e.e_ident[EI_CLASS] = ELFCLASS32;
}

static const struct elf_case cases[] = {
	{ "valid program (checks the generator)", valid, RUNS, 42, 0 },
	{ "header truncated to 40 bytes", truncated, FAILS, ENOEXEC, 0 },
	{ "file ends inside the program header", half_phdr, FAILS, ENOEXEC, 0 },
	{ "e_machine EM_AARCH64", aarch64, FAILS, ENOEXEC, 0 },
	{ "e_machine EM_386", i386, FAILS, ENOEXEC, 0 },
	{ "e_type ET_REL", et_rel, FAILS, ENOEXEC, 0 },
	{ "e_phnum 0", no_phdrs, FAILS, ENOEXEC, 0 },
	{ "e_phentsize 40", bad_phentsize, FAILS, ENOEXEC, 0 },
	{ "e_phoff past the end of the file", phoff_past_eof, FAILS, ENOEXEC, 0 },
	{ "e_phnum 60000", many_phdrs, FAILS, ENOEXEC, 0 },
	{ "not an ELF at all (text, no #!)", not_elf, FAILS, ENOEXEC, 0 },
	{ "empty file", empty, FAILS, ENOEXEC, 0 },
	{ "valid ELF without execute permission", not_executable, FAILS,
	  EACCES, 0 },
	/* Linux maps overlapping PT_LOADs in order, the later one wins. */
	{ "two identical overlapping PT_LOADs", overlap_same, RUNS, 42, 0 },
	{ "overlapping PT_LOAD makes the code page read-only", overlap_ro,
	  KILLED, SIGSEGV, 0 },
	/* Past the point of no return: no errno, a SIGSEGV. */
	{ "p_memsz 2^47 (larger than user space)", huge_memsz, KILLED,
	  SIGSEGV, 0 },
	{ "p_memsz 1 TiB (bss cannot be mapped)", huge_bss, KILLED, SIGSEGV, 0 },
	{ "p_filesz > p_memsz", filesz_gt_memsz, KILLED, SIGSEGV, 0 },
	{ "PT_LOAD in the kernel half", kernel_vaddr, KILLED, SIGSEGV, 0 },
	{ "e_entry outside every segment", bad_entry, KILLED, SIGSEGV, 0 },
	{ "PT_INTERP naming no file", interp_missing, FAILS, ENOENT, 0 },
	{ "PT_INTERP without a NUL", interp_no_nul, FAILS, ENOEXEC, 0 },
	{ "PT_INTERP of 1 MiB", interp_huge, FAILS, ENOEXEC, 0 },
	{ "interpreter ET_EXEC: runs it", interp_exec, RUNS, 42, 0 },
	{ "interpreter ET_DYN with its own PT_INTERP: runs it", interp_dyn,
	  RUNS, 42, 0 },
	{ "interpreter is a script (ELIBBAD)", interp_text, FAILS, ELIBBAD, 0 },
	{ "interpreter shorter than an ELF header", interp_short, FAILS, EIO,
	  0 },
	{ "interpreter for EM_AARCH64 (ELIBBAD)", interp_aarch64, FAILS,
	  ELIBBAD, 0 },
	{ "interpreter with e_phentsize 40 (ELIBBAD)", interp_phentsize,
	  FAILS, ELIBBAD, 0 },
	{ "interpreter ends inside its program header (ELIBBAD)",
	  interp_half_phdr, FAILS, ELIBBAD, 0 },
	{ "interpreter without execute permission", interp_noexec, FAILS,
	  EACCES, 0 },
	/* its e_type and segments: past the point of no return */
	{ "interpreter ET_REL", interp_rel, KILLED, SIGSEGV, 0 },
	{ "interpreter ET_DYN without PT_LOAD", interp_no_load, KILLED,
	  SIGSEGV, 0 },
	/* Linux looks at e_machine, not e_ident's class */
	{ "ELFCLASS32 with EM_X86_64", class32, RUNS, 42, 0 },
	{ "e_phoff near 2^64", phoff_huge, FAILS, ENOEXEC, 0 },
	{ "e_entry in the kernel image", entry_kernel, KILLED, SIGSEGV, 0 },
	{ "e_entry non-canonical", entry_noncanon, KILLED, SIGSEGV, 0 },
	{ "PT_LOAD at a non-canonical address", vaddr_noncanon, KILLED,
	  SIGSEGV, 0 },
	/* below mmap_min_addr: EPERM, as for Linux's unprivileged users */
	{ "PT_LOAD at address 0", vaddr_zero, KILLED, SIGSEGV, 1 },
	{ "PT_LOAD across the top of user space", crosses_top, KILLED,
	  SIGSEGV, 0 },
	{ "PT_LOAD whose p_offset is past the end", offset_past_eof, KILLED,
	  SIGBUS, 0 },
	{ "p_offset and p_vaddr differ mod the page", offset_misaligned,
	  KILLED, SIGSEGV, 0 },
	{ "valid program again (the kernel is fine)", valid, RUNS, 42, 0 },
};

#define NCASES ((int)(sizeof(cases) / sizeof(cases[0])))

static const char *outcome(int how, int val)
{
	static char buf[4][64];
	static int i;
	char *b = buf[i++ % 4];

	if (how == FAILS)
		snprintf(b, 64, "execve fails: %s", strerror(val));
	else if (how == RUNS)
		snprintf(b, 64, "runs, exit %d", val);
	else
		snprintf(b, 64, "killed by signal %d", val);
	return b;
}

int main(void)
{
	char path[64], *argv[] = { path, NULL }, *envp[] = { NULL };
	int i, fd, mode, st, how, val, ok;
	struct img m;
	size_t len;
	pid_t pid;

	tap_plan(NCASES);
	snprintf(path, sizeof(path), "/tmp/bad_elf.%d", getpid());

	for (i = 0; i < NCASES; i++) {
		cases[i].make(&m, &len, &mode);
		unlink(path);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);
		if (fd < 0 || write(fd, &m, len) != (ssize_t)len) {
			tap_ok(0, "%s: cannot write %s", cases[i].what, path);
			close(fd);
			continue;
		}
		close(fd);
		unlink(INTERP);
		if (interp_len) {
			fd = open(INTERP, O_CREAT | O_WRONLY | O_TRUNC,
				  interp_mode);
			if (fd < 0 || write(fd, &interp, interp_len) !=
				      (ssize_t)interp_len)
				tap_note("cannot write %s", INTERP);
			close(fd);
			interp_len = 0;
		}
		pid = fork();
		if (pid == 0) {
			execve(path, argv, envp);
			_exit(100 + errno);	/* the caller goes on */
		}
		st = -1;
		waitpid(pid, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) >= 100) {
			how = FAILS;
			val = WEXITSTATUS(st) - 100;
		} else if (WIFEXITED(st)) {
			how = RUNS;
			val = WEXITSTATUS(st);
		} else {
			how = KILLED;
			val = WIFSIGNALED(st) ? WTERMSIG(st) : -1;
		}
		ok = (how == cases[i].how && val == cases[i].val) ||
		     (cases[i].root_runs && !is_zpk() && how == RUNS &&
		      val == 42);
		tap_ok(ok, "%s: %s%s%s", cases[i].what, outcome(how, val),
		       ok ? "" : ", want ",
		       ok ? "" : outcome(cases[i].how, cases[i].val));
	}
	unlink(path);
	unlink(INTERP);
	tap_done();
}
