/* tools/c2c/c2c.c — a QEMU TCG plugin that counts cache-line sharing
 * between vCPUs: every guest load and store, by physical 64-byte line,
 * fed to the coherence model (model.c) inside a window the workload opens
 * and closes with stores to two fixed user addresses; each window is
 * reported when it closes (docs/c2c.md).
 *   qemu-system-x86_64 -plugin build/c2c.so,out=FILE[,top=N]
 *       [,order=lockstep|qemu][,trace=MILLIONS] ...
 * order=lockstep (the default) replays each vCPU's accesses in lockstep at
 * the window's end; order=qemu runs the coherence model in QEMU's order. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marker.h"
#include "model.h"
#include "qemu-plugin-api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct c2c_model model;
static int window_open, windows;
static uint64_t io_accesses, errors;
/* How finely QEMU interleaved the vCPUs: a run is a stretch of accesses
 * by one vCPU; the transfers meter can only see a switch between runs. */
static uint64_t runs;
static int last_cpu = -1;
static FILE *out;
static size_t top_n = 20;
static bool lockstep = true;		/* order=lockstep (or qemu) */
static size_t trace_max = 128u << 20;	/* accesses kept for the replay */

static void report(FILE *f);

static int model_init(void)
{
	if (c2c_init(&model) < 0)
		return -1;
	model.lockstep = lockstep;
	model.trace_max = trace_max;
	return 0;
}

static void mem_cb(unsigned int cpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	bool store = qemu_plugin_mem_is_store(info);
	struct qemu_plugin_hwaddr *hw;

	pthread_mutex_lock(&lock);
	if (store && vaddr == C2C_MARK_START && !window_open) {
		window_open = 1;
		windows++;
		last_cpu = -1;
		goto out;
	}
	if (store && vaddr == C2C_MARK_STOP && window_open) {
		window_open = 0;
		report(out);
		c2c_free(&model);
		if (model_init() < 0)
			errors++;
		goto out;
	}
	if (store && (vaddr == C2C_MARK_START || vaddr == C2C_MARK_STOP))
		goto out;
	if (!window_open)
		goto out;
	if ((int)cpu != last_cpu) {
		runs++;
		last_cpu = cpu;
	}
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		io_accesses++;
		goto out;
	}
	if (c2c_access(&model, cpu, qemu_plugin_hwaddr_phys_addr(hw), vaddr,
		       store, (uint64_t)(uintptr_t)udata))
		errors++;
out:
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	/* The callback's udata is the instruction's guest virtual address. */
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		qemu_plugin_register_vcpu_mem_cb(insn, mem_cb,
				QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
				(void *)(uintptr_t)qemu_plugin_insn_vaddr(insn));
	}
}

/* One line of the report: its counts, writes per vCPU and its writing
 * instructions (scripts/c2c-report.py reads this format). */
static void report_line(FILE *f, const struct c2c_line *l)
{
	int i;

	fprintf(f, "line 0x%" PRIx64 " va 0x%" PRIx64 " writes %" PRIu64
		" reads %" PRIu64 " transfers %" PRIu64 " invals %" PRIu64
		" cpus", l->addr & ~(uint64_t)1, l->vaddr, c2c_line_writes(l),
		l->reads,
		l->transfers, l->invals);
	for (i = 0; i < C2C_MAX_CPUS; i++)
		if (l->writes[i])
			fprintf(f, " %d:%" PRIu64, i, l->writes[i]);
	fprintf(f, " pcs");
	for (i = 0; i < C2C_PCS && l->pcs[i].writes; i++)
		fprintf(f, " 0x%" PRIx64 ":%" PRIu64, l->pcs[i].pc,
			l->pcs[i].writes);
	fputc('\n', f);
}

static void report(FILE *f)
{
	const struct c2c_line **top = calloc(top_n, sizeof(*top));
	struct c2c_totals t;
	size_t i, n;

	if (model.lockstep && c2c_replay(&model) < 0)
		errors++;
	c2c_totals(&model, &t);
	fprintf(f, "c2c: window %d%s\n", windows,
		window_open ? " (never closed)" : "");
	fprintf(f, "reads %" PRIu64 " writes %" PRIu64 " lines %" PRIu64
		" io %" PRIu64 " errors %" PRIu64 " runs %" PRIu64
		" dropped %" PRIu64 "\n", t.reads, t.writes, t.lines,
		io_accesses, errors, runs, model.dropped);
	fprintf(f, "order %s\n", model.lockstep ? "lockstep" : "qemu");
	fprintf(f, "shared_lines %" PRIu64 " shared_writes %" PRIu64
		" transfers %" PRIu64 " invalidations %" PRIu64 "\n",
		t.shared_lines, t.shared_writes, t.transfers, t.invals);
	n = top ? c2c_top(&model, top, top_n) : 0;
	fprintf(f, "top %zu lines by shared writes:\n", n);
	for (i = 0; i < n; i++)
		report_line(f, top[i]);
	free(top);
	io_accesses = errors = runs = 0;
	fflush(f);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (window_open)
		report(out);
	fprintf(out, "c2c: windows %d\n", windows);
	if (out != stderr)
		fclose(out);
	c2c_free(&model);
}

static int parse_args(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = fopen(argv[i] + 4, "w");
			if (!out) {
				perror(argv[i] + 4);
				return -1;
			}
		} else if (!strncmp(argv[i], "top=", 4)) {
			top_n = strtoul(argv[i] + 4, NULL, 0);
		} else if (!strcmp(argv[i], "order=lockstep") ||
			   !strcmp(argv[i], "order=qemu")) {
			lockstep = argv[i][6] == 'l';
		} else if (!strncmp(argv[i], "trace=", 6)) {
			trace_max = strtoul(argv[i] + 6, NULL, 0) << 20;
		} else {
			fprintf(stderr, "c2c: unknown argument '%s' "
				"(out=FILE, top=N, order=lockstep|qemu, "
				"trace=MILLIONS)\n", argv[i]);
			return -1;
		}
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	if (info->version.min > QEMU_PLUGIN_VERSION ||
	    info->version.cur < QEMU_PLUGIN_VERSION) {
		fprintf(stderr, "c2c: built for QEMU plugin API version %d "
			"(QEMU 7.2), but this QEMU takes versions %d to %d: "
			"rewrite tools/c2c/qemu-plugin-api.h for it\n",
			QEMU_PLUGIN_VERSION, info->version.min,
			info->version.cur);
		return -1;
	}
	if (info->version.cur != QEMU_PLUGIN_VERSION)
		fprintf(stderr, "c2c: warning: QEMU's plugin API is version "
			"%d, declarations are for %d\n", info->version.cur,
			QEMU_PLUGIN_VERSION);
	if (!info->system_emulation) {
		fprintf(stderr, "c2c: needs system emulation "
			"(qemu-system-*): physical lines\n");
		return -1;
	}
	if (info->system.max_vcpus > C2C_MAX_CPUS) {
		fprintf(stderr, "c2c: at most %d vCPUs, not %d\n",
			C2C_MAX_CPUS, info->system.max_vcpus);
		return -1;
	}
	out = stderr;
	if (parse_args(argc, argv) < 0 || model_init() < 0)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
