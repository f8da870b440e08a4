/* user/bin/cat.c — cat [FILE...]: copy files (or stdin, or "-") to stdout.
 * Plain read/write loop; short writes are retried. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int copy(int fd, const char *name)
{
	char buf[4096];
	ssize_t n, w, off;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "cat: %s: %s\n", name, strerror(errno));
			return 1;
		}
		if (n == 0)
			return 0;
		for (off = 0; off < n; off += w) {
			w = write(1, buf + off, n - off);
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w < 0) {
				fprintf(stderr, "cat: write: %s\n",
					strerror(errno));
				return 1;
			}
		}
	}
}

int main(int argc, char **argv)
{
	int i, fd, ret = 0;

	if (argc < 2)
		return copy(0, "stdin");
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-") == 0) {
			ret |= copy(0, "stdin");
			continue;
		}
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "cat: %s: %s\n", argv[i],
				strerror(errno));
			ret = 1;
			continue;
		}
		ret |= copy(fd, argv[i]);
		close(fd);
	}
	return ret;
}
