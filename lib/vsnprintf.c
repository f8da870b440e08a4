/* lib/vsnprintf.c — the formatting engine behind printk, snprintf, vsnprintf.
 * One pure function over the format string: no globals, no hardware. */
#include <zpk/sprintf.h>

#define F_LEFT		0x01	/* '-': pad on the right */
#define F_PLUS		0x02	/* '+': sign even if positive */
#define F_SPACE		0x04	/* ' ': space where a '+' would go */
#define F_SPECIAL	0x08	/* '#': 0x / 0 prefix */
#define F_ZERO		0x10	/* '0': pad with zeros after sign and prefix */
#define F_UPPER		0x20	/* %X */

/* The output so far: len counts every character, stored or not. */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

/* Stores c if it fits before the terminating NUL's slot. */
static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* One formatted conversion's flags, width and precision (-1: none). */
struct spec {
	int flags;
	int width;
	int prec;
};

/* Prints num in base; neg says a '-' belongs in front of it. */
static void number(struct out *o, unsigned long long num, unsigned int base,
		   bool neg, bool is_signed, struct spec s)
{
	const char *digits = s.flags & F_UPPER ? "0123456789ABCDEF" :
						 "0123456789abcdef";
	char tmp[24];		/* 64 bits in octal is 22 digits */
	char prefix[3];		/* sign, or 0x */
	int n = 0, np = 0, zeros, fill;

	/* C99: precision 0 prints no digits for the value 0. */
	if (num || s.prec != 0) {
		do {
			tmp[n++] = digits[num % base];
			num /= base;
		} while (num);
	}

	if (is_signed && neg)
		prefix[np++] = '-';
	else if (is_signed && (s.flags & F_PLUS))
		prefix[np++] = '+';
	else if (is_signed && (s.flags & F_SPACE))
		prefix[np++] = ' ';
	if ((s.flags & F_SPECIAL) && base == 16) {
		prefix[np++] = '0';
		prefix[np++] = s.flags & F_UPPER ? 'X' : 'x';
	}

	zeros = s.prec > n ? s.prec - n : 0;
	/* "%#o" only promises that the first digit printed is a 0. */
	if ((s.flags & F_SPECIAL) && base == 8 && !zeros &&
	    (n == 0 || tmp[n - 1] != '0'))
		zeros = 1;
	/* The 0 flag is ignored with a precision, as in C99. */
	if ((s.flags & F_ZERO) && !(s.flags & F_LEFT) && s.prec < 0 &&
	    s.width > np + n)
		zeros = s.width - np - n;

	fill = s.width - np - zeros - n;
	if (!(s.flags & F_LEFT))
		pad(o, ' ', fill);
	for (int i = 0; i < np; i++)
		put(o, prefix[i]);
	pad(o, '0', zeros);
	while (n > 0)
		put(o, tmp[--n]);
	if (s.flags & F_LEFT)
		pad(o, ' ', fill);
}

/* Prints len bytes of str, padded with spaces to the field width. */
static void chars(struct out *o, const char *str, int len, struct spec s)
{
	if (!(s.flags & F_LEFT))
		pad(o, ' ', s.width - len);
	for (int i = 0; i < len; i++)
		put(o, str[i]);
	if (s.flags & F_LEFT)
		pad(o, ' ', s.width - len);
}

/* Prints at most s.prec bytes of str (all of it if no precision). */
static void string(struct out *o, const char *str, struct spec s)
{
	int len = 0;

	if (!str)
		str = "(null)";
	/* Never read past prec: the string need not be NUL-terminated. */
	while ((s.prec < 0 || len < s.prec) && str[len] && len < __INT_MAX__)
		len++;
	chars(o, str, len, s);
}

/* Reads a decimal field (width or precision), saturating at INT_MAX. */
static int atoi_field(const char **fmt)
{
	int v = 0;

	while (**fmt >= '0' && **fmt <= '9') {
		int d = *(*fmt)++ - '0';

		v = v > (__INT_MAX__ - d) / 10 ? __INT_MAX__ : v * 10 + d;
	}
	return v;
}

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z };

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .len = 0 };

	for (; *fmt; fmt++) {
		const char *start = fmt;
		struct spec s = { .flags = 0, .width = 0, .prec = -1 };
		enum length len = LEN_NONE;
		unsigned long long num;
		unsigned int base = 10;
		bool is_signed = false, neg = false;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}

		for (fmt++;; fmt++) {
			if (*fmt == '-')
				s.flags |= F_LEFT;
			else if (*fmt == '+')
				s.flags |= F_PLUS;
			else if (*fmt == ' ')
				s.flags |= F_SPACE;
			else if (*fmt == '#')
				s.flags |= F_SPECIAL;
			else if (*fmt == '0')
				s.flags |= F_ZERO;
			else
				break;
		}

		if (*fmt == '*') {
			fmt++;
			s.width = va_arg(ap, int);
			if (s.width < 0) {	/* C99: a '-' flag and width */
				s.flags |= F_LEFT;
				s.width = s.width == -__INT_MAX__ - 1 ?
					  __INT_MAX__ : -s.width;
			}
		} else {
			s.width = atoi_field(&fmt);
		}

		if (*fmt == '.') {
			fmt++;
			if (*fmt == '*') {
				fmt++;
				s.prec = va_arg(ap, int);
				if (s.prec < 0)	/* C99: as if none given */
					s.prec = -1;
			} else {
				s.prec = atoi_field(&fmt);
			}
		}

		if (*fmt == 'h') {
			fmt++;
			len = LEN_H;
			if (*fmt == 'h') {
				fmt++;
				len = LEN_HH;
			}
		} else if (*fmt == 'l') {
			fmt++;
			len = LEN_L;
			if (*fmt == 'l') {
				fmt++;
				len = LEN_LL;
			}
		} else if (*fmt == 'z') {
			fmt++;
			len = LEN_Z;
		}

		switch (*fmt) {
		case '%':
			put(&o, '%');
			continue;
		case 'c': {
			char c = (char)va_arg(ap, int);

			chars(&o, &c, 1, s);	/* even a NUL, as in C99 */
			continue;
		}
		case 's':
			string(&o, va_arg(ap, const char *), s);
			continue;
		case 'p':
			/* Full width always, so kernel addresses line up. */
			s.flags = (s.flags & F_LEFT) | F_SPECIAL;
			s.prec = 2 * sizeof(void *);
			number(&o, (uintptr_t)va_arg(ap, void *), 16, false,
			       false, s);
			continue;
		case 'd':
		case 'i':
			is_signed = true;
			break;
		case 'u':
			break;
		case 'X':
			s.flags |= F_UPPER;
			base = 16;
			break;
		case 'x':
			base = 16;
			break;
		case 'o':
			base = 8;
			break;
		default:
			/* Unknown, or the format ends inside the conversion. */
			while (start < fmt)
				put(&o, *start++);
			if (!*fmt)
				goto done;
			put(&o, *fmt);
			continue;
		}

		if (is_signed) {
			long long v;

			switch (len) {
			case LEN_HH:
				v = (signed char)va_arg(ap, int);
				break;
			case LEN_H:
				v = (short)va_arg(ap, int);
				break;
			case LEN_L:
				v = va_arg(ap, long);
				break;
			case LEN_LL:
				v = va_arg(ap, long long);
				break;
			case LEN_Z:	/* the signed type of size_t's width */
				v = va_arg(ap, ptrdiff_t);
				break;
			default:
				v = va_arg(ap, int);
				break;
			}
			neg = v < 0;
			/* Negate unsigned: -LLONG_MIN would overflow. */
			num = (unsigned long long)v;
			if (neg)
				num = -num;
		} else {
			switch (len) {
			case LEN_HH:
				num = (unsigned char)va_arg(ap, unsigned int);
				break;
			case LEN_H:
				num = (unsigned short)va_arg(ap, unsigned int);
				break;
			case LEN_L:
				num = va_arg(ap, unsigned long);
				break;
			case LEN_LL:
				num = va_arg(ap, unsigned long long);
				break;
			case LEN_Z:
				num = va_arg(ap, size_t);
				break;
			default:
				num = va_arg(ap, unsigned int);
				break;
			}
		}
		number(&o, num, base, neg, is_signed, s);
	}
done:
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > __INT_MAX__ ? __INT_MAX__ : (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
