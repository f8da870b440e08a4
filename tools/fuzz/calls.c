/* tools/fuzz/calls.c — the system calls the fuzzer knows by argument kind
 * (Linux x86-64 numbers; any other number is drawn too, with any values),
 * and the few rewrites that keep a child's calls off the runner. */
#include <stddef.h>
#include <sys/syscall.h>

#include "fuzz.h"

/* Kinds per argument, in order (fuzz.h). Calls zpk lacks are here too:
 * their -ENOSYS path is fuzzed, and they are ready when zpk grows them. */
const struct call_desc call_table[] = {
	{ SYS_read, "read", "fpl" },
	{ SYS_write, "write", "fpl" },
	{ SYS_open, "open", "sOm" },
	{ SYS_close, "close", "f" },
	{ SYS_stat, "stat", "sp" },
	{ SYS_fstat, "fstat", "fp" },
	{ SYS_lstat, "lstat", "sp" },
	{ SYS_poll, "poll", "pcx" },
	{ SYS_lseek, "lseek", "foc" },
	{ SYS_mmap, "mmap", "alPMfo" },
	{ SYS_mprotect, "mprotect", "alP" },
	{ SYS_munmap, "munmap", "al" },
	{ SYS_brk, "brk", "a" },
	{ SYS_rt_sigaction, "rt_sigaction", "nppl" },
	{ SYS_rt_sigprocmask, "rt_sigprocmask", "cppl" },
	{ SYS_rt_sigreturn, "rt_sigreturn", "" },
	{ SYS_ioctl, "ioctl", "fxp" },
	{ SYS_pread64, "pread64", "fplo" },
	{ SYS_pwrite64, "pwrite64", "fplo" },
	{ SYS_readv, "readv", "fvc" },
	{ SYS_writev, "writev", "fvc" },
	{ SYS_access, "access", "sg" },
	{ SYS_pipe, "pipe", "p" },
	{ SYS_select, "select", "cpppt" },
	{ SYS_sched_yield, "sched_yield", "" },
	{ SYS_mremap, "mremap", "allga" },
	{ SYS_msync, "msync", "alg" },
	{ SYS_mincore, "mincore", "alp" },
	{ SYS_madvise, "madvise", "alc" },
	{ SYS_dup, "dup", "f" },
	{ SYS_dup2, "dup2", "ff" },
	{ SYS_pause, "pause", "" },
	{ SYS_nanosleep, "nanosleep", "tp" },
	{ SYS_getitimer, "getitimer", "cp" },
	{ SYS_alarm, "alarm", "c" },
	{ SYS_setitimer, "setitimer", "cpp" },
	{ SYS_getpid, "getpid", "" },
	{ SYS_sendfile, "sendfile", "ffpl" },
	{ SYS_clone, "clone", "gappx" },
	{ SYS_fork, "fork", "" },
	{ SYS_vfork, "vfork", "" },
	{ SYS_execve, "execve", "see" },
	{ SYS_exit, "exit", "c" },
	{ SYS_wait4, "wait4", "ipgp" },
	{ SYS_kill, "kill", "in" },
	{ SYS_uname, "uname", "p" },
	{ SYS_fcntl, "fcntl", "fcx" },
	{ SYS_flock, "flock", "fc" },
	{ SYS_fsync, "fsync", "f" },
	{ SYS_fdatasync, "fdatasync", "f" },
	{ SYS_truncate, "truncate", "so" },
	{ SYS_ftruncate, "ftruncate", "fo" },
	{ SYS_getdents, "getdents", "fpl" },
	{ SYS_getcwd, "getcwd", "pl" },
	{ SYS_chdir, "chdir", "s" },
	{ SYS_fchdir, "fchdir", "f" },
	{ SYS_rename, "rename", "ww" },
	{ SYS_mkdir, "mkdir", "wm" },
	{ SYS_rmdir, "rmdir", "w" },
	{ SYS_creat, "creat", "wm" },
	{ SYS_link, "link", "ww" },
	{ SYS_unlink, "unlink", "w" },
	{ SYS_symlink, "symlink", "ww" },
	{ SYS_readlink, "readlink", "spl" },
	{ SYS_chmod, "chmod", "wm" },
	{ SYS_fchmod, "fchmod", "fm" },
	{ SYS_umask, "umask", "m" },
	{ SYS_gettimeofday, "gettimeofday", "pp" },
	{ SYS_getrlimit, "getrlimit", "cp" },
	{ SYS_getrusage, "getrusage", "cp" },
	{ SYS_sysinfo, "sysinfo", "p" },
	{ SYS_times, "times", "p" },
	{ SYS_getuid, "getuid", "" },
	{ SYS_getgid, "getgid", "" },
	{ SYS_setuid, "setuid", "c" },
	{ SYS_geteuid, "geteuid", "" },
	{ SYS_getegid, "getegid", "" },
	{ SYS_setpgid, "setpgid", "ii" },
	{ SYS_getppid, "getppid", "" },
	{ SYS_getpgrp, "getpgrp", "" },
	{ SYS_setsid, "setsid", "" },
	{ SYS_getgroups, "getgroups", "cp" },
	{ SYS_setgroups, "setgroups", "cp" },
	{ SYS_getpgid, "getpgid", "i" },
	{ SYS_getsid, "getsid", "i" },
	{ SYS_rt_sigpending, "rt_sigpending", "pl" },
	{ SYS_rt_sigtimedwait, "rt_sigtimedwait", "pptl" },
	{ SYS_rt_sigqueueinfo, "rt_sigqueueinfo", "inp" },
	{ SYS_rt_sigsuspend, "rt_sigsuspend", "pl" },
	{ SYS_sigaltstack, "sigaltstack", "pp" },
	{ SYS_personality, "personality", "g" },
	{ SYS_statfs, "statfs", "sp" },
	{ SYS_fstatfs, "fstatfs", "fp" },
	{ SYS_mlock, "mlock", "al" },
	{ SYS_munlock, "munlock", "al" },
	{ SYS_mlockall, "mlockall", "g" },
	{ SYS_munlockall, "munlockall", "" },
	{ SYS_prctl, "prctl", "cxxxx" },
	{ SYS_arch_prctl, "arch_prctl", "ca" },
	{ SYS_setrlimit, "setrlimit", "cp" },
	{ SYS_sync, "sync", "" },
	{ SYS_gettid, "gettid", "" },
	{ SYS_tkill, "tkill", "in" },
	{ SYS_time, "time", "p" },
	{ SYS_futex, "futex", "pcxtpx" },
	{ SYS_getdents64, "getdents64", "fpl" },
	{ SYS_set_tid_address, "set_tid_address", "p" },
	{ SYS_clock_gettime, "clock_gettime", "cp" },
	{ SYS_clock_getres, "clock_getres", "cp" },
	{ SYS_clock_nanosleep, "clock_nanosleep", "cgtp" },
	{ SYS_exit_group, "exit_group", "c" },
	{ SYS_tgkill, "tgkill", "iin" },
	{ SYS_openat, "openat", "fsOm" },
	{ SYS_mkdirat, "mkdirat", "fwm" },
	{ SYS_newfstatat, "newfstatat", "fspg" },
	{ SYS_unlinkat, "unlinkat", "fwg" },
	{ SYS_renameat, "renameat", "fwfw" },
	{ SYS_readlinkat, "readlinkat", "fspl" },
	{ SYS_faccessat, "faccessat", "fsg" },
	{ SYS_pselect6, "pselect6", "cppptp" },
	{ SYS_ppoll, "ppoll", "pctpl" },
	{ SYS_set_robust_list, "set_robust_list", "pl" },
	{ SYS_get_robust_list, "get_robust_list", "ipp" },
	{ SYS_splice, "splice", "fpfplg" },
	{ SYS_pipe2, "pipe2", "pg" },
	{ SYS_dup3, "dup3", "ffg" },
	{ SYS_preadv, "preadv", "fvco" },
	{ SYS_pwritev, "pwritev", "fvco" },
	{ SYS_prlimit64, "prlimit64", "icpp" },
	{ SYS_getrandom, "getrandom", "plg" },
	{ SYS_memfd_create, "memfd_create", "sg" },
	{ SYS_process_vm_readv, "process_vm_readv", "ivcvcg" },
	{ SYS_process_vm_writev, "process_vm_writev", "ivcvcg" },
	{ SYS_rseq, "rseq", "plgx" },
	{ SYS_clone3, "clone3", "pl" },
	{ SYS_faccessat2, "faccessat2", "fsgg" },
	{ SYS_epoll_create1, "epoll_create1", "g" },
	{ SYS_epoll_ctl, "epoll_ctl", "fcfp" },
	{ SYS_epoll_wait, "epoll_wait", "fpcc" },
	{ SYS_epoll_pwait, "epoll_pwait", "fpccpl" },
	{ SYS_eventfd2, "eventfd2", "cg" },
	{ SYS_timerfd_create, "timerfd_create", "cg" },
	{ SYS_timerfd_settime, "timerfd_settime", "fgpp" },
	{ SYS_timerfd_gettime, "timerfd_gettime", "fp" },
	{ SYS_signalfd4, "signalfd4", "fplg" },
	{ SYS_shmget, "shmget", "xlg" },
	{ SYS_shmat, "shmat", "cag" },
	{ SYS_shmdt, "shmdt", "a" },
	{ SYS_shmctl, "shmctl", "ccp" },
};
const int nr_call_table = sizeof(call_table) / sizeof(call_table[0]);

const struct call_desc *call_desc_of(long nr)
{
	for (int i = 0; i < nr_call_table; i++)
		if (call_table[i].nr == nr)
			return &call_table[i];
	return NULL;
}

int call_forks(long nr)
{
	return nr == SYS_fork || nr == SYS_vfork || nr == SYS_clone ||
	       nr == SYS_clone3;
}

/*
 * What must be left out, because it would end or change the runner
 * rather than test the kernel: reboot is never made; the calls that may
 * write another process's memory or limits (process_vm_writev, ptrace,
 * prlimit64) never name pid 1, the runner, and get the child's own pid
 * (0) instead. Everything else, kill(1) included, is left to the kernel:
 * init is immune to signals it does not handle.
 */
void call_fixup(struct call *c)
{
	if (c->nr == SYS_reboot)
		c->nr = SYS_getpid;
	if ((c->nr == SYS_process_vm_writev || c->nr == SYS_ptrace ||
	     c->nr == SYS_prlimit64) && (int)c->arg[c->nr == SYS_ptrace] == 1)
		c->arg[c->nr == SYS_ptrace] = 0;
}
