/* zpk/sprintf.h — bounded formatted output: vsnprintf() and snprintf().
 * Pure C99-style formatting (lib/vsnprintf.c), host-tested against libc. */
#ifndef ZPK_SPRINTF_H
#define ZPK_SPRINTF_H

#include <zpk/types.h>
#include <zpk/compiler.h>

/* Host tests link lib/vsnprintf.c beside libc: keep the names apart. */
#ifdef HOST_TEST
#define vsnprintf zpk_vsnprintf
#define snprintf zpk_snprintf
#endif

/*
 * Formats fmt into buf, writing at most size bytes; buf may be NULL when
 * size is 0.  Supports %d %i %u %x %X %o %c %s %p %%, length modifiers
 * hh h l ll z, flags - + space # 0, width and precision (also '*').
 * Guarantees: buf is NUL-terminated whenever size > 0; returns the length
 * the full output would have had (excluding the NUL), as C99 does.
 * Differences from C99: "%#x" of 0 is "0x0" (Linux style, so columns of
 * "%#018lx" line up), %p is always "0x" plus 16 hex digits, "%s" of NULL
 * is "(null)", and an unknown conversion is copied to buf literally.
 */
int __printf(3, 0) vsnprintf(char *buf, size_t size, const char *fmt,
			     va_list ap);
/* As vsnprintf, with the arguments given directly. */
int __printf(3, 4) snprintf(char *buf, size_t size, const char *fmt, ...);

#endif
