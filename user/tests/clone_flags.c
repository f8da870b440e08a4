/* user/tests/clone_flags.c — clone's TID flags as glibc's fork uses them,
 * CLONE_VM|CLONE_VFORK sharing memory, CLONE_SETTLS, CLONE_FS, CLONE_FILES
 * and CLONE_VM between processes, the flag checks. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define ARCH_GET_FS	0x1003
#define SENTINEL	(-7)

static long raw_clone(unsigned long flags, void *sp, int *ptid, int *ctid,
		      unsigned long tls)
{
	return syscall(SYS_clone, flags, sp, ptid, ctid, tls);
}

/* What a child saw, in a MAP_SHARED page the parent reads after wait. */
struct seen {
	int ctid;		/* the CLONE_CHILD_SETTID word, in the child */
	int ptid;		/* the CLONE_PARENT_SETTID word, in the child */
	int pid;
	unsigned long fsbase;
};

static struct seen *sh;

/* glibc's fork: CHILD_SETTID|CHILD_CLEARTID, plus PARENT_SETTID. With no
 * CLONE_VM the child's stores go to its own copy: the parent sees its
 * ptid only, and the exit clears nothing (the mm is not shared). */
static void test_fork_like(void)
{
	int *ctid = &((int *)(sh + 1))[0];	/* shared: the child's store shows */
	int ptid = SENTINEL, status;
	long pid;

	*ctid = SENTINEL;
	pid = raw_clone(CLONE_PARENT_SETTID | CLONE_CHILD_SETTID |
			CLONE_CHILD_CLEARTID | SIGCHLD, NULL, &ptid, ctid, 0);
	if (pid == 0) {
		sh->ctid = *ctid;
		sh->ptid = ptid;
		sh->pid = getpid();
		_exit(0);
	}
	tap_ok(pid > 0, "clone(SETTID|CLEARTID|SIGCHLD) as glibc's fork (%ld, %s)",
	       pid, strerror(errno));
	tap_ok(ptid == pid, "CLONE_PARENT_SETTID stored the child's tid in the parent (%d)",
	       ptid);
	waitpid((pid_t)pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the child exited 0 (%s)", status_str(status));
	tap_ok(sh->ctid == pid && sh->pid == pid,
	       "CLONE_CHILD_SETTID: the child found its tid %d at child_tid (%d)",
	       sh->pid, sh->ctid);
	tap_ok(sh->ptid == SENTINEL,
	       "the child's copy of parent_tid was not written (%d)", sh->ptid);
	tap_ok(*ctid == pid,
	       "CLONE_CHILD_CLEARTID cleared nothing: the child's mm was its own (%d)",
	       *ctid);
}

static volatile int vf_ctid = SENTINEL, vf_seen, vf_written;

static int vfork_child(void *arg)
{
	(void)arg;
	vf_seen = vf_ctid;	/* its own tid, from CLONE_CHILD_SETTID */
	vf_written = 42;	/* shared memory: the parent sees it */
	return 0;
}

/* CLONE_VM|CLONE_VFORK: memory shared, the parent resumes when the child
 * exits; the exit clears child_tid (the mm is shared) and wakes it. */
static void test_vfork(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	int ptid = SENTINEL, status, w;
	int pid = clone(vfork_child, stack + sizeof(stack),
			CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID |
			CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD,
			NULL, &ptid, NULL, (int *)&vf_ctid);

	tap_ok(pid > 0, "clone(CLONE_VM|CLONE_VFORK|TID flags) (%d, %s)", pid,
	       strerror(errno));
	tap_ok(vf_written == 42, "the vfork child wrote the parent's memory");
	tap_ok(vf_seen == pid, "the child saw its tid at child_tid (%d)",
	       vf_seen);
	tap_ok(ptid == pid, "parent_tid holds the child's tid (%d)", ptid);
	tap_ok(vf_ctid == 0,
	       "the child's exit stored 0 at child_tid (CLONE_CHILD_CLEARTID: %d)",
	       vf_ctid);
	/* A waiter on that word now returns at once: it is no longer pid. */
	w = (int)syscall(SYS_futex, &vf_ctid, 0 /* FUTEX_WAIT */, pid, NULL);
	tap_ok(w == -1 && errno == EAGAIN,
	       "FUTEX_WAIT for the tid returns EAGAIN: the word is 0 (%s)",
	       strerror(errno));
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "the vfork child exited 0 (%s)", status_str(status));
}

/* CLONE_SETTLS gives the child its own FS base: a copy of our TCB (its
 * stack canary included) that points to itself. */
static void test_settls(void)
{
	static unsigned long tcb[64] __attribute__((aligned(64)));
	unsigned long fs;
	int status;
	long pid;

	syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	memcpy(tcb, (void *)fs, sizeof(tcb));
	tcb[0] = (unsigned long)tcb;
	pid = raw_clone(CLONE_SETTLS | SIGCHLD, NULL, NULL, NULL,
			(unsigned long)tcb);
	if (pid == 0) {
		syscall(SYS_arch_prctl, ARCH_GET_FS, &sh->fsbase);
		syscall(SYS_exit_group, 0);
	}
	waitpid((pid_t)pid, &status, 0);
	tap_ok(pid > 0 && sh->fsbase == (unsigned long)tcb,
	       "CLONE_SETTLS: the child's FS base is the tls argument (%#lx)",
	       sh->fsbase);
	errno = 0;
	pid = raw_clone(CLONE_SETTLS | SIGCHLD, NULL, NULL, NULL,
			0xffff800000000000UL);
	if (pid == 0)
		_exit(0);
	tap_ok(pid == -1 && errno == EPERM,
	       "CLONE_SETTLS with a kernel address is EPERM (%s)", strerror(errno));
}

static int shared_fd = -1;
static volatile int vm_word;

/* A child sharing what flags say: it chdirs, sets the umask, opens a file
 * and writes a word; the parent sees what it shares of it. */
static int sharing_child(void *arg)
{
	(void)arg;
	chdir("/tmp");
	umask(027);
	shared_fd = open("/dev/null", O_RDONLY);
	vm_word = 42;
	return 0;
}

static void test_sharing(void)
{
	static char stack[16384] __attribute__((aligned(16)));
	char cwd[64] = "";
	int st, old_fd, pid;
	mode_t old_mask;

	chdir("/");
	old_mask = umask(022);
	pid = clone(sharing_child, stack + sizeof(stack),
		    CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, NULL);
	waitpid(pid, &st, 0);
	getcwd(cwd, sizeof(cwd));
	tap_ok(pid > 0 && !strcmp(cwd, "/tmp") && umask(022) == 027,
	       "CLONE_FS: the child's chdir and umask are the parent's (cwd %s)",
	       cwd);
	tap_ok(shared_fd >= 0 && fcntl(shared_fd, F_GETFD) >= 0,
	       "CLONE_FILES: the descriptor the child opened is open in the parent (%d)",
	       shared_fd);
	tap_ok(vm_word == 42, "CLONE_VM without CLONE_VFORK: the child's store is seen");
	close(shared_fd);
	old_fd = shared_fd;
	vm_word = 0;
	chdir("/");
	pid = clone(sharing_child, stack + sizeof(stack), SIGCHLD, NULL);
	waitpid(pid, &st, 0);
	getcwd(cwd, sizeof(cwd));
	tap_ok(!strcmp(cwd, "/") && umask(old_mask) == 022 && vm_word == 0 &&
	       fcntl(old_fd, F_GETFD) < 0,
	       "without them the child's cwd, umask, files and memory are its own (cwd %s)",
	       cwd);
}

static void expect_einval(unsigned long flags, const char *what)
{
	long pid;

	errno = 0;
	pid = raw_clone(flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	tap_ok(pid == -1 && errno == EINVAL, "clone(%s) is EINVAL (%s)", what,
	       strerror(errno));
}

int main(void)
{
	long r;

	tap_plan(26);
	sh = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		tap_ok(0, "mmap a shared page");
		tap_done();
	}
	test_fork_like();
	test_vfork();
	test_settls();
	expect_einval(CLONE_SIGHAND, "CLONE_SIGHAND without CLONE_VM");
	expect_einval(CLONE_THREAD | CLONE_VM, "CLONE_THREAD without CLONE_SIGHAND");
	expect_einval(CLONE_FS | CLONE_NEWNS, "CLONE_FS|CLONE_NEWNS");
	expect_einval(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM | CLONE_NEWPID,
		      "CLONE_THREAD with CLONE_NEWPID");
	expect_einval(CLONE_PIDFD | CLONE_DETACHED, "CLONE_PIDFD|CLONE_DETACHED");
	test_sharing();
	/* clone3 with a NULL, too small argument: Linux 5.3+ says EINVAL;
	 * zpk has no clone3 and says ENOSYS, where libcs fall back. */
	errno = 0;
	r = syscall(SYS_clone3, NULL, 0);
	tap_ok(r == -1 && errno == (is_zpk() ? ENOSYS : EINVAL),
	       "clone3(NULL, 0) is %s (%s)", is_zpk() ? "ENOSYS" : "EINVAL",
	       strerror(errno));
	/* set_tid_address returns the caller's tid (the main thread's is the
	 * pid). */
	r = syscall(SYS_set_tid_address, NULL);
	tap_ok(r == getpid(), "set_tid_address returns the tid (%ld)", r);
	tap_done();
}
