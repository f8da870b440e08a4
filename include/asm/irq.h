/* asm/irq.h — device interrupts: the two legacy 8259 PICs, IRQ 0..15 at
 * vectors 32..47, and the table of handlers do_irq dispatches through. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/irqflags.h>
#include <asm/ptrace.h>

#define NR_IRQS			16
#define FIRST_EXTERNAL_VECTOR	32	/* IRQ 0; the CPU owns 0..31 */
#define COM1_IRQ		4

typedef void (*irq_handler_t)(struct pt_regs *regs);

/* Remap both PICs to vectors 32..47 with every line masked. */
void init_8259A(void);
/* Unmask / mask one line (a slave line unmasks the cascade, IRQ 2). */
void irq_enable(int irq);
void irq_disable(int irq);
/* Tell the PIC(s) the IRQ has been taken, so lower ones may come. */
void ack_8259A_irq(int irq);
/* IRQ 7 and 15 also arrive spuriously (no ISR bit); true if so. */
bool irq_is_spurious(int irq);

/* Install fn for irq and unmask it: 0, or -EINVAL / -EBUSY.  fn runs
 * with interrupts off, after the EOI. */
int request_irq(int irq, irq_handler_t fn);
/* Mask irq and forget its handler. */
void free_irq(int irq);
/* From do_trap for vectors 32..47: false if no handler took it. */
bool do_irq(struct pt_regs *regs, int irq);

/* How many times each line was taken; spurious ones apart. */
extern unsigned long irq_count[NR_IRQS];
extern unsigned long irq_spurious_count;

#endif
