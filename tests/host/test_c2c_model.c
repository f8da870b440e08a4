/* host-test-sources: tools/c2c/model.c */
/* tests/host/test_c2c_model.c — the c2c plugin's coherence model on
 * synthetic traces: ping-pong on one line is one transfer per switch, two
 * vCPUs on two lines make none, two counters in one line (false sharing)
 * are counted as sharing; the lockstep replay interleaves what QEMU ran
 * one vCPU after another. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../tools/c2c/model.h"

#define N 100

static int setup(void **state)
{
	static struct c2c_model m;

	assert_int_equal(c2c_init(&m), 0);
	*state = &m;
	return 0;
}

static int teardown(void **state)
{
	c2c_free(*state);
	return 0;
}

/* CPU 0 and 1 take turns incrementing one counter: read, then write. */
static void test_pingpong_one_transfer_per_switch(void **state)
{
	struct c2c_model *m = *state;
	struct c2c_totals t;
	int i;

	for (i = 0; i < N; i++) {
		unsigned cpu = i & 1;

		assert_int_equal(c2c_access(m, cpu, 0x1000, 0x1000, false, 0), 0);
		assert_int_equal(c2c_access(m, cpu, 0x1000, 0x1000, true, 0), 0);
	}
	c2c_totals(m, &t);
	assert_int_equal(t.transfers, N - 1);	/* every switch but the first */
	assert_int_equal(t.invals, N - 1);	/* each read left a copy behind */
	assert_int_equal(t.shared_lines, 1);
	assert_int_equal(t.shared_writes, N);
}

static void test_two_cpus_two_lines_none(void **state)
{
	struct c2c_model *m = *state;
	struct c2c_totals t;
	int i;

	for (i = 0; i < N; i++) {
		c2c_access(m, 0, 0x2000, 0x2000, false, 0);
		c2c_access(m, 0, 0x2000, 0x2000, true, 0);
		c2c_access(m, 1, 0x2040, 0x2040, false, 0);
		c2c_access(m, 1, 0x2040, 0x2040, true, 0);
	}
	c2c_totals(m, &t);
	assert_int_equal(t.lines, 2);
	assert_int_equal(t.transfers, 0);
	assert_int_equal(t.invals, 0);
	assert_int_equal(t.shared_writes, 0);
}

/* Two counters 8 bytes apart, one per CPU: different bytes, one line. */
static void test_false_sharing_counted(void **state)
{
	struct c2c_model *m = *state;
	const struct c2c_line *top[2];
	struct c2c_totals t;
	int i;

	for (i = 0; i < N; i++) {
		c2c_access(m, 0, 0x3000, 0x3000, true, 0);
		c2c_access(m, 1, 0x3008, 0x3008, true, 0);
	}
	c2c_totals(m, &t);
	assert_int_equal(t.lines, 1);
	assert_int_equal(t.shared_writes, 2 * N);
	assert_int_equal(t.transfers, 2 * N - 1);
	assert_int_equal(t.invals, 2 * N - 1);
	assert_int_equal(c2c_top(m, top, 2), 1);
	assert_int_equal(top[0]->addr & ~1ull, 0x3000);
	assert_int_equal(top[0]->writes[0], N);
	assert_int_equal(top[0]->writes[1], N);
}

/* Readers sharing a line never written make no traffic; many lines grow
 * the table without losing counts; top N comes out sorted. */
static void test_readers_and_top(void **state)
{
	struct c2c_model *m = *state;
	const struct c2c_line *top[3];
	struct c2c_totals t;
	uint64_t i;

	for (i = 0; i < 4; i++)
		c2c_access(m, i, 0x4000, 0x4000, false, 0);
	for (i = 0; i < 200000; i++)
		c2c_access(m, 0, 0x100000 + i * 64, 0x100000 + i * 64, true, 0);
	for (i = 0; i < 5; i++) {
		c2c_access(m, 0, 0x5000, 0x5000, true, 0);
		c2c_access(m, 1, 0x5000, 0x5000, true, 0);
		c2c_access(m, 2, 0x6000, 0x6000, true, 0);
		c2c_access(m, 3, 0x6000, 0x6000, true, 0);
		if (i < 2) {
			c2c_access(m, 2, 0x7000, 0x7000, true, 0);
			c2c_access(m, 1, 0x7000, 0x7000, true, 0);
		}
	}
	c2c_access(m, 0, 0x6000, 0x6000, true, 0);
	c2c_totals(m, &t);
	assert_int_equal(t.lines, 200004);
	assert_int_equal(t.shared_lines, 3);
	assert_int_equal(c2c_top(m, top, 3), 3);
	assert_int_equal(top[0]->addr & ~1ull, 0x6000);
	assert_int_equal(top[1]->addr & ~1ull, 0x5000);
	assert_int_equal(top[2]->addr & ~1ull, 0x7000);
	assert_int_equal(c2c_access(m, C2C_MAX_CPUS, 0, 0, false, 0), -1);
}

/* Writing instructions: exact counts while there are at most C2C_PCS of
 * them; among more, a heavy one is still kept. Reads are not writers. */
static void test_writer_pcs(void **state)
{
	struct c2c_model *m = *state;
	const struct c2c_line *top[2];
	uint64_t pc;
	int i;

	c2c_access(m, 0, 0x8000, 0x8000, false, 0xdead);
	for (pc = 0; pc < C2C_PCS; pc++) {
		c2c_access(m, 0, 0x8000, 0x8000, true, 0x1000 + pc);
		c2c_access(m, 1, 0x8008, 0x8008, true, 0x1000 + pc);
	}
	for (i = 0; i < 100; i++) {
		c2c_access(m, 2, 0x9000, 0x9000, true, 0x2000);
		c2c_access(m, 3, 0x9000, 0x9000, true, 0x3000 + i);
	}
	assert_int_equal(c2c_top(m, top, 2), 2);
	assert_int_equal(top[0]->addr & ~1ull, 0x9000);
	for (i = 0; i < C2C_PCS && top[0]->pcs[i].pc != 0x2000; i++)
		;
	assert_true(i < C2C_PCS);
	assert_true(top[0]->pcs[i].writes >= 100);
	for (pc = 0; pc < C2C_PCS; pc++) {
		assert_int_equal(top[1]->pcs[pc].pc, 0x1000 + pc);
		assert_int_equal(top[1]->pcs[pc].writes, 2);
	}
}

/* QEMU runs one vCPU a long stretch before the next: CPU 0's N writes to a
 * line all come before CPU 1's. In QEMU's order that is one transfer; the
 * lockstep replay interleaves them, one per access after the first, and
 * keeps the write counts the same. */
static void test_lockstep_replay(void **state)
{
	struct c2c_model *m = *state;
	struct c2c_totals t;
	int i, cpu;

	m->lockstep = true;
	for (cpu = 0; cpu < 2; cpu++)
		for (i = 0; i < N; i++) {
			c2c_access(m, cpu, 0xa000 + 8 * cpu, 0, true, 0);
			c2c_access(m, cpu, 0xb000 + 64 * cpu, 0, true, 0);
		}
	c2c_totals(m, &t);
	assert_int_equal(t.transfers, 0);	/* nothing replayed yet */
	assert_int_equal(t.shared_writes, 2 * N);
	assert_int_equal(c2c_replay(m), 0);
	c2c_totals(m, &t);
	assert_int_equal(t.transfers, 2 * N - 1);	/* only 0xa000's */
	assert_int_equal(t.invals, 2 * N - 1);
	assert_int_equal(t.shared_lines, 1);
	assert_int_equal(t.writes, 4 * N);
	assert_int_equal(m->trace[0].n, 0);	/* the traces are spent */
}

/* In QEMU's order the same accesses make a single transfer. */
static void test_qemu_order_coarse(void **state)
{
	struct c2c_model *m = *state;
	struct c2c_totals t;
	int i, cpu;

	for (cpu = 0; cpu < 2; cpu++)
		for (i = 0; i < N; i++)
			c2c_access(m, cpu, 0xa000 + 8 * cpu, 0, true, 0);
	c2c_totals(m, &t);
	assert_int_equal(t.transfers, 1);
}

/* Past trace_max accesses are counted as written but not replayed. */
static void test_trace_limit(void **state)
{
	struct c2c_model *m = *state;
	struct c2c_totals t;
	int i;

	m->lockstep = true;
	m->trace_max = 10;
	for (i = 0; i < 20; i++)
		c2c_access(m, i & 1, 0xc000, 0, true, 0);
	assert_int_equal(m->dropped, 10);
	assert_int_equal(c2c_replay(m), 0);
	c2c_totals(m, &t);
	assert_int_equal(t.writes, 20);
	assert_int_equal(t.transfers, 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pingpong_one_transfer_per_switch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_cpus_two_lines_none, setup, teardown),
		cmocka_unit_test_setup_teardown(test_false_sharing_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readers_and_top, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer_pcs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lockstep_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qemu_order_coarse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_limit, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
