/* arch/x86_64/tests/ktest_probe.c — for the ktests: one 8-byte load or store
 * at any address, with an exception-table fixup, so a test can show that
 * an address faults (-EFAULT) without oopsing the kernel. */
#include <asm/traps.h>
#include <zpk/errno.h>

int ktest_probe_read_u64(const void *addr, u64 *val)
{
	int err = 0;
	u64 v = 0;

	asm volatile("1:	movq (%[p]), %[v]\n"
		     "2:\n"
		     ".pushsection .text.fixup, \"ax\"\n"
		     "3:	movl %[efault], %[err]\n"
		     "	jmp 2b\n"
		     ".popsection\n"
		     _ASM_EXTABLE(1b, 3b)
		     : [err] "+r"(err), [v] "+r"(v)
		     : [p] "r"(addr), [efault] "i"(-EFAULT));
	*val = v;
	return err;
}

int ktest_probe_write_u64(void *addr, u64 val)
{
	int err = 0;

	asm volatile("1:	movq %[v], (%[p])\n"
		     "2:\n"
		     ".pushsection .text.fixup, \"ax\"\n"
		     "3:	movl %[efault], %[err]\n"
		     "	jmp 2b\n"
		     ".popsection\n"
		     _ASM_EXTABLE(1b, 3b)
		     : [err] "+r"(err)
		     : [p] "r"(addr), [v] "r"(val), [efault] "i"(-EFAULT)
		     : "memory");
	return err;
}
