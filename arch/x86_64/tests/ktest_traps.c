/* arch/x86_64/tests/ktest_traps.c — ktests of the trap path: a ud2 and a bad
 * kernel read are caught by the test hook, and their reports are checked. */
#include <asm/traps.h>
#include <asm/io.h>
#include <zpk/errno.h>
#include <zpk/kallsyms.h>
#include <zpk/ktest.h>
#include <zpk/printk.h>
#include <zpk/string.h>

static struct {
	int hits;
	u64 vector, error, rip, cr2;
	char report[2048];
} seen;

/* Records the trap and its printed report; resumes after ud2 and int3. */
static bool record_trap(struct pt_regs *regs)
{
	seen.hits++;
	seen.vector = regs->vector;
	seen.error = regs->error_code;
	seen.rip = regs->rip;
	seen.cr2 = read_cr2();
	printk_capture_start(seen.report, sizeof(seen.report));
	show_trap(regs);
	printk_capture_stop();
	if (regs->vector == X86_TRAP_UD) {
		regs->rip += 2;
		return true;
	}
	/* int3 is a trap: rip already points past it. A #PF is left to
	 * the exception table. */
	return regs->vector == X86_TRAP_BP;
}

static void watch_traps(void)
{
	memset(&seen, 0, sizeof(seen));
	trap_test_hook = record_trap;
}

KTEST(traps, ud2_reported_and_skipped)
{
	watch_traps();
	asm volatile("ud2");
	trap_test_hook = NULL;
	KEXPECT_EQ(seen.hits, 1);
	KEXPECT_EQ(seen.vector, X86_TRAP_UD);
	KEXPECT_STRSTR(seen.report, "Invalid Opcode (#UD)");
	KEXPECT_STRSTR(seen.report, "<ktest_traps_ud2_reported_and_skipped+");
	KEXPECT_STRSTR(seen.report, "Call Trace:");
	KEXPECT_STRSTR(seen.report, "ktest_run+");
}

KTEST(traps, bad_kernel_read_faults_with_cr2)
{
	const void *bad = (const void *)0xdead0000UL;
	u64 v = 42;
	int err;

	watch_traps();
	err = ktest_probe_read_u64(bad, &v);
	trap_test_hook = NULL;
	KEXPECT_EQ(err, -EFAULT);
	KEXPECT_EQ(seen.hits, 1);
	KEXPECT_EQ(seen.vector, X86_TRAP_PF);
	KEXPECT_EQ(seen.cr2, (u64)bad);
	KEXPECT_EQ(seen.error & (X86_PF_PROT | X86_PF_WRITE | X86_PF_USER), 0);
	KEXPECT_STRSTR(seen.report, "Page Fault (#PF)");
	KEXPECT_STRSTR(seen.report, "[kernel read, not present]");
	KEXPECT_STRSTR(seen.report, "CR2=0x00000000dead0000");
	KEXPECT_STRSTR(seen.report, "<ktest_probe_read_u64+");
}

KTEST(traps, good_read_through_probe)
{
	static const u64 value = 0x1234567890abcdefULL;
	u64 v = 0;

	watch_traps();
	KEXPECT_EQ(ktest_probe_read_u64(&value, &v), 0);
	trap_test_hook = NULL;
	KEXPECT_EQ(v, value);
	KEXPECT_EQ(seen.hits, 0);
}

KTEST(traps, breakpoint_from_int3)
{
	watch_traps();
	asm volatile("int3");
	trap_test_hook = NULL;
	KEXPECT_EQ(seen.hits, 1);
	KEXPECT_EQ(seen.vector, X86_TRAP_BP);
	KEXPECT_STRSTR(seen.report, "Breakpoint (#BP)");
}
