/* net/af_unix.c — AF_UNIX sockets as socketpair makes them: a queue of
 * messages (sk_buffs) per socket, stream, datagram and seqpacket reads,
 * EOF, EPIPE and ECONNRESET as Linux's net/unix/af_unix.c gives them. */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/slab.h>
#include <zpk/uaccess.h>
#include <zpk/wait.h>
#include "internal.h"

#define SNDBUF		212992	/* Linux's default net.core.wmem_default */
#define SKB_OVERHEAD	768	/* what Linux charges a small sk_buff */
#define RCV_SHUTDOWN	1
#define SEND_SHUTDOWN	2
#define SHUTDOWN_MASK	3

/* One message: data[off..len) is still unread. */
struct sk_buff {
	struct list_head list;
	size_t len, off;
	char data[];
};

/*
 * A socket. Its peer's writes land in its queue; its readers and its own
 * writers (waiting for room in the peer's queue) sleep on its wait queue,
 * which lives as long as its file, so no sleeper outlives it.
 */
struct unix_sock {
	int type;
	int refs;			/* its file, and a peer pointing here */
	struct unix_sock *peer;
	bool connected;			/* was given a peer */
	bool dead;			/* its file is closed */
	unsigned int shutdown;		/* RCV_SHUTDOWN | SEND_SHUTDOWN */
	int err;			/* ECONNRESET, for the next read */
	struct list_head queue;		/* sk_buffs received */
	size_t rmem;			/* their charge: len + SKB_OVERHEAD */
	struct wait_queue_head wait;
};

struct unix_sock *unix_create(int type)
{
	struct unix_sock *u = kzalloc(sizeof(*u), GFP_KERNEL);

	if (!u)
		return NULL;
	u->type = type;
	u->refs = 1;
	INIT_LIST_HEAD(&u->queue);
	init_waitqueue_head(&u->wait);
	return u;
}

void unix_pair(struct unix_sock *a, struct unix_sock *b)
{
	a->peer = b;
	b->peer = a;
	a->refs++;
	b->refs++;
	a->connected = b->connected = true;
}

bool unix_connected(const struct unix_sock *u)
{
	return u->connected;
}

int unix_sock_type(const struct unix_sock *u)
{
	return u->type;
}

static void unix_put(struct unix_sock *u)
{
	if (--u->refs == 0)
		kfree(u);
}

static void consume_skb(struct unix_sock *u, struct sk_buff *skb)
{
	list_del(&skb->list);
	u->rmem -= skb->len + SKB_OVERHEAD;
	kfree(skb);
}

/* Empties u's queue; whether anything was left unread. */
static bool purge(struct unix_sock *u)
{
	bool unread = !list_empty(&u->queue);

	while (!list_empty(&u->queue))
		consume_skb(u, list_first_entry(&u->queue, struct sk_buff,
						list));
	return unread;
}

/*
 * Linux's unix_release_sock: a stream or seqpacket peer is shut down
 * both ways (its reads see EOF, its writes EPIPE), with ECONNRESET first
 * if we leave data unread; a datagram peer learns at its next send.
 */
void unix_release(struct unix_sock *u)
{
	struct unix_sock *peer = u->peer;
	bool unread = purge(u);

	u->dead = true;
	u->shutdown = SHUTDOWN_MASK;
	if (peer) {
		if (peer->type != SOCK_DGRAM) {
			peer->shutdown = SHUTDOWN_MASK;
			if (unread)
				peer->err = ECONNRESET;
		}
		wake_up(&peer->wait);
		u->peer = NULL;
		unix_put(peer);
	}
	unix_put(u);
}

void unix_shutdown(struct unix_sock *u, int how)
{
	unsigned int mode = how + 1;	/* SHUT_RD..RDWR -> RCV, SEND, both */
	struct unix_sock *peer = u->peer;

	u->shutdown |= mode;
	wake_up(&u->wait);
	if (peer && u->type != SOCK_DGRAM) {
		peer->shutdown |= (mode & RCV_SHUTDOWN ? SEND_SHUTDOWN : 0) |
				  (mode & SEND_SHUTDOWN ? RCV_SHUTDOWN : 0);
		wake_up(&peer->wait);
	}
}

/* Copies len bytes between kbuf and the iovecs, skip bytes into them. */
static int iov_copy(const struct iovec *iov, unsigned long nr, size_t skip,
		    char *kbuf, size_t len, bool to_user)
{
	for (unsigned long i = 0; i < nr && len; i++) {
		char __user *ubuf = iov[i].iov_base;
		size_t k;

		if (skip >= iov[i].iov_len) {
			skip -= iov[i].iov_len;
			continue;
		}
		k = min(iov[i].iov_len - skip, len);
		if (to_user ? copy_to_user(ubuf + skip, kbuf, k)
			    : copy_from_user(kbuf, ubuf + skip, k))
			return -EFAULT;
		kbuf += k;
		len -= k;
		skip = 0;
	}
	return 0;
}

static size_t iov_total(const struct iovec *iov, unsigned long nr)
{
	size_t n = 0;

	for (unsigned long i = 0; i < nr; i++)
		n += iov[i].iov_len;
	return n;
}

/* len bytes of the iovecs from skip on in a new sk_buff, or NULL with
 * *err set. */
static struct sk_buff *skb_from_iov(const struct iovec *iov, unsigned long nr,
				    size_t skip, size_t len, int *err)
{
	struct sk_buff *skb = kmalloc(sizeof(*skb) + len, GFP_KERNEL);

	*err = -ENOMEM;
	if (!skb)
		return NULL;
	*err = iov_copy(iov, nr, skip, skb->data, len, false);
	if (*err) {
		kfree(skb);
		return NULL;
	}
	skb->len = len;
	skb->off = 0;
	return skb;
}

static void queue_skb(struct unix_sock *to, struct sk_buff *skb)
{
	list_add_tail(&skb->list, &to->queue);
	to->rmem += skb->len + SKB_OVERHEAD;
	wake_up(&to->wait);
}

/* Waits for room in the peer's queue: 0, -EAGAIN, -EINTR. */
static int wait_for_room(struct unix_sock *u, unsigned int flags)
{
	if (u->peer->rmem < SNDBUF)
		return 0;
	if (flags & MSG_DONTWAIT)
		return -EAGAIN;
	return sleep_on(&u->wait);
}

/*
 * Linux's unix_stream_sendmsg: the bytes go in sk_buffs of up to half
 * the send buffer, sleeping while the peer's queue is full; a peer that
 * is gone or shut for reading is EPIPE, and SIGPIPE unless MSG_NOSIGNAL.
 * What was sent, if anything, else -errno.
 */
static ssize_t stream_send(struct unix_sock *u, const struct iovec *iov,
			   unsigned long nr, unsigned int flags)
{
	size_t total = iov_total(iov, nr), sent = 0;
	int err = 0;

	if (!u->peer)
		return -ENOTCONN;
	while (sent < total || !sent) {
		struct sk_buff *skb;

		if ((u->shutdown & SEND_SHUTDOWN) || u->peer->dead ||
		    (u->peer->shutdown & RCV_SHUTDOWN))
			goto pipe;
		if (sent == total)
			break;		/* a write of nothing */
		err = wait_for_room(u, flags);
		if (err)
			break;
		if (u->peer->rmem >= SNDBUF)
			continue;
		skb = skb_from_iov(iov, nr, sent,
				   min(total - sent, SNDBUF / 2 - 64), &err);
		if (!skb)
			break;
		if (u->peer->dead || (u->peer->shutdown & RCV_SHUTDOWN)) {
			kfree(skb);	/* gone while we copied */
			goto pipe;
		}
		sent += skb->len;
		queue_skb(u->peer, skb);
	}
	return sent ? (ssize_t)sent : err;
pipe:
	if (!sent && !(flags & MSG_NOSIGNAL))
		send_signal(current, SIGPIPE, NULL);
	return sent ? (ssize_t)sent : -EPIPE;
}

/*
 * Linux's unix_dgram_sendmsg for a connected socket: the message is
 * copied first, then goes whole (-EMSGSIZE past the send buffer). A
 * datagram peer found closed is forgotten: ECONNREFUSED, then ENOTCONN.
 * No SIGPIPE.
 */
static ssize_t dgram_send(struct unix_sock *u, const struct iovec *iov,
			  unsigned long nr, unsigned int flags)
{
	size_t total = iov_total(iov, nr);
	struct sk_buff *skb;
	int err;

	if (!u->peer)
		return -ENOTCONN;
	if (total > SNDBUF - 32)
		return -EMSGSIZE;
	skb = skb_from_iov(iov, nr, 0, total, &err);
	if (!skb)
		return err;
	for (;;) {
		struct unix_sock *peer = u->peer;

		err = -ENOTCONN;
		if (!peer)
			break;		/* forgotten by another sender */
		err = -EPIPE;
		if (u->shutdown & SEND_SHUTDOWN)
			break;
		if (peer->dead && u->type == SOCK_DGRAM) {
			u->peer = NULL;
			unix_put(peer);
			err = -ECONNREFUSED;
			break;
		}
		if (peer->dead || (peer->shutdown & RCV_SHUTDOWN))
			break;
		err = wait_for_room(u, flags);
		if (err)
			break;
		if (peer->rmem < SNDBUF) {
			queue_skb(peer, skb);
			return total;
		}
	}
	kfree(skb);
	return err;
}

ssize_t unix_sendmsg(struct unix_sock *u, const struct iovec *iov,
		     unsigned long nr, unsigned int flags)
{
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	return u->type == SOCK_STREAM ? stream_send(u, iov, nr, flags)
				      : dgram_send(u, iov, nr, flags);
}

/* Our reads made room: the peer's writers may go on. */
static void wake_writers(struct unix_sock *u)
{
	if (u->peer)
		wake_up(&u->peer->wait);
}

/* A stream read: what is queued, across messages, up to the iovecs'
 * size; MSG_PEEK leaves it queued. */
static ssize_t stream_recv(struct unix_sock *u, const struct iovec *iov,
			   unsigned long nr, size_t total, unsigned int flags)
{
	struct sk_buff *skb, *next;
	size_t copied = 0;

	list_for_each_entry_safe(skb, next, &u->queue, list) {
		size_t k = min(skb->len - skb->off, total - copied);

		if (iov_copy(iov, nr, copied, skb->data + skb->off, k, true))
			return copied ? (ssize_t)copied : -EFAULT;
		copied += k;
		if (!(flags & MSG_PEEK)) {
			skb->off += k;
			if (skb->off == skb->len)
				consume_skb(u, skb);
		}
		if (copied == total)
			break;
	}
	wake_writers(u);
	return copied;
}

/* A datagram read: one message; what does not fit is dropped, with
 * MSG_TRUNC in *msg_flags (its whole length returned if flags asks). */
static ssize_t dgram_recv(struct unix_sock *u, const struct iovec *iov,
			  unsigned long nr, size_t total, unsigned int flags,
			  unsigned int *msg_flags)
{
	struct sk_buff *skb = list_first_entry(&u->queue, struct sk_buff,
					       list);
	size_t len = skb->len, k = min(len, total);

	if (iov_copy(iov, nr, 0, skb->data, k, true))
		return -EFAULT;
	if (len > total)
		*msg_flags |= MSG_TRUNC;
	if (!(flags & MSG_PEEK)) {
		consume_skb(u, skb);
		wake_writers(u);
	}
	return flags & MSG_TRUNC ? (ssize_t)len : (ssize_t)k;
}

/*
 * Nothing queued: whether to wait (0) or what to return. A stream gives
 * a pending ECONNRESET, then EOF once shut for reading, then EAGAIN; a
 * datagram socket EAGAIN before EOF, as Linux's orders go.
 */
static int recv_empty(struct unix_sock *u, unsigned int flags, int *ret)
{
	bool nonblock = flags & MSG_DONTWAIT;

	*ret = 0;
	if (u->type == SOCK_STREAM && u->err) {
		*ret = -u->err;
		u->err = 0;
		return 1;
	}
	if (nonblock && u->type != SOCK_STREAM) {
		*ret = -EAGAIN;
		return 1;
	}
	if (u->shutdown & RCV_SHUTDOWN)
		return 1;
	if (nonblock) {
		*ret = -EAGAIN;
		return 1;
	}
	return 0;
}

ssize_t unix_recvmsg(struct unix_sock *u, const struct iovec *iov,
		     unsigned long nr, unsigned int flags,
		     unsigned int *msg_flags)
{
	size_t total = iov_total(iov, nr);
	int ret;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (u->type == SOCK_STREAM && !u->connected)
		return -EINVAL;
	while (list_empty(&u->queue)) {
		if (recv_empty(u, flags, &ret))
			return ret;
		if (sleep_on(&u->wait))
			return -EINTR;
	}
	if (u->type == SOCK_STREAM)
		return stream_recv(u, iov, nr, total, flags);
	return dgram_recv(u, iov, nr, total, flags, msg_flags);
}

/*
 * Linux's unix_poll and unix_dgram_poll: readable with data or once shut
 * for reading, hung up when shut both ways (or, for a stream or
 * seqpacket socket, never connected), an error pending; writable while
 * the peer's queue holds under a quarter of the send buffer
 * (unix_writable). A datagram peer's close changes none of them.
 */
unsigned int unix_poll(struct file *f, struct unix_sock *u,
		       struct poll_table *pt)
{
	unsigned int mask = 0;

	poll_wait(f, &u->wait, pt);
	if (u->err)
		mask |= POLLERR;
	if (u->shutdown == SHUTDOWN_MASK ||
	    (u->type != SOCK_DGRAM && !u->connected))
		mask |= POLLHUP;
	if (u->shutdown & RCV_SHUTDOWN)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (!list_empty(&u->queue))
		mask |= POLLIN | POLLRDNORM;
	if (!u->peer || u->peer->rmem * 4 <= SNDBUF)
		mask |= POLLOUT | POLLWRNORM;
	return mask;
}
