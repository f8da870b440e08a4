/* asm/io.h — x86 port I/O and a few privileged instructions as inline asm.
 * The only place the kernel spells these instructions out. */
#ifndef ASM_IO_H
#define ASM_IO_H

#include <zpk/types.h>

static inline void outb(u16 port, u8 v)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}
static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void outw(u16 port, u16 v)
{
	asm volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}
static inline u16 inw(u16 port)
{
	u16 v;

	asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void outl(u16 port, u32 v)
{
	asm volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}
static inline u32 inl(u16 port)
{
	u32 v;

	asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}
static inline void io_wait(void)
{
	outb(0x80, 0);
}
static inline u64 read_cr0(void)
{
	u64 v;

	asm volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}
static inline void write_cr0(u64 v)
{
	asm volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}
static inline u64 read_cr2(void)
{
	u64 v;

	asm volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr3(void)
{
	u64 v;

	asm volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}
static inline void write_cr3(u64 v)
{
	asm volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}
static inline u64 read_cr4(void)
{
	u64 v;

	asm volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline void write_cr4(u64 v)
{
	asm volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}
static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}
static inline u64 rdtsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}
static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	asm volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
		     : "a"(leaf), "c"(sub));
}
static inline void halt(void)
{
	asm volatile("hlt");
}
static inline void cli(void)
{
	asm volatile("cli" : : : "memory");
}
static inline void sti(void)
{
	asm volatile("sti" : : : "memory");
}

#define X86_CR0_WP	(1UL << 16)	/* supervisor writes obey R/O */
#define X86_CR0_MP	(1UL << 1)	/* WAIT/FWAIT obey TS */
#define X86_CR0_EM	(1UL << 2)	/* x87 emulation: must be off */
#define X86_CR0_TS	(1UL << 3)
#define X86_CR0_NE	(1UL << 5)	/* native x87 error reporting */
#define X86_CR4_PGE	(1UL << 7)
#define X86_CR4_OSFXSR	(1UL << 9)	/* FXSAVE/FXRSTOR and SSE */
#define X86_CR4_OSXMMEXCPT (1UL << 10)	/* SIMD exceptions as #XM */
#define X86_CR4_SMEP	(1UL << 20)
#define X86_CR4_SMAP	(1UL << 21)
#define X86_EFLAGS_IF	(1UL << 9)
#define X86_EFLAGS_AC	(1UL << 18)	/* SMAP: user access allowed */
#define MSR_EFER	0xc0000080
#define EFER_SCE	(1UL << 0)	/* SYSCALL/SYSRET enabled */
#define MSR_STAR	0xc0000081
#define MSR_LSTAR	0xc0000082
#define MSR_FMASK	0xc0000084
#define MSR_FS_BASE	0xc0000100
#define MSR_GS_BASE	0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
#define EFER_NXE	(1UL << 11)

#endif
