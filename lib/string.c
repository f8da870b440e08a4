/* lib/string.c — memset/memcpy and friends, kstrtoul/kstrtol and memparse.
 * Plain C, host-tested; word-sized loops where pages get cleared/copied. */

/*
 * gcc and clang turn copy and fill loops into calls to memcpy and memset;
 * here those calls would be to the very function being compiled.  The
 * kernel's -ffreestanding (as Linux's lib/string.o) stops both: it implies
 * -fno-builtin.  Checked with objdump -dr for gcc 12 and clang 14 at -O2,
 * -O3, -Og and -Os: no call to memset, memcpy or memmove is left here.
 */

#include <zpk/string.h>
#include <zpk/errno.h>

/* may_alias: word accesses to bytes of any type are allowed. */
typedef unsigned long __attribute__((__may_alias__)) word_t;
#define WSIZE		sizeof(word_t)
#define WMASK		(WSIZE - 1)

void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;
	word_t w = (unsigned char)c * (~0UL / 0xff);	/* c in every byte */

	while (n && ((uintptr_t)p & WMASK)) {
		*p++ = (unsigned char)c;
		n--;
	}
	for (; n >= WSIZE; n -= WSIZE, p += WSIZE)
		*(word_t *)p = w;
	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

/* Ascending copy; also safe for memmove when dst is below src. */
static void copy_up(unsigned char *d, const unsigned char *s, size_t n)
{
	/* Words only if both pointers can be aligned at the same time. */
	if ((((uintptr_t)d ^ (uintptr_t)s) & WMASK) == 0) {
		while (n && ((uintptr_t)d & WMASK)) {
			*d++ = *s++;
			n--;
		}
		for (; n >= WSIZE; n -= WSIZE, d += WSIZE, s += WSIZE)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	copy_up(dst, src, n);
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* Unsigned distance: true if d is below s or past s + n. */
	if ((uintptr_t)d - (uintptr_t)s >= n) {
		copy_up(d, s, n);
	} else {
		while (n--)	/* d overlaps s from above: copy downwards */
			d[n] = s[n];
	}
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? NULL : (char *)hay;
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

char *strstrip(char *s)
{
	char *end = s + strlen(s);

	while (end > s && is_space(end[-1]))
		end--;
	*end = 0;
	while (is_space(*s))
		s++;
	return s;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

/* Value of the digit c, or 16 (too big for every base) if not a digit. */
static unsigned int digit_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;	/* lower case */
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return 16;
}

/* Resolves base 0 from the prefix and skips a "0x"; as Linux does. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	bool hex = s[0] == '0' && (s[1] | 0x20) == 'x';

	if (*base == 0) {
		if (hex && digit_val(s[2]) < 16)
			*base = 16;
		else if (s[0] == '0')
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && hex)
		s += 2;
	return s;
}

/*
 * Reads digits of base at *s into *res (wrapping on overflow, which is
 * reported in *overflow) and advances *s past them; returns the count.
 */
static size_t parse_digits(const char **s, unsigned int base,
			   unsigned long long *res, bool *overflow)
{
	unsigned long long v = 0;
	size_t n = 0;
	unsigned int d;

	*overflow = false;
	for (; (d = digit_val(**s)) < base; (*s)++, n++) {
		if (v > (~0ULL - d) / base)
			*overflow = true;
		v = v * base + d;
	}
	*res = v;
	return n;
}

/* The common part of kstrtoul and kstrtol, without the sign. */
static int kstrtoull(const char *s, unsigned int base,
		     unsigned long long *res)
{
	unsigned long long v;
	bool overflow;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = fixup_radix(s, &base);
	if (!parse_digits(&s, base, &v, &overflow))
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err;

	if (*s == '+')
		s++;
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > ~0UL)	/* only where long is narrower than long long */
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long long v, lim = __LONG_MAX__;
	bool neg = *s == '-';
	int err;

	if (*s == '-' || *s == '+')
		s++;
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > lim + neg)	/* LONG_MIN's magnitude is LONG_MAX + 1 */
		return -ERANGE;
	/* Negate v - 1 so that LONG_MIN never overflows. */
	*res = neg && v ? -(long)(v - 1) - 1 : (long)v;
	return 0;
}

unsigned long long memparse(const char *ptr, char **retptr)
{
	static const char units[] = "kmgtpe";
	unsigned int base = 0;
	const char *s = fixup_radix(ptr, &base);
	unsigned long long v;
	bool overflow;

	/* Like simple_strtoull: an overflowing number just wraps. */
	if (!parse_digits(&s, base, &v, &overflow)) {
		s = ptr;	/* not a number: nothing parsed */
	} else {
		for (int i = 0; units[i]; i++) {
			if ((*s | 0x20) == units[i]) {
				v <<= 10 * (i + 1);
				s++;
				break;
			}
		}
	}
	if (retptr)
		*retptr = (char *)s;
	return v;
}
