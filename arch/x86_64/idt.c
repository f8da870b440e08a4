/* arch/x86_64/idt.c — the interrupt descriptor table: 256 gates, one stub
 * each (entry.asm); #DF runs on its own stack (IST 1). */
#include <asm/desc.h>
#include <asm/segment.h>
#include <asm/traps.h>
#include <zpk/compiler.h>

struct idt_gate {
	u16 offset_low;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_high;
	u32 zero;
} __packed;

extern const u64 trap_stub_table[256];
static struct idt_gate idt[256] __aligned(16);

/* dpl 3 lets user code raise the vector with int: only int3's (#BP).
 * System calls come by the SYSCALL instruction (syscall.c), not int. */
static void set_gate(int v, u64 handler, int ist, int dpl)
{
	idt[v] = (struct idt_gate){
		.offset_low = handler & 0xffff,
		.selector = __KERNEL_CS,
		.ist = ist,
		.type_attr = 0x8e | (dpl << 5),	/* present, interrupt gate */
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_high = handler >> 32,
	};
}

/* Every CPU uses the one table. */
void load_current_idt(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (u64)idt };

	asm volatile("lidt %0" : : "m"(p));
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, trap_stub_table[v], v == X86_TRAP_DF ? 1 : 0,
			 v == X86_TRAP_BP ? 3 : 0);
	load_current_idt();
}
