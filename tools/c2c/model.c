/* tools/c2c/model.c — the per-line coherence state machine and counters
 * behind the c2c plugin (model.h): a hash of 64-byte physical lines, each
 * with its holders, its Modified owner and per-vCPU write counts. */
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define C2C_INIT_SIZE	(1u << 16)

int c2c_init(struct c2c_model *m)
{
	memset(m, 0, sizeof(*m));
	m->lines = calloc(C2C_INIT_SIZE, sizeof(*m->lines));
	if (!m->lines)
		return -1;
	m->size = C2C_INIT_SIZE;
	return 0;
}

void c2c_free(struct c2c_model *m)
{
	int i;

	for (i = 0; i < C2C_MAX_CPUS; i++)
		free(m->trace[i].acc);
	free(m->lines);
	memset(m, 0, sizeof(*m));
}

static size_t hash(uint64_t line)
{
	return (size_t)((line >> C2C_LINE_SHIFT) * 0x9e3779b97f4a7c15ull >> 17);
}

/* Line addresses are stored with bit 0 set so that 0 marks a free slot
 * (physical line 0 is a real line). */
static struct c2c_line *slot(struct c2c_line *lines, size_t size,
			     uint64_t key)
{
	size_t i = hash(key) & (size - 1);

	while (lines[i].addr && lines[i].addr != key)
		i = (i + 1) & (size - 1);
	return &lines[i];
}

static int grow(struct c2c_model *m)
{
	size_t size = m->size * 2, i;
	struct c2c_line *lines = calloc(size, sizeof(*lines));

	if (!lines)
		return -1;
	for (i = 0; i < m->size; i++)
		if (m->lines[i].addr)
			*slot(lines, size, m->lines[i].addr) = m->lines[i];
	free(m->lines);
	m->lines = lines;
	m->size = size;
	return 0;
}

static struct c2c_line *lookup(struct c2c_model *m, uint64_t pa)
{
	uint64_t key = (pa & ~((1ull << C2C_LINE_SHIFT) - 1)) | 1;
	struct c2c_line *l;

	if (m->used * 2 >= m->size && grow(m) < 0)
		return NULL;
	l = slot(m->lines, m->size, key);
	if (!l->addr) {
		l->addr = key;
		l->modified = -1;
		m->used++;
	}
	return l;
}

/* Which instructions write a line says what the line is (c2c-report.py
 * names them). Space-Saving (Metwally et al. 2005) keeps the heaviest in
 * C2C_PCS slots: exact while a line has at most C2C_PCS writers; beyond,
 * a newcomer takes the lightest slot and its count plus one, so a count
 * is an upper bound and any writer of more than 1/C2C_PCS of the writes
 * is kept. */
static void count_pc(struct c2c_line *l, uint64_t pc)
{
	struct c2c_pc *min = &l->pcs[0];
	int i;

	for (i = 0; i < C2C_PCS; i++) {
		if (l->pcs[i].writes && l->pcs[i].pc != pc) {
			if (l->pcs[i].writes < min->writes)
				min = &l->pcs[i];
			continue;
		}
		l->pcs[i].pc = pc;
		l->pcs[i].writes++;
		return;
	}
	min->pc = pc;
	min->writes++;
}

/* The MESI step of one access: a miss on a line another vCPU holds
 * Modified is a transfer; a write leaves the writer the only holder. */
static void mesi(struct c2c_line *l, unsigned cpu, bool write)
{
	uint32_t me = 1u << cpu;

	if (!(l->holders & me) && l->modified >= 0 && l->modified != (int)cpu)
		l->transfers++;
	if (!write) {
		if (l->modified >= 0 && l->modified != (int)cpu)
			l->modified = -1;	/* M -> S on a remote read */
		l->holders |= me;
		return;
	}
	if (l->holders & ~me)
		l->invals++;
	l->holders = me;
	l->modified = (int8_t)cpu;
}

static int trace_add(struct c2c_model *m, unsigned cpu, uint64_t line,
		     bool write)
{
	struct c2c_trace *t = &m->trace[cpu];

	if (m->trace_max && m->traced >= m->trace_max) {
		m->dropped++;
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		uint64_t *acc = realloc(t->acc, cap * sizeof(*acc));

		if (!acc)
			return -1;
		t->acc = acc;
		t->cap = cap;
	}
	t->acc[t->n++] = line | write;
	m->traced++;
	return 0;
}

int c2c_access(struct c2c_model *m, unsigned cpu, uint64_t pa, uint64_t va,
	       bool write, uint64_t pc)
{
	struct c2c_line *l;

	if (cpu >= C2C_MAX_CPUS)
		return -1;
	l = lookup(m, pa);
	if (!l)
		return -1;
	if (!write) {
		m->reads++;
		l->reads++;
		if (!l->writers)
			l->vaddr = va;
	} else {
		m->writes++;
		l->writers |= 1u << cpu;
		l->writes[cpu]++;
		l->vaddr = va;
		count_pc(l, pc);
	}
	if (m->lockstep)
		return trace_add(m, cpu, l->addr & ~1ull, write);
	mesi(l, cpu, write);
	return 0;
}

int c2c_replay(struct c2c_model *m)
{
	size_t k, left = 1;
	int cpu;

	for (k = 0; left; k++) {
		left = 0;
		for (cpu = 0; cpu < C2C_MAX_CPUS; cpu++) {
			struct c2c_trace *t = &m->trace[cpu];
			struct c2c_line *l;

			if (k >= t->n)
				continue;
			left += k + 1 < t->n;
			l = lookup(m, t->acc[k] & ~1ull);
			if (!l)
				return -1;
			mesi(l, cpu, t->acc[k] & 1);
		}
	}
	for (cpu = 0; cpu < C2C_MAX_CPUS; cpu++)
		m->trace[cpu].n = 0;
	m->traced = 0;
	return 0;
}

bool c2c_line_shared(const struct c2c_line *l)
{
	return l->writers & (l->writers - 1);
}

uint64_t c2c_line_writes(const struct c2c_line *l)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < C2C_MAX_CPUS; i++)
		n += l->writes[i];
	return n;
}

void c2c_totals(const struct c2c_model *m, struct c2c_totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->reads = m->reads;
	t->writes = m->writes;
	for (i = 0; i < m->size; i++) {
		const struct c2c_line *l = &m->lines[i];

		if (!l->addr)
			continue;
		t->lines++;
		t->transfers += l->transfers;
		t->invals += l->invals;
		if (c2c_line_shared(l)) {
			t->shared_lines++;
			t->shared_writes += c2c_line_writes(l);
		}
	}
}

size_t c2c_top(const struct c2c_model *m, const struct c2c_line **out,
	       size_t n)
{
	size_t i, k, filled = 0;

	for (i = 0; i < m->size && n; i++) {
		const struct c2c_line *l = &m->lines[i];
		uint64_t w;

		if (!l->addr || !c2c_line_shared(l))
			continue;
		w = c2c_line_writes(l);
		if (filled == n && w <= c2c_line_writes(out[n - 1]))
			continue;
		k = filled < n ? filled++ : n - 1;
		while (k > 0 && c2c_line_writes(out[k - 1]) < w) {
			out[k] = out[k - 1];
			k--;
		}
		out[k] = l;
	}
	return filled;
}
