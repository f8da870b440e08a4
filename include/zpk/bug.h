/* zpk/bug.h — BUG, BUG_ON, BUGF and panic(), reporting file:line.
 * Host tests link their own panic() that longjmps back into the test. */
#ifndef ZPK_BUG_H
#define ZPK_BUG_H

#include <zpk/types.h>
#include <zpk/compiler.h>

void __noreturn __printf(1, 2) panic(const char *fmt, ...);

#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) \
	panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); } while (0)
/* BUG with a message, e.g. BUGF("double free of pfn %lx", pfn). */
#define BUGF(fmt, ...) panic("BUG at %s:%d: " fmt, __FILE__, __LINE__, \
			     ##__VA_ARGS__)

#endif
