/* zpk/binfmts.h — what execve gathers about a program before it runs it
 * (Linux's linux_binprm), shared by the ELF loader (kernel/exec.c) and
 * the `#!` handler (kernel/binfmt_script.c). */
#ifndef ZPK_BINFMTS_H
#define ZPK_BINFMTS_H

#include <zpk/elf.h>
#include <zpk/fs.h>

#define BINPRM_BUF_SIZE	256	/* the first bytes of the file, as Linux */

struct linux_binprm {
	char buf[BINPRM_BUF_SIZE];	/* of file, zero-padded past its end */
	char *strings;			/* argv then envp strings, packed */
	size_t len;
	int argc, envc;
	char *filename;			/* as execve got it: comm, AT_EXECFN */
	const char *interp;		/* a script's path for its interpreter */
	char *interp_buf;		/* interp when a script named it */
	struct file *file;		/* open_exec'd: writers denied */
	Elf64_Ehdr eh;
	Elf64_Phdr *phdr;
	struct file *interpreter;	/* PT_INTERP, open_exec'd */
	Elf64_Ehdr ieh;
	Elf64_Phdr *iphdr;
	unsigned long bias;		/* load address of an ET_DYN */
	unsigned long interp_base;	/* AT_BASE */
	unsigned long entry, phdr_addr;	/* AT_ENTRY, AT_PHDR */
	unsigned long start_ip;		/* the interpreter's entry, or entry */
	unsigned long end_code, start_code, end_data, brk;
	bool past_no_return;		/* the old program is gone */
};

/* The file at path (from the cwd), if it may be executed: a regular file
 * with an x bit (-EACCES), not open for writing (-ETXTBSY; writers stay
 * denied until close_exec). 0 and *filep, or the lookup's -errno. */
int open_exec(const char *path, struct file **filep);
void close_exec(struct file *file);

/* argv[0] out of b's strings (Linux's remove_arg_zero). */
void remove_arg_zero(struct linux_binprm *b);
/* s in front of b's strings, a new argv[0]: 0 or -E2BIG. */
int prepend_arg(struct linux_binprm *b, const char *s);

/* A `#!` script: b->file becomes its interpreter and argv is rewritten.
 * -ENOEXEC if b->buf is no script; else 0 or -errno. */
int load_script(struct linux_binprm *b);

#endif
