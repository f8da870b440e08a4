/* zpk/ktest.h — in-kernel tests, KUnit-like, reported in KTAP.
 * KTEST(suite, name) registers a test in the .ktests linker section. */
#ifndef ZPK_KTEST_H
#define ZPK_KTEST_H

#include <zpk/types.h>
#include <zpk/compiler.h>
#include <asm/ptrace.h>

struct ktest {
	const char *suite;
	const char *name;
	void (*fn)(void);
};

#define KTEST(suite, name)						\
	static void ktest_##suite##_##name(void);			\
	static const struct ktest __ktest_##suite##_##name		\
	__used __section(".ktests") __aligned(8) =			\
		{ #suite, #name, ktest_##suite##_##name };		\
	static void ktest_##suite##_##name(void)

/* ktest= on the command line (kernel/ktest.c): run the ktests, not init. */
bool ktest_requested(void);
/* Runs the ktests ktest= names, printing KTAP; returns the number that
 * failed (1 if the image has none: build/zpk-test.elf has them). */
int ktest_run(void);

/* Record a failure of the running test with file:line and a message. */
void ktest_fail(const char *file, int line, const char *fmt, ...)
	__printf(3, 4);

/* fn(arg) in a kernel thread on every online CPU at once, all joined;
 * how many could not be started. */
int ktest_run_on_every_cpu(int (*fn)(void *), void *arg, const char *name);

/* Maps one zeroed user-accessible page at uva in the kernel's page
 * tables (no mm) and returns its direct-map alias; one at a time. */
void *ktest_map_user_page(unsigned long uva);
void ktest_unmap_user_page(unsigned long uva);

/* Runs user code at rip with stack rsp, in the page tables loaded now,
 * until its first trap (int3 ends a run); returns the trap's vector with
 * the registers and CR2 in *t (arch/x86_64/tests/ktest_usermode.c). One CPU at
 * a time; interrupts come back as they were (off in an IPI's function). */
struct ktest_trap {
	struct pt_regs regs;
	u64 cr2;
};
u64 ktest_run_user(u64 rip, u64 rsp, struct ktest_trap *t);
/* Enters ring 3 at rip/rsp, the kernel stack saved in *saved_ksp;
 * returns when a trap hook sends the CPU to user_mode_returned
 * (arch/x86_64/tests/ktest_usermode_entry.asm, for ktest_run_user). */
long enter_user_mode(u64 rip, u64 rsp, u64 *saved_ksp);

#define KEXPECT_EQ(a, b) do {						\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (__a != __b)							\
		ktest_fail(__FILE__, __LINE__,				\
			   "expected %s == %s, got 0x%llx vs 0x%llx",	\
			   #a, #b, __a, __b);				\
} while (0)
#define KEXPECT_NE(a, b) do {						\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (__a == __b)							\
		ktest_fail(__FILE__, __LINE__,				\
			   "expected %s != %s, both 0x%llx", #a, #b, __a); \
} while (0)
#define KEXPECT_TRUE(c) do {						\
	if (!(c))							\
		ktest_fail(__FILE__, __LINE__, "expected %s", #c);	\
} while (0)
#define KEXPECT_FALSE(c) KEXPECT_TRUE(!(c))
#define KEXPECT_NULL(p) do {						\
	const void *__p = (p);						\
	if (__p)							\
		ktest_fail(__FILE__, __LINE__,				\
			   "expected %s == NULL, got %p", #p, __p);	\
} while (0)
#define KEXPECT_NOT_NULL(p) do {					\
	if (!(p))							\
		ktest_fail(__FILE__, __LINE__,				\
			   "expected %s != NULL", #p);			\
} while (0)
/* haystack must contain needle (for checking printed reports). */
#define KEXPECT_STRSTR(haystack, needle) do {				\
	const char *__h = (haystack), *__n = (needle);			\
	if (!strstr(__h, __n))						\
		ktest_fail(__FILE__, __LINE__,				\
			   "expected \"%s\" in %s", __n, #haystack);	\
} while (0)

#endif
