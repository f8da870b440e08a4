/* host-test-sources: lib/cmdline.c */
/* tests/host/test_cmdline.c — lib/cmdline.c: splitting the boot command line
 * (spaces, quotes, bare flags, '=' in values), parse_args, get_option_bool. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/cmdline.h>
#include <zpk/errno.h>

#define MAX_SEEN	16

/* What the callback saw; val "<NULL>" stands for a NULL val. */
struct seen {
	int n;
	int stop_at;		/* 1-based call that returns stop_ret */
	int stop_ret;
	char param[MAX_SEEN][32];
	char val[MAX_SEEN][32];
};

static int record(char *param, char *val, void *arg)
{
	struct seen *s = arg;

	assert_true(s->n < MAX_SEEN);
	snprintf(s->param[s->n], sizeof(s->param[0]), "%s", param);
	snprintf(s->val[s->n], sizeof(s->val[0]), "%s", val ? val : "<NULL>");
	s->n++;
	return s->n == s->stop_at ? s->stop_ret : 0;
}

/*
 * Parses a copy of line (next_arg writes into it) and checks the pairs:
 * want is "param", "val", "param", "val", ... ending in NULL.
 */
static void expect_args(const char *line, const char *const *want)
{
	char *buf = strdup(line);
	struct seen s = { 0 };
	int i;

	assert_non_null(buf);
	assert_int_equal(parse_args(buf, record, &s), 0);
	for (i = 0; want[2 * i]; i++) {
		assert_true(i < s.n);
		assert_string_equal(s.param[i], want[2 * i]);
		assert_string_equal(s.val[i], want[2 * i + 1]);
	}
	assert_int_equal(s.n, i);
	free(buf);
}

#define EXPECT_ARGS(line, ...) \
	expect_args(line, (const char *const[]){ __VA_ARGS__, NULL })

static void test_simple_name_value(void **state)
{
	(void)state;
	EXPECT_ARGS("console=ttyS0", "console", "ttyS0");
	EXPECT_ARGS("loglevel=7 mem=64M", "loglevel", "7", "mem", "64M");
}

static void test_multiple_and_odd_spaces(void **state)
{
	(void)state;
	EXPECT_ARGS("   a=1    b=2  ", "a", "1", "b", "2");
	EXPECT_ARGS("\ta=1\t\nb\r\n", "a", "1", "b", "<NULL>");
	EXPECT_ARGS("x=1", "x", "1");
}

static void test_quoted_value(void **state)
{
	(void)state;
	EXPECT_ARGS("name=\"a b\" c=d", "name", "a b", "c", "d");
	EXPECT_ARGS("msg=\"  spaced  \"", "msg", "  spaced  ");
	EXPECT_ARGS("empty=\"\" next", "empty", "", "next", "<NULL>");
	/* Unterminated: the value runs to the end of the line. */
	EXPECT_ARGS("name=\"a b", "name", "a b");
}

static void test_whole_param_quoted(void **state)
{
	(void)state;
	EXPECT_ARGS("\"name=a b\" c", "name", "a b", "c", "<NULL>");
	EXPECT_ARGS("\"flag with space\"", "flag with space", "<NULL>");
}

static void test_bare_flags(void **state)
{
	(void)state;
	EXPECT_ARGS("quiet", "quiet", "<NULL>");
	EXPECT_ARGS("quiet debug nokaslr", "quiet", "<NULL>", "debug",
		    "<NULL>", "nokaslr", "<NULL>");
	/* "name=" is an empty value, not a bare flag. */
	EXPECT_ARGS("init= quiet", "init", "", "quiet", "<NULL>");
}

static void test_empty_and_blank_lines(void **state)
{
	char empty[] = "", blank[] = "  \t  ";
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(parse_args(empty, record, &s), 0);
	assert_int_equal(parse_args(blank, record, &s), 0);
	assert_int_equal(s.n, 0);	/* no call for nothing */
}

static void test_value_containing_equals(void **state)
{
	(void)state;
	/* Only the first '=' splits. */
	EXPECT_ARGS("root=LABEL=boot", "root", "LABEL=boot");
	EXPECT_ARGS("a==b c=d=e=", "a", "=b", "c", "d=e=");
	EXPECT_ARGS("opt=\"x=1 y=2\"", "opt", "x=1 y=2");
}

static void test_next_arg_splits_in_place(void **state)
{
	char line[] = "  first=1 second  third=\"3 3\"  ";
	char *param, *val, *rest;

	(void)state;
	rest = next_arg(line, &param, &val);
	assert_string_equal(param, "first");
	assert_string_equal(val, "1");
	assert_ptr_equal(param, line + 2);	/* points into line */
	assert_ptr_equal(rest, line + 10);	/* past the space */

	rest = next_arg(rest, &param, &val);
	assert_string_equal(param, "second");
	assert_null(val);
	assert_string_equal(rest, "third=\"3 3\"  ");

	rest = next_arg(rest, &param, &val);
	assert_string_equal(param, "third");
	assert_string_equal(val, "3 3");
	assert_string_equal(rest, "");		/* trailing spaces eaten */
}

static void test_callback_stops_early(void **state)
{
	char line[] = "a=1 b=2 c=3 d=4";
	struct seen s = { .stop_at = 2, .stop_ret = -EINVAL };

	(void)state;
	assert_int_equal(parse_args(line, record, &s), -EINVAL);
	assert_int_equal(s.n, 2);		/* c and d never seen */
	assert_string_equal(s.param[1], "b");
}

static void test_callback_gets_arg_and_positive_result(void **state)
{
	char line[] = "x y z";
	struct seen s = { .stop_at = 3, .stop_ret = 7 };

	(void)state;
	/* Any non-zero result stops, positive ones too. */
	assert_int_equal(parse_args(line, record, &s), 7);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.param[2], "z");
}

static void test_get_option_bool_values(void **state)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "Y",
					   "YES", "On" };
	static const char *const no[] = { "0", "n", "no", "off", "N", "OFF" };
	bool b;

	(void)state;
	b = false;
	assert_int_equal(get_option_bool(NULL, &b), 0);	/* bare flag */
	assert_true(b);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(get_option_bool(yes[i], &b), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(get_option_bool(no[i], &b), 0);
		assert_false(b);
	}
}

static void test_get_option_bool_rejects(void **state)
{
	static const char *const bad[] = { "", "2", "yess", "ye", "of",
					   "o", "true", "no ", " 1", "10" };

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bool b = true;

		assert_int_equal(get_option_bool(bad[i], &b), -EINVAL);
		assert_true(b);		/* untouched on error */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_name_value),
		cmocka_unit_test(test_multiple_and_odd_spaces),
		cmocka_unit_test(test_quoted_value),
		cmocka_unit_test(test_whole_param_quoted),
		cmocka_unit_test(test_bare_flags),
		cmocka_unit_test(test_empty_and_blank_lines),
		cmocka_unit_test(test_value_containing_equals),
		cmocka_unit_test(test_next_arg_splits_in_place),
		cmocka_unit_test(test_callback_stops_early),
		cmocka_unit_test(test_callback_gets_arg_and_positive_result),
		cmocka_unit_test(test_get_option_bool_values),
		cmocka_unit_test(test_get_option_bool_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
