/* zpk/coredump.h — core dumps (fs/coredump.c, as Linux's fs/coredump.c
 * and binfmt_elf's elf_core_dump): an ELF core file of a process a
 * signal ended, which gdb opens with the program. */
#ifndef ZPK_COREDUMP_H
#define ZPK_COREDUMP_H

#include <zpk/signal.h>
#include <zpk/types.h>
#include <zpk/wait.h>

#define CORENAME_MAX_SIZE	128

/* /proc/sys/kernel/core_pattern: the file's name, "core" by default;
 * %p %P %i %I %s %e %u %g %t %% expand as Linux's. */
extern char core_pattern[CORENAME_MAX_SIZE];

/* A dump in progress: the other threads of the process wait in do_exit,
 * their registers in place, until the file is written (Linux's
 * core_state). Under the big kernel lock. */
struct core_state {
	struct task_struct *dumper;
	int nr_running;		/* threads still to reach the wait */
	int nr_parked;		/* threads in it, or still leaving it */
	int dumping;		/* 1 until the file is written */
	struct wait_queue_head wq;
};

/* Does sig's default action dump core (Linux's sig_kernel_coredump)? */
static inline bool sig_kernel_coredump(int sig)
{
	return sigmask(sig) & (sigmask(SIGQUIT) | sigmask(SIGILL) |
			       sigmask(SIGTRAP) | sigmask(SIGABRT) |
			       sigmask(SIGBUS) | sigmask(SIGFPE) |
			       sigmask(SIGSEGV) | sigmask(SIGXCPU) |
			       sigmask(SIGXFSZ) | sigmask(SIGSYS));
}

/*
 * current's process is to end by info->si_signo, whose default action is
 * core: with RLIMIT_CORE of a page or more, the group exit begins here
 * (the other threads killed and waited for), and the core file is
 * written where core_pattern says, relative to the cwd, as far as the
 * limit and the file system let it. The group's exit code then has the
 * core flag (0x80), as on Linux once a dump has begun. Called by
 * get_signal under the big kernel lock; do_group_exit follows.
 */
void do_coredump(const struct kernel_siginfo *info);

/* do_exit's first step: a thread a dump waits for waits for the dump.
 * Under the big kernel lock. */
void coredump_task_exit(struct task_struct *tsk);

#endif
