/* user/lib/scratch.c — the scratch disk of tests/qemu/blk.sh and the
 * swap header the swap tests write on it (scratch.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#include "scratch.h"

/* Linux's union swap_header, version 1, from byte 1024. */
struct swap_info_hdr {
	uint32_t version, last_page, nr_badpages;
	unsigned char uuid[16], volume[16];
	uint32_t padding[117];
	uint32_t badpages[4];
};

static int first_line(int fd, char *buf, size_t n)
{
	ssize_t r = pread(fd, buf, n - 1, 0);

	buf[r > 0 ? r : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return r >= (ssize_t)strlen(SCRATCH_MAGIC) &&
	       !strncmp(buf, SCRATCH_MAGIC, strlen(SCRATCH_MAGIC));
}

long long scratch_size(int fd)
{
	char head[128];

	if (!first_line(fd, head, sizeof(head)))
		return -1;
	return atoll(head + strlen(SCRATCH_MAGIC));
}

long long scratch_disk_size(const char *dev)
{
	int fd = open(dev, O_RDONLY);
	long long size = fd < 0 ? -1 : scratch_size(fd);

	if (fd >= 0)
		close(fd);
	return size;
}

long long scratch_word(const char *dev, const char *key)
{
	char head[128], *p = NULL;
	int fd = open(dev, O_RDONLY);
	size_t kl = strlen(key);

	if (fd >= 0 && first_line(fd, head, sizeof(head)))
		for (p = strchr(head, ' '); p; p = strchr(p + 1, ' '))
			if (!strncmp(p + 1, key, kl) && p[kl + 1] == ' ')
				break;
	if (fd >= 0)
		close(fd);
	return p ? atoll(p + kl + 2) : -1;
}

int swap_header_write(const char *dev, const char *magic, uint32_t version,
		      uint32_t last_page, int nbad, const uint32_t *bad)
{
	struct swap_info_hdr h = { .version = version, .last_page = last_page,
				   .nr_badpages = nbad };
	char m[10] = { 0 };
	int fd = open(dev, O_WRONLY), ok;

	if (nbad > 0)
		memcpy(h.badpages, bad, nbad * sizeof(*bad));
	if (magic)
		memcpy(m, magic, 10);
	ok = fd >= 0 && pwrite(fd, &h, sizeof(h), 1024) == sizeof(h) &&
	     pwrite(fd, m, 10, 4096 - 10) == 10 && fsync(fd) == 0;
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

int scratch_swapon(const char *dev, long long bytes)
{
	if (swap_header_write(dev, "SWAPSPACE2", 1, bytes / 4096 - 1, 0,
			      NULL)) {
		errno = errno ? errno : EIO;
		return -1;
	}
	return swapon(dev, 0);
}

int scratch_swapoff(const char *dev)
{
	int r = swapoff(dev), e = errno;

	if (r == 0)	/* an area still in use keeps its header */
		swap_header_write(dev, NULL, 0, 0, 0, NULL);
	errno = e;
	return r;
}
