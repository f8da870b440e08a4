/* kernel/ktest.c — runs the KTEST()s selected by ktest=, prints KTAP;
 * ktest=all runs every suite, ktest=a,b suites a and b. The tests
 * themselves, and the helpers they share (kernel/tests/ktest_helpers.c),
 * are in the subsystems' tests/ directories, linked into
 * build/zpk-test.elf only. */
#include <asm/irqflags.h>
#include <zpk/ktest.h>
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

/* Returns the number of failed tests; 1 if the image has none (the
 * ktests are linked into build/zpk-test.elf only, which make test boots). */
int ktest_run(void)
{
	int all = 0, n = 0, i = 0, failed = 0;

	/* pid 1 is init's, even in a boot that runs ktests and no init: a
	 * kernel thread a test starts must not get it (pid 1's exit powers
	 * the machine off). */
	alloc_pid();
	for (const struct ktest *t = __start_ktests; t < __stop_ktests; t++) {
		all++;
		n += ktest_selected(t);
	}
	if (!all) {
		pr_err("ktest: this kernel has no ktests; build/zpk-test.elf has "
		       "them\n");
		return 1;
	}
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
