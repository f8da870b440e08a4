/* fs/tty.c — /dev/console and /dev/tty: a canonical line discipline over
 * the serial line (echo, erase, ^D), the controlling terminal of a session
 * with its foreground process group (^C, ^\, ^Z signal it; background
 * readers and writers get SIGTTIN and SIGTTOU), reads block per line. */
#include <zpk/console.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/string.h>
#include <zpk/tty.h>
#include <zpk/uaccess.h>

#define LINE_MAX	256
#define COOKED_SIZE	1024

/* Linux's struct termios as TCGETS copies it (36 bytes). */
struct termios {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCSCTTY	0x540e
#define TIOCGPGRP	0x540f
#define TIOCSPGRP	0x5410
#define TIOCSTI		0x5412
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414
#define TIOCNOTTY	0x5422
#define TIOCGSID	0x5429

#define VINTR	0
#define VQUIT	1
#define VSUSP	10
#define ISIG	0x0001		/* c_lflag: ^C ^\ ^Z send signals */
#define TOSTOP	0x0100		/* c_lflag: background writes SIGTTOU */

/*
 * The console (Linux's tty_struct, what zpk uses of it): the session it
 * is the controlling terminal of and that session's foreground process
 * group (0: none), and the termios TCSETS stored.
 */
struct tty_struct {
	int session, pgrp;
	struct termios termios;
};

/* Linux's defaults: ICRNL|IXON, OPOST|ONLCR, B38400|CS8|CREAD|HUPCL,
 * ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN. */
static struct tty_struct console_tty = {
	.termios = { 0x500, 0x5, 0x4bf, 0x8a3b, 0,
		     { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0,
		       0x12, 0xf, 0x17, 0x16, 0, 0, 0 } },
};

static char line[LINE_MAX];		/* being edited */
static size_t line_len;
static char cooked[COOKED_SIZE];	/* completed lines, not yet read */
static size_t cooked_len;
static int eof_pending;			/* ^D on an empty line: reads see 0 */
static struct wait_queue_head tty_wait = WAIT_QUEUE_HEAD_INIT(tty_wait);

static void echo(const char *s)
{
	console_write(s, strlen(s));
}

/* The line (plus c, if not 0) becomes readable. */
static void complete_line(char c)
{
	size_t n = min(line_len, COOKED_SIZE - cooked_len - 1);

	memcpy(cooked + cooked_len, line, n);
	cooked_len += n;
	if (c)
		cooked[cooked_len++] = c;
	line_len = 0;
	wake_up(&tty_wait);
}

/* ^C, ^\ or ^Z: echoed as "^C"; the input not yet read is dropped (no
 * NOFLSH) and the foreground process group gets sig (nobody without one),
 * as Linux's n_tty isig. */
static void isig(int sig, char c)
{
	char s[5] = { '^', (char)(c + '@'), '\n', 0 };

	echo(s);
	line_len = cooked_len = 0;
	eof_pending = 0;
	if (console_tty.pgrp)
		kill_pgrp(console_tty.pgrp, sig, NULL);
}

/* The signal character c stands for, or 0. */
static int isig_char(char c)
{
	const struct termios *t = &console_tty.termios;

	if (!(t->c_lflag & ISIG) || !c)
		return 0;
	if (c == (char)t->c_cc[VINTR])
		return SIGINT;
	if (c == (char)t->c_cc[VQUIT])
		return SIGQUIT;
	if (c == (char)t->c_cc[VSUSP])
		return SIGTSTP;
	return 0;
}

/* Interrupt context (or TIOCSTI): must not sleep. */
void tty_receive_char(char c)
{
	char s[2] = { c, 0 };
	int sig = isig_char(c);

	if (sig) {
		isig(sig, c);
		return;
	}
	switch (c) {
	case 4:
		if (line_len)
			complete_line(0);
		else {
			eof_pending++;
			wake_up(&tty_wait);
		}
		return;
	case '\b':
	case 0x7f:
		if (line_len) {
			line_len--;
			echo("\b \b");
		}
		return;
	case '\r':
	case '\n':
		echo("\n");
		complete_line('\n');
		return;
	}
	if (line_len < LINE_MAX - 1 && (unsigned char)c >= ' ') {
		line[line_len++] = c;
		echo(s);
	}
}

/*
 * A process outside the foreground group of its controlling tty reads
 * (sig SIGTTIN) or writes or sets the tty (SIGTTOU): its group gets sig
 * and the call restarts once it is continued; -EIO if sig would do
 * nothing (ignored or blocked SIGTTIN, an orphaned group); 0 if it may
 * go on (Linux's __tty_check_change).
 */
static int tty_check_change(struct tty_struct *tty, int sig)
{
	struct signal_struct *s = current->signal;

	if (s->tty != tty || !tty->pgrp || s->pgrp == tty->pgrp)
		return 0;
	if (sig_blocked_or_ignored(current, sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (will_become_orphaned_pgrp(s->pgrp, NULL))
		return -EIO;
	kill_pgrp(s->pgrp, sig, NULL);
	return -ERESTARTSYS;
}

/* At most one line per read, as a canonical tty returns. */
static ssize_t tty_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	size_t k = 0;
	int err = tty_check_change(&console_tty, SIGTTIN);

	(void)f, (void)pos;
	if (err)
		return err;
	while (!cooked_len) {
		if (eof_pending) {
			eof_pending--;
			return 0;
		}
		if (sleep_on(&tty_wait))
			return -ERESTARTSYS;
	}
	while (k < n && k < cooked_len && (k == 0 || cooked[k - 1] != '\n'))
		k++;
	memcpy(buf, cooked, k);
	memmove(cooked, cooked + k, cooked_len - k);
	cooked_len -= k;
	return (ssize_t)k;
}

static ssize_t tty_write(struct file *f, const char *buf, size_t n,
			 loff_t *pos)
{
	(void)f, (void)pos;
	if (console_tty.termios.c_lflag & TOSTOP) {
		int err = tty_check_change(&console_tty, SIGTTOU);

		if (err)
			return err;
	}
	console_write(buf, n);
	return (ssize_t)n;
}

/* Every process of session sid loses its controlling tty. */
static void session_clear_tty(int sid)
{
	struct task_struct *p;

	for_each_process(p)
		if (p->signal->session == sid)
			p->signal->tty = NULL;
}

void disassociate_ctty(bool on_exit)
{
	struct tty_struct *tty = current->signal->tty;

	if (!current->signal->leader || !tty)
		return;
	if (tty->pgrp) {
		kill_pgrp(tty->pgrp, SIGHUP, NULL);
		if (!on_exit)
			kill_pgrp(tty->pgrp, SIGCONT, NULL);
	}
	session_clear_tty(tty->session);
	tty->session = tty->pgrp = 0;
}

int tty_devnr(const struct tty_struct *tty)
{
	return tty ? (5 << 8) | 1 : 0;	/* /dev/console, 5:1 */
}

int tty_fg_pgrp(const struct tty_struct *tty)
{
	return tty && tty->pgrp ? tty->pgrp : -1;
}

/* TIOCSCTTY: a session leader without a terminal takes this one; one
 * that another session has only with arg 1 (root may steal it). */
static long tiocsctty(struct tty_struct *tty, struct file *f, long arg)
{
	struct signal_struct *s = current->signal;

	if (s->leader && s->session == tty->session)
		return 0;
	if (!s->leader || s->tty)
		return -EPERM;
	if (tty->session) {
		if (arg != 1)
			return -EPERM;
		session_clear_tty(tty->session);
	}
	(void)f;	/* any open mode: everything runs as root */
	tty->session = s->session;
	tty->pgrp = s->pgrp;
	s->tty = tty;
	return 0;
}

/* The session of process group nr into *sid, or of the process nr if no
 * group has that id, as Linux's session_of_pgrp: 0, -ESRCH if no task
 * uses nr at all, -EPERM if only a session does. */
static int pgrp_session(int nr, int *sid)
{
	struct task_struct *p;

	if (nr <= 0)
		return -ESRCH;
	for_each_process(p)
		if (p->signal->pgrp == nr && p->state != EXIT_DEAD) {
			*sid = p->signal->session;
			return 0;
		}
	p = find_task_by_pid(nr);
	if (p) {
		*sid = p->signal->session;
		return 0;
	}
	for_each_process(p)
		if (p->signal->session == nr && p->state != EXIT_DEAD)
			return -EPERM;
	return -ESRCH;
}

/* TIOCSPGRP (tcsetpgrp): the caller's terminal's foreground group
 * becomes pgrp, a group of the caller's session (Linux's tiocspgrp). */
static long tiocspgrp(struct tty_struct *tty, int __user *p)
{
	struct signal_struct *s = current->signal;
	int pgrp, sid, err = tty_check_change(tty, SIGTTOU);

	if (err)
		return err == -EIO ? -ENOTTY : err;
	if (get_user(pgrp, p))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (s->tty != tty || tty->session != s->session)
		return -ENOTTY;
	err = pgrp_session(pgrp, &sid);
	if (err)
		return err;
	if (sid != s->session)
		return -EPERM;
	tty->pgrp = pgrp;
	return 0;
}

/* TIOCNOTTY: the caller gives up its controlling tty; a session leader
 * takes it from the whole session. */
static long tiocnotty(struct tty_struct *tty)
{
	if (current->signal->tty != tty)
		return -ENOTTY;
	if (current->signal->leader)
		disassociate_ctty(false);
	else
		current->signal->tty = NULL;
	return 0;
}

/* TIOCGPGRP and TIOCGSID: of the caller's own controlling tty only. */
static long tiocgpgrp_sid(struct tty_struct *tty, unsigned int cmd,
			  int __user *p)
{
	if (current->signal->tty != tty)
		return -ENOTTY;
	if (cmd == TIOCGSID && !tty->session)
		return -ENOTTY;
	return put_user(cmd == TIOCGSID ? tty->session : tty->pgrp, p);
}

/* TCSETS*: the termios is stored (a background caller gets SIGTTOU);
 * of it the discipline uses ISIG, TOSTOP and the ^C ^\ ^Z characters. */
static long tcsets(struct tty_struct *tty, const void __user *p)
{
	struct termios t;
	int err = tty_check_change(tty, SIGTTOU);

	if (err)
		return err;
	if (copy_from_user(&t, p, sizeof(t)))
		return -EFAULT;
	tty->termios = t;
	return 0;
}

/* TIOCSTI: c as if typed, on the caller's own terminal. */
static long tiocsti(struct tty_struct *tty, char __user *p)
{
	char c;

	(void)tty;
	if (get_user(c, p))
		return -EFAULT;
	tty_receive_char(c);
	return 0;
}

struct winsize {
	u16 ws_row, ws_col, ws_xpixel, ws_ypixel;
};

static long tty_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = &console_tty;
	struct winsize ws = { 24, 80, 0, 0 };
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &tty->termios, sizeof(tty->termios)) ?
		       -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return tcsets(tty, p);
	case TIOCSWINSZ:
		return 0;	/* accepted; the size is fixed */
	case TIOCGWINSZ:
		return copy_to_user(p, &ws, sizeof(ws)) ? -EFAULT : 0;
	case TIOCSCTTY:
		return tiocsctty(tty, f, (long)arg);
	case TIOCNOTTY:
		return tiocnotty(tty);
	case TIOCGPGRP:
	case TIOCGSID:
		return tiocgpgrp_sid(tty, cmd, p);
	case TIOCSPGRP:
		return tiocspgrp(tty, p);
	case TIOCSTI:
		return tiocsti(tty, p);
	}
	return -ENOTTY;
}

/* Readable once a line (or ^D) is ready; writes never wait. */
static unsigned int tty_poll(struct file *f, struct poll_table *pt)
{
	poll_wait(f, &tty_wait, pt);
	return POLLOUT | POLLWRNORM |
	       (cooked_len || eof_pending ? POLLIN | POLLRDNORM : 0);
}

const struct file_operations tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
};

/* /dev/tty: the caller's controlling terminal, -ENXIO without one. */
static int tty_dev_open(struct file *f)
{
	(void)f;
	return current->signal->tty ? 0 : -ENXIO;
}

static const struct file_operations tty_dev_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
	.open = tty_dev_open,
};

bool is_tty(const struct file *f)
{
	return f->f_op == &tty_fops || f->f_op == &tty_dev_fops;
}

/* vfs_init made /dev/console write-only (host tests use that one); the
 * kernel's tty takes the device over at boot and adds /dev/tty. */
void tty_init(void)
{
	struct inode *inode;

	if (!vfs_lookup(NULL, "/dev/console", &inode))
		inode->i_fop = &tty_fops;
	vfs_mknod(NULL, "/dev/tty", S_IFCHR | 0666, MKDEV(5, 0),
		  &tty_dev_fops);
}
