/* arch/x86_64/reboot.c — powering off through QEMU's isa-debug-exit.
 * Without that device (real hardware, another VM) the CPU halts for good. */
#include <asm/io.h>
#include <zpk/reboot.h>

void kernel_poweroff(int value)
{
	cli();
	outl(QEMU_DEBUG_EXIT_PORT, (u32)value);
	for (;;)
		halt();
}
