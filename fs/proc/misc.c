/* fs/proc/misc.c — the small files of /proc: cmdline, uptime, stat,
 * version, cpuinfo (from CPUID), vmstat (mm/vmstat.c's names) and the
 * sysctls of /proc/sys. */
#include <asm/io.h>
#include <zpk/cpumask.h>
#include <zpk/coredump.h>
#include <zpk/errno.h>
#include <zpk/huge_mm.h>
#include <zpk/kernel_stat.h>
#include <zpk/loadavg.h>
#include <zpk/mm_verify.h>
#include <zpk/mm.h>
#include <zpk/oom.h>
#include <zpk/param.h>
#include <zpk/pid.h>
#include <zpk/pipe_fs_i.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/time.h>
#include <zpk/vmstat.h>
#include <zpk/zero_page.h>
#include "internal.h"

static int cmdline_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%s\n", boot_command_line);
	return 0;
}

/* Seconds up, then the idle time of all CPUs added up (the ticks that
 * found each CPU's idle task), as Linux's uptime_proc_show. */
static int uptime_show(struct seq_file *m, struct task_struct *task)
{
	u64 cs = ktime_get_ns() / (NSEC_PER_SEC / 100);
	u64 idle = kcpustat_sum(CPUTIME_IDLE) / (NSEC_PER_SEC / 100);

	(void)task;
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(cs / 100),
		   (unsigned long)(cs % 100), (unsigned long)(idle / 100),
		   (unsigned long)(idle % 100));
	return 0;
}
/* Linux's loadavg_proc_show: the three averages rounded to hundredths,
 * runnable/all tasks (idle aside), the last pid given. */
static int loadavg_show(struct seq_file *m, struct task_struct *task)
{
	unsigned long a[3];
	struct task_struct *t;
	int nr_threads = 0;

	(void)task;
	get_avenrun(a, FIXED_1 / 200, 0);
	list_for_each_entry(t, &task_list, tasks)
		nr_threads += t->pid > 0;
	seq_printf(m, "%lu.%02lu %lu.%02lu %lu.%02lu %u/%d %d\n",
		   LOAD_INT(a[0]), LOAD_FRAC(a[0]), LOAD_INT(a[1]),
		   LOAD_FRAC(a[1]), LOAD_INT(a[2]), LOAD_FRAC(a[2]),
		   nr_running(), nr_threads, last_pid());
	return 0;
}

static int version_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_puts(m, "zpk version " ZPK_VERSION " (the zero-page kernel) "
		 "(gcc version " __VERSION__ ") #1\n");
	return 0;
}

/* vmstat_format measures when it does not fit, as snprintf does. */
static int vmstat_show(struct seq_file *m, struct task_struct *task)
{
	size_t room = m->size - m->count;
	size_t len = vmstat_format(m->buf + m->count, room);

	(void)task;
	if (len >= room) {
		m->overflow = true;
		return 0;
	}
	m->count += len;
	/* zpk's: the zero page's _refcount now (1 + refcounted PTEs + gup),
	 * and the huge zero page's references (1 its own + its holders). */
	seq_printf(m, "zero_page_refcount %d\n", zero_page_refcount());
	seq_printf(m, "huge_zero_refcount %d\n", huge_zero_refcount());
	return 0;
}

/* The lowest address mmap hands out or maps at: a constant in zpk. */
static int mmap_min_addr_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%lu\n", MMAP_MIN_ADDR);
	return 0;
}

/* 0, OVERCOMMIT_GUESS: the heuristic of mm/mmap.c's vm_enough_memory is
 * zpk's only mode. */
static int overcommit_memory_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_puts(m, "0\n");
	return 0;
}

/* ---- /proc/sys/vm/zero_page ------------------------------------------ */

/* "[special] refcount off", like Linux's THP files in sysfs. */
static int zero_page_show(struct seq_file *m, struct task_struct *task)
{
	char buf[64];

	(void)task;
	zero_page_policy_show(buf, sizeof(buf));
	seq_puts(m, buf);
	return 0;
}

static ssize_t zero_page_write(struct task_struct *task, const char *buf,
			       size_t n, loff_t pos)
{
	char name[16];

	(void)task;
	if (pos || n == 0 || n >= sizeof(name))
		return -EINVAL;
	memcpy(name, buf, n);
	name[n] = 0;
	if (name[n - 1] == '\n')
		name[n - 1] = 0;
	if (zero_page_set_policy(name))
		return -EINVAL;
	return n;
}

/* ---- /proc/sys/vm/huge_zero_page ------------------------------------- */

/* "refcount [per-mm] persistent": the huge zero page's lifetime. */
static int huge_zero_page_show(struct seq_file *m, struct task_struct *task)
{
	char buf[64];

	(void)task;
	huge_zero_policy_show(buf, sizeof(buf));
	seq_puts(m, buf);
	return 0;
}

static ssize_t huge_zero_page_write(struct task_struct *task,
				    const char *buf, size_t n, loff_t pos)
{
	(void)task;
	if (pos)
		return -EINVAL;
	return huge_zero_set_policy(buf, n);
}

/* ---- /proc/sys/vm/mm_verify ------------------------------------------- */

/* The mode mm_verify= set: exit, warn or off. */
static int mm_verify_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%s\n", mm_verify_mode());
	return 0;
}

/* Writing 1 sweeps every mm and page now (as drop_caches acts on a
 * write): -EIO if it found a difference (under mm_verify=exit a BUG). */
static ssize_t mm_verify_write(struct task_struct *task, const char *buf,
			       size_t n, loff_t pos)
{
	(void)task;
	if (pos || n == 0 || buf[0] != '1' ||
	    (n > 1 && (n > 2 || buf[1] != '\n')))
		return -EINVAL;
	return mm_verify_all() ? -EIO : (ssize_t)n;
}

/* ---- /proc/sys/kernel/core_pattern ------------------------------------ */

static int core_pattern_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%s\n", core_pattern);
	return 0;
}

/* Up to the first newline, cut at CORENAME_MAX_SIZE - 1 bytes, as
 * Linux's proc_dostring. */
static ssize_t core_pattern_write(struct task_struct *task, const char *buf,
				  size_t n, loff_t pos)
{
	size_t len = 0;

	(void)task;
	if (pos)
		return -EINVAL;
	while (len < n && len < CORENAME_MAX_SIZE - 1 && buf[len] != '\n' &&
	       buf[len])
		len++;
	memcpy(core_pattern, buf, len);
	core_pattern[len] = 0;
	return n;
}

/* ---- /proc/sys/kernel/pid_max ----------------------------------------- */

static int pid_max_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%d\n", pid_max);
	return 0;
}

/* Within Linux's bounds (set_pid_max). */
static ssize_t pid_max_write(struct task_struct *task, const char *buf,
			     size_t n, loff_t pos)
{
	unsigned long v;

	(void)task;
	if (proc_write_int(buf, n, pos, &v) || set_pid_max((long)v))
		return -EINVAL;
	return n;
}

static int pipe_max_size_show(struct seq_file *m, struct task_struct *task)
{
	(void)task;
	seq_printf(m, "%u\n", pipe_max_size);
	return 0;
}

/* Rounded as F_SETPIPE_SZ rounds, as an unsigned int (Linux's
 * proc_dopipe_max_size: 2^32 is 0, a page): past 2^31 -EINVAL. */
static ssize_t pipe_max_size_write(struct task_struct *task, const char *buf,
				   size_t n, loff_t pos)
{
	unsigned long v;
	unsigned int size;
	char num[24];

	(void)task;
	if (pos || n == 0 || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, buf, n);
	num[n] = 0;
	if (num[n - 1] == '\n')
		num[n - 1] = 0;
	if (kstrtoul(num, 10, &v))
		return -EINVAL;
	size = round_pipe_size((unsigned int)v);
	if (!size)
		return -EINVAL;
	pipe_max_size = size;
	return n;
}

/* ---- cpuinfo ---------------------------------------------------------- */

struct cpu_flag {
	u8 word, bit;
	const char *name;
};
enum { W_1EDX, W_81EDX, W_1ECX, W_81ECX, W_7EBX, NR_WORDS };

/* Linux's names (arch/x86/include/asm/cpufeatures.h), in its order. */
static const struct cpu_flag cpu_flags[] = {
	{ W_1EDX, 0, "fpu" }, { W_1EDX, 1, "vme" }, { W_1EDX, 2, "de" },
	{ W_1EDX, 3, "pse" }, { W_1EDX, 4, "tsc" }, { W_1EDX, 5, "msr" },
	{ W_1EDX, 6, "pae" }, { W_1EDX, 7, "mce" }, { W_1EDX, 8, "cx8" },
	{ W_1EDX, 9, "apic" }, { W_1EDX, 11, "sep" }, { W_1EDX, 12, "mtrr" },
	{ W_1EDX, 13, "pge" }, { W_1EDX, 14, "mca" }, { W_1EDX, 15, "cmov" },
	{ W_1EDX, 16, "pat" }, { W_1EDX, 17, "pse36" },
	{ W_1EDX, 19, "clflush" }, { W_1EDX, 21, "dts" },
	{ W_1EDX, 22, "acpi" }, { W_1EDX, 23, "mmx" }, { W_1EDX, 24, "fxsr" },
	{ W_1EDX, 25, "sse" }, { W_1EDX, 26, "sse2" }, { W_1EDX, 27, "ss" },
	{ W_1EDX, 28, "ht" }, { W_1EDX, 29, "tm" }, { W_1EDX, 31, "pbe" },
	{ W_81EDX, 11, "syscall" }, { W_81EDX, 20, "nx" },
	{ W_81EDX, 22, "mmxext" }, { W_81EDX, 25, "fxsr_opt" },
	{ W_81EDX, 26, "pdpe1gb" }, { W_81EDX, 27, "rdtscp" },
	{ W_81EDX, 29, "lm" }, { W_81EDX, 30, "3dnowext" },
	{ W_81EDX, 31, "3dnow" },
	{ W_1ECX, 0, "pni" }, { W_1ECX, 1, "pclmulqdq" },
	{ W_1ECX, 3, "monitor" }, { W_1ECX, 5, "vmx" }, { W_1ECX, 6, "smx" },
	{ W_1ECX, 7, "est" }, { W_1ECX, 8, "tm2" }, { W_1ECX, 9, "ssse3" },
	{ W_1ECX, 12, "fma" }, { W_1ECX, 13, "cx16" },
	{ W_1ECX, 14, "xtpr" }, { W_1ECX, 15, "pdcm" },
	{ W_1ECX, 17, "pcid" }, { W_1ECX, 19, "sse4_1" },
	{ W_1ECX, 20, "sse4_2" }, { W_1ECX, 21, "x2apic" },
	{ W_1ECX, 22, "movbe" }, { W_1ECX, 23, "popcnt" },
	{ W_1ECX, 24, "tsc_deadline_timer" }, { W_1ECX, 25, "aes" },
	{ W_1ECX, 26, "xsave" }, { W_1ECX, 28, "avx" },
	{ W_1ECX, 29, "f16c" }, { W_1ECX, 30, "rdrand" },
	{ W_1ECX, 31, "hypervisor" },
	{ W_81ECX, 0, "lahf_lm" }, { W_81ECX, 1, "cmp_legacy" },
	{ W_81ECX, 2, "svm" }, { W_81ECX, 3, "extapic" },
	{ W_81ECX, 4, "cr8_legacy" }, { W_81ECX, 5, "abm" },
	{ W_81ECX, 6, "sse4a" }, { W_81ECX, 7, "misalignsse" },
	{ W_81ECX, 8, "3dnowprefetch" },
	{ W_7EBX, 0, "fsgsbase" }, { W_7EBX, 1, "tsc_adjust" },
	{ W_7EBX, 3, "bmi1" }, { W_7EBX, 4, "hle" }, { W_7EBX, 5, "avx2" },
	{ W_7EBX, 7, "smep" }, { W_7EBX, 8, "bmi2" }, { W_7EBX, 9, "erms" },
	{ W_7EBX, 10, "invpcid" }, { W_7EBX, 11, "rtm" },
	{ W_7EBX, 16, "avx512f" }, { W_7EBX, 18, "rdseed" },
	{ W_7EBX, 19, "adx" }, { W_7EBX, 20, "smap" },
	{ W_7EBX, 23, "clflushopt" }, { W_7EBX, 24, "clwb" },
	{ W_7EBX, 29, "sha_ni" },
};

struct cpu_id {
	u32 max_leaf, max_ext, words[NR_WORDS], sig, misc;
	char vendor[13], brand[49];
};

static void read_cpuid(struct cpu_id *c)
{
	u32 a, b, cx, d;

	memset(c, 0, sizeof(*c));
	cpuid(0, 0, &c->max_leaf, &b, &cx, &d);
	memcpy(c->vendor, &b, 4);
	memcpy(c->vendor + 4, &d, 4);
	memcpy(c->vendor + 8, &cx, 4);
	cpuid(1, 0, &c->sig, &c->misc, &c->words[W_1ECX], &c->words[W_1EDX]);
	if (c->max_leaf >= 7)
		cpuid(7, 0, &a, &c->words[W_7EBX], &cx, &d);
	cpuid(0x80000000, 0, &c->max_ext, &b, &cx, &d);
	if (c->max_ext >= 0x80000001)
		cpuid(0x80000001, 0, &a, &b, &c->words[W_81ECX],
		      &c->words[W_81EDX]);
	for (u32 i = 0; i < 3 && c->max_ext >= 0x80000004; i++)
		cpuid(0x80000002 + i, 0, (u32 *)(c->brand + 16 * i),
		      (u32 *)(c->brand + 16 * i + 4),
		      (u32 *)(c->brand + 16 * i + 8),
		      (u32 *)(c->brand + 16 * i + 12));
}

/* Family and model with their extended fields, as Linux's x86_family. */
static void cpu_family_model(u32 sig, u32 *family, u32 *model)
{
	*family = (sig >> 8) & 0xf;
	*model = (sig >> 4) & 0xf;
	if (*family == 0xf)
		*family += (sig >> 20) & 0xff;
	if (*family >= 6)
		*model += ((sig >> 16) & 0xf) << 4;
}

static void cpuinfo_flags(struct seq_file *m, const struct cpu_id *c)
{
	seq_puts(m, "flags\t\t:");
	for (size_t i = 0; i < sizeof(cpu_flags) / sizeof(cpu_flags[0]); i++)
		if (c->words[cpu_flags[i].word] & (1U << cpu_flags[i].bit))
			seq_printf(m, " %s", cpu_flags[i].name);
	seq_putc(m, '\n');
}

/* One CPU's block. The CPUs are alike (QEMU's -cpu max on each), so
 * CPUID is read here; the CPU's own numbers come from its struct pcpu.
 * One package of nr_cpu_ids cores, one thread each, as QEMU's -smp N. */
static void cpuinfo_cpu(struct seq_file *m, const struct cpu_id *c, int cpu)
{
	u32 family, model, a = 0, b, cx, d;
	int apicid = per_cpu(lapic_id, cpu), n = num_online_cpus();
	const char *brand;

	cpu_family_model(c->sig, &family, &model);
	for (brand = c->brand; *brand == ' '; brand++)
		;
	seq_printf(m, "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %u\n"
		   "model\t\t: %u\nmodel name\t: %s\nstepping\t: %u\n",
		   cpu, c->vendor, family, model, *brand ? brand : "unknown",
		   c->sig & 0xf);
	seq_printf(m, "cpu MHz\t\t: %lu.%03lu\n", tsc_khz / 1000,
		   tsc_khz % 1000);
	seq_printf(m, "physical id\t: 0\nsiblings\t: %d\ncore id\t\t: %d\n"
		   "cpu cores\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\n",
		   n, cpu, n, apicid, apicid);
	seq_printf(m, "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: %u\n"
		   "wp\t\t: yes\n", c->max_leaf);
	cpuinfo_flags(m, c);
	/* Linux's figure for a TSC delay loop: lpj / (500000 / HZ). */
	seq_printf(m, "bugs\t\t:\nbogomips\t: %lu.%02lu\n", tsc_khz / 500,
		   (tsc_khz / 5) % 100);
	seq_printf(m, "clflush size\t: %u\ncache_alignment\t: %u\n",
		   ((c->misc >> 8) & 0xff) * 8, ((c->misc >> 8) & 0xff) * 8);
	if (c->max_ext >= 0x80000008)
		cpuid(0x80000008, 0, &a, &b, &cx, &d);
	seq_printf(m, "address sizes\t: %u bits physical, %u bits virtual\n"
		   "power management:\n\n", a & 0xff, (a >> 8) & 0xff);
}

static int cpuinfo_show(struct seq_file *m, struct task_struct *task)
{
	struct cpu_id c;
	int cpu;

	(void)task;
	read_cpuid(&c);
	for_each_online_cpu(cpu)
		cpuinfo_cpu(m, &c, cpu);
	return 0;
}

void proc_misc_init(void)
{
	proc_create("cmdline", 0444, cmdline_show, NULL);
	proc_create("uptime", 0444, uptime_show, NULL);
	proc_create("loadavg", 0444, loadavg_show, NULL);
	proc_create("version", 0444, version_show, NULL);
	proc_create("cpuinfo", 0444, cpuinfo_show, NULL);
	proc_create("vmstat", 0444, vmstat_show, NULL);
	proc_create("sys/vm/mmap_min_addr", 0444, mmap_min_addr_show, NULL);
	proc_create("sys/vm/overcommit_memory", 0444, overcommit_memory_show,
		    NULL);
	proc_create("sys/vm/zero_page", 0644, zero_page_show, zero_page_write);
	proc_create("sys/vm/huge_zero_page", 0644, huge_zero_page_show,
		    huge_zero_page_write);
	proc_create("sys/vm/mm_verify", 0644, mm_verify_show, mm_verify_write);
	proc_create_int("sys/vm/max_map_count", 0644, &sysctl_max_map_count);
	proc_create_int("sys/vm/oom_dump_tasks", 0644, &sysctl_oom_dump_tasks);
	proc_create("sys/kernel/pid_max", 0644, pid_max_show, pid_max_write);
	proc_create("sys/kernel/core_pattern", 0644, core_pattern_show,
		    core_pattern_write);
	proc_create("sys/fs/pipe-max-size", 0644, pipe_max_size_show,
		    pipe_max_size_write);
}
