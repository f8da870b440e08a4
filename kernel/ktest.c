/* kernel/ktest.c — runs the KTEST()s selected by ktest=, prints KTAP;
 * ktest=all runs every suite, ktest=a,b suites a and b. Also the helpers
 * several suites share (a test user page). */
#include <asm/irqflags.h>
#include <zpk/bug.h>
#include <zpk/cpumask.h>
#include <zpk/ktest.h>
#include <zpk/kthread.h>
#include <zpk/mm.h>
#include <zpk/mmu.h>
#include <zpk/param.h>
#include <zpk/pid.h>
#include <zpk/printk.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>

extern const struct ktest __start_ktests[], __stop_ktests[];

static char ktest_filter[128];
static const struct ktest *current_test;
static int current_failures;

static int setup_ktest(const char *val)
{
	if (!val || !val[0])
		return -1;
	strlcpy(ktest_filter, val, sizeof(ktest_filter));
	return 0;
}
early_param("ktest", setup_ktest, "all, or comma-separated suites to run");

bool ktest_requested(void)
{
	return ktest_filter[0] != '\0';
}

/* Is suite named in the comma-separated filter (or is the filter "all")? */
static bool ktest_selected(const struct ktest *t)
{
	size_t n = strlen(t->suite);
	const char *f = ktest_filter;

	if (!strcmp(f, "all"))
		return true;
	while (*f) {
		if (!strncmp(f, t->suite, n) && (f[n] == ',' || !f[n]))
			return true;
		f = strchr(f, ',');
		if (!f)
			break;
		f++;
	}
	return false;
}

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	current_failures++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_ALERT "    # %s.%s: %s:%d: %s\n", current_test->suite,
	       current_test->name, file, line, msg);
}

/* Returns the number of failed tests. */
int ktest_run(void)
{
	int n = 0, i = 0, failed = 0;

	/* pid 1 is init's, even in a boot that runs ktests and no init: a
	 * kernel thread a test starts must not get it (pid 1's exit powers
	 * the machine off). */
	alloc_pid();
	for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++)
		n += ktest_selected(t);
	printk(KERN_ALERT "KTAP version 1\n1..%d\n", n);
	for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
		if (!ktest_selected(t))
			continue;
		current_test = t;
		current_failures = 0;
		t->fn();
		/* A test must leave the CPU as it found it. */
		if (irqs_disabled() || spin_locks_held()) {
			ktest_fail(__FILE__, __LINE__, "left interrupts %s, %d "
				   "spinlocks held", irqs_disabled() ? "off" :
				   "on", spin_locks_held());
			local_irq_enable();
		}
		current_test = NULL;
		i++;
		if (current_failures)
			failed++;
		printk(KERN_ALERT "%s %d %s.%s\n", current_failures ? "not ok" : "ok",
		       i, t->suite, t->name);
	}
	printk(KERN_ALERT "# ktest: %d passed, %d failed\n", n - failed, failed);
	return failed;
}


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
