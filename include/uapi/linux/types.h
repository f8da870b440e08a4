/* uapi/linux/types.h — the fixed-size types of the user ABI (Linux's
 * __u8 ... __s64). From <stdint.h>, so that they are the kernel's u8 ...
 * s64 (zpk/types.h) and a musl program's uint8_t ... int64_t alike. */
#ifndef _UAPI_LINUX_TYPES_H
#define _UAPI_LINUX_TYPES_H

#include <stdint.h>

typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef int32_t __s32;
typedef int64_t __s64;

#endif
