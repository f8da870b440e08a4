/* kernel/printk.c — printk: format, filter by log level, send to consoles,
 * and keep in the log buffer syslog(2) reads (dmesg). */
#include <zpk/atomic.h>
#include <zpk/console.h>
#include <zpk/errno.h>
#include <zpk/printk.h>
#include <zpk/param.h>
#include <zpk/slab.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/time.h>
#include <zpk/uaccess.h>

#define LOG_BUF_LEN	(1 << 14)	/* Linux's CONFIG_LOG_BUF_SHIFT=14 */

/* Keeps each message whole on the consoles, the log and the capture
 * buffer when several CPUs print; interrupt handlers print too: irqsave. */
static DEFINE_SPINLOCK(console_lock);
static bool oops_in_progress;
static struct console *consoles;
static int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
/*
 * The log: every message that is not captured, as Linux's syslog(2)
 * reads them: "<level>[seconds.micros] text" lines, in a ring of
 * LOG_BUF_LEN bytes (the oldest lines go first). log_end counts every
 * byte ever logged; the buffer holds the last LOG_BUF_LEN of them.
 */
static char log_buf[LOG_BUF_LEN];
static u64 log_end, log_cleared;	/* SYSLOG_ACTION_CLEAR's mark */
static bool log_mid_line;		/* the last message had no \n */

static char *capture_buf;
static size_t capture_size, capture_len;
static int last_level = LOGLEVEL_DEFAULT;

void register_console(struct console *c)
{
	c->next = consoles;
	consoles = c;
}

static int setup_loglevel(const char *val)
{
	unsigned long lvl;

	if (!val || kstrtoul(val, 10, &lvl) || lvl > 8)
		return -1;
	console_loglevel = (int)lvl;
	return 0;
}
early_param("loglevel", setup_loglevel,
	    "0-8: show messages with a level below this (default 7)");

static void capture(const char *s, size_t n)
{
	size_t room;

	if (!capture_buf)
		return;
	room = capture_size - 1 - capture_len;
	if (n > room)
		n = room;
	memcpy(capture_buf + capture_len, s, n);
	capture_len += n;
	capture_buf[capture_len] = '\0';
}

void printk_capture_start(char *buf, size_t size)
{
	capture_buf = buf;
	capture_size = size;
	capture_len = 0;
	buf[0] = '\0';
}

size_t printk_capture_stop(void)
{
	capture_buf = NULL;
	return capture_len;
}

void bust_spinlocks(void)
{
	WRITE_ONCE(oops_in_progress, true);
}

static unsigned long console_lock_irqsave(void)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!READ_ONCE(oops_in_progress))
		spin_lock(&console_lock);
	return flags;
}

static void console_unlock_irqrestore(unsigned long flags)
{
	if (!READ_ONCE(oops_in_progress))
		spin_unlock(&console_lock);
	local_irq_restore(flags);
}

static void log_put(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[log_end++ % LOG_BUF_LEN] = s[i];
}

/* A message into the log: a new line gets Linux's "<L>[time] " prefix,
 * a continuation (KERN_CONT, or after a message without \n) none. */
static void log_store(int level, bool cont, const char *s, size_t n)
{
	if (!n)
		return;
	if (!cont || !log_mid_line) {
		u64 us = ktime_get_ns() / 1000;
		char prefix[32];

		if (log_mid_line)
			log_put("\n", 1);
		log_put(prefix, snprintf(prefix, sizeof(prefix),
					 "<%d>[%5lu.%06lu] ", level,
					 (unsigned long)(us / 1000000),
					 (unsigned long)(us % 1000000)));
	}
	log_put(s, n);
	log_mid_line = s[n - 1] != '\n';
}

/* One formatted message: its level, then the capture buffer, or the log
 * and the consoles. Called with console_lock held. */
static void emit(const char *s, size_t len)
{
	int level = LOGLEVEL_DEFAULT;
	bool cont = false;

	if (len >= 2 && s[0] == KERN_SOH[0]) {
		if (s[1] >= '0' && s[1] <= '7')
			level = s[1] - '0';
		else if (s[1] == 'c')
			level = last_level, cont = true;
		s += 2;
		len -= 2;
	}
	last_level = level;
	/* While a test captures, messages go to its buffer alone, whatever
	 * their level: a deliberate oops report must not look like a crash. */
	if (capture_buf) {
		capture(s, len);
		return;
	}
	log_store(level, cont, s, len);
	if (level >= console_loglevel)
		return;
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, len);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len = n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1;
	unsigned long flags = console_lock_irqsave();

	emit(buf, len);
	console_unlock_irqrestore(flags);
	return n;
}

/* Writes to every console, unfiltered: what /dev/console's write uses. */
void console_write(const char *s, size_t n)
{
	unsigned long flags = console_lock_irqsave();

	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
	console_unlock_irqrestore(flags);
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* ---- syslog(2): the log buffer, for dmesg ------------------------------ */

#define SYSLOG_ACTION_CLOSE		0
#define SYSLOG_ACTION_OPEN		1
#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_READ_CLEAR	4
#define SYSLOG_ACTION_CLEAR		5
#define SYSLOG_ACTION_CONSOLE_OFF	6
#define SYSLOG_ACTION_CONSOLE_ON	7
#define SYSLOG_ACTION_CONSOLE_LEVEL	8
#define SYSLOG_ACTION_SIZE_UNREAD	9
#define SYSLOG_ACTION_SIZE_BUFFER	10

/* The oldest byte still in the buffer and not cleared. */
static u64 log_first(void)
{
	u64 first = log_end > LOG_BUF_LEN ? log_end - LOG_BUF_LEN : 0;

	return first > log_cleared ? first : log_cleared;
}

/*
 * SYSLOG_ACTION_READ_ALL: the newest whole lines that fit in len bytes,
 * oldest first, into buf; their length. The ring is copied out under
 * console_lock first, so that a fault in the user's buffer logs nothing
 * meanwhile and another CPU's message cannot overwrite what is copied.
 */
static long syslog_read_all(char __user *ubuf, size_t len)
{
	size_t max = len < LOG_BUF_LEN ? len : LOG_BUF_LEN;
	char *k = kmalloc(max ? max : 1, GFP_KERNEL);
	unsigned long flags;
	u64 from, end;
	long n;

	if (!k)
		return -ENOMEM;
	flags = console_lock_irqsave();
	from = log_first();
	end = log_end;
	if (end - from > max) {
		from = end - max;
		while (from < end && log_buf[(from - 1) % LOG_BUF_LEN] != '\n')
			from++;		/* start at a line */
	}
	n = (long)(end - from);
	for (long i = 0; i < n; i++)
		k[i] = log_buf[(from + i) % LOG_BUF_LEN];
	console_unlock_irqrestore(flags);
	if (n && copy_to_user(ubuf, k, n))
		n = -EFAULT;
	kfree(k);
	return n;
}

/* Linux's do_syslog, the actions dmesg uses: everything runs as root,
 * so every one is allowed. The rest (SYSLOG_ACTION_READ's waiting read)
 * is -EINVAL. */
static long sys_syslog(int type, char __user *buf, int len)
{
	long r;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0)
			return -EINVAL;
		r = syslog_read_all(buf, len);
		if (r >= 0 && type == SYSLOG_ACTION_READ_CLEAR)
			log_cleared = log_end;
		return r;
	case SYSLOG_ACTION_CLEAR:
		log_cleared = log_end;
		return 0;
	case SYSLOG_ACTION_CONSOLE_OFF:
		console_loglevel = 1;	/* Linux's minimum_console_loglevel */
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > 8)
			return -EINVAL;
		console_loglevel = len;
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD:
		return (long)(log_end - log_first());
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_LEN;
	}
	return -EINVAL;
}
SYSCALL(__NR_syslog, sys_syslog);
