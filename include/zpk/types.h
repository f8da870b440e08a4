/* zpk/types.h — fixed-width integer types for kernel and host-tested code.
 * Uses only the compiler's freestanding headers, so lib/ builds on the host. */
#ifndef ZPK_TYPES_H
#define ZPK_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u64 phys_addr_t;

#endif
