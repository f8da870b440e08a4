/* user/tests/sendfile.c — sendfile(2) copies between descriptors in the
 * kernel: from the input's position (or *offset, which it then advances
 * instead), to a file or a pipe, with the host Linux's errnos. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "ulib.h"

#define LEN	10000			/* more than two pages */
#define SRC	"/tmp/sendfile-src"
#define DST	"/tmp/sendfile-dst"

static char data[LEN], back[LEN];

/* call's result as 0 or an errno */
#define ERR(call)	((call) < 0 ? errno : 0)

static void expect(int got, int want, const char *what)
{
	tap_ok(got == want, "%s: %s (want %s)", what,
	       got ? strerror(got) : "0", want ? strerror(want) : "0");
}

/* A new file at path holding n bytes of buf. */
static int make_file(const char *path, const char *buf, size_t n)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0 && write(fd, buf, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return fd;
}

static void file_to_file(int in)
{
	int out = open(DST, O_RDWR | O_CREAT | O_TRUNC, 0644);
	off_t off = 100;
	ssize_t n;

	lseek(in, 0, SEEK_SET);
	n = sendfile(out, in, NULL, LEN);
	tap_ok(n == LEN && lseek(in, 0, SEEK_CUR) == LEN &&
	       lseek(out, 0, SEEK_CUR) == LEN, "file to file: %zd bytes, "
	       "both positions at the end", n);
	tap_ok(pread(out, back, LEN, 0) == LEN && !memcmp(back, data, LEN),
	       "... the copy holds the data");
	n = sendfile(out, in, NULL, LEN);
	tap_ok(n == 0, "at the input's end it sends 0 (%zd)", n);
	lseek(in, 7, SEEK_SET);
	n = sendfile(out, in, &off, 5000);
	tap_ok(n == 5000 && off == 5100 && lseek(in, 0, SEEK_CUR) == 7,
	       "with an offset: %zd bytes, *offset %lld, the input's position"
	       " untouched", n, (long long)off);
	tap_ok(pread(out, back, 5000, LEN) == 5000 &&
	       !memcmp(back, data + 100, 5000), "... the data from *offset "
	       "lands at the output's position");
	off = LEN - 10;
	n = sendfile(out, in, &off, 100);
	tap_ok(n == 10 && off == LEN, "short at the end: %zd bytes", n);
	tap_ok(sendfile(out, in, NULL, 0) == 0, "count 0 sends 0");
	close(out);
}

static void file_to_pipe(int in)
{
	int p[2], out = open(DST, O_WRONLY);
	off_t off = 0;
	ssize_t n;

	if (!tap_ok(pipe(p) == 0, "pipe"))
		return;
	n = sendfile(p[1], in, &off, 3000);
	tap_ok(n == 3000 && read(p[0], back, 3000) == 3000 &&
	       !memcmp(back, data, 3000), "file to pipe: %zd bytes, the "
	       "reader gets them", n);
	tap_ok(write(p[1], "x", 1) == 1, "one byte in the pipe");
	expect(ERR(sendfile(out, p[0], NULL, 1)), EINVAL, "from a pipe");
	expect(ERR(sendfile(p[1], p[0], &off, 1)), ESPIPE,
	       "an offset with a pipe as input");
	close(p[0]);
	close(p[1]);
	close(out);
}

static void errors(int in)
{
	int wr = open(SRC, O_WRONLY), ap = open(DST, O_WRONLY | O_APPEND);
	int out = open(DST, O_WRONLY);
	off_t neg = -1;

	expect(ERR(sendfile(out, 99, NULL, 1)), EBADF, "a closed input");
	expect(ERR(sendfile(99, in, NULL, 1)), EBADF, "a closed output");
	expect(ERR(sendfile(out, wr, NULL, 1)), EBADF, "an input opened "
	       "O_WRONLY");
	expect(ERR(sendfile(in, in, NULL, 1)), EBADF, "an output opened "
	       "O_RDONLY");
	expect(ERR(sendfile(ap, in, NULL, 1)), EINVAL, "an O_APPEND output");
	expect(ERR(sendfile(out, in, &neg, 1)), EINVAL, "a negative offset");
	expect(ERR(sendfile(out, in, (off_t *)8, 1)), EFAULT,
	       "a bad offset pointer");
	close(wr);
	close(ap);
	close(out);
}

int main(void)
{
	int in;

	tap_plan(20);
	for (int i = 0; i < LEN; i++)
		data[i] = 'a' + i % 23;
	in = make_file(SRC, data, LEN);
	if (!tap_ok(in >= 0, "a %d-byte file", LEN))
		tap_done();
	close(in);
	in = open(SRC, O_RDONLY);
	file_to_file(in);
	file_to_pipe(in);
	errors(in);
	close(in);
	unlink(SRC);
	unlink(DST);
	tap_done();
}
