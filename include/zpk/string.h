/* zpk/string.h — memory and string primitives, number parsing (kstrto*).
 * Implemented in lib/string.c; gcc also calls memset/memcpy on its own. */
#ifndef ZPK_STRING_H
#define ZPK_STRING_H

#include <zpk/types.h>

/* Host tests link lib/string.c beside libc: keep the names apart. */
#ifdef HOST_TEST
#define memset zpk_memset
#define memcpy zpk_memcpy
#define memmove zpk_memmove
#define memcmp zpk_memcmp
#define strlen zpk_strlen
#define strnlen zpk_strnlen
#define strcmp zpk_strcmp
#define strncmp zpk_strncmp
#define strchr zpk_strchr
#define strrchr zpk_strrchr
#define strstr zpk_strstr
#define strcpy zpk_strcpy
#define strncpy zpk_strncpy
#define strlcpy zpk_strlcpy
#define strcat zpk_strcat
#define strstrip zpk_strstrip
#endif

/* Sets n bytes at s to (unsigned char)c; returns s. */
void *memset(void *s, int c, size_t n);
/* Copies n bytes; the areas must not overlap (use memmove). Returns dst. */
void *memcpy(void *dst, const void *src, size_t n);
/* Copies n bytes correctly even if the areas overlap; returns dst. */
void *memmove(void *dst, const void *src, size_t n);
/* Compares n bytes as unsigned char: <0, 0 or >0. */
int memcmp(const void *a, const void *b, size_t n);

/* Length of s, not counting the NUL. */
size_t strlen(const char *s);
/* Length of s, but reads at most max bytes: never more than max. */
size_t strnlen(const char *s, size_t max);
/* Compare as unsigned char (like libc): <0, 0 or >0. */
int strcmp(const char *a, const char *b);
/* As strcmp, looking at no more than n characters. */
int strncmp(const char *a, const char *b, size_t n);
/* First (strchr) or last (strrchr) c in s, or NULL; c == 0 finds the NUL. */
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
/* First occurrence of needle in hay, or NULL; "" is found at hay. */
char *strstr(const char *hay, const char *needle);
/* Copies src with its NUL to dst, which must be big enough; returns dst. */
char *strcpy(char *dst, const char *src);
/* Copies at most n bytes and NUL-pads to n; dst is left unterminated
 * if src has n or more characters (C semantics). Returns dst. */
char *strncpy(char *dst, const char *src, size_t n);
/* Copies src into dst of size bytes, always NUL-terminated if size > 0.
 * Returns strlen(src): a result >= size means it was truncated. */
size_t strlcpy(char *dst, const char *src, size_t size);
/* Appends src to dst, which must have room; returns dst. */
char *strcat(char *dst, const char *src);
/* Cuts the white space off the end of s (in place) and returns s past the
 * white space at its start (Linux's strstrip). */
char *strstrip(char *s);

/*
 * Parses all of s as a number in base (2..16; 0 autodetects a "0x" or "0"
 * prefix; base 16 also accepts "0x").  A leading '+' and one trailing
 * newline are allowed, nothing else.  Returns 0 and sets *res, or
 * -EINVAL (not a number) or -ERANGE (overflow); on error *res is unchanged.
 */
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
/* As kstrtoul, for a signed result; a leading '-' is also allowed. */
int kstrtol(const char *s, unsigned int base, long *res);

/*
 * Parses a size like "64M": a number (prefix-autodetected as above) and an
 * optional suffix K, M, G, T, P or E in either case, each a power of 1024.
 * Stores the end of what was parsed in *retptr if retptr is not NULL;
 * never fails (no digits gives 0 and *retptr == ptr), overflow wraps.
 */
unsigned long long memparse(const char *ptr, char **retptr);

#endif
