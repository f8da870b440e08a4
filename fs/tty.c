/* fs/tty.c — /dev/console: a canonical line discipline over the
 * serial line (echo, erase, ^C, ^D), reads block until a line is ready. */
#include <zpk/console.h>
#include <zpk/errno.h>
#include <zpk/fs.h>
#include <zpk/sched.h>
#include <zpk/signal.h>
#include <zpk/string.h>
#include <zpk/uaccess.h>

#define LINE_MAX	256
#define COOKED_SIZE	1024

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

/* ^C: there are no process groups, so every process but init gets
 * SIGINT; the shell ignores it, the program it runs does not. */
static void interrupt(void)
{
	struct task_struct *t;

	echo("^C\n");
	line_len = 0;
	list_for_each_entry(t, &task_list, tasks)
		if (t->pid > 1)
			send_signal(t, SIGINT, NULL);
}

/* Interrupt context: must not sleep. */
void tty_receive_char(char c)
{
	char s[2] = { c, 0 };

	switch (c) {
	case 3:
		interrupt();
		return;
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

/* At most one line per read, as a canonical tty returns. */
static ssize_t tty_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	size_t k = 0;

	(void)f, (void)pos;
	while (!cooked_len) {
		if (eof_pending) {
			eof_pending--;
			return 0;
		}
		if (sleep_on(&tty_wait))
			return -EINTR;
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
	console_write(buf, n);
	return (ssize_t)n;
}

#define TCGETS		0x5401
#define TCSETS		0x5402
#define TCSETSW		0x5403
#define TCSETSF		0x5404
#define TIOCGPGRP	0x540f
#define TIOCSPGRP	0x5410
#define TIOCGWINSZ	0x5413
#define TIOCSWINSZ	0x5414

/* Linux's struct termios as TCGETS copies it (36 bytes). */
struct termios {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};

struct winsize {
	u16 ws_row, ws_col, ws_xpixel, ws_ypixel;
};

static long tty_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	/* Linux's defaults: ICRNL|IXON, OPOST|ONLCR, B38400|CS8|CREAD|HUPCL,
	 * ISIG|ICANON|ECHO|ECHOE|ECHOK|ECHOCTL|ECHOKE|IEXTEN. */
	static const struct termios tio = {
		0x500, 0x5, 0x4bf, 0x8a3b, 0,
		{ 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0,
		  0x12, 0xf, 0x17, 0x16, 0, 0, 0 } };
	struct winsize ws = { 24, 80, 0, 0 };
	void __user *p = (void __user *)arg;
	int pid = current->pid;

	(void)f;
	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &tio, sizeof(tio)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
	case TIOCSPGRP:
	case TIOCSWINSZ:
		return 0;	/* accepted; the discipline is fixed */
	case TIOCGWINSZ:
		return copy_to_user(p, &ws, sizeof(ws)) ? -EFAULT : 0;
	case TIOCGPGRP:
		return copy_to_user(p, &pid, sizeof(pid)) ? -EFAULT : 0;
	}
	return -ENOTTY;
}

/* Readable once a line (or ^D) is ready; writes never wait. */
static unsigned int tty_poll(struct file *f, struct poll_table *pt)
{
	(void)f;
	poll_wait(&tty_wait, pt);
	return POLLOUT | POLLWRNORM |
	       (cooked_len || eof_pending ? POLLIN | POLLRDNORM : 0);
}

const struct file_operations tty_fops = {
	.read = tty_read,
	.write = tty_write,
	.poll = tty_poll,
	.ioctl = tty_ioctl,
};

bool is_tty(const struct file *f)
{
	return f->f_op == &tty_fops;
}

/* vfs_init made /dev/console write-only (host tests use that one); the
 * kernel's tty takes the device over at boot. */
void tty_init(void)
{
	struct inode *inode;

	if (!vfs_lookup(NULL, "/dev/console", &inode))
		inode->i_fop = &tty_fops;
}
