/* arch/x86_64/serial.c — the 16550 UART on COM1, zpk's main console.
 * Polled output (no interrupts needed to print a panic); input by IRQ 4. */
#include <asm/io.h>
#include <asm/irq.h>
#include <zpk/fs.h>
#include <zpk/printk.h>
#include <zpk/console.h>

#define COM1 0x3f8

void serial_init(void)
{
	outb(COM1 + 1, 0x00);	/* no interrupts */
	outb(COM1 + 3, 0x80);	/* DLAB: set the divisor */
	outb(COM1 + 0, 0x01);	/* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);	/* 8n1 */
	outb(COM1 + 2, 0xc7);	/* FIFO on, cleared */
	outb(COM1 + 4, 0x03);	/* DTR, RTS */
}

static void serial_putc(char c)
{
	while (!(inb(COM1 + 5) & 0x20))
		;
	outb(COM1, c);
}

static void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

struct console serial_console = { .name = "ttyS0", .write = serial_write };

/* Drains the receive FIFO: one IRQ may stand for several bytes. */
static void serial_interrupt(struct pt_regs *regs)
{
	(void)regs;
	while (inb(COM1 + 5) & 0x01)
		tty_receive_char(inb(COM1));
}

void serial_irq_init(void)
{
	outb(COM1 + 4, 0x0b);	/* DTR, RTS, OUT2 (gates the IRQ line) */
	outb(COM1 + 1, 0x01);	/* IER: received data available */
	request_irq(COM1_IRQ, serial_interrupt);
}
