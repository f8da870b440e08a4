/* host-test-sources: */
/* tests/host/test_pgtable.c — the PTE helpers of asm/pgtable.h, bit by bit.
 * Also the walker's index arithmetic, on tables in simulated RAM. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <asm/pgtable.h>

char *host_ram_base;

static void test_bit_positions(void **state)
{
	(void)state;
	assert_int_equal(_PAGE_PRESENT, 1ULL << 0);
	assert_int_equal(_PAGE_RW, 1ULL << 1);
	assert_int_equal(_PAGE_USER, 1ULL << 2);
	assert_int_equal(_PAGE_ACCESSED, 1ULL << 5);
	assert_int_equal(_PAGE_DIRTY, 1ULL << 6);
	assert_int_equal(_PAGE_PSE, 1ULL << 7);
	assert_int_equal(_PAGE_GLOBAL, 1ULL << 8);
	assert_int_equal(_PAGE_SPECIAL, 1ULL << 9);	/* as Linux x86 */
	assert_int_equal(_PAGE_SOFT_DIRTY, 1ULL << 11);
	assert_true(_PAGE_NX == 1ULL << 63);
}

static void test_predicates_each_bit(void **state)
{
	pte_t p = __pte(0);

	(void)state;
	assert_true(pte_none(p));
	assert_false(pte_present(p) || pte_write(p) || pte_user(p) ||
		     pte_dirty(p) || pte_young(p) || pte_special(p));
	assert_true(pte_exec(p));
	assert_true(pte_present(__pte(_PAGE_PRESENT)));
	assert_true(pte_write(__pte(_PAGE_RW)));
	assert_true(pte_user(__pte(_PAGE_USER)));
	assert_true(pte_dirty(__pte(_PAGE_DIRTY)));
	assert_true(pte_young(__pte(_PAGE_ACCESSED)));
	assert_true(pte_special(__pte(_PAGE_SPECIAL)));
	assert_true(pte_soft_dirty(__pte(_PAGE_SOFT_DIRTY)));
	assert_false(pte_exec(__pte(_PAGE_NX)));
	/* Each predicate looks at its own bit only. */
	assert_false(pte_write(__pte(~_PAGE_RW)));
	assert_false(pte_special(__pte(~_PAGE_SPECIAL)));
	assert_false(pte_dirty(__pte(~_PAGE_DIRTY)));
	assert_false(pte_soft_dirty(__pte(~_PAGE_SOFT_DIRTY)));
}

static void test_modifiers_touch_one_bit(void **state)
{
	const u64 all = ~0ULL, none = 0;

	(void)state;
	assert_true(pte_val(pte_mkwrite(__pte(none))) == _PAGE_RW);
	assert_true(pte_val(pte_wrprotect(__pte(all))) == (all & ~_PAGE_RW));
	/* x86 Linux: a PTE made dirty is soft-dirty too. */
	assert_true(pte_val(pte_mkdirty(__pte(none))) ==
		    (_PAGE_DIRTY | _PAGE_SOFT_DIRTY));
	assert_true(pte_val(pte_mksoft_dirty(__pte(none))) == _PAGE_SOFT_DIRTY);
	assert_true(pte_val(pte_clear_soft_dirty(__pte(all))) ==
		    (all & ~_PAGE_SOFT_DIRTY));
	assert_true(pte_val(pte_mkclean(__pte(all))) == (all & ~_PAGE_DIRTY));
	assert_true(pte_val(pte_mkyoung(__pte(none))) == _PAGE_ACCESSED);
	assert_true(pte_val(pte_mkold(__pte(all))) == (all & ~_PAGE_ACCESSED));
	assert_true(pte_val(pte_mkspecial(__pte(none))) == _PAGE_SPECIAL);
	assert_true(pte_val(pte_mkexec(__pte(all))) == (all & ~_PAGE_NX));
}

static void test_pfn_round_trip(void **state)
{
	static const unsigned long pfns[] = { 0, 1, 0x12345, 0xfffffffffUL };
	pgprot_t prot = __pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_NX);

	(void)state;
	for (size_t i = 0; i < sizeof(pfns) / sizeof(pfns[0]); i++) {
		pte_t p = pfn_pte(pfns[i], prot);

		assert_true(pte_pfn(p) == pfns[i]);
		assert_true(pgprot_val(pte_pgprot(p)) == pgprot_val(prot));
	}
	/* A pfn too big for 40 bits cannot spill into the flag bits. */
	assert_true((pte_val(pfn_pte(~0UL, __pgprot(0))) & ~PTE_PFN_MASK) == 0);
}

static void test_indices(void **state)
{
	unsigned long a = 0xffff888123456789UL;

	(void)state;
	assert_int_equal(pgd_index(a), 273);
	assert_int_equal(pgd_index(0xffffffff80000000UL), 511);
	assert_int_equal(pud_index(0xffffffff80000000UL), 510);
	assert_int_equal(pud_index(a), (a >> 30) & 511);
	assert_int_equal(pmd_index(a), (a >> 21) & 511);
	assert_int_equal(pte_index(a), (a >> 12) & 511);
	assert_int_equal(pte_index(0x1000), 1);
}

/* Build pgd -> pud -> pmd -> pte by hand in simulated RAM; walk it. */
static void test_walk_offsets(void **state)
{
	unsigned long va = 0x00007f1234567000UL;
	pgd_t *pgd;
	pud_t *pud;
	pmd_t *pmd;
	pte_t *pte;

	(void)state;
	host_ram_base = aligned_alloc(PAGE_SIZE, 4 * PAGE_SIZE);
	memset(host_ram_base, 0, 4 * PAGE_SIZE);
	pgd = (pgd_t *)host_ram_base;
	set_pgd(pgd + pgd_index(va), __pgd(1 * PAGE_SIZE | _PAGE_TABLE));
	pud = pud_offset(pgd_offset_pgd(pgd, va), va);
	assert_ptr_equal(pud, (pud_t *)(host_ram_base + PAGE_SIZE) +
			 pud_index(va));
	set_pud(pud, __pud(2 * PAGE_SIZE | _PAGE_TABLE));
	pmd = pmd_offset(pud, va);
	set_pmd(pmd, __pmd(3 * PAGE_SIZE | _PAGE_TABLE));
	pte = pte_offset_kernel(pmd, va);
	assert_ptr_equal(pte, (pte_t *)(host_ram_base + 3 * PAGE_SIZE) +
			 pte_index(va));
	set_pte(pte, pfn_pte(0x42, __pgprot(_PAGE_PRESENT)));
	assert_true(pte_present(*pte) && pte_pfn(*pte) == 0x42);
	pte_clear(pte);
	assert_true(pte_none(*pte));
	free(host_ram_base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bit_positions),
		cmocka_unit_test(test_predicates_each_bit),
		cmocka_unit_test(test_modifiers_touch_one_bit),
		cmocka_unit_test(test_pfn_round_trip),
		cmocka_unit_test(test_indices),
		cmocka_unit_test(test_walk_offsets),
	};

	return cmocka_run_group_tests_name("pgtable", tests, NULL, NULL);
}
