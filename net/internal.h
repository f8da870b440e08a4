/* net/internal.h — what net/'s files share: Linux's socket constants and
 * the AF_UNIX calls the socket layer (socket.c) makes into af_unix.c. */
#ifndef NET_INTERNAL_H
#define NET_INTERNAL_H

#include <zpk/fs.h>

#define AF_UNSPEC	0
#define AF_UNIX		1
#define AF_MAX		46	/* families Linux numbers */

#define SOCK_STREAM	1
#define SOCK_DGRAM	2
#define SOCK_RAW	3
#define SOCK_SEQPACKET	5
#define SOCK_MAX	11	/* types: 1..10 */
#define SOCK_TYPE_MASK	0xf
#define SOCK_CLOEXEC	O_CLOEXEC
#define SOCK_NONBLOCK	O_NONBLOCK

#define MSG_OOB		0x1
#define MSG_PEEK	0x2
#define MSG_TRUNC	0x20
#define MSG_DONTWAIT	0x40
#define MSG_NOSIGNAL	0x4000

#define SHUT_RD		0
#define SHUT_WR		1
#define SHUT_RDWR	2

struct unix_sock;

/* A new unconnected AF_UNIX socket of type (stream, dgram, seqpacket),
 * or NULL. */
struct unix_sock *unix_create(int type);
/* socketpair: a and b, both new, become each other's peer. */
void unix_pair(struct unix_sock *a, struct unix_sock *b);
bool unix_connected(const struct unix_sock *u);
int unix_sock_type(const struct unix_sock *u);
/* sendmsg/recvmsg of the user's iovecs (copied in: nr of them); flags
 * are MSG_*, MSG_DONTWAIT for a non-blocking file. recv sets MSG_TRUNC
 * in *msg_flags for a datagram cut short. Bytes or -errno. */
ssize_t unix_sendmsg(struct unix_sock *u, const struct iovec *iov,
		     unsigned long nr, unsigned int flags);
ssize_t unix_recvmsg(struct unix_sock *u, const struct iovec *iov,
		     unsigned long nr, unsigned int flags,
		     unsigned int *msg_flags);
/* shutdown(2) with how already checked (SHUT_RD..SHUT_RDWR). */
void unix_shutdown(struct unix_sock *u, int how);
/* poll's events of u, whose file is f, registering on its wait queue. */
unsigned int unix_poll(struct file *f, struct unix_sock *u,
		       struct poll_table *pt);
/* The last close of u's file. */
void unix_release(struct unix_sock *u);

#endif
