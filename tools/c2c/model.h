/* tools/c2c/model.h — the coherence model of the c2c plugin: per 64-byte
 * physical line, which vCPUs hold it (a simple MESI), who wrote it and how
 * often. No QEMU here, so tests/host/test_c2c_model.c drives it directly. */
#ifndef C2C_MODEL_H
#define C2C_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define C2C_LINE_SHIFT	6
#define C2C_MAX_CPUS	16
#define C2C_PCS		8	/* writing instructions kept per line */

struct c2c_pc {
	uint64_t pc;			/* guest virtual address of the store */
	uint64_t writes;
};

struct c2c_line {
	uint64_t addr;			/* line address | 1; 0: a free slot */
	uint64_t vaddr;			/* a virtual address of it (the last
					 * write's), for naming it */
	uint32_t holders;		/* vCPUs with a valid copy (bitmask) */
	int8_t modified;		/* the vCPU holding it Modified, or -1 */
	uint32_t writers;		/* vCPUs that wrote it in the window */
	uint64_t writes[C2C_MAX_CPUS];	/* writes per vCPU */
	uint64_t reads;
	uint64_t transfers;		/* misses served from another's M copy */
	uint64_t invals;		/* writes that invalidated others' copies */
	struct c2c_pc pcs[C2C_PCS];	/* its heaviest writing instructions */
};

/* One vCPU's accesses in the window, in its order: line address | write. */
struct c2c_trace {
	uint64_t *acc;
	size_t n, cap;
};

struct c2c_model {
	struct c2c_line *lines;		/* open addressing, power-of-two size */
	size_t size, used;
	uint64_t reads, writes;		/* all accesses seen */
	/* lockstep: the coherence state is not run as accesses come but
	 * from each vCPU's trace by c2c_replay; 0 (c2c_init's) runs it live */
	bool lockstep;
	size_t trace_max;		/* accesses kept in all; 0: no limit */
	size_t traced;			/* accesses kept now, all vCPUs */
	uint64_t dropped;		/* accesses past trace_max, not replayed */
	struct c2c_trace trace[C2C_MAX_CPUS];
};

/* c2c_init: an empty model. Returns 0, or -1 when out of memory. */
int c2c_init(struct c2c_model *m);
void c2c_free(struct c2c_model *m);

/* c2c_access: vCPU cpu (< C2C_MAX_CPUS) read or wrote physical address pa,
 * virtual address va, by the instruction at pc (0 when unknown). A miss on
 * a line another vCPU holds Modified counts one transfer (HITM); a write to
 * a line another vCPU holds counts one invalidation: now, or at c2c_replay
 * with m->lockstep. Returns 0, or -1 when cpu is out of range
 * or memory runs out. */
int c2c_access(struct c2c_model *m, unsigned cpu, uint64_t pa, uint64_t va,
	       bool write, uint64_t pc);

/* c2c_replay: with m->lockstep, run the coherence state over the traces
 * as if every vCPU ran at one speed: the k-th access of each vCPU in turn
 * (vCPU 0 first), for k = 0, 1, ...; then empty the traces. Transfers and
 * invalidations so no longer depend on how QEMU interleaved the vCPUs,
 * only on what each did. Returns 0, or -1 when memory runs out. */
int c2c_replay(struct c2c_model *m);

/* c2c_line_shared: whether more than one vCPU wrote the line. */
bool c2c_line_shared(const struct c2c_line *l);
uint64_t c2c_line_writes(const struct c2c_line *l);

struct c2c_totals {
	uint64_t reads, writes;
	uint64_t lines, shared_lines;
	uint64_t shared_writes;		/* writes to lines written by >= 2 vCPUs */
	uint64_t transfers, invals;
};
void c2c_totals(const struct c2c_model *m, struct c2c_totals *t);

/* c2c_top: fill out[0..n) with the lines of most shared writes, most
 * first (only shared lines). Returns how many it filled. */
size_t c2c_top(const struct c2c_model *m, const struct c2c_line **out,
	       size_t n);

#endif
