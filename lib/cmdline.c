/* lib/cmdline.c — the command-line splitter: next_arg, parse_args and
 * get_option_bool.  Needs nothing but its input: host tests link it alone. */
#include <zpk/cmdline.h>
#include <zpk/compiler.h>
#include <zpk/errno.h>

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static char *skip_spaces(char *s)
{
	while (is_space(*s))
		s++;
	return s;
}

/* Linux's next_arg(), which the command-line syntax is defined by. */
char *next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	bool in_quote = false, quoted = false;

	args = skip_spaces(args);
	if (*args == '"') {	/* the whole "name=value" is quoted */
		args++;
		in_quote = quoted = true;
	}

	for (i = 0; args[i]; i++) {
		if (is_space(args[i]) && !in_quote)
			break;
		/* The first '=' splits; as in Linux, one at 0 does not. */
		if (equals == 0 && args[i] == '=')
			equals = i;
		if (args[i] == '"')
			in_quote = !in_quote;
	}

	*param = args;
	if (!equals) {
		*val = NULL;
	} else {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {	/* name="value": drop the quotes */
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';

	if (args[i]) {
		args[i] = '\0';
		args += i + 1;
	} else {
		args += i;
	}
	return skip_spaces(args);
}

int parse_args(char *args, int (*fn)(char *param, char *val, void *arg),
	       void *arg)
{
	char *param, *val;
	int ret;

	args = skip_spaces(args);
	while (*args) {
		args = next_arg(args, &param, &val);
		ret = fn(param, val, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* Equal ignoring ASCII case; word is lower case. */
static bool word_is(const char *s, const char *word)
{
	for (; *word; s++, word++) {
		char c = *s >= 'A' && *s <= 'Z' ? *s + ('a' - 'A') : *s;

		if (c != *word)
			return false;
	}
	return *s == '\0';
}

int get_option_bool(const char *val, bool *res)
{
	static const char *const yes[] = { "1", "y", "yes", "on" };
	static const char *const no[] = { "0", "n", "no", "off" };

	if (!val) {
		*res = true;
		return 0;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(yes); i++) {
		if (word_is(val, yes[i])) {
			*res = true;
			return 0;
		}
		if (word_is(val, no[i])) {
			*res = false;
			return 0;
		}
	}
	return -EINVAL;
}
