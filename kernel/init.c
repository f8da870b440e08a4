/* kernel/init.c — PID 1: init= names the program (default /sbin/init);
 * words after "--" on the command line become its arguments. */
#include <asm/io.h>
#include <zpk/bug.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/init.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/reboot.h>
#include <zpk/sched.h>
#include <zpk/smp_lock.h>
#include <zpk/string.h>
#include <zpk/workqueue.h>

#define MAX_INIT_ARGS	32

static char init_path[256] = "/sbin/init";
static char init_args[1024];		/* after "--", split in place */
static const char *init_argv[MAX_INIT_ARGS + 2];
static const char *const init_envp[] = {
	"HOME=/", "TERM=vt100", "PATH=/bin:/sbin:/usr/bin:/usr/sbin:/tests",
	NULL
};

static int setup_init(const char *val)
{
	if (!val || val[0] != '/')
		return -1;
	strlcpy(init_path, val, sizeof(init_path));
	return 0;
}
early_param("init", setup_init, "PATH: the program to run as PID 1");

/* Splits the command line at " -- ": the part before is the kernel's,
 * the words after are init's (cmdline is cut there). */
void split_init_args(char *cmdline)
{
	char *p = strstr(cmdline, " -- ");

	if (!p && !strncmp(cmdline, "-- ", 3))
		p = cmdline - 1;
	if (!p)
		return;
	strlcpy(init_args, p + 4, sizeof(init_args));
	*(p + 1) = '\0';
}

static void build_argv(void)
{
	int n = 0;
	char *s = init_args;

	init_argv[n++] = init_path;
	while (*s && n <= MAX_INIT_ARGS) {
		while (*s == ' ')
			*s++ = '\0';
		if (!*s)
			break;
		init_argv[n++] = s;
		while (*s && *s != ' ')
			s++;
	}
	init_argv[n] = NULL;
}

/* fds 0, 1, 2 on the console, as Linux's console_on_rootfs does. */
static void open_console(void)
{
	struct file *f;

	if (vfs_open("/dev/console", O_RDWR, 0, &f)) {
		pr_warn("zpk: warning: unable to open an initial console\n");
		return;
	}
	fd_install_new(f, 0, false);
	fd_install_new(get_file(f), 1, false);
	fd_install_new(get_file(f), 2, false);
}

/* The VFS and exec: under the big kernel lock, as a system call. */
static int run_init(void *unused)
{
	int err;

	(void)unused;
	lock_kernel();
	open_console();
	build_argv();
	err = kernel_execve(init_path, init_argv, init_envp);
	if (err) {
		pr_err("zpk: cannot run init %s: error %d%s\n", init_path,
			 err, err == -ENOENT ? " (not in the initrd?)" : "");
		kernel_poweroff(ZPK_EXIT_FAILURE);
	}
	unlock_kernel();
	return 0;	/* into user mode, as the new program */
}

/* Starts PID 1 and the kworker (PID 2), and becomes CPU 0's idle loop. */
void __noreturn start_init(void)
{
	if (kernel_thread(run_init, NULL, "init") != 1)
		panic("could not create the init task");
	workqueue_init();
	pr_info("zpk: starting %s as PID 1\n", init_path);
	cpu_idle();
}
