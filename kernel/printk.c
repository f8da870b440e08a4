/* kernel/printk.c — printk: format, filter by log level, send to consoles.
 * One message at a time into a stack buffer; no ring buffer yet. */
#include <zpk/atomic.h>
#include <zpk/console.h>
#include <zpk/printk.h>
#include <zpk/param.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>

/* Keeps each message whole on the consoles (and the capture buffer)
 * when several CPUs print; interrupt handlers print too: irqsave. */
static DEFINE_SPINLOCK(console_lock);
static bool oops_in_progress;
static struct console *consoles;
static int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
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

/* One formatted message: its level, then the capture buffer or the
 * consoles. Called with console_lock held. */
static void emit(const char *s, size_t len)
{
	int level = LOGLEVEL_DEFAULT;

	if (len >= 2 && s[0] == KERN_SOH[0]) {
		if (s[1] >= '0' && s[1] <= '7')
			level = s[1] - '0';
		else if (s[1] == 'c')
			level = last_level;
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
