/* user/bench/linux-init.c — /init of make bench-linux's initramfs: mounts
 * /proc, runs /bin/zpbench with the arguments after "--" on Linux's command
 * line (Linux passes them to init as argv), then powers the machine off.
 * A first argument that is a path ("/bin/cow ...") runs that program
 * instead (make kselftest).  "--kallsyms" instead prints /proc/kallsyms
 * (for scripts/bench-profile.sh; boot with nokaslr so the addresses hold
 * for the next boot too).  transparent_hugepage=WORD on the command line
 * is put back through /sys where Linux turned THP off (thp_as_asked).
 * Modules in /lib/modules (make kselftest's virtio disk) are loaded
 * first (load_modules). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(const char *name, const char *text)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/mm/transparent_hugepage/%s",
		 name);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		fprintf(stderr, "linux-init: %s: %m\n", path);
	if (fd >= 0)
		close(fd);
}

/*
 * Linux 6.1's hugepage_init clears every THP flag on a machine of less
 * than 512 MiB, whatever transparent_hugepage= said ("the admin can
 * still enable it through /sys"): make kselftest's boots are 256 and
 * 512 MiB and ask for always. As that admin, set the word asked for,
 * and Linux's defaults for what the clearing also took (defrag madvise,
 * khugepaged/defrag 1, use_zero_page 1).
 */
static int read_text(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY), len;

	len = fd < 0 ? -1 : read(fd, buf, n - 1);
	buf[len > 0 ? len : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return len > 0;
}

static void thp_as_asked(void)
{
	char buf[1024], word[16] = "", *p;

	p = read_text("/proc/cmdline", buf, sizeof(buf)) ?
	    strstr(buf, "transparent_hugepage=") : NULL;
	if (!p || sscanf(p + 21, "%15[a-z]", word) != 1 ||
	    !strcmp(word, "never"))
		return;
	if (!read_text("/sys/kernel/mm/transparent_hugepage/enabled", buf,
		       sizeof(buf)) || !strstr(buf, "[never]"))
		return;
	put("enabled", word);
	put("defrag", "madvise");
	put("khugepaged/defrag", "1");
	put("use_zero_page", "1");
}

/* make kselftest's swap disk: Debian's virtio modules, in the order
 * /lib/modules/order gives them (finit_module, as insmod does), so that
 * /dev/vda appears in devtmpfs. No order file: nothing to load. */
static void load_modules(void)
{
	char names[1024], path[300], *name, *save;
	int fd;

	if (!read_text("/lib/modules/order", names, sizeof(names)))
		return;
	for (name = strtok_r(names, "\n", &save); name;
	     name = strtok_r(NULL, "\n", &save)) {
		snprintf(path, sizeof(path), "/lib/modules/%s", name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
			fprintf(stderr, "linux-init: %s: %m\n", path);
		if (fd >= 0)
			close(fd);
	}
	if (access("/dev/vda", F_OK))
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
}

int main(int argc, char **argv)
{
	char *args[16] = { "/bin/zpbench" };
	char **run = args;
	int i, j = 1, st = -1;
	pid_t pid;

	/* Linux hands init the options it does not know, like nokaslr. */
	for (i = 1; i < argc && j < 15; i++)
		if (strcmp(argv[i], "nokaslr"))
			args[j++] = argv[i];
	args[j] = NULL;
	/* No /dev/console in the archive: then stdio is closed; open it. */
	if (fcntl(1, F_GETFD) < 0 &&
	    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) == 0) {
		i = open("/dev/console", O_RDWR);
		dup2(i, 0), dup2(i, 1), dup2(i, 2);
	}
	if (mount("proc", "/proc", "proc", 0, NULL) < 0)
		perror("linux-init: mount /proc");
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	thp_as_asked();
	load_modules();
	if (args[1] && !strcmp(args[1], "--kallsyms")) {
		args[0] = "/bin/cat";
		args[1] = "/proc/kallsyms";
	} else if (args[1] && args[1][0] == '/') {
		run = args + 1;
	}
	pid = fork();
	if (pid == 0) {
		execv(run[0], run);
		fprintf(stderr, "linux-init: exec %s: %m\n", run[0]);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	printf("linux-init: %s exited with status %d\n", run[0],
	       WIFEXITED(st) ? WEXITSTATUS(st) :
	       WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 128);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
