/* zpk/elf.h — the ELF64 structures and constants the program loader reads
 * and a core dump writes (System V gABI and the x86-64 psABI), the auxv
 * keys, and the notes of a Linux core file (Linux's elfcore.h). */
#ifndef ZPK_ELF_H
#define ZPK_ELF_H

#include <zpk/time.h>
#include <zpk/types.h>

typedef struct {
	u8 e_ident[16];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
} Elf64_Ehdr;

typedef struct {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
} Elf64_Phdr;

typedef struct {
	u32 n_namesz, n_descsz, n_type;
} Elf64_Nhdr;

#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define EV_CURRENT	1
#define ET_EXEC		2
#define ET_DYN		3
#define ET_CORE		4
#define EM_X86_64	62
#define PT_LOAD		1
#define PT_INTERP	3
#define PT_NOTE		4
#define PT_PHDR		6
#define PT_GNU_STACK	0x6474e551
#define PF_X		1
#define PF_W		2
#define PF_R		4

/* auxv keys (Linux's include/uapi/linux/auxvec.h) */
#define AT_NULL		0
#define AT_PHDR		3
#define AT_PHENT	4
#define AT_PHNUM	5
#define AT_PAGESZ	6
#define AT_BASE		7
#define AT_FLAGS	8
#define AT_ENTRY	9
#define AT_UID		11
#define AT_EUID		12
#define AT_GID		13
#define AT_EGID		14
#define AT_PLATFORM	15
#define AT_HWCAP	16
#define AT_CLKTCK	17
#define AT_SECURE	23
#define AT_RANDOM	25
#define AT_HWCAP2	26
#define AT_EXECFN	31

/* ---- core files: the notes, as Linux writes them ---------------------- */

#define NT_PRSTATUS	1		/* a thread: signal, ids, registers */
#define NT_PRPSINFO	3		/* the process: state, name, args */
#define NT_AUXV		6		/* the auxiliary vector */
#define NT_SIGINFO	0x53494749	/* the siginfo of the fatal signal */
#define NT_FILE		0x46494c45	/* the mapped files */

/* x86-64's user_regs_struct: the order gdb reads NT_PRSTATUS's in. */
struct user_regs_struct {
	u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	u64 ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
	u64 fs_base, gs_base, ds, es, fs, gs;
};

struct elf_siginfo {
	int si_signo, si_code, si_errno;
};

struct elf_prstatus {
	struct elf_siginfo pr_info;
	short pr_cursig;		/* the signal that dumped */
	unsigned long pr_sigpend, pr_sighold;
	int pr_pid, pr_ppid, pr_pgrp, pr_sid;
	struct __kernel_old_timeval pr_utime, pr_stime, pr_cutime, pr_cstime;
	struct user_regs_struct pr_reg;
	int pr_fpvalid;
};
_Static_assert(sizeof(struct elf_prstatus) == 336, "Linux's x86-64 size");

struct elf_prpsinfo {
	char pr_state, pr_sname, pr_zomb, pr_nice;
	unsigned long pr_flag;
	unsigned int pr_uid, pr_gid;
	int pr_pid, pr_ppid, pr_pgrp, pr_sid;
	char pr_fname[16];
	char pr_psargs[80];		/* the arguments, spaces between */
};
_Static_assert(sizeof(struct elf_prpsinfo) == 136, "Linux's x86-64 size");

#endif
