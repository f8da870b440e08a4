/* zpk/param.h — kernel command-line parameters, declared beside their users.
 * early_param("name", fn) puts an entry in the .init.params linker section. */
#ifndef ZPK_PARAM_H
#define ZPK_PARAM_H

#include <zpk/compiler.h>

struct kernel_param {
	const char *name;
	/* val is NULL for a bare "name"; return 0, or -1 if val is invalid. */
	int (*setup)(const char *val);
	const char *help;
};

#ifdef HOST_TEST
#define early_param(str, fn, helptext)
#else
#define early_param(str, fn, helptext)					\
	static const struct kernel_param __param_##fn			\
	__used __section(".init.params") __aligned(8) =			\
		{ .name = str, .setup = fn, .help = helptext }
#endif

/* The parameter called name, or NULL (kernel/params.c). */
const struct kernel_param *find_kernel_param(const char *name);
/* Parse the boot command line once and call each parameter's setup. */
void parse_kernel_params(const char *cmdline);
extern char boot_command_line[];

#endif
