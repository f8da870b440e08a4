/* zpk/swapops.h — a swap slot in a PTE (Linux's include/linux/swapops.h
 * and x86-64's pgtable_64.h): the non-present encoding, and the tests
 * that tell a swap PTE from none, a present PTE and the uffd-wp marker. */
#ifndef ZPK_SWAPOPS_H
#define ZPK_SWAPOPS_H

#include <asm/pgtable.h>
#include <zpk/swap.h>

/*
 * x86-64 Linux's layout (since the L1TF fix, 4.18): P and PROTNONE (bits
 * 0 and 8) clear, the type in bits 59-63, the offset inverted in bits
 * 9-58, so that a stale swap PTE the CPU speculates through points above
 * any RAM. Bits 1-7 are free (Linux keeps its soft-dirty, uffd-wp and
 * exclusive swap bits there; zpk keeps none yet).
 */
#define SWP_TYPE_BITS		5
#define SWP_OFFSET_FIRST_BIT	9
#define SWP_OFFSET_SHIFT	(SWP_OFFSET_FIRST_BIT + SWP_TYPE_BITS)

static inline pte_t swp_entry_to_pte(swp_entry_t e)
{
	return __pte((~swp_offset(e) << SWP_OFFSET_SHIFT >> SWP_TYPE_BITS) |
		     ((u64)swp_type(e) << (64 - SWP_TYPE_BITS)));
}

static inline swp_entry_t pte_to_swp_entry(pte_t p)
{
	return swp_entry(pte_val(p) >> (64 - SWP_TYPE_BITS),
			 ~pte_val(p) << SWP_TYPE_BITS >> SWP_OFFSET_SHIFT);
}

/* Neither none nor present, nor the uffd-wp marker (which Linux also
 * encodes as a swap entry of a type of its own; zpk's is bit 10 alone,
 * which no slot's inverted offset can be). */
static inline bool is_swap_pte(pte_t p)
{
	return !pte_none(p) && !pte_present(p) && !pte_marker_uffd_wp(p);
}

#endif
