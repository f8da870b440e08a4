/* arch/x86_64/tests/ktest_mmu.c — ktests of the kernel page tables: W^X, the
 * read-only zero page in both mappings, NX data, NULL faults, the direct
 * map. */
#include <asm/io.h>
#include <asm/sections.h>
#include <asm/traps.h>
#include <zpk/errno.h>
#include <zpk/ktest.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/string.h>
#include <zpk/zero_page.h>

static struct {
	int hits;
	u64 vector, error, cr2;
} pf;

static bool record_pf(struct pt_regs *regs)
{
	pf.hits++;
	pf.vector = regs->vector;
	pf.error = regs->error_code;
	pf.cr2 = read_cr2();
	if (regs->vector == X86_TRAP_PF && (regs->error_code & X86_PF_INSTR)) {
		/* A call into NX memory: return to the caller. */
		regs->rip = *(u64 *)regs->rsp;
		regs->rsp += 8;
		return true;
	}
	return false;
}

/* Writes addr through the probe; expects exactly one protection #PF. */
static void expect_write_fault(void *addr)
{
	memset(&pf, 0, sizeof(pf));
	trap_test_hook = record_pf;
	KEXPECT_EQ(ktest_probe_write_u64(addr, 0x5a5a5a5a5a5a5a5aULL), -EFAULT);
	trap_test_hook = NULL;
	KEXPECT_EQ(pf.hits, 1);
	KEXPECT_EQ(pf.vector, X86_TRAP_PF);
	KEXPECT_EQ(pf.cr2, (u64)addr);
	KEXPECT_EQ(pf.error & (X86_PF_PROT | X86_PF_WRITE),
		   X86_PF_PROT | X86_PF_WRITE);
}

static const u64 some_rodata = 7;

KTEST(mmu, text_is_read_only)
{
	expect_write_fault((void *)(_text + 64));
}

KTEST(mmu, rodata_is_read_only)
{
	expect_write_fault((void *)&some_rodata);
	KEXPECT_EQ(some_rodata, 7);
}

KTEST(mmu, zero_page_read_only_in_image)
{
	expect_write_fault(empty_zero_page + 128);
	KEXPECT_EQ(zero_page_first_nonzero(), -1);
}

KTEST(mmu, zero_page_read_only_in_direct_map)
{
	char *alias = __va(PFN_PHYS(zero_pfn));

	KEXPECT_NE((unsigned long)alias, (unsigned long)empty_zero_page);
	expect_write_fault(alias + 256);
	KEXPECT_EQ(zero_page_first_nonzero(), -1);
}

static u8 data_code[16] __aligned(16) = { 0xc3 };	/* ret */

KTEST(mmu, data_is_not_executable)
{
	void (*fn)(void) = (void (*)(void))data_code;

	memset(&pf, 0, sizeof(pf));
	trap_test_hook = record_pf;
	fn();
	trap_test_hook = NULL;
	KEXPECT_EQ(pf.hits, 1);
	KEXPECT_EQ(pf.cr2, (u64)data_code);
	KEXPECT_TRUE(pf.error & X86_PF_INSTR);
}

KTEST(mmu, null_read_faults)
{
	u64 v;

	memset(&pf, 0, sizeof(pf));
	trap_test_hook = record_pf;
	KEXPECT_EQ(ktest_probe_read_u64(NULL, &v), -EFAULT);
	trap_test_hook = NULL;
	KEXPECT_EQ(pf.hits, 1);
	KEXPECT_EQ(pf.cr2, 0);
	KEXPECT_EQ(pf.error & X86_PF_PROT, 0);	/* not present: no identity map */
}

KTEST(mmu, data_is_writable)
{
	static u64 v;

	KEXPECT_EQ(ktest_probe_write_u64(&v, 99), 0);
	KEXPECT_EQ(v, 99);
}

KTEST(mmu, cr0_wp_and_nxe_enabled)
{
	KEXPECT_TRUE(read_cr0() & X86_CR0_WP);
	KEXPECT_TRUE(rdmsr(MSR_EFER) & EFER_NXE);
}

KTEST(mmu, direct_map_covers_last_page)
{
	unsigned long va = (unsigned long)__va(PFN_PHYS(max_pfn - 1));
	enum pg_level level;
	pte_t *pte = lookup_address(va, &level);

	KEXPECT_NOT_NULL(pte);
	KEXPECT_NE(level, PG_LEVEL_NONE);
	KEXPECT_NULL(lookup_address(0x1000, &level));	/* no identity map */
	KEXPECT_EQ(level, PG_LEVEL_NONE);
}
