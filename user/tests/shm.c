/* user/tests/shm.c — System V shared memory as Linux's: shmget by key
 * and IPC_PRIVATE with its errnos, shmat (SHM_RND, SHM_RDONLY,
 * SHM_REMAP) and shmdt, one segment seen through two attaches and by a
 * fork child, shm_nattch, IPC_STAT and IPC_SET, IPC_RMID (the segment
 * lives on, key 0 and SHM_DEST, until its last detach or exit),
 * /proc/self/maps' "/SYSV<key> (deleted)", RssShmem, /proc/sysvipc/shm
 * in Linux's format. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

#define HEADER "       key      shmid perms                  size  cpid  " \
	"lpid nattch   uid   gid  cuid  cgid      atime      dtime  " \
	"    ctime                   rss                  swap\n"

static unsigned long nattch(int id)
{
	struct shmid_ds ds;

	return shmctl(id, IPC_STAT, &ds) ? (unsigned long)-1 : ds.shm_nattch;
}

/* The /proc/self/maps line of addr, or "" */
static const char *maps_line(void *addr)
{
	static char buf[16384], line[256];
	char want[32], *p;
	size_t n;

	read_file("/proc/self/maps", buf, sizeof(buf));
	n = (size_t)snprintf(want, sizeof(want), "%lx-", (unsigned long)addr);
	for (p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, want, n)) {
			size_t len = strcspn(p, "\n");

			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			return line;
		}
	return "";
}

/* Our segment's /proc/sysvipc/shm row: its fields, 0 if absent. */
static int sysvipc_row(int id, long *f, int nf, char *header_ok)
{
	static char buf[8192];
	char *p;

	read_file("/proc/sysvipc/shm", buf, sizeof(buf));
	*header_ok = !strncmp(buf, HEADER, strlen(HEADER));
	for (p = strchr(buf, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		long key, sid;

		if (sscanf(p + 1, "%ld %ld", &key, &sid) != 2 || sid != id)
			continue;
		return sscanf(p + 1, "%ld %ld %lo %ld %ld %ld %ld %ld %ld %ld "
			      "%ld %ld %ld %ld %ld %ld", &f[0], &f[1], &f[2],
			      &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9],
			      &f[10], &f[11], &f[12], &f[13], &f[14], &f[15]) ==
		       nf;
	}
	return 0;
}

static void errors(key_t key)
{
	struct shmid_ds ds;
	int id = shmget(key, 4096, IPC_CREAT | 0644);
	char *p;

	tap_ok(id >= 0, "shmget(key, IPC_CREAT) makes one (%d)", id);
	tap_ok(shmget(key, 4096, 0) == id && shmget(key, 100, 0) == id,
	       "the key finds it again, for its size or less");
	tap_fails(shmget(key, 8192, 0), EINVAL, "asking for more than it has");
	tap_fails(shmget(key, 4096, IPC_CREAT | IPC_EXCL), EEXIST,
		  "IPC_CREAT|IPC_EXCL of a key in use");
	tap_fails(shmget(key + 1, 4096, 0), ENOENT, "a key nobody made");
	tap_fails(shmget(IPC_PRIVATE, 0, 0), EINVAL, "size 0");
	tap_fails((long)shmat(-1, NULL, 0), EINVAL, "shmat of id -1");
	tap_fails((long)shmat(id + (1 << 15), NULL, 0), EINVAL,
		  "shmat of an id nobody has");
	tap_fails((long)shmat(id, (void *)0x10000123, 0), EINVAL,
		  "an unaligned address without SHM_RND");
	p = shmat(id, (void *)0x10000123, SHM_RND);
	tap_ok(p == (void *)0x10000000, "SHM_RND rounds it down (%p)", p);
	tap_fails((long)shmat(id, p, 0), EINVAL, "over a mapping, no "
		  "SHM_REMAP");
	tap_ok(shmat(id, p, SHM_REMAP) == p, "SHM_REMAP replaces it");
	tap_fails((long)shmat(id, NULL, SHM_REMAP), EINVAL, "SHM_REMAP "
		  "without an address");
	tap_fails(shmdt(p + 1), EINVAL, "shmdt of an unaligned address");
	tap_fails(shmdt(p + 4096), EINVAL, "shmdt where no attach starts");
	tap_ok(shmdt(p) == 0, "shmdt");
	tap_fails(shmdt(p), EINVAL, "shmdt again");
	tap_fails(shmctl(id, 77, &ds), EINVAL, "shmctl command 77");
	tap_fails(shmctl(id, IPC_STAT, (void *)8), EFAULT, "a bad buffer");
	tap_ok(shmctl(id, IPC_RMID, NULL) == 0, "IPC_RMID");
	tap_fails(shmctl(id, IPC_STAT, &ds), EINVAL, "its id is gone");
	tap_fails(shmget(key, 4096, 0), ENOENT, "so is its key");
}

static void sharing(key_t key)
{
	int id = shmget(key, 10000, IPC_CREAT | 0600), st;
	char *a, *b, want[64];
	struct shmid_ds ds;
	long long rss0;
	pid_t pid;

	shmctl(id, IPC_STAT, &ds);
	tap_ok(ds.shm_segsz == 10000 && ds.shm_nattch == 0 &&
	       ds.shm_cpid == getpid() && (ds.shm_perm.mode & 0777) == 0600 &&
	       ds.shm_perm.__key == key && ds.shm_atime == 0,
	       "IPC_STAT: size as asked, nobody attached, our pid, 0600");
	a = shmat(id, NULL, 0);
	b = shmat(id, NULL, 0);
	tap_ok(a != (void *)-1 && b != (void *)-1 && a != b &&
	       !((unsigned long)a & 4095), "two attaches (%p, %p)", a, b);
	tap_ok(nattch(id) == 2, "shm_nattch 2 (%lu)", nattch(id));
	shmctl(id, IPC_STAT, &ds);
	tap_ok(ds.shm_lpid == getpid() && ds.shm_atime > 0, "shm_lpid ours, "
	       "shm_atime set");
	snprintf(want, sizeof(want), " rw-s 00000000 ");
	tap_ok(strstr(maps_line(a), want) != NULL, "/proc/self/maps: rw-s at "
	       "offset 0 (%s)", maps_line(a));
	snprintf(want, sizeof(want), "/SYSV%08x (deleted)", key);
	tap_ok(strstr(maps_line(a), want) != NULL, "... named %s", want);
	rss0 = self_kb("RssShmem");
	memset(a, 'x', 10000);
	tap_ok(kb_near(self_kb("RssShmem") - rss0, 12), "writing its 3 pages: "
	       "RssShmem +12 kB (%lld)", self_kb("RssShmem") - rss0);
	tap_ok(b[0] == 'x' && b[9999] == 'x', "the other attach sees it");
	pid = fork();
	if (pid == 0) {
		int ok = a[5000] == 'x' && nattch(id) == 4;

		a[0] = 'c';
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &st, 0);
	tap_ok(st == 0 && b[0] == 'c', "a fork child shares it (nattch 4 "
	       "there) and its write shows here (%s)", status_str(st));
	tap_ok(nattch(id) == 2, "back to 2 once it exited (%lu)", nattch(id));
	ds.shm_perm.mode = 0640;
	tap_ok(shmctl(id, IPC_SET, &ds) == 0 && shmctl(id, IPC_STAT, &ds) == 0 &&
	       (ds.shm_perm.mode & 0777) == 0640, "IPC_SET: mode 0640");
	{
		long f[16];
		char hdr;

		tap_ok(sysvipc_row(id, f, 16, &hdr) && hdr && f[0] == key &&
		       f[1] == id && f[2] == 0640 && f[3] == 10000 &&
		       f[4] == getpid() && f[6] == 2 && f[14] == 3 * 4096 &&
		       f[15] == 0, "/proc/sysvipc/shm: Linux's header, and key, "
		       "id, perms, size, cpid, nattch, rss (%ld) as IPC_STAT",
		       f[14]);
	}
	pid = fork();
	if (pid == 0) {
		char *r = shmat(id, NULL, SHM_RDONLY);

		if (r == (void *)-1 || r[1] != 'x')
			_exit(1);
		r[1] = 'w';	/* SIGSEGV */
		_exit(2);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "SHM_RDONLY reads, "
	       "and a write is SIGSEGV (%s)", status_str(st));

	tap_ok(shmctl(id, IPC_RMID, NULL) == 0, "IPC_RMID while attached");
	shmctl(id, IPC_STAT, &ds);
	tap_ok((ds.shm_perm.mode & SHM_DEST) && ds.shm_perm.__key == 0 &&
	       ds.shm_nattch == 2, "it lives on: SHM_DEST, key 0, nattch 2 "
	       "(%#o)", ds.shm_perm.mode);
	tap_fails(shmget(key, 100, 0), ENOENT, "no shmget finds its key");
	tap_ok(a[1] == 'x' && shmat(id, NULL, 0) != (void *)-1,
	       "still readable, and attachable by id, as Linux's");
	shmdt(b);
	tap_ok(shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_nattch == 2,
	       "one detach: still there (%lu)", (unsigned long)ds.shm_nattch);
	pid = fork();
	if (pid == 0) {
		shmdt(a);
		_exit(0);	/* exits attached to the third */
	}
	waitpid(pid, NULL, 0);
	tap_ok(nattch(id) == 2, "a child's detach and exit leave ours (%lu)",
	       nattch(id));
	shmdt(a);
	{
		/* the third attach is the last one */
		char *c = NULL;
		FILE *m = fopen("/proc/self/maps", "r");
		char line[256];

		while (m && fgets(line, sizeof(line), m))
			if (strstr(line, "/SYSV") && strstr(line, "deleted"))
				c = (char *)strtoul(line, NULL, 16);
		if (m)
			fclose(m);
		tap_ok(c && shmdt(c) == 0, "the last detach (%p)", c);
	}
	tap_fails(shmctl(id, IPC_STAT, &ds), EINVAL, "then it is gone");
}

/* A segment nobody removes outlives its creator. */
static void persistence(key_t key)
{
	int st, id;
	pid_t pid = fork();

	if (pid == 0) {
		int cid = shmget(key, 4096, IPC_CREAT | 0600);
		char *p = shmat(cid, NULL, 0);

		strcpy(p, "left behind");
		_exit(0);
	}
	waitpid(pid, &st, 0);
	id = shmget(key, 4096, 0);
	tap_ok(id >= 0 && nattch(id) == 0, "a child's segment outlives it, "
	       "unattached");
	if (id >= 0) {
		char *p = shmat(id, NULL, SHM_RDONLY);

		tap_ok(p != (void *)-1 && !strcmp(p, "left behind"),
		       "with what it wrote");
		shmctl(id, IPC_RMID, NULL);
		shmdt(p);
	}
}

int main(void)
{
	key_t key = 0x5a000000 | (getpid() & 0xffff);

	need_proc();
	tap_plan(45);
	errors(key);
	sharing(key + 2);
	persistence(key + 4);
	tap_done();
}
