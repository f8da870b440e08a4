/* asm/smp.h — the x86 side of several CPUs: numbering them from the
 * MADT's APIC ids, per-CPU set-up, and starting them (smpboot.c). */
#ifndef ASM_SMP_H
#define ASM_SMP_H

#include <asm/percpu.h>
#include <zpk/types.h>

/* The page below 1 MiB an AP starts in (its SIPI vector is 0x08). */
#define TRAMPOLINE_BASE	0x8000

/* First thing in kernel_main: GS points at CPU 0's struct pcpu, whose
 * current is the boot task, so "current" works from here on. */
void smp_prepare_boot_cpu(void);
/* acpi.c, for each enabled local APIC in the MADT: the boot CPU's is
 * CPU 0, the others get 1, 2, ... (up to NR_CPUS). */
void register_lapic(u32 apicid);
/* This CPU's GDT and TSS, IDT and SYSCALL MSRs (each CPU, at boot). */
void cpu_init(void);
/* panic's smp_send_stop: true once the other CPUs are told to stop; an
 * NMI then ends in stop_this_cpu. */
bool cpu_stop_requested(void);
void __noreturn stop_this_cpu(void);

#endif
