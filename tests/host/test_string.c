/* host-test-sources: lib/string.c */
/* tests/host/test_string.c — lib/string.c: the mem* and str* primitives at
 * every alignment, kstrtoul/kstrtol bases and errors, memparse suffixes. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/errno.h>
#include <zpk/string.h>	/* from here on, memset & co. are zpk's */

#define BUF	64

/* Bytes that say where they came from: pattern[i] == i + 1. */
static void fill_pattern(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(i + 1);
}

static void test_memset_exact_range(void **state)
{
	unsigned char buf[BUF];

	(void)state;
	/* Every start alignment and length: word loop, head and tail. */
	for (size_t off = 0; off < 9; off++) {
		for (size_t n = 0; n <= 40; n++) {
			fill_pattern(buf, BUF);
			assert_ptr_equal(memset(buf + off, 0x1ab, n),
					 buf + off);
			for (size_t i = 0; i < BUF; i++) {
				if (i >= off && i < off + n)
					assert_int_equal(buf[i], 0xab);
				else
					assert_int_equal(buf[i], i + 1);
			}
		}
	}
}

static void test_memcpy_every_alignment(void **state)
{
	unsigned char src[BUF], dst[BUF];

	(void)state;
	for (size_t so = 0; so < 9; so++) {
		for (size_t d_o = 0; d_o < 9; d_o++) {
			for (size_t n = 0; n <= 40; n++) {
				fill_pattern(src, BUF);
				memset(dst, 0xee, BUF);
				assert_ptr_equal(memcpy(dst + d_o, src + so, n),
						 dst + d_o);
				for (size_t i = 0; i < BUF; i++) {
					int want = i >= d_o && i < d_o + n ?
						   (int)(so + i - d_o + 1) :
						   0xee;

					assert_int_equal(dst[i], want);
				}
			}
		}
	}
}

/* memmove(buf + to, buf + from, n) checked against a copy made first. */
static void check_memmove(size_t to, size_t from, size_t n)
{
	unsigned char buf[BUF], want[BUF];

	fill_pattern(buf, BUF);
	fill_pattern(want, BUF);
	for (size_t i = 0; i < n; i++)
		want[to + i] = (unsigned char)(from + i + 1);
	assert_ptr_equal(memmove(buf + to, buf + from, n), buf + to);
	assert_memory_equal(buf, want, BUF);
}

static void test_memmove_overlap_dst_above_src(void **state)
{
	(void)state;
	/* A forward copy would smear the first bytes over the rest. */
	for (size_t gap = 1; gap <= 17; gap++)
		for (size_t n = 0; n <= 40; n++)
			check_memmove(3 + gap, 3, n);
}

static void test_memmove_overlap_dst_below_src(void **state)
{
	(void)state;
	for (size_t gap = 1; gap <= 17; gap++)
		for (size_t n = 0; n <= 40; n++)
			check_memmove(2, 2 + gap, n);
}

static void test_memmove_disjoint_and_same(void **state)
{
	(void)state;
	check_memmove(0, 32, 32);
	check_memmove(32, 0, 32);
	check_memmove(8, 8, 20);	/* onto itself: unchanged */
	check_memmove(5, 1, 0);
}

static void test_memcmp_sign_and_length(void **state)
{
	(void)state;
	assert_int_equal(memcmp("abc", "abd", 0), 0);
	assert_int_equal(memcmp("abc", "abd", 2), 0);
	assert_true(memcmp("abc", "abd", 3) < 0);
	assert_true(memcmp("abd", "abc", 3) > 0);
	/* Bytes compare as unsigned: 0xff is above 0x01. */
	assert_true(memcmp("\xff", "\x01", 1) > 0);
	assert_int_equal(memcmp("a\0b", "a\0b", 3), 0);	/* NULs too */
	assert_true(memcmp("a\0b", "a\0c", 3) < 0);
}

static void test_strlen_and_strnlen(void **state)
{
	/* Not NUL-terminated: strnlen must stop at max (ASan checks). */
	char *raw = malloc(4);

	(void)state;
	assert_non_null(raw);
	memcpy(raw, "abcd", 4);
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("zpk"), 3);
	assert_int_equal(strnlen(raw, 4), 4);
	assert_int_equal(strnlen(raw, 2), 2);
	assert_int_equal(strnlen(raw, 0), 0);
	assert_int_equal(strnlen("ab", 10), 2);
	free(raw);
}

static void test_strcmp_and_strncmp(void **state)
{
	(void)state;
	assert_int_equal(strcmp("", ""), 0);
	assert_int_equal(strcmp("zpk", "zpk"), 0);
	assert_true(strcmp("abc", "abd") < 0);
	assert_true(strcmp("abd", "abc") > 0);
	assert_true(strcmp("ab", "abc") < 0);	/* prefix sorts first */
	assert_true(strcmp("abc", "ab") > 0);
	assert_true(strcmp("\xe9", "e") > 0);	/* unsigned, like libc */
	assert_int_equal(strncmp("abcX", "abcY", 3), 0);
	assert_true(strncmp("abcX", "abcY", 4) < 0);
	assert_int_equal(strncmp("abc", "xyz", 0), 0);
	assert_int_equal(strncmp("ab", "ab", 100), 0);	/* stops at NUL */
}

static void test_strchr_and_strrchr(void **state)
{
	const char *s = "a/b/c", *hi = "t\xe9t\xe9";

	(void)state;
	assert_ptr_equal(strchr(s, '/'), s + 1);
	assert_ptr_equal(strrchr(s, '/'), s + 3);
	assert_ptr_equal(strchr(s, 'a'), s);
	assert_null(strchr(s, 'x'));
	assert_null(strrchr(s, 'x'));
	/* Searching for the NUL finds the terminator. */
	assert_ptr_equal(strchr(s, '\0'), s + 5);
	assert_ptr_equal(strrchr(s, '\0'), s + 5);
	/* c is converted to char: 0xe9 finds a byte above 0x7f. */
	assert_ptr_equal(strchr(hi, 0xe9), hi + 1);
	assert_ptr_equal(strrchr(hi, 0xe9), hi + 3);
}

static void test_strstr(void **state)
{
	const char *hay = "freeing pfn 0x5dc, caller 0xffff", *empty = "";

	(void)state;
	assert_ptr_equal(strstr(hay, "pfn"), hay + 8);
	assert_ptr_equal(strstr(hay, "caller "), hay + 19);
	assert_ptr_equal(strstr(hay, "0xffff"), hay + 26);	/* at the end */
	assert_ptr_equal(strstr(hay, hay), hay);
	assert_null(strstr(hay, "callers"));
	assert_null(strstr("ab", "abc"));	/* needle longer than hay */
	assert_ptr_equal(strstr(hay, ""), hay);	/* "" is everywhere */
	assert_ptr_equal(strstr(empty, ""), empty);
	assert_null(strstr("", "a"));
}

static void test_strcpy_strcat_strncpy(void **state)
{
	char buf[16];

	(void)state;
	assert_ptr_equal(strcpy(buf, "zpk"), buf);
	assert_string_equal(buf, "zpk");
	assert_ptr_equal(strcat(buf, " 0.1"), buf);
	assert_string_equal(buf, "zpk 0.1");
	strcat(buf, "");
	assert_string_equal(buf, "zpk 0.1");

	/* strncpy pads with NULs up to n ... */
	memset(buf, 'X', sizeof(buf));
	assert_ptr_equal(strncpy(buf, "ab", 6), buf);
	assert_memory_equal(buf, "ab\0\0\0\0XX", 8);
	/* ... and does not terminate when src is too long. */
	memset(buf, 'X', sizeof(buf));
	strncpy(buf, "abcdef", 3);
	assert_memory_equal(buf, "abcX", 4);
}

static void test_strlcpy_truncates_and_returns_srclen(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(strlcpy(buf, "zpk", sizeof(buf)), 3);
	assert_string_equal(buf, "zpk");

	/* Truncated: size - 1 bytes and a NUL; the result says so. */
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(strlcpy(buf, "0123456789", sizeof(buf)), 10);
	assert_string_equal(buf, "0123456");

	/* Exactly full. */
	assert_int_equal(strlcpy(buf, "0123456", sizeof(buf)), 7);
	assert_string_equal(buf, "0123456");

	/* size 1: just the NUL; size 0: buf untouched. */
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(strlcpy(buf, "abc", 1), 3);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');
	memset(buf, 'X', sizeof(buf));
	assert_int_equal(strlcpy(buf, "abc", 0), 3);
	assert_int_equal(buf[0], 'X');
}

/* kstrtoul that must succeed with want. */
static void ul_ok(const char *s, unsigned int base, unsigned long want)
{
	unsigned long v = 12345;

	assert_int_equal(kstrtoul(s, base, &v), 0);
	assert_int_equal(v, want);
}

/* kstrtoul that must fail with err and leave the result alone. */
static void ul_err(const char *s, unsigned int base, int err)
{
	unsigned long v = 12345;

	assert_int_equal(kstrtoul(s, base, &v), err);
	assert_int_equal(v, 12345);
}

static void test_kstrtoul_bases(void **state)
{
	(void)state;
	ul_ok("0", 10, 0);
	ul_ok("42", 10, 42);
	ul_ok("+42", 10, 42);
	ul_ok("007", 10, 7);		/* base 10: leading zeros are decimal */
	ul_ok("ff", 16, 255);
	ul_ok("FF", 16, 255);
	ul_ok("0xff", 16, 255);		/* base 16 takes a 0x as well */
	ul_ok("0XfF", 16, 255);
	ul_ok("777", 8, 511);
	ul_ok("1011", 2, 11);
	ul_ok("0x1f", 0, 31);		/* base 0 autodetects */
	ul_ok("017", 0, 15);
	ul_ok("0", 0, 0);
	ul_ok("19", 0, 19);
	ul_ok("42\n", 10, 42);		/* one newline, as from sysfs */
	ul_ok("18446744073709551615", 10, ULONG_MAX);
	ul_ok("0xffffffffffffffff", 0, ULONG_MAX);
}

static void test_kstrtoul_errors(void **state)
{
	(void)state;
	ul_err("", 10, -EINVAL);
	ul_err("\n", 10, -EINVAL);
	ul_err("12a", 10, -EINVAL);
	ul_err(" 12", 10, -EINVAL);
	ul_err("12 ", 10, -EINVAL);
	ul_err("12\n\n", 10, -EINVAL);	/* only a single newline */
	ul_err("-1", 10, -EINVAL);
	ul_err("+", 10, -EINVAL);
	ul_err("0x", 0, -EINVAL);	/* base 8 "0" then an 'x' */
	ul_err("0x", 16, -EINVAL);
	ul_err("08", 0, -EINVAL);	/* octal has no 8 */
	ul_err("2", 2, -EINVAL);
	ul_err("1", 1, -EINVAL);	/* no such base */
	ul_err("1", 17, -EINVAL);
	ul_err("18446744073709551616", 10, -ERANGE);
	ul_err("0x10000000000000000", 0, -ERANGE);
	ul_err("99999999999999999999999", 10, -ERANGE);
	assert_int_equal(-EINVAL, -22);
	assert_int_equal(-ERANGE, -34);
}

static void test_kstrtol_signed(void **state)
{
	long v = 12345;

	(void)state;
	assert_int_equal(kstrtol("-42", 10, &v), 0);
	assert_int_equal(v, -42);
	assert_int_equal(kstrtol("+42", 10, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(kstrtol("-0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kstrtol("-0x10", 0, &v), 0);
	assert_int_equal(v, -16);
	assert_int_equal(kstrtol("9223372036854775807", 10, &v), 0);
	assert_true(v == LONG_MAX);
	assert_int_equal(kstrtol("-9223372036854775808", 10, &v), 0);
	assert_true(v == LONG_MIN);

	v = 12345;
	assert_int_equal(kstrtol("9223372036854775808", 10, &v), -ERANGE);
	assert_int_equal(kstrtol("-9223372036854775809", 10, &v), -ERANGE);
	assert_int_equal(kstrtol("-", 10, &v), -EINVAL);
	assert_int_equal(kstrtol("--1", 10, &v), -EINVAL);
	assert_int_equal(kstrtol("-+1", 10, &v), -EINVAL);
	assert_int_equal(kstrtol("1-", 10, &v), -EINVAL);
	assert_int_equal(v, 12345);
}

/* memparse(s) must give want and stop after used characters. */
static void check_memparse(const char *s, unsigned long long want,
			   size_t used)
{
	char *end = NULL;

	assert_true(memparse(s, &end) == want);
	assert_ptr_equal(end, s + used);
	assert_true(memparse(s, NULL) == want);	/* retptr is optional */
}

static void test_memparse_suffixes(void **state)
{
	(void)state;
	check_memparse("123", 123, 3);
	check_memparse("4K", 4096, 2);
	check_memparse("4k", 4096, 2);
	check_memparse("16M", 16ULL << 20, 3);
	check_memparse("16m", 16ULL << 20, 3);
	check_memparse("2G", 2ULL << 30, 2);
	check_memparse("2g", 2ULL << 30, 2);
	check_memparse("1T", 1ULL << 40, 2);
	check_memparse("3t", 3ULL << 40, 2);
	check_memparse("1P", 1ULL << 50, 2);
	check_memparse("1E", 1ULL << 60, 2);
	check_memparse("0x10M", 16ULL << 20, 5);	/* prefixes work too */
	check_memparse("010K", 8ULL << 10, 4);
	check_memparse("128M@16M", 128ULL << 20, 4);	/* stops after suffix */
	check_memparse("64X", 64, 2);		/* unknown suffix: not eaten */
	check_memparse("64 M", 64, 2);
	check_memparse("0", 0, 1);
}

static void test_memparse_not_a_number(void **state)
{
	(void)state;
	check_memparse("", 0, 0);
	check_memparse("M", 0, 0);	/* a suffix alone is nothing */
	check_memparse("-1", 0, 0);
	check_memparse(" 1", 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memset_exact_range),
		cmocka_unit_test(test_memcpy_every_alignment),
		cmocka_unit_test(test_memmove_overlap_dst_above_src),
		cmocka_unit_test(test_memmove_overlap_dst_below_src),
		cmocka_unit_test(test_memmove_disjoint_and_same),
		cmocka_unit_test(test_memcmp_sign_and_length),
		cmocka_unit_test(test_strlen_and_strnlen),
		cmocka_unit_test(test_strcmp_and_strncmp),
		cmocka_unit_test(test_strchr_and_strrchr),
		cmocka_unit_test(test_strstr),
		cmocka_unit_test(test_strcpy_strcat_strncpy),
		cmocka_unit_test(test_strlcpy_truncates_and_returns_srclen),
		cmocka_unit_test(test_kstrtoul_bases),
		cmocka_unit_test(test_kstrtoul_errors),
		cmocka_unit_test(test_kstrtol_signed),
		cmocka_unit_test(test_memparse_suffixes),
		cmocka_unit_test(test_memparse_not_a_number),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
