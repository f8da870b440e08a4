/* zpk/printk.h — the kernel log: printk with Linux-style log levels.
 * Output goes to every registered console (serial, VGA) and the capture buffer. */
#ifndef ZPK_PRINTK_H
#define ZPK_PRINTK_H

#include <zpk/types.h>
#include <zpk/compiler.h>
#include <zpk/sprintf.h>

#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"	/* continues the previous line */

#define LOGLEVEL_DEFAULT 4	/* printk without a level: KERN_WARNING */
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* show all but KERN_DEBUG */

int __printf(1, 2) printk(const char *fmt, ...);
int vprintk(const char *fmt, va_list ap);

#define pr_err(fmt, ...)	printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(KERN_DEBUG fmt, ##__VA_ARGS__)

/* A console receives every message that passes the log level. */
struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};
void register_console(struct console *c);

/* panic: from here on printk takes no lock (a stopped CPU may hold it). */
void bust_spinlocks(void);

/* Tests: printk output goes into buf (NUL-terminated), and only there,
 * until printk_capture_stop(), which returns the length kept. */
void printk_capture_start(char *buf, size_t size);
size_t printk_capture_stop(void);

#endif
