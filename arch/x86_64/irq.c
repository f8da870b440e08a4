/* arch/x86_64/irq.c — the IRQ handler table: request_irq installs a
 * handler, do_irq (from do_trap) acknowledges the PIC and calls it. */
#include <asm/irq.h>
#include <zpk/errno.h>

static irq_handler_t irq_handlers[NR_IRQS];
unsigned long irq_count[NR_IRQS];
unsigned long irq_spurious_count;

int request_irq(int irq, irq_handler_t fn)
{
	if (irq < 0 || irq >= NR_IRQS || !fn)
		return -EINVAL;
	if (irq_handlers[irq])
		return -EBUSY;
	irq_handlers[irq] = fn;
	irq_enable(irq);
	return 0;
}

void free_irq(int irq)
{
	if (irq < 0 || irq >= NR_IRQS)
		return;
	irq_disable(irq);
	irq_handlers[irq] = 0;
}

bool do_irq(struct pt_regs *regs, int irq)
{
	if ((irq == 7 || irq == 15) && irq_is_spurious(irq)) {
		irq_spurious_count++;
		return true;
	}
	/*
	 * EOI first, before the handler: until the EOI the PIC would hold
	 * back this and every lower IRQ. No nesting follows: IF stays clear
	 * (interrupt gate) until iretq.
	 */
	ack_8259A_irq(irq);
	irq_count[irq]++;
	if (!irq_handlers[irq])
		return false;
	irq_handlers[irq](regs);
	return true;
}
