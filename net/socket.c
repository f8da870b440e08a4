/* net/socket.c — the socket system calls (Linux's net/socket.c): sockets
 * as files on sockfs, socket and socketpair, send/recv and their msg
 * forms, shutdown, connect. AF_UNIX is the only family (af_unix.c). */
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/slab.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

#define SOCKFS_MAGIC	0x534F434B
#define UIO_MAXIOV	1024

/* Linux's sockfs: sockets' inodes, for st_dev, fstatfs and fd links. */
struct super_block sockfs_sb = {
	.s_dev = 8,
	.s_magic = SOCKFS_MAGIC,
	.s_type = "sockfs",
};

static const struct file_operations socket_file_ops;

/* f's socket, or NULL for any other file. */
static struct unix_sock *sock_of(struct file *f)
{
	return f->f_op == &socket_file_ops ? f->private_data : NULL;
}

/* The socket at fd with a reference on its file in *fp: -EBADF,
 * -ENOTSOCK. */
static long sockfd_lookup(int fd, struct file **fp, struct unix_sock **u)
{
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	*u = sock_of(f);
	if (!*u) {
		fput(f);
		return -ENOTSOCK;
	}
	*fp = f;
	return 0;
}

/* A non-blocking file's calls do not wait, as MSG_DONTWAIT. */
static unsigned int file_msg_flags(struct file *f, unsigned int flags)
{
	return flags | (f->f_flags & O_NONBLOCK ? MSG_DONTWAIT : 0);
}

/* read(2) of nothing is 0 at once, as Linux's sock_read_iter. */
static ssize_t sock_read_iter(struct file *f, const struct iovec *iov,
			      unsigned long nr)
{
	unsigned int msg_flags = 0;
	size_t total = 0;

	for (unsigned long i = 0; i < nr; i++)
		total += iov[i].iov_len;
	if (!total)
		return 0;
	return unix_recvmsg(f->private_data, iov, nr, file_msg_flags(f, 0),
			    &msg_flags);
}

static ssize_t sock_write_iter(struct file *f, const struct iovec *iov,
			       unsigned long nr)
{
	return unix_sendmsg(f->private_data, iov, nr, file_msg_flags(f, 0));
}

static unsigned int sock_poll(struct file *f, struct poll_table *pt)
{
	return unix_poll(f, f->private_data, pt);
}

/* Opening /proc/PID/fd/N of a socket: Linux's sock_no_open. */
static int sock_no_open(struct file *f)
{
	(void)f;
	return -ENXIO;
}

/* NULL private_data: a file that failed to open (sock_no_open). */
static void sock_release(struct file *f)
{
	if (f->private_data)
		unix_release(f->private_data);
}

static const struct file_operations socket_file_ops = {
	.open = sock_no_open,
	.read_iter = sock_read_iter,
	.write_iter = sock_write_iter,
	.poll = sock_poll,
	.release = sock_release,
};

/* A file (O_RDWR, O_NONBLOCK from flags) for u on a new sockfs inode;
 * the file owns u from then on. NULL if out of memory. */
static struct file *sock_alloc_file(struct unix_sock *u, int flags)
{
	struct inode *inode = ramfs_new_inode(&sockfs_sb, S_IFSOCK | 0777);
	struct file *f;

	if (!inode)
		return NULL;
	inode->i_fop = &socket_file_ops;
	inode->i_private = u;
	f = alloc_file(inode, O_RDWR | (flags & O_NONBLOCK));
	iput(inode);		/* the file holds it, or it is gone */
	if (f)
		f->private_data = u;
	return f;
}

/*
 * The AF_UNIX type socket(2) and socketpair(2) make from their
 * arguments, with the errnos of Linux's __sock_create and unix_create in
 * their order; SOCK_RAW is a datagram socket, as Linux makes it. Every
 * other family is -EAFNOSUPPORT: zpk has no network (Linux without INET).
 */
static int unix_type(int family, int type, int protocol)
{
	if (type & ~(SOCK_TYPE_MASK | SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	type &= SOCK_TYPE_MASK;
	if (family < 0 || family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (type >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	switch (type) {
	case SOCK_STREAM:
	case SOCK_DGRAM:
	case SOCK_SEQPACKET:
		return type;
	case SOCK_RAW:
		return SOCK_DGRAM;
	}
	return -ESOCKTNOSUPPORT;
}

/* A new socket of type in a descriptor (SOCK_CLOEXEC, SOCK_NONBLOCK from
 * flags), and its socket in *res: the fd or -errno. */
static int sock_install(int type, int flags, struct unix_sock **res)
{
	struct unix_sock *u = unix_create(type);
	struct file *f = u ? sock_alloc_file(u, flags) : NULL;
	int fd;

	if (!f) {
		kfree(u);
		return -ENOMEM;
	}
	fd = fd_install_new(f, 0, flags & SOCK_CLOEXEC);
	if (fd < 0)
		fput(f);
	*res = u;
	return fd;
}

static long sys_socket(int family, int type, int protocol)
{
	int t = unix_type(family, type, protocol);
	struct unix_sock *u;

	return t < 0 ? t : sock_install(t, type, &u);
}
SYSCALL(__NR_socket, sys_socket);

/* Two connected sockets; the fds are written before they are kept, so a
 * bad sv leaves nothing open (-EFAULT). */
static long sys_socketpair(int family, int type, int protocol,
			   int __user *usv)
{
	int t = unix_type(family, type, protocol), sv[2];
	struct unix_sock *a, *b;

	if (t < 0)
		return t;
	sv[0] = sock_install(t, type, &a);
	if (sv[0] < 0)
		return sv[0];
	sv[1] = sock_install(t, type, &b);
	if (sv[1] < 0) {
		close_fd(sv[0]);
		return sv[1];
	}
	unix_pair(a, b);
	if (copy_to_user(usv, sv, sizeof(sv))) {
		close_fd(sv[0]);
		close_fd(sv[1]);
		return -EFAULT;
	}
	return 0;
}
SYSCALL(__NR_socketpair, sys_socketpair);

static long sys_shutdown(int fd, int how)
{
	struct unix_sock *u;
	struct file *f;
	long err = sockfd_lookup(fd, &f, &u);

	if (err)
		return err;
	if (how < SHUT_RD || how > SHUT_RDWR)
		err = -EINVAL;
	else
		unix_shutdown(u, how);
	fput(f);
	return err;
}
SYSCALL(__NR_shutdown, sys_shutdown);

/* ---- addresses ------------------------------------------------------ */

struct sockaddr_un {
	u16 sun_family;
	char sun_path[108];
};

/*
 * Where a connect or sendto address leads: nothing is ever bound here
 * (no bind), so a path that exists is -ECONNREFUSED and one that does
 * not is the walk's error (-ENOENT), as on Linux with no listener.
 */
static long unix_find_other(const void __user *uaddr, int len)
{
	struct sockaddr_un sa;
	struct inode *inode;
	long err;

	if (len <= 2 || len > (int)sizeof(sa))
		return -EINVAL;
	memset(&sa, 0, sizeof(sa));
	if (copy_from_user(&sa, uaddr, len))
		return -EFAULT;
	if (sa.sun_family != AF_UNIX)
		return -EINVAL;
	if (!sa.sun_path[0])
		return -ECONNREFUSED;	/* the abstract namespace */
	sa.sun_path[sizeof(sa.sun_path) - 1] = '\0';
	err = vfs_lookup(current_cwd(), sa.sun_path, &inode);
	return err ? err : -ECONNREFUSED;
}

static long sys_connect(int fd, const void __user *uaddr, int len)
{
	struct unix_sock *u;
	struct file *f;
	long err = sockfd_lookup(fd, &f, &u);

	if (err)
		return err;
	err = unix_find_other(uaddr, len);
	fput(f);
	return err;
}
SYSCALL(__NR_connect, sys_connect);

/* ---- send and receive ----------------------------------------------- */

/* A send with an address: a connected stream or seqpacket socket says
 * EISCONN, an unconnected one EOPNOTSUPP, a datagram socket looks the
 * path up (Linux's order). */
static long send_to_addr(struct unix_sock *u, const void __user *uaddr,
			 int len)
{
	if (unix_sock_type(u) != SOCK_DGRAM)
		return unix_connected(u) ? -EISCONN : -EOPNOTSUPP;
	return unix_find_other(uaddr, len);
}

static long do_sendmsg(int fd, const struct iovec *iov, unsigned long nr,
		       unsigned int flags, const void __user *uaddr, int alen)
{
	struct unix_sock *u;
	struct file *f;
	long r = sockfd_lookup(fd, &f, &u);

	if (r)
		return r;
	if (uaddr && alen)
		r = send_to_addr(u, uaddr, alen);
	else
		r = unix_sendmsg(u, iov, nr, file_msg_flags(f, flags));
	fput(f);
	return r;
}

static long do_recvmsg(int fd, const struct iovec *iov, unsigned long nr,
		       unsigned int flags, unsigned int *msg_flags)
{
	struct unix_sock *u;
	struct file *f;
	long r = sockfd_lookup(fd, &f, &u);

	if (r)
		return r;
	r = unix_recvmsg(u, iov, nr, file_msg_flags(f, flags), msg_flags);
	fput(f);
	return r;
}

static long sys_sendto(int fd, const void __user *buf, size_t len,
		       unsigned int flags, const void __user *addr, int alen)
{
	struct iovec iov = { (void __user *)buf, min(len, (size_t)0x7fffffff) };

	if (!access_ok(buf, iov.iov_len))
		return -EFAULT;
	return do_sendmsg(fd, &iov, 1, flags, addr, alen);
}
SYSCALL(__NR_sendto, sys_sendto);

/* An unnamed peer: the address is empty (*alen 0), as Linux's. */
static long sys_recvfrom(int fd, void __user *buf, size_t len,
			 unsigned int flags, void __user *addr,
			 int __user *alen)
{
	struct iovec iov = { buf, min(len, (size_t)0x7fffffff) };
	unsigned int msg_flags = 0;
	long r;

	if (!access_ok(buf, iov.iov_len))
		return -EFAULT;
	r = do_recvmsg(fd, &iov, 1, flags, &msg_flags);
	if (r >= 0 && addr && alen && put_user(0, alen))
		return -EFAULT;
	return r;
}
SYSCALL(__NR_recvfrom, sys_recvfrom);

/* Linux's struct user_msghdr, x86-64. */
struct user_msghdr {
	void __user *msg_name;
	int msg_namelen;
	struct iovec __user *msg_iov;
	size_t msg_iovlen;
	void __user *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};

/* The message header and its iovecs (kfree *iov): -EMSGSIZE past
 * UIO_MAXIOV, else import_iovec's errors. */
static long copy_msghdr(const struct user_msghdr __user *umsg,
			struct user_msghdr *msg, struct iovec **iov)
{
	size_t total;

	if (copy_from_user(msg, umsg, sizeof(*msg)))
		return -EFAULT;
	if (msg->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	return import_iovec(msg->msg_iov, msg->msg_iovlen, iov, &total);
}

/* Ancillary data (SCM_RIGHTS, SCM_CREDENTIALS) is not passed here. */
static long sys_sendmsg(int fd, const struct user_msghdr __user *umsg,
			unsigned int flags)
{
	struct user_msghdr msg;
	struct iovec *iov;
	long r = copy_msghdr(umsg, &msg, &iov);

	if (r)
		return r;
	if (msg.msg_controllen)
		r = -EOPNOTSUPP;
	else
		r = do_sendmsg(fd, iov, msg.msg_iovlen, flags, msg.msg_name,
			       msg.msg_namelen);
	kfree(iov);
	return r;
}
SYSCALL(__NR_sendmsg, sys_sendmsg);

/* msg_flags and msg_controllen (0: no ancillary data) are written back,
 * msg_namelen 0 if there is a msg_name, as Linux's ____sys_recvmsg. */
static long sys_recvmsg(int fd, struct user_msghdr __user *umsg,
			unsigned int flags)
{
	struct user_msghdr msg;
	unsigned int msg_flags = 0;
	struct iovec *iov;
	long r = copy_msghdr(umsg, &msg, &iov);

	if (r)
		return r;
	r = do_recvmsg(fd, iov, msg.msg_iovlen, flags, &msg_flags);
	kfree(iov);
	if (r < 0)
		return r;
	if ((msg.msg_name && put_user(0, &umsg->msg_namelen)) ||
	    put_user(msg_flags, &umsg->msg_flags) ||
	    put_user((size_t)0, &umsg->msg_controllen))
		return -EFAULT;
	return r;
}
SYSCALL(__NR_recvmsg, sys_recvmsg);
