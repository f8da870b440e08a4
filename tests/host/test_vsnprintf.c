/* host-test-sources: lib/vsnprintf.c */
/* tests/host/test_vsnprintf.c — lib/vsnprintf.c conversion by conversion,
 * truncation at every buffer size, and a cross-check against glibc. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* glibc's snprintf, for comparison: defined before the renaming below. */
static int __attribute__((format(printf, 3, 4)))
libc_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

#include <zpk/sprintf.h>

/* Several tests pass an int for %hhd or %hd on purpose: printf converts it
 * (C11 7.21.6.1p7), and lib/vsnprintf.c must too.  clang's -Wformat flags
 * each such argument; gcc's does not, and so still checks them. */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wformat"
#endif

/* Formats into a roomy buffer; the text and the length must both match. */
static void __attribute__((format(printf, 2, 3)))
expect(const char *want, const char *fmt, ...)
{
	char out[256];
	va_list ap;
	int n;

	memset(out, 'X', sizeof(out));
	va_start(ap, fmt);
	n = vsnprintf(out, sizeof(out), fmt, ap);
	va_end(ap);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

/* zpk and glibc agree on text and return value. */
#define SAME_AS_LIBC(fmt, ...) do {					\
	char a_[160], b_[160];						\
	int na_ = libc_snprintf(a_, sizeof(a_), fmt, __VA_ARGS__);	\
	int nb_ = snprintf(b_, sizeof(b_), fmt, __VA_ARGS__);		\
	assert_string_equal(b_, a_);					\
	assert_int_equal(nb_, na_);					\
} while (0)

static void test_plain_text_and_percent(void **state)
{
	(void)state;
	expect("", "%s", "");
	expect("hello, world", "hello, world");
	expect("%", "%%");
	expect("100% sure", "100%% sure");
	expect("a%b%%c", "a%%b%%%%c");
}

static void test_signed_decimal(void **state)
{
	(void)state;
	expect("0", "%d", 0);
	expect("42 -42", "%d %i", 42, -42);
	expect("2147483647", "%d", INT_MAX);
	expect("-2147483648", "%d", INT_MIN);
	expect("-1", "%i", -1);
}

static void test_signed_length_modifiers(void **state)
{
	(void)state;
	expect("44 -128", "%hhd %hhd", 300, 128);	/* truncated to char */
	expect("4464 -32768", "%hd %hd", 70000, 32768);
	expect("-9223372036854775808", "%ld", LONG_MIN);
	expect("9223372036854775807", "%ld", LONG_MAX);
	expect("-9223372036854775808", "%lld", LLONG_MIN);
	expect("9223372036854775807", "%lli", LLONG_MAX);
	expect("-1", "%zd", (ptrdiff_t)-1);
	expect("-5 -6", "%ld %lld", -5L, -6LL);
}

static void test_unsigned_and_length_modifiers(void **state)
{
	(void)state;
	expect("0 4294967295", "%u %u", 0U, UINT_MAX);
	expect("5 255", "%hhu %hhu", 261U, 255U);
	expect("65535 1", "%hu %hu", 65535U, 65537U);
	expect("18446744073709551615", "%lu", ULONG_MAX);
	expect("18446744073709551615", "%llu", ULLONG_MAX);
	expect("18446744073709551615", "%zu", SIZE_MAX);
	expect("4096", "%zu", sizeof(char[4096]));
	expect("4294967295", "%u", -1);	/* the bits, read as unsigned */
}

static void test_hex_lower_and_upper(void **state)
{
	(void)state;
	expect("deadbeef DEADBEEF", "%x %X", 0xdeadbeefU, 0xdeadbeefU);
	expect("0", "%x", 0U);
	expect("ffffffff", "%x", -1);
	expect("ff", "%hhx", 0x1ffU);
	expect("ffffffff80101234", "%lx", 0xffffffff80101234UL);
	expect("FFFFFFFFFFFFFFFF", "%llX", ULLONG_MAX);
	expect("1000", "%zx", (size_t)4096);
}

static void test_octal(void **state)
{
	(void)state;
	expect("0 10 777", "%o %o %o", 0U, 8U, 0777U);
	expect("1777777777777777777777", "%llo", ULLONG_MAX);
	expect("010 0", "%#o %#o", 8U, 0U);	/* '#' never doubles the 0 */
	expect("  010", "%#5o", 8U);
	expect("00010", "%#05o", 8U);
	expect("00010", "%#.5o", 8U);
}

static void test_char_conversion(void **state)
{
	char out[8];

	(void)state;
	expect("x", "%c", 'x');
	expect("abc", "%c%c%c", 'a', 'b', 'c');
	expect("  z|", "%3c|", 'z');
	expect("z  |", "%-3c|", 'z');
	expect("\xe9", "%c", 0xe9);
	/* A NUL character is output and counted, as in C99. */
	memset(out, 'X', sizeof(out));
	assert_int_equal(snprintf(out, sizeof(out), "a%cb", 0), 3);
	assert_memory_equal(out, "a\0b\0", 4);
}

static void test_string_width_and_justify(void **state)
{
	(void)state;
	expect("zpk", "%s", "zpk");
	expect("     zpk|", "%8s|", "zpk");
	expect("zpk     |", "%-8s|", "zpk");
	expect("toolongforit", "%4s", "toolongforit");
	expect("   |", "%3s|", "");
	expect("a b", "%s %s", "a", "b");
}

static void test_string_precision(void **state)
{
	/* Not NUL-terminated: ASan catches any read past the precision. */
	char *raw = malloc(5);

	(void)state;
	assert_non_null(raw);
	memcpy(raw, "abcde", 5);
	expect("abcde", "%.5s", raw);
	expect("abc", "%.*s", 3, raw);
	expect("", "%.0s", raw);
	expect("", "%.s", raw);		/* a lone '.' means precision 0 */
	expect("  ab|", "%4.2s|", raw);
	expect("ab  |", "%-4.2s|", raw);
	expect("hi", "%.10s", "hi");
	expect("hi", "%.*s", -1, "hi");	/* negative: no precision */
	free(raw);
}


static void test_width_from_star(void **state)
{
	(void)state;
	expect("   42|", "%*d|", 5, 42);
	expect("42   |", "%-*d|", 5, 42);
	expect("42   |", "%*d|", -5, 42);	/* negative width: left */
	expect("  abc|", "%*s|", 5, "abc");
	expect("  0042|", "%*.*d|", 6, 4, 42);
	expect("42|", "%*d|", 0, 42);
}

static void test_zero_padding(void **state)
{
	(void)state;
	expect("00042", "%05d", 42);
	expect("-0042", "%05d", -42);
	expect("+0042", "%+05d", 42);
	expect("0000beef", "%08x", 0xbeefU);
	expect("00000000000000ff", "%016lx", 0xffUL);
	expect("123456", "%03d", 123456);
}

static void test_sign_and_space_flags(void **state)
{
	(void)state;
	expect("+42 -42 +0", "%+d %+d %+d", 42, -42, 0);
	expect(" 42 -42", "% d % d", 42, -42);
	expect("  +42", "%+5d", 42);
	expect("+42  |", "%-+5d|", 42);
	expect("+9223372036854775807", "%+lld", LLONG_MAX);
}

static void test_alternate_form_hex(void **state)
{
	(void)state;
	expect("0xbeef 0XBEEF", "%#x %#X", 0xbeefU, 0xbeefU);
	expect("0xffffffff80101234", "%#lx", 0xffffffff80101234UL);
	/* The width counts the prefix; zeros go between it and the digits. */
	expect("0x000000000009fbff", "%#018llx", 0x9fbffULL);
	expect("    0x1f", "%#8x", 0x1fU);
	expect("0x1f    |", "%-#8x|", 0x1fU);
	/* Unlike C99 (which prints "0"), Linux style: zero keeps its 0x. */
	expect("0x0", "%#x", 0U);
	expect("0x0000000000000000", "%#018lx", 0UL);
}

static void test_integer_precision(void **state)
{
	(void)state;
	expect("007", "%.3d", 7);
	expect("-007", "%.3d", -7);
	expect("", "%.0d", 0);		/* C99: no digits at all */
	expect("    ", "%4.0u", 0U);
	expect("     0ab", "%8.3x", 0xabU);
	expect("0x00ab", "%#.4x", 0xabU);
}

static void test_pointer(void **state)
{
	(void)state;
	expect("0xffffffff80101234", "%p", (void *)0xffffffff80101234UL);
	expect("0x0000000000001000", "%p", (void *)0x1000);
	expect("0x0000000000000000", "%p", NULL);
	expect("  0x0000000000000001|", "%20p|", (void *)1);
	expect("0x0000000000000001  |", "%-20p|", (void *)1);
	expect("p=0x00000000deadbeef!", "p=%p!", (void *)0xdeadbeefUL);
}

/* gcc rightly warns about what these formats do: here it is the point. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
#ifndef __clang__	/* clang has no -Wformat-overflow */
#pragma GCC diagnostic ignored "-Wformat-overflow"
#endif
static void test_null_string_prints_null(void **state)
{
	(void)state;
	expect("(null)", "%s", NULL);
	expect("  (null)|", "%8s|", NULL);
	expect("(nu", "%.3s", NULL);
}

static void test_conflicting_flags(void **state)
{
	(void)state;
	expect("42   |", "%-05d|", 42);	/* '-' wins over '0' */
	expect("  042", "%05.3d", 42);	/* a precision turns '0' off */
	expect("+42", "%+ d", 42);	/* '+' wins over ' ' */
	expect("-1  |", "%-04d|", -1);
}

static void test_unknown_conversion_printed_literally(void **state)
{
	(void)state;
	expect("%y", "%y");
	expect("a%qb", "a%qb");
	expect("%-5w", "%-5w");
	expect("%lk 7", "%lk %d", 7);	/* the next conversion still works */
	expect("abc%", "abc%");		/* a '%' at the very end */
	expect("x%-0", "x%-0");		/* the format ends inside a spec */
}
#pragma GCC diagnostic pop

/* Every size from 0 to past the end: exact prefix, NUL, nothing beyond. */
static void test_truncation_at_every_size(void **state)
{
	const char *full = "hello 42 world 0x2a";
	size_t len = strlen(full);

	(void)state;
	for (size_t size = 0; size <= len + 3; size++) {
		/* Heap buffer of exactly size bytes: ASan sees any overrun. */
		char *buf = malloc(size ? size : 1);
		size_t stored = size ? (size - 1 < len ? size - 1 : len) : 0;
		int n;

		assert_non_null(buf);
		memset(buf, 'X', size ? size : 1);
		n = snprintf(buf, size, "%s %d %s %#x", "hello", 42, "world",
			     42U);
		assert_int_equal(n, len);
		if (size) {
			assert_memory_equal(buf, full, stored);
			assert_int_equal(buf[stored], '\0');
			for (size_t i = stored + 1; i < size; i++)
				assert_int_equal(buf[i], 'X');
		} else {
			assert_int_equal(buf[0], 'X');	/* untouched */
		}
		free(buf);
	}
}

static void test_size_zero_and_one(void **state)
{
	char one[1] = { 'X' };

	(void)state;
	/* size 0 with NULL measures, as vmstat does. */
	assert_int_equal(snprintf(NULL, 0, "%d-%s", 12345, "abc"), 9);
	assert_int_equal(snprintf(NULL, 0, "%s", ""), 0);
	/* size 1 holds just the NUL. */
	assert_int_equal(snprintf(one, 1, "%s", "long string"), 11);
	assert_int_equal(one[0], '\0');
}

static void test_truncation_inside_padding(void **state)
{
	char buf[6];

	(void)state;
	/* Cut in the middle of padding and of a number: still counted. */
	assert_int_equal(snprintf(buf, sizeof(buf), "%10d", 7), 10);
	assert_string_equal(buf, "     ");
	assert_int_equal(snprintf(buf, sizeof(buf), "%lld", LLONG_MIN), 20);
	assert_string_equal(buf, "-9223");
	assert_int_equal(snprintf(buf, sizeof(buf), "%p", NULL), 18);
	assert_string_equal(buf, "0x000");
}

static int __attribute__((format(printf, 3, 4)))
call_vsnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vsnprintf_with_va_list(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(call_vsnprintf(buf, sizeof(buf), "[%-4s|%4u|%c]",
					"ab", 7U, '!'), 13);
	assert_string_equal(buf, "[ab  |   7|!]");
}

static void test_many_conversions_in_one_format(void **state)
{
	(void)state;
	/* Arguments of mixed sizes must each be fetched at the right width. */
	expect("c=A s=str d=-3 u=3 lx=ffffffffffffffff hhd=-1 lld=-7 zu=9 %",
	       "c=%c s=%s d=%d u=%u lx=%lx hhd=%hhd lld=%lld zu=%zu %%",
	       'A', "str", -3, 3U, ULONG_MAX, -1, -7LL, (size_t)9);
	expect("[mem 0x0000000000000000-0x000000000009fbff]      639 KiB",
	       "[mem %#018llx-%#018llx] %8llu KiB", 0ULL, 0x9fbffULL, 639ULL);
}

/* Where both agree on meaning, zpk and glibc print the same thing. */
static void test_matches_libc(void **state)
{
	static const int ints[] = { 0, 1, -1, 7, -7, 42, 999, -1000,
				    123456789, INT_MAX, INT_MIN };
	static const long long lls[] = { 0, 1, -1, 4096, LLONG_MAX,
					 LLONG_MIN, -123456789012345LL };

	(void)state;
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		int v = ints[i];

		SAME_AS_LIBC("%d|%5d|%-5d|%05d|%+d|% d", v, v, v, v, v, v);
		SAME_AS_LIBC("%.3d|%8.4d|%-8.4d|%*d|%-*d", v, v, v, 7, v, 7, v);
		SAME_AS_LIBC("%u|%x|%X|%o|%08x|%12o", v, v, v, v, v, v);
		SAME_AS_LIBC("%hd|%hhd|%hu|%hhx|%hx", v, v, v, v, v);
		if (v)	/* zpk prints 0x0 for %#x of 0, glibc 0 */
			SAME_AS_LIBC("%#x|%#X|%#o|%#12x|%#-12x|%#012x",
				     v, v, v, v, v, v);
		SAME_AS_LIBC("%#o|%#12o|%#012o|%#.3o|%#-6o|", v, v, v, v, v);
	}
	for (size_t i = 0; i < sizeof(lls) / sizeof(lls[0]); i++) {
		long long v = lls[i];

		SAME_AS_LIBC("%lld|%25lld|%-25lld|%025lld|%+lld", v, v, v, v,
			     v);
		SAME_AS_LIBC("%llu|%llx|%llX|%llo|%ld|%lu", v, v, v, v,
			     (long)v, (unsigned long)v);
		SAME_AS_LIBC("%zu|%zd|%zx", (size_t)v, (ptrdiff_t)v,
			     (size_t)v);
	}
	SAME_AS_LIBC("%s|%10s|%-10s|%.2s|%10.2s|%-10.2s|", "abc", "abc",
		     "abc", "abc", "abc", "abc");
	SAME_AS_LIBC("%c|%5c|%-5c|", 'q', 'q', 'q');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_and_percent),
		cmocka_unit_test(test_signed_decimal),
		cmocka_unit_test(test_signed_length_modifiers),
		cmocka_unit_test(test_unsigned_and_length_modifiers),
		cmocka_unit_test(test_hex_lower_and_upper),
		cmocka_unit_test(test_octal),
		cmocka_unit_test(test_char_conversion),
		cmocka_unit_test(test_string_width_and_justify),
		cmocka_unit_test(test_string_precision),
		cmocka_unit_test(test_null_string_prints_null),
		cmocka_unit_test(test_width_from_star),
		cmocka_unit_test(test_zero_padding),
		cmocka_unit_test(test_sign_and_space_flags),
		cmocka_unit_test(test_alternate_form_hex),
		cmocka_unit_test(test_integer_precision),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_conflicting_flags),
		cmocka_unit_test(test_unknown_conversion_printed_literally),
		cmocka_unit_test(test_truncation_at_every_size),
		cmocka_unit_test(test_size_zero_and_one),
		cmocka_unit_test(test_truncation_inside_padding),
		cmocka_unit_test(test_vsnprintf_with_va_list),
		cmocka_unit_test(test_many_conversions_in_one_format),
		cmocka_unit_test(test_matches_libc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
