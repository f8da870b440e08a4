/* tools/fuzz/fuzz.h — zpk's system-call fuzzer: what its three files share
 * (calls.c: the calls and their argument kinds; gen.c: a child's world and
 * the values drawn for each kind; fuzz.c: children, watchdog, checks). */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>

/* The descriptor a child prints on in replay mode; never drawn as an fd. */
#define LOG_FD		63

/* Argument kinds, one letter each in a call's signature (calls.c). */
enum {
	K_ANY = 'x',	/* any interesting value */
	K_FD = 'f',	/* a descriptor of the pool */
	K_BUF = 'p',	/* a pointer: buffers, bad pointers of every kind */
	K_LEN = 'l',	/* a size */
	K_PATH = 's',	/* a path of the pool, existing or not */
	K_PATHW = 'w',	/* a path a call may remove: only the child's own */
	K_FLAGS = 'g',	/* bit patterns */
	K_PID = 'i',
	K_SIG = 'n',
	K_ADDR = 'a',	/* a page address, as mmap and friends take */
	K_IOV = 'v',	/* a pointer to an iovec array */
	K_SMALL = 'c',	/* a small number: counts, commands, resources */
	K_OFF = 'o',	/* a file offset */
	K_MODE = 'm',
	K_TIME = 't',	/* a pointer to a timespec, mostly a short one */
	K_ARGV = 'e',	/* a pointer to a NULL-terminated pointer array */
	K_PROT = 'P',
	K_MAP = 'M',	/* mmap's flags */
	K_OPEN = 'O',	/* open's flags */
};

struct call_desc {
	long nr;
	const char *name;
	const char *args;	/* up to 6 kinds; "" for none */
};

/* One call, as made and as printed. */
struct call {
	long nr;
	long arg[6];
	const struct call_desc *desc;	/* NULL: a number nobody describes */
};

/* The record a child keeps in memory it shares with the runner. */
struct shared {
	volatile unsigned long calls;	/* made so far (the watchdog's clock) */
	volatile long index;		/* of the call in progress */
	struct call cur;		/* the call in progress */
};

/* calls.c */
extern const struct call_desc call_table[];
extern const int nr_call_table;
const struct call_desc *call_desc_of(long nr);
/* Replaces what must never reach the runner (pid 1): see calls.c. */
void call_fixup(struct call *c);
/* True for the calls whose child side returns 0 (fork, clone, ...). */
int call_forks(long nr);

/* gen.c */
uint64_t rnd(void);
void rnd_seed(uint64_t seed);
uint64_t child_seed(uint64_t seed, long index);
/* Builds the child's world (files in /tmp/fuzz, the arena, the fd pool)
 * from the child's seed: the same seed builds the same world. */
int world_setup(void);
void call_draw(struct call *c);
/* "name(arg, ...)" into buf. */
void call_format(const struct call *c, char *buf, unsigned long n);

#define FUZZ_DIR	"/tmp/fuzz"

#endif
