/* kernel/params.c — dispatches the boot command line to early_param()s.
 * Unknown parameters are reported, never silently dropped. */
#include <zpk/param.h>
#include <zpk/cmdline.h>
#include <zpk/printk.h>
#include <zpk/string.h>

extern const struct kernel_param __start_params[], __stop_params[];

const struct kernel_param *find_kernel_param(const char *name)
{
	for (const struct kernel_param *p = __start_params;
	     p < __stop_params; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static int do_param(char *param, char *val, void *arg)
{
	const struct kernel_param *p = find_kernel_param(param);
	int *unknown = arg;

	if (!p) {
		pr_warn("zpk: unknown kernel parameter \"%s%s%s\" ignored\n",
			param, val ? "=" : "", val ? val : "");
		(*unknown)++;
		return 0;
	}
	if (p->setup(val))
		pr_warn("zpk: bad value \"%s\" for parameter %s (%s)\n",
			val ? val : "", param, p->help);
	return 0;
}

/* Parses a copy; cmdline itself stays intact for printing and /proc. */
void parse_kernel_params(const char *cmdline)
{
	static char buf[1024];
	int unknown = 0;

	strlcpy(buf, cmdline, sizeof(buf));
	parse_args(buf, do_param, &unknown);
	if (unknown) {
		pr_warn("zpk: known parameters:");
		for (const struct kernel_param *p = __start_params;
		     p < __stop_params; p++)
			printk(KERN_CONT " %s", p->name);
		printk(KERN_CONT "\n");
	}
}
