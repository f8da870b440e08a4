/* arch/x86_64/gdt.c — each CPU's GDT and TSS (kernel stack for traps from
 * user mode, and a separate IST stack so a double fault can still report). */
#include <asm/desc.h>
#include <asm/percpu.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <zpk/types.h>
#include <zpk/compiler.h>
#include <zpk/string.h>

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

/* One of each per CPU: a TSS holds its CPU's rsp0, and a busy TSS's
 * descriptor cannot be loaded again, so each CPU has its GDT too. */
static u64 gdt_page[NR_CPUS][GDT_ENTRIES] __aligned(16);
static struct tss cpu_tss[NR_CPUS] __aligned(16);
static u8 double_fault_stack[NR_CPUS][8192] __aligned(16);

/* Code/data descriptors: only the access byte and L/D bits matter here. */
#define SEG(access, flags) (((u64)(flags) << 52) | ((u64)(access) << 40) | \
			    0x000f00000000ffffULL)

static void set_tss_desc(u64 *gdt, struct tss *tss)
{
	u64 base = (u64)tss, limit = sizeof(*tss) - 1;

	gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		       (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
		       (((base >> 24) & 0xff) << 56);
	gdt[GDT_TSS + 1] = base >> 32;
}

/* Sets the kernel stack used when a trap or interrupt leaves user mode
 * on this CPU. */
void tss_set_kernel_stack(u64 rsp0)
{
	cpu_tss[smp_processor_id()].rsp[0] = rsp0;
}

/* Loads this CPU's GDT and TSS (smp_processor_id() must work: GS). */
void gdt_init(void)
{
	int cpu = smp_processor_id();
	u64 *gdt = gdt_page[cpu];
	struct tss *tss = &cpu_tss[cpu];
	struct desc_ptr p = { sizeof(gdt_page[0]) - 1, (u64)gdt };

	gdt[GDT_KERNEL_CS] = SEG(0x9a, 0xa);	/* present, ring 0, code, L */
	gdt[GDT_KERNEL_DS] = SEG(0x92, 0xc);
	gdt[GDT_USER32_CS] = SEG(0xfa, 0xc);
	gdt[GDT_USER_DS] = SEG(0xf2, 0xc);	/* ring 3 */
	gdt[GDT_USER_CS] = SEG(0xfa, 0xa);
	tss->ist[0] = (u64)double_fault_stack[cpu] +
		      sizeof(double_fault_stack[cpu]);
	tss->iomap_base = sizeof(*tss);
	set_tss_desc(gdt, tss);
	asm volatile("lgdt %0\n\t"
		     "pushq %1\n\t"
		     "leaq 1f(%%rip), %%rax\n\t"
		     "pushq %%rax\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "movl %2, %%eax\n\t"
		     "movl %%eax, %%ds\n\t"
		     "movl %%eax, %%es\n\t"
		     "movl %%eax, %%ss\n\t"
		     "ltr %w3"
		     : : "m"(p), "i"(__KERNEL_CS), "i"(__KERNEL_DS),
		       "r"(__TSS_SEL) : "rax", "memory");
}
