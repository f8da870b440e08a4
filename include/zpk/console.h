/* zpk/console.h — the hardware consoles printk writes to.
 * Serial (COM1) is the console of record; VGA mirrors it. */
#ifndef ZPK_CONSOLE_H
#define ZPK_CONSOLE_H

#include <zpk/printk.h>

void serial_init(void);
/* COM1 received-data interrupt on IRQ 4, bytes to tty_receive_char. */
void serial_irq_init(void);
void vga_init(void);
extern struct console serial_console, vga_console;
/* Writes n bytes to every registered console, whatever the log level:
 * /dev/console's write. */
void console_write(const char *s, size_t n);

#endif
