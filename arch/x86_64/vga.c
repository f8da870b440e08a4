/* arch/x86_64/vga.c — the VGA text screen (80x25) as a second console.
 * Writes through the direct map; scrolls; no cursor tricks. */
#include <asm/page.h>
#include <zpk/printk.h>
#include <zpk/console.h>
#include <zpk/string.h>

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700	/* light grey on black */

static u16 *vga_buf;
static int vga_col, vga_row;

static void vga_scroll(void)
{
	memmove(vga_buf, vga_buf + VGA_COLS, 2 * VGA_COLS * (VGA_ROWS - 1));
	for (int i = 0; i < VGA_COLS; i++)
		vga_buf[VGA_COLS * (VGA_ROWS - 1) + i] = VGA_ATTR | ' ';
	vga_row = VGA_ROWS - 1;
}

static void vga_putc(char c)
{
	if (c == '\n') {
		vga_col = 0;
		vga_row++;
	} else if (c == '\r') {
		vga_col = 0;
	} else {
		vga_buf[vga_row * VGA_COLS + vga_col] = VGA_ATTR | (u8)c;
		if (++vga_col == VGA_COLS) {
			vga_col = 0;
			vga_row++;
		}
	}
	if (vga_row == VGA_ROWS)
		vga_scroll();
}

static void vga_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vga_putc(s[i]);
}

void vga_init(void)
{
	vga_buf = __va(0xb8000);
	for (int i = 0; i < VGA_COLS * VGA_ROWS; i++)
		vga_buf[i] = VGA_ATTR | ' ';
}

struct console vga_console = { .name = "vga", .write = vga_write };
