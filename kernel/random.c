/* kernel/random.c — random bytes: good enough for stack canaries and hash
 * seeds (musl's AT_RANDOM use), not for cryptography. */
#include <asm/io.h>
#include <zpk/errno.h>
#include <zpk/random.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>

static u64 state;

/* xorshift64*, reseeded with the TSC on every call so that no two boots
 * under the same emulator produce the same stream. */
static u64 next_random(void)
{
	state ^= rdtsc();
	if (!state)
		state = 0x9e3779b97f4a7c15ULL;
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dULL;
}

void get_random_bytes(void *buf, size_t n)
{
	u8 *p = buf;

	while (n) {
		u64 r = next_random();
		size_t k = n < sizeof(r) ? n : sizeof(r);

		memcpy(p, &r, k);
		p += k;
		n -= k;
	}
}

#define GRND_NONBLOCK	0x0001
#define GRND_RANDOM	0x0002
#define GRND_INSECURE	0x0004

static long sys_getrandom(void __user *buf, size_t count, unsigned int flags)
{
	u8 chunk[256];
	size_t done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (count > 33554431)
		count = 33554431;	/* Linux's MAX_RW_COUNT-like cap */
	while (done < count) {
		size_t k = count - done < sizeof(chunk) ? count - done
							: sizeof(chunk);

		get_random_bytes(chunk, k);
		if (copy_to_user((u8 __user *)buf + done, chunk, k))
			return done ? (long)done : -EFAULT;
		done += k;
	}
	return (long)done;
}
SYSCALL(__NR_getrandom, sys_getrandom);
