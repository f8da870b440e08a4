/* asm/irqflags.h — this CPU's interrupt flag (RFLAGS.IF): turning device
 * interrupts and IPIs off and on, and saving the state to put it back. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <zpk/types.h>

#define X86_EFLAGS_IF_BIT	9

#ifndef HOST_TEST
static inline unsigned long native_save_fl(void)
{
	unsigned long flags;

	asm volatile("pushfq; pop %0" : "=r"(flags) : : "memory");
	return flags;
}

static inline void local_irq_disable(void)
{
	asm volatile("cli" : : : "memory");
}

static inline void local_irq_enable(void)
{
	asm volatile("sti" : : : "memory");
}

#else	/* host tests run in user mode: interrupts are always "on" */
static inline unsigned long native_save_fl(void)
{
	return 1UL << X86_EFLAGS_IF_BIT;
}
static inline void local_irq_disable(void)
{
}
static inline void local_irq_enable(void)
{
}
#endif

static inline bool irqs_disabled_flags(unsigned long flags)
{
	return !(flags & (1UL << X86_EFLAGS_IF_BIT));
}

static inline bool irqs_disabled(void)
{
	return irqs_disabled_flags(native_save_fl());
}

/* Interrupts off; the state before, for local_irq_restore. */
static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = native_save_fl();

	local_irq_disable();
	return flags;
}
#define local_irq_save(flags)	((flags) = arch_local_irq_save())

static inline void local_irq_restore(unsigned long flags)
{
	if (!irqs_disabled_flags(flags))
		local_irq_enable();
}

#endif
