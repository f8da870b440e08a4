/* kernel/tests/ktest_helpers.c — what several ktest suites share: code on
 * every CPU at once, and a test user page. */
#include <asm/pgtable.h>
#include <zpk/bug.h>
#include <zpk/cpumask.h>
#include <zpk/ktest.h>
#include <zpk/kthread.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>

int ktest_run_on_every_cpu(int (*fn)(void *), void *arg, const char *name)
{
	struct kthread *k[NR_CPUS];
	int cpu, n = 0, failed = 0;

	for_each_online_cpu(cpu)
		k[n++] = kthread_run_on_cpu(fn, arg, cpu, name);
	for (int i = 0; i < n; i++)
		if (k[i])
			kthread_join(k[i]);
		else
			failed++;
	return failed;
}

/* The one test user page: tests map it, use it, unmap it before ending. */
static struct page *ktest_user_page;

void *ktest_map_user_page(unsigned long uva)
{
	pgprot_t prot = __pgprot(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER |
				 _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_NX);

	BUG_ON(ktest_user_page);
	ktest_user_page = alloc_page(__GFP_ZERO);
	BUG_ON(!ktest_user_page);
	kernel_map_page(uva, page_to_phys(ktest_user_page), prot);
	return page_address(ktest_user_page);
}

void ktest_unmap_user_page(unsigned long uva)
{
	kernel_unmap_page(uva);
	__free_page(ktest_user_page);
	ktest_user_page = NULL;
}
