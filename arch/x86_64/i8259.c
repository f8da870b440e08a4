/* arch/x86_64/i8259.c — the two cascaded 8259A PICs of the PC: remapped to
 * vectors 32..47, masking, end-of-interrupt, and spotting spurious IRQs. */
#include <asm/io.h>
#include <asm/irq.h>

#define PIC_MASTER_CMD	0x20
#define PIC_MASTER_IMR	0x21
#define PIC_SLAVE_CMD	0xa0
#define PIC_SLAVE_IMR	0xa1
#define PIC_CASCADE_IR	2		/* the slave hangs on master IRQ 2 */
#define PIC_EOI		0x20		/* OCW2: non-specific EOI */
#define PIC_READ_ISR	0x0b		/* OCW3: next read of cmd is ISR */

/* Bit set = line masked.  Kept here because reading the IMR is slow. */
static u16 cached_irq_mask = 0xffff;

static void write_mask(void)
{
	outb(PIC_MASTER_IMR, cached_irq_mask & 0xff);
	outb(PIC_SLAVE_IMR, cached_irq_mask >> 8);
}

/*
 * At reset the master PIC delivers IRQ 0..7 on vectors 8..15, where the
 * CPU reports its own exceptions (8 is #DF), so both are re-programmed:
 * ICW1 starts the sequence, ICW2 the vector base, ICW3 the cascade wiring,
 * ICW4 8086 mode.  io_wait gives old PICs time between writes.
 */
void init_8259A(void)
{
	outb(PIC_MASTER_IMR, 0xff);
	outb(PIC_SLAVE_IMR, 0xff);
	outb(PIC_MASTER_CMD, 0x11);	io_wait();	/* ICW1: edge, ICW4 */
	outb(PIC_MASTER_IMR, FIRST_EXTERNAL_VECTOR);	io_wait();
	outb(PIC_MASTER_IMR, 1 << PIC_CASCADE_IR);	io_wait();
	outb(PIC_MASTER_IMR, 0x01);	io_wait();	/* ICW4: 8086 */
	outb(PIC_SLAVE_CMD, 0x11);	io_wait();
	outb(PIC_SLAVE_IMR, FIRST_EXTERNAL_VECTOR + 8);	io_wait();
	outb(PIC_SLAVE_IMR, PIC_CASCADE_IR);		io_wait();
	outb(PIC_SLAVE_IMR, 0x01);	io_wait();
	cached_irq_mask = 0xffff;
	write_mask();
}

void irq_enable(int irq)
{
	cached_irq_mask &= ~(1U << irq);
	if (irq >= 8)
		cached_irq_mask &= ~(1U << PIC_CASCADE_IR);
	write_mask();
}

void irq_disable(int irq)
{
	cached_irq_mask |= 1U << irq;
	write_mask();
}

void ack_8259A_irq(int irq)
{
	if (irq >= 8)
		outb(PIC_SLAVE_CMD, PIC_EOI);
	outb(PIC_MASTER_CMD, PIC_EOI);
}

static u8 read_isr(u16 cmd)
{
	outb(cmd, PIC_READ_ISR);
	return inb(cmd);
}

/*
 * A line that drops before the CPU acknowledges it makes the PIC answer
 * with its lowest-priority vector, IRQ 7 (or 15 on the slave), without
 * setting the ISR bit.  Such an IRQ gets no EOI from its own PIC; a
 * spurious 15 still came through the master's cascade line, which does.
 */
bool irq_is_spurious(int irq)
{
	if (irq == 7)
		return !(read_isr(PIC_MASTER_CMD) & 0x80);
	if (irq == 15 && !(read_isr(PIC_SLAVE_CMD) & 0x80)) {
		outb(PIC_MASTER_CMD, PIC_EOI);
		return true;
	}
	return false;
}
