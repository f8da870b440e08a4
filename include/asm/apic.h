/* asm/apic.h — each CPU's local APIC (xAPIC, memory-mapped registers): its
 * timer, the end-of-interrupt write, and interrupts sent between CPUs. */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <asm/ptrace.h>
#include <zpk/types.h>

/* Register offsets (Intel SDM vol. 3, table 11-1; Linux's apicdef.h). */
#define APIC_ID		0x20
#define APIC_LVR	0x30		/* version */
#define APIC_TASKPRI	0x80
#define APIC_EOI	0xb0
#define APIC_SPIV	0xf0		/* spurious vector, software enable */
#define APIC_ESR	0x280		/* error status */
#define APIC_ICR	0x300		/* interrupt command, low half */
#define APIC_ICR2	0x310		/* high half: the destination */
#define APIC_LVTT	0x320		/* local vector table: timer */
#define APIC_LVT0	0x350		/* LINT0 pin */
#define APIC_LVT1	0x360		/* LINT1 pin */
#define APIC_LVTERR	0x370
#define APIC_TMICT	0x380		/* timer initial count */
#define APIC_TMCCT	0x390		/* timer current count */
#define APIC_TDCR	0x3e0		/* timer divide configuration */

#define APIC_SPIV_APIC_ENABLED	(1U << 8)
#define APIC_LVT_MASKED		(1U << 16)
#define APIC_LVT_TIMER_PERIODIC	(1U << 17)
#define APIC_DM_NMI		0x00400
#define APIC_DM_INIT		0x00500
#define APIC_DM_STARTUP		0x00600
#define APIC_DM_EXTINT		0x00700
#define APIC_ICR_BUSY		0x01000	/* delivery status: still sending */
#define APIC_INT_ASSERT		0x04000
#define APIC_INT_LEVELTRIG	0x08000
#define APIC_DEST_ALLBUT	0xc0000	/* shorthand: all but self */
#define APIC_TDR_DIV_16		0x3

/*
 * The vectors above the device IRQs (Linux's irq_vectors.h): the local
 * timer, the IPIs, and the APIC's own error and spurious interrupts.
 */
#define LOCAL_TIMER_VECTOR	0xec
#define FIRST_SYSTEM_VECTOR	LOCAL_TIMER_VECTOR
#define CALL_FUNCTION_VECTOR	0xfc	/* smp_call_function */
#define RESCHEDULE_VECTOR	0xfd	/* look at the run queue */
#define ERROR_APIC_VECTOR	0xfe
#define SPURIOUS_APIC_VECTOR	0xff

/* Bits 31..24 of APIC_ID (xAPIC). */
u32 read_apic_id(void);
/* The boot CPU's part: map the registers (the base from the APIC_BASE
 * MSR), then setup_local_APIC and the timer's calibration. */
void apic_init(void);
/* This CPU's APIC: software-enabled, LINT0 takes the 8259's interrupts
 * (virtual wire) on the boot CPU only, errors and spurious reported. */
void setup_local_APIC(void);
/* This CPU's timer: periodic at HZ, on LOCAL_TIMER_VECTOR. */
void setup_APIC_timer(void);
/* Acknowledges the interrupt being handled (the EOI register). */
void ack_APIC_irq(void);
/* Sends vector to the CPU cpu; APIC_DM_NMI as vector sends an NMI. */
void apic_send_IPI(int cpu, u32 vector);
/* An NMI to every CPU but this one (smp_send_stop). */
void apic_send_NMI_allbutself(void);
/* The interrupt command register: icr low half to the APIC apicid,
 * then waits until the APIC has sent it. */
void apic_icr_write(u32 low, u32 apicid);
/* From do_trap for vectors >= FIRST_SYSTEM_VECTOR: false if not ours. */
bool do_system_vector(struct pt_regs *regs);

/* Local timer ticks at HZ, per CPU (Linux's "LOC:" line). */
extern unsigned long lapic_timer_period;	/* bus clocks per tick */

#endif
