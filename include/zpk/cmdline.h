/* zpk/cmdline.h — splitting the kernel command line into name=value pairs.
 * Pure string code (lib/cmdline.c); kernel/params.c dispatches the pairs. */
#ifndef ZPK_CMDLINE_H
#define ZPK_CMDLINE_H

#include <zpk/types.h>

/*
 * Splits the first parameter off args, in place, as Linux's next_arg():
 * skips leading spaces, then takes "name=value" or a bare "name" up to the
 * next space outside double quotes.  Quotes around the value (name="a b")
 * or the whole parameter ("name=a b") are removed.  Sets *param, and *val
 * to the value ("" for "name=") or NULL if there is no '='.  Returns the
 * rest of the line, past any spaces: "" when nothing is left.
 */
char *next_arg(char *args, char **param, char **val);

/*
 * Calls fn(param, val, arg) for each parameter of args in order, splitting
 * args in place with next_arg(); blank lines call nothing.  Stops at the
 * first non-zero result of fn and returns it; returns 0 otherwise.
 */
int parse_args(char *args, int (*fn)(char *param, char *val, void *arg),
	       void *arg);

/*
 * Reads a boolean parameter value: NULL (a bare flag) and "1", "y", "yes",
 * "on" are true; "0", "n", "no", "off" are false (any case).  Returns 0 and
 * sets *res, or -EINVAL leaving *res unchanged.
 */
int get_option_bool(const char *val, bool *res);

#endif
