/* zpk/uio.h — the user's scatter-gather vector (readv, writev,
 * process_vm_readv, vmsplice): Linux's struct iovec and its limit. */
#ifndef ZPK_UIO_H
#define ZPK_UIO_H

#include <zpk/compiler.h>
#include <zpk/types.h>

#define UIO_MAXIOV	1024

struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

#endif
