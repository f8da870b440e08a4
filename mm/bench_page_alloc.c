/* mm/bench_page_alloc.c — bench=mm: TSC cycles per alloc_page+__free_pages
 * pair and per clear_page. Under QEMU -icount shift=0 the TSC counts
 * instructions, so those figures repeat exactly. A figure, not a test. */
#include <asm/io.h>
#include <zpk/mm.h>
#include <zpk/param.h>
#include <zpk/printk.h>
#include <zpk/string.h>

#define BENCH_ROUNDS 20000

static bool bench_mm;

static int setup_bench(const char *val)
{
	if (!val || strcmp(val, "mm"))
		return -1;
	bench_mm = true;
	return 0;
}
early_param("bench", setup_bench, "mm: print page allocator costs");

bool bench_requested(void)
{
	return bench_mm;
}

static u64 bench_alloc_free(void)
{
	u64 t0 = rdtsc();

	for (int i = 0; i < BENCH_ROUNDS; i++)
		__free_page(alloc_page(GFP_KERNEL));
	return (rdtsc() - t0) / BENCH_ROUNDS;
}

static u64 bench_clear_page(void)
{
	struct page *page = alloc_page(GFP_KERNEL);
	void *addr = page_address(page);
	u64 t0 = rdtsc();

	for (int i = 0; i < BENCH_ROUNDS; i++)
		clear_page(addr);
	t0 = (rdtsc() - t0) / BENCH_ROUNDS;
	__free_page(page);
	return t0;
}

void bench_run(void)
{
	bool poison = page_poisoning;

	page_poisoning = false;		/* measure the allocator, not memset */
	printk(KERN_ALERT "bench: alloc_page+__free_pages %llu tsc/pair\n",
	       (unsigned long long)bench_alloc_free());
	printk(KERN_ALERT "bench: clear_page %llu tsc/page\n",
	       (unsigned long long)bench_clear_page());
	page_poisoning = poison;
}
