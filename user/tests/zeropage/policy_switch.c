/* user/tests/zeropage/policy_switch.c — zpk only: switching
 * /proc/sys/vm/zero_page at run time.  Map under refcount, switch to
 * special, fork, map more, unmap all, switch to off: the zero page's
 * refcount is back to its base; the original policy is restored. */
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ulib.h"
#include "zp.h"

#define N	64

static long long refcount(void)
{
	struct zp_sample s;

	zp_sample(&s);
	return s.zp_refcount;
}

int main(void)
{
	long long base, rc_ref, rc_spec, rc_end;
	int orig, st = -1, data = 1;
	char *a, *b;
	pid_t pid;

	if (!is_zpk() || !zp_can_switch()) {
		tap_plan(1);
		tap_skip("needs a writable /proc/sys/vm/zero_page (zpk, root): "
			 "%s", is_zpk() ? "not writable here" : "not on Linux");
		tap_done();
	}
	tap_plan(7);
	orig = zp_policy();
	base = refcount();
	tap_ok(zp_set_policy("refcount") == 0 && zp_policy() == ZP_REFCOUNT,
	       "switch to refcount (from %s)", zp_policy_names[orig]);
	a = zp_map(N, PROT_READ | PROT_WRITE);
	zp_read(a, N);
	rc_ref = refcount();
	tap_ok(base < 0 || rc_ref - base == N, "%d refcounted zero PTEs: "
	       "refcount %lld -> %lld", N, base, rc_ref);
	tap_ok(zp_set_policy("special") == 0 && zp_policy() == ZP_SPECIAL,
	       "switch to special");
	pid = fork();
	if (pid == 0)
		_exit(zp_read(a, N) == 0 ? 0 : 1);
	waitpid(pid, &st, 0);
	b = zp_map(N, PROT_READ | PROT_WRITE);
	zp_read(b, N);
	rc_spec = refcount();
	tap_ok(st == 0 && (base < 0 || rc_spec == rc_ref), "a child read the "
	       "old PTEs (%s); %d special ones add no refcount (%lld)",
	       status_str(st), N, rc_spec);
	data = zp_read(a, N) == 0 && zp_read(b, N) == 0;
	zp_unmap(a, N);
	zp_unmap(b, N);
	tap_ok(zp_set_policy("off") == 0 && zp_policy() == ZP_OFF && data,
	       "unmap both, switch to off (data was zeros)");
	rc_end = refcount();
	if (base >= 0)
		tap_ok(rc_end == base, "zero page refcount back to its base "
		       "%lld (%lld)", base, rc_end);
	else
		tap_skip("zero page refcount: no nr_zero_page_refcount in "
			 "/proc/vmstat");
	tap_ok(zp_set_policy(zp_policy_names[orig]) == 0 &&
	       zp_policy() == orig, "original policy %s restored",
	       zp_policy_names[orig]);
	tap_done();
}
