/* arch/x86_64/gdt.c — the GDT and the TSS (kernel stack for traps from
 * user mode, and a separate IST stack so a double fault can still report). */
#include <asm/desc.h>
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

static u64 gdt[GDT_ENTRIES] __aligned(16);
struct tss cpu_tss __aligned(16);
static u8 double_fault_stack[8192] __aligned(16);

/* Code/data descriptors: only the access byte and L/D bits matter here. */
#define SEG(access, flags) (((u64)(flags) << 52) | ((u64)(access) << 40) | \
			    0x000f00000000ffffULL)

static void set_tss_desc(void)
{
	u64 base = (u64)&cpu_tss, limit = sizeof(cpu_tss) - 1;

	gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		       (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
		       (((base >> 24) & 0xff) << 56);
	gdt[GDT_TSS + 1] = base >> 32;
}

/* Sets the kernel stack used when a trap or interrupt leaves user mode. */
void tss_set_kernel_stack(u64 rsp0)
{
	cpu_tss.rsp[0] = rsp0;
}

void gdt_init(void)
{
	struct desc_ptr p = { sizeof(gdt) - 1, (u64)gdt };

	gdt[GDT_KERNEL_CS] = SEG(0x9a, 0xa);	/* present, ring 0, code, L */
	gdt[GDT_KERNEL_DS] = SEG(0x92, 0xc);
	gdt[GDT_USER32_CS] = SEG(0xfa, 0xc);
	gdt[GDT_USER_DS] = SEG(0xf2, 0xc);	/* ring 3 */
	gdt[GDT_USER_CS] = SEG(0xfa, 0xa);
	cpu_tss.ist[0] = (u64)double_fault_stack + sizeof(double_fault_stack);
	cpu_tss.iomap_base = sizeof(cpu_tss);
	set_tss_desc();
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
