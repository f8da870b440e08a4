/* zpk/err.h — an errno in a pointer (Linux's include/linux/err.h). */
#ifndef ZPK_ERR_H
#define ZPK_ERR_H

#include <zpk/compiler.h>
#include <zpk/types.h>

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

#endif
