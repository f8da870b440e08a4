/* zpk/cpumask.h — sets of CPUs (Linux's struct cpumask): one bit per CPU
 * in a word, since NR_CPUS is 8; changed with atomic bit operations. */
#ifndef ZPK_CPUMASK_H
#define ZPK_CPUMASK_H

#include <asm/percpu.h>
#include <zpk/atomic.h>

struct cpumask {
	unsigned long bits;
};
typedef struct cpumask cpumask_t;

/* CPUs the firmware lists (the MADT), and those started and running. */
extern struct cpumask cpu_possible_mask, cpu_online_mask;
/* How many CPUs the MADT lists: the CPUs are 0 .. nr_cpu_ids - 1. */
extern int nr_cpu_ids;

static inline void cpumask_set_cpu(int cpu, struct cpumask *m)
{
	set_bit(cpu, &m->bits);
}
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	clear_bit(cpu, &m->bits);
}
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return test_bit(cpu, &m->bits);
}
static inline bool cpumask_empty(const struct cpumask *m)
{
	return !READ_ONCE(m->bits);
}
static inline int cpumask_weight(const struct cpumask *m)
{
	unsigned long b = READ_ONCE(m->bits);
	int n = 0;

	for (; b; b &= b - 1)	/* clears the lowest set bit */
		n++;
	return n;
}
/* The lowest CPU in m, or NR_CPUS if m is empty. */
static inline int cpumask_first(const struct cpumask *m)
{
	unsigned long b = READ_ONCE(m->bits);

	return b ? __builtin_ctzl(b) : NR_CPUS;
}

#define for_each_cpu(cpu, mask)						\
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)			\
		if (cpumask_test_cpu((cpu), (mask)))
#define for_each_possible_cpu(cpu)	for_each_cpu(cpu, &cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu(cpu, &cpu_online_mask)

static inline int num_online_cpus(void)
{
	return cpumask_weight(&cpu_online_mask);
}

#endif
