/* zpk/random.h — random bytes for AT_RANDOM and getrandom(2): RDRAND when
 * the CPU has it, else a xorshift generator seeded from the TSC. */
#ifndef ZPK_RANDOM_H
#define ZPK_RANDOM_H

#include <zpk/types.h>

void get_random_bytes(void *buf, size_t n);

#endif
