/* zpk/mempolicy.h — NUMA memory policies (mm/mempolicy.c): Linux's uapi
 * values and the policy a VMA or a task holds, on zpk's one node. */
#ifndef ZPK_MEMPOLICY_H
#define ZPK_MEMPOLICY_H

#include <zpk/types.h>

/* Modes (Linux 6.1's include/uapi/linux/mempolicy.h). */
enum {
	MPOL_DEFAULT,
	MPOL_PREFERRED,
	MPOL_BIND,
	MPOL_INTERLEAVE,
	MPOL_LOCAL,
	MPOL_PREFERRED_MANY,
	MPOL_MAX,
};

/* Mode flags, or'ed into the mode by set_mempolicy and mbind. */
#define MPOL_F_STATIC_NODES	(1 << 15)
#define MPOL_F_RELATIVE_NODES	(1 << 14)
#define MPOL_F_NUMA_BALANCING	(1 << 13)
#define MPOL_MODE_FLAGS		(MPOL_F_STATIC_NODES | \
				 MPOL_F_RELATIVE_NODES | \
				 MPOL_F_NUMA_BALANCING)

/* get_mempolicy's flags. */
#define MPOL_F_NODE		(1 << 0)
#define MPOL_F_ADDR		(1 << 1)
#define MPOL_F_MEMS_ALLOWED	(1 << 2)

/* mbind's flags. */
#define MPOL_MF_STRICT		(1 << 0)
#define MPOL_MF_MOVE		(1 << 1)
#define MPOL_MF_MOVE_ALL	(1 << 2)
#define MPOL_MF_VALID		(MPOL_MF_STRICT | MPOL_MF_MOVE | \
				 MPOL_MF_MOVE_ALL)

/*
 * A policy, kept by value (all zero: MPOL_DEFAULT, Linux's NULL). With
 * one node, node 0, a policy's nodes follow from its mode: {0}, or none
 * for MPOL_LOCAL. user_nodes is the first word of the mask given, which
 * Linux keeps, and get_mempolicy shows, with a mode flag.
 */
struct mempolicy {
	unsigned short mode;
	unsigned short flags;		/* MPOL_F_* mode flags */
	unsigned long user_nodes;
};

/* The same policy (Linux's mpol_equal): VMAs merge only then. */
static inline bool mpol_equal(const struct mempolicy *a,
			      const struct mempolicy *b)
{
	return a->mode == b->mode && a->flags == b->flags &&
	       (!(a->flags & MPOL_MODE_FLAGS) ||
		a->user_nodes == b->user_nodes);
}

#endif
