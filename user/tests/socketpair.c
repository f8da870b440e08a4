/* user/tests/socketpair.c — AF_UNIX socket pairs: stream, datagram and
 * seqpacket data, EOF, ECONNRESET, EPIPE/SIGPIPE, ECONNREFUSED, shutdown,
 * SOCK_NONBLOCK/SOCK_CLOEXEC, sendmsg/recvmsg, poll, and socket()'s
 * errnos. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"

static volatile int sigpipes;

static void on_sigpipe(int sig)
{
	(void)sig;
	sigpipes++;
}

/* A fresh pair of type, or the test ends. */
static void pair(int type, int sv[2])
{
	if (socketpair(AF_UNIX, type, 0, sv)) {
		tap_ok(0, "socketpair: %s", strerror(errno));
		tap_done();
	}
}

static void closep(int sv[2])
{
	close(sv[0]);
	close(sv[1]);
}

static void stream(void)
{
	char buf[64] = "";
	int sv[2];

	pair(SOCK_STREAM, sv);
	tap_ok(write(sv[0], "ping", 4) == 4 && read(sv[1], buf, 64) == 4 &&
	       !memcmp(buf, "ping", 4) && write(sv[1], "pong", 4) == 4 &&
	       read(sv[0], buf, 64) == 4 && !memcmp(buf, "pong", 4),
	       "stream: both ways");
	write(sv[0], "ab", 2);
	write(sv[0], "cd", 2);
	tap_ok(recv(sv[1], buf, 3, MSG_PEEK) == 3 &&
	       recv(sv[1], buf, 64, 0) == 4 && !memcmp(buf, "abcd", 4),
	       "stream: writes run together; MSG_PEEK leaves the data");
	write(sv[0], "end", 3);
	close(sv[0]);
	tap_ok(read(sv[1], buf, 64) == 3 && read(sv[1], buf, 64) == 0,
	       "stream: the data, then EOF once the peer has closed");
	sigpipes = 0;
	tap_fails(write(sv[1], "x", 1), EPIPE,
		  "stream: write to a closed peer");
	tap_ok(sigpipes == 1, "... and SIGPIPE (%d)", sigpipes);
	sigpipes = 0;
	tap_fails(send(sv[1], "x", 1, MSG_NOSIGNAL), EPIPE,
		  "send MSG_NOSIGNAL");
	tap_ok(sigpipes == 0, "... without SIGPIPE");
	close(sv[1]);

	pair(SOCK_STREAM, sv);
	write(sv[0], "abc", 3);
	write(sv[1], "zz", 2);
	close(sv[0]);		/* "zz" never read */
	tap_ok(read(sv[1], buf, 64) == 3, "stream: data left by a closer");
	tap_fails(read(sv[1], buf, 64), ECONNRESET,
	      "then its unread data resets the connection");
	tap_ok(read(sv[1], buf, 64) == 0, "then EOF");
	close(sv[1]);
}

static void datagrams(void)
{
	char buf[64] = "", a[8], b[8];
	struct iovec out[3] = { { "one", 3 }, { "two", 3 }, { "three", 5 } };
	struct iovec in[2] = { { a, 4 }, { b, 8 } };
	struct msghdr mh = { 0 };
	static char big[1 << 20];
	struct sockaddr_un from;
	int sv[2];
	long n;

	pair(SOCK_DGRAM, sv);
	write(sv[0], "abc", 3);
	write(sv[0], "de", 2);
	tap_ok(read(sv[1], buf, 64) == 3 && read(sv[1], buf, 64) == 2,
	       "dgram: one read, one datagram");
	write(sv[0], "abcdef", 6);
	tap_ok(recv(sv[1], buf, 2, 0) == 2 &&
	       recv(sv[1], buf, 2, MSG_DONTWAIT) == -1 && errno == EAGAIN,
	       "a short read drops the rest of the datagram");
	write(sv[0], "abcdef", 6);
	tap_ok(recv(sv[1], buf, 2, MSG_TRUNC) == 6,
	       "MSG_TRUNC gives the datagram's length");
	mh.msg_iov = out;
	mh.msg_iovlen = 3;
	tap_ok(sendmsg(sv[0], &mh, 0) == 11, "sendmsg of three iovecs");
	mh.msg_iov = in;
	mh.msg_iovlen = 2;
	mh.msg_name = &from;
	mh.msg_namelen = sizeof(from);
	mh.msg_controllen = 99;
	mh.msg_control = buf;
	n = recvmsg(sv[1], &mh, 0);
	tap_ok(n == 11 && !memcmp(a, "onet", 4) &&
	       !memcmp(b, "wothree", 7) && mh.msg_flags == 0 &&
	       mh.msg_namelen == 0 && mh.msg_controllen == 0,
	       "recvmsg: one datagram scattered, no name, no control");
	write(sv[0], "abcdef", 6);
	in[1].iov_len = 1;
	tap_ok(recvmsg(sv[1], &mh, 0) == 5 && mh.msg_flags == MSG_TRUNC,
	       "recvmsg of a longer datagram: MSG_TRUNC in msg_flags");
	tap_ok(write(sv[0], buf, 0) == 0 &&
	       recv(sv[1], buf, 64, MSG_DONTWAIT) == 0,
	       "an empty datagram is one");
	tap_fails(write(sv[0], big, sizeof(big)), EMSGSIZE, "a 1 MiB datagram");
	close(sv[1]);
	sigpipes = 0;
	tap_fails(write(sv[0], "x", 1), ECONNREFUSED, "dgram: its peer closed");
	tap_fails(write(sv[0], "x", 1), ENOTCONN, "then not connected");
	tap_ok(sigpipes == 0, "no SIGPIPE for datagrams");
	close(sv[0]);

	pair(SOCK_SEQPACKET, sv);
	write(sv[0], "abc", 3);
	tap_ok(recv(sv[1], buf, 2, 0) == 2, "seqpacket: a record at a time");
	close(sv[0]);
	tap_ok(recv(sv[1], buf, 2, 0) == 0, "seqpacket: EOF after close");
	sigpipes = 0;
	tap_fails(write(sv[1], "x", 1), EPIPE, "seqpacket: write to it");
	close(sv[1]);
}

static void shutdowns(void)
{
	char buf[8];
	int sv[2];

	pair(SOCK_STREAM, sv);
	sigpipes = 0;
	tap_ok(shutdown(sv[0], SHUT_WR) == 0 && read(sv[1], buf, 8) == 0,
	       "SHUT_WR: the peer reads EOF");
	tap_fails(write(sv[0], "x", 1), EPIPE, "SHUT_WR: writing");
	tap_ok(sigpipes == 1 && write(sv[1], "y", 1) == 1 &&
	       read(sv[0], buf, 8) == 1, "with SIGPIPE; the other way works");
	closep(sv);
	pair(SOCK_STREAM, sv);
	tap_ok(shutdown(sv[0], SHUT_RD) == 0 && read(sv[0], buf, 8) == 0,
	       "SHUT_RD: reads are EOF");
	tap_fails(write(sv[1], "x", 1), EPIPE, "SHUT_RD: the peer's write");
	tap_fails(shutdown(sv[0], 7), EINVAL, "shutdown how 7");
	closep(sv);
	tap_fails(shutdown(0 + 99, SHUT_WR), EBADF, "shutdown of a bad fd");
	pipe(sv);
	tap_fails(shutdown(sv[0], SHUT_WR), ENOTSOCK, "shutdown of a pipe");
	tap_fails(send(sv[1], "x", 1, 0), ENOTSOCK, "send on a pipe");
	tap_fails(recv(sv[0], buf, 1, 0), ENOTSOCK, "recv on a pipe");
	closep(sv);
}

/* The child writes buf[0..n) in one write, then exits. */
static void writer_child(int fd, const char *buf, long n)
{
	_exit(write(fd, buf, n) == n ? 0 : 1);
}

static void blocking(void)
{
	static char out[256 * 1024], in[sizeof(out)];
	long total = 0, r, n = 0;
	int sv[2], status;
	pid_t pid;

	pair(SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, sv);
	tap_ok((fcntl(sv[0], F_GETFL) & (O_NONBLOCK | O_ACCMODE)) ==
	       (O_NONBLOCK | O_RDWR) && fcntl(sv[1], F_GETFD) == FD_CLOEXEC,
	       "SOCK_NONBLOCK and SOCK_CLOEXEC: O_RDWR|O_NONBLOCK, FD_CLOEXEC");
	tap_fails(read(sv[0], in, 8), EAGAIN, "an empty non-blocking socket");
	while ((r = write(sv[0], out, 65536)) > 0)
		total += r;
	tap_ok(r == -1 && errno == EAGAIN && total > 0,
	       "filling it: EAGAIN after %ld bytes", total);
	while ((r = read(sv[1], in, sizeof(in))) > 0)
		n += r;
	tap_ok(n == total, "the reader gets them all (%ld)", n);
	closep(sv);

	pair(SOCK_STREAM, sv);
	tap_fails(recv(sv[0], in, 8, MSG_DONTWAIT), EAGAIN, "MSG_DONTWAIT");
	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = (char)(i * 7 + i / 4096);
	pid = fork();
	if (pid == 0)
		writer_child(sv[1], out, sizeof(out));
	n = 0;
	while (n < (long)sizeof(in) &&
	       (r = read(sv[0], in + n, sizeof(in) - n)) > 0)
		n += r;
	waitpid(pid, &status, 0);
	tap_ok(n == (long)sizeof(in) && !memcmp(in, out, sizeof(in)) &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "one 256 KiB write: the writer waits for the reader (%ld)", n);
	closep(sv);
}

static void files(void)
{
	char path[64], want[64], buf[64];
	struct stat st;
	long n;
	int sv[2];

	pair(SOCK_STREAM, sv);
	memset(&st, 0, sizeof(st));
	n = fstat(sv[0], &st);
	tap_ok(n == 0 && st.st_mode == (S_IFSOCK | 0777),
	       "fstat: S_IFSOCK, 0777 (%o)", st.st_mode);
	tap_fails(lseek(sv[0], 0, SEEK_SET), ESPIPE, "lseek");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", sv[0]);
	snprintf(want, sizeof(want), "socket:[%lu]", (unsigned long)st.st_ino);
	n = readlink(path, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	tap_ok(!strcmp(buf, want), "its /proc/self/fd link: %s", buf);
	tap_fails(open(path, O_RDWR), ENXIO, "opening that link");
	closep(sv);
}

static void sockets(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[8];
	int sv[2], s;

	tap_fails(socket(999, SOCK_STREAM, 0), EAFNOSUPPORT,
		  "socket family 999");
	tap_fails(socket(AF_UNIX, 99, 0), EINVAL, "socket type 99");
	tap_fails(socket(AF_UNIX, SOCK_STREAM | 0x100000, 0), EINVAL,
	      "socket with an unknown flag");
	tap_fails(socket(AF_UNIX, SOCK_STREAM, 5), EPROTONOSUPPORT,
	      "AF_UNIX protocol 5");
	tap_fails(socketpair(AF_UNIX, SOCK_STREAM, 0, NULL), EFAULT,
	      "socketpair into NULL");
	if (is_zpk()) {
		tap_fails(socket(AF_INET, SOCK_STREAM, 0), EAFNOSUPPORT,
		      "zpk: AF_INET (no network, as a Linux without INET)");
		tap_fails(socketpair(AF_INET, SOCK_STREAM, 0, sv), EAFNOSUPPORT,
		      "zpk: socketpair AF_INET");
	} else {
		tap_skip("the host has AF_INET");
		tap_skip("the host has AF_INET (socketpair: EOPNOTSUPP)");
	}
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	tap_fails(write(s, "x", 1), ENOTCONN, "an unconnected stream: write");
	tap_fails(read(s, buf, 1), EINVAL, "an unconnected stream: read");
	strcpy(sa.sun_path, "/nonexistent-zpk-socket");
	tap_fails(connect(s, (struct sockaddr *)&sa, sizeof(sa)), ENOENT,
	      "connect to a missing path");
	strcpy(sa.sun_path, "/proc/self/status");
	tap_fails(connect(s, (struct sockaddr *)&sa, sizeof(sa)), ECONNREFUSED,
	      "connect to a file that is no socket");
	close(s);
}

/* poll of one fd for events, waiting up to ms: its revents, or -1. */
static int poll1(int fd, short events, int ms)
{
	struct pollfd p = { fd, events, 0 };

	return poll(&p, 1, ms) < 0 ? -1 : p.revents;
}

/* A child that sleeps 100 ms, then does what (0: exits, 1: writes a
 * byte to fd, 2: reads fd until it is empty). */
static pid_t later(int fd, int what)
{
	pid_t pid = fork();
	char buf[4096];

	if (pid)
		return pid;
	usleep(100 * 1000);
	if (what == 1)
		write(fd, "w", 1);
	while (what == 2 && recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	_exit(0);
}

/* Linux's unix_poll and unix_dgram_poll, and the wake-ups that end a
 * poll: data, room to write, hang-up. */
static void polls(void)
{
	const short all = POLLIN | POLLOUT | POLLRDHUP;
	char buf[64];
	int sv[2], r;
	pid_t pid;

	pair(SOCK_STREAM, sv);
	r = poll1(sv[0], all, 0);
	tap_ok(r == POLLOUT, "poll: a new stream socket is writable (%#x)",
	       r);
	write(sv[1], "ab", 2);
	r = poll1(sv[0], all | POLLRDNORM | POLLWRNORM, 0);
	tap_ok(r == (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM),
	       "poll: data makes it readable (%#x)", r);
	read(sv[0], buf, sizeof(buf));
	pid = later(sv[1], 1);
	r = poll1(sv[0], POLLIN, 5000);
	waitpid(pid, NULL, 0);
	tap_ok(r == POLLIN, "poll: a send by another process wakes it (%#x)",
	       r);
	read(sv[0], buf, sizeof(buf));
	pid = later(sv[1], 0);
	close(sv[1]);
	r = poll1(sv[0], POLLIN, 5000);
	waitpid(pid, NULL, 0);
	tap_ok(r == (POLLIN | POLLHUP), "poll: the peer's last close wakes "
	       "it, POLLIN|POLLHUP (%#x)", r);
	r = poll1(sv[0], all, 0);
	tap_ok(r == (POLLIN | POLLOUT | POLLRDHUP | POLLHUP),
	       "poll: peer gone, POLLRDHUP and POLLOUT too (%#x)", r);
	close(sv[0]);

	pair(SOCK_STREAM | SOCK_NONBLOCK, sv);
	while (write(sv[0], buf, sizeof(buf)) > 0)
		;
	r = poll1(sv[0], POLLOUT, 0);
	tap_ok(r == 0, "poll: a full stream is not writable (%#x)", r);
	pid = later(sv[1], 2);
	r = poll1(sv[0], POLLOUT, 5000);
	waitpid(pid, NULL, 0);
	tap_ok(r == POLLOUT, "poll: the peer's reads wake a writer (%#x)", r);
	closep(sv);

	pair(SOCK_STREAM, sv);
	write(sv[0], "x", 1);
	close(sv[1]);		/* "x" never read */
	r = poll1(sv[0], POLLIN, 0);
	tap_ok(r == (POLLIN | POLLERR | POLLHUP), "poll: a reset connection "
	       "has POLLERR (%#x)", r);
	close(sv[0]);

	pair(SOCK_STREAM, sv);
	shutdown(sv[1], SHUT_WR);
	r = poll1(sv[0], all, 0);
	tap_ok(r == (POLLIN | POLLOUT | POLLRDHUP), "poll: the peer's SHUT_WR "
	       "is POLLIN|POLLRDHUP, no POLLHUP (%#x)", r);
	shutdown(sv[0], SHUT_WR);
	r = poll1(sv[0], all, 0);
	tap_ok(r == (POLLIN | POLLOUT | POLLRDHUP | POLLHUP),
	       "poll: shut both ways, POLLHUP (%#x)", r);
	closep(sv);

	sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	r = poll1(sv[0], all, 0);
	tap_ok(r == (POLLOUT | POLLHUP), "poll: an unconnected stream socket "
	       "is POLLOUT|POLLHUP (%#x)", r);
	close(sv[0]);

	pair(SOCK_DGRAM, sv);
	close(sv[1]);
	r = poll1(sv[0], all, 0);
	tap_ok(r == POLLOUT, "poll: a datagram socket's peer gone: still "
	       "POLLOUT, no POLLHUP (%#x)", r);
	close(sv[0]);
	pair(SOCK_SEQPACKET, sv);
	close(sv[1]);
	r = poll1(sv[0], all, 0);
	tap_ok(r == (POLLIN | POLLOUT | POLLRDHUP | POLLHUP),
	       "poll: a seqpacket socket's peer gone: POLLHUP (%#x)", r);
	close(sv[0]);
}

int main(void)
{
	tap_plan(68);
	signal(SIGPIPE, on_sigpipe);
	stream();
	datagrams();
	shutdowns();
	blocking();
	files();
	sockets();
	polls();
	tap_done();
}
