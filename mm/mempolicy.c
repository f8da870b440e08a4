/* mm/mempolicy.c — NUMA memory policies: mbind, set_mempolicy and
 * get_mempolicy as Linux 6.1 answers them on a machine with one node. */
#include <zpk/errno.h>
#include <zpk/gup.h>
#include <zpk/mempolicy.h>
#include <zpk/memory.h>
#include <zpk/mm.h>
#include <zpk/sched.h>
#include <zpk/string.h>
#include <zpk/syscalls.h>
#include <zpk/uaccess.h>
#include "internal.h"

/*
 * Node masks as Linux's nodemask_t: MAX_NUMNODES bits (Debian's kernel
 * has CONFIG_NODES_SHIFT=10), of which zpk has node 0 alone, with memory
 * (node_states[N_MEMORY]) and allowed (cpuset_current_mems_allowed).
 */
#define MAX_NUMNODES	1024
#define NODE_LONGS	(MAX_NUMNODES / 64)
#define NR_NODE_IDS	1

typedef struct {
	unsigned long bits[NODE_LONGS];
} nodemask_t;

static bool nodes_empty(const nodemask_t *n)
{
	for (int i = 0; i < NODE_LONGS; i++)
		if (n->bits[i])
			return false;
	return true;
}

static bool node0_isset(const nodemask_t *n)
{
	return n->bits[0] & 1;
}

/* maxnode bits of the user's mask (the rest of its last word cleared),
 * Linux's get_bitmap: 0 or -EFAULT. */
static int get_bitmap(unsigned long *mask, const unsigned long __user *nmask,
		      unsigned long maxnode)
{
	unsigned long nlongs = (maxnode + 63) / 64;

	if (copy_from_user(mask, nmask, nlongs * sizeof(long)))
		return -EFAULT;
	if (maxnode % 64)
		mask[nlongs - 1] &= (1UL << (maxnode % 64)) - 1;
	return 0;
}

/*
 * The mask of maxnode - 1 bits at nmask (Linux's get_nodes): empty for
 * none; -EINVAL beyond a page's worth of bits or for a node set above
 * MAX_NUMNODES (checked a word at a time from the top), -EFAULT.
 */
static int get_nodes(nodemask_t *nodes, const unsigned long __user *nmask,
		     unsigned long maxnode)
{
	--maxnode;
	memset(nodes, 0, sizeof(*nodes));
	if (maxnode == 0 || !nmask)
		return 0;
	if (maxnode > PAGE_SIZE * 8)
		return -EINVAL;
	while (maxnode > MAX_NUMNODES) {
		unsigned long bits = min(maxnode, 64UL), t;

		if (get_bitmap(&t, &nmask[(maxnode - 1) / 64], bits))
			return -EFAULT;
		maxnode = max(maxnode - bits, (unsigned long)MAX_NUMNODES);
		if (t)
			return -EINVAL;
	}
	return get_bitmap(nodes->bits, nmask, maxnode);
}

/* The mode flags out of a mode word, and the checks Linux's
 * sanitize_mpol_flags makes: 0 or -EINVAL. */
static int sanitize_mpol_flags(int *mode, unsigned short *flags)
{
	*flags = *mode & MPOL_MODE_FLAGS;
	*mode &= ~MPOL_MODE_FLAGS;
	if ((unsigned int)*mode >= MPOL_MAX)
		return -EINVAL;
	if ((*flags & MPOL_F_STATIC_NODES) && (*flags & MPOL_F_RELATIVE_NODES))
		return -EINVAL;
	if ((*flags & MPOL_F_NUMA_BALANCING) && *mode != MPOL_BIND)
		return -EINVAL;
	return 0;
}

/*
 * The policy for mode, flags and the nodes given (Linux's mpol_new and
 * mpol_set_nodemask): MPOL_DEFAULT takes no nodes, MPOL_PREFERRED with
 * none is MPOL_LOCAL (not with a node flag), MPOL_LOCAL takes none, the
 * others some; and of the nodes given one must have memory: node 0, or
 * any with MPOL_F_RELATIVE_NODES (folded onto node 0). 0 or -EINVAL.
 */
static int mpol_new(struct mempolicy *pol, int mode, unsigned short flags,
		    const nodemask_t *nodes)
{
	const unsigned short node_flags = MPOL_F_STATIC_NODES |
					  MPOL_F_RELATIVE_NODES;
	bool empty = nodes_empty(nodes);

	memset(pol, 0, sizeof(*pol));
	if (mode == MPOL_DEFAULT)
		return empty ? 0 : -EINVAL;
	if (mode == MPOL_PREFERRED && empty) {
		if (flags & node_flags)
			return -EINVAL;
		mode = MPOL_LOCAL;
	} else if (mode == MPOL_LOCAL) {
		if (!empty || (flags & node_flags))
			return -EINVAL;
	} else if (empty) {
		return -EINVAL;
	}
	if (mode != MPOL_LOCAL && !(flags & MPOL_F_RELATIVE_NODES) &&
	    !node0_isset(nodes))
		return -EINVAL;
	pol->mode = mode;
	pol->flags = flags;
	if (flags & MPOL_MODE_FLAGS)
		pol->user_nodes = nodes->bits[0];
	return 0;
}

/* A page a walk_page_range came across: a normal one (not the zero
 * page) is one that MPOL_MF_STRICT would have to move. */
static int normal_page(pte_t *pte, unsigned long addr, void *priv)
{
	return vm_normal_page(priv, addr, *pte) ? 1 : 0;
}

/*
 * Linux's queue_pages_range on one node: -EFAULT unless [start, end) is
 * all mapped (for MPOL_DEFAULT, discontig_ok, some of it); -EIO with
 * MPOL_MF_STRICT alone when a page is mapped that the policy would have
 * moved, which with every page on node 0 means one the nodes given leave
 * node 0 out of. With MPOL_MF_MOVE such pages would migrate: they are
 * where the policy wants them already, so nothing moves and nothing
 * fails.
 */
static int queue_pages_range(struct mm_struct *mm, unsigned long start,
			     unsigned long end, const nodemask_t *nodes,
			     unsigned long flags, bool discontig_ok)
{
	struct vm_area_struct *vma = find_vma(mm, start), *next;
	bool strict = (flags & MPOL_MF_VALID) == MPOL_MF_STRICT &&
		      !node0_isset(nodes);

	if (!vma || vma->vm_start >= end)
		return -EFAULT;
	if (!discontig_ok && vma->vm_start > start)
		return -EFAULT;
	for (; vma && vma->vm_start < end; vma = next) {
		next = find_vma(mm, vma->vm_end);
		if (!discontig_ok && vma->vm_end < end &&
		    (!next || vma->vm_end < next->vm_start))
			return -EFAULT;
		if (strict &&
		    walk_page_range_nosplit(mm, max(start, vma->vm_start),
					    min(end, vma->vm_end),
					    normal_page, vma))
			return -EIO;
	}
	return 0;
}

/* Linux's do_mbind, its checks in its order; the VMA work under the
 * mmap_lock for writing. */
static long do_mbind(unsigned long start, unsigned long len, int mode,
		     unsigned short mode_flags, const nodemask_t *nodes,
		     unsigned long flags)
{
	struct mm_struct *mm = current->mm;
	struct mempolicy pol;
	unsigned long end;
	int err;

	if (flags & ~(unsigned long)MPOL_MF_VALID)
		return -EINVAL;
	if (start & ~PAGE_MASK)
		return -EINVAL;
	if (mode == MPOL_DEFAULT)
		flags &= ~MPOL_MF_STRICT;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	err = mpol_new(&pol, mode, mode_flags, nodes);
	if (err)
		return err;
	mmap_write_lock(mm);	/* VMAs split, merge and change */
	err = queue_pages_range(mm, start, end, nodes, flags,
				mode == MPOL_DEFAULT);
	if (!err)
		err = mbind_range(mm, start, end, &pol);
	mmap_write_unlock(mm);
	return err;
}

/*
 * mbind(2): the policy of [start, start + len)'s VMAs, split off and
 * merged as mprotect does; get_mempolicy(MPOL_F_ADDR) shows it. Every
 * page is on node 0, so no policy moves one (MPOL_MF_MOVE, _MOVE_ALL:
 * nothing to migrate; everyone is root, so _MOVE_ALL is allowed).
 */
static long sys_mbind(unsigned long start, unsigned long len,
		      unsigned long mode, const unsigned long __user *nmask,
		      unsigned long maxnode, unsigned int flags)
{
	unsigned short mode_flags;
	nodemask_t nodes;
	int lmode = (int)mode;
	int err;

	err = sanitize_mpol_flags(&lmode, &mode_flags);
	if (err)
		return err;
	err = get_nodes(&nodes, nmask, maxnode);
	if (err)
		return err;
	return do_mbind(start, len, lmode, mode_flags, &nodes, flags);
}
SYSCALL(__NR_mbind, sys_mbind);

/* set_mempolicy(2): the calling thread's policy (fork and clone copy it,
 * exec keeps it); it places nothing on a machine of one node. */
static long sys_set_mempolicy(int mode, const unsigned long __user *nmask,
			      unsigned long maxnode)
{
	unsigned short mode_flags;
	struct mempolicy pol;
	nodemask_t nodes;
	int err;

	err = sanitize_mpol_flags(&mode, &mode_flags);
	if (!err)
		err = get_nodes(&nodes, nmask, maxnode);
	if (!err)
		err = mpol_new(&pol, mode, mode_flags, &nodes);
	if (!err)
		current->mempolicy = pol;
	return err;
}
SYSCALL(__NR_set_mempolicy, sys_set_mempolicy);

/* The nodes get_mempolicy reports for pol (Linux's get_policy_nodemask,
 * or the mask given with a mode flag): the first word of the mask. */
static unsigned long policy_nodes(const struct mempolicy *pol)
{
	if (pol->flags & MPOL_MODE_FLAGS)
		return pol->user_nodes;
	return pol->mode == MPOL_DEFAULT || pol->mode == MPOL_LOCAL ? 0 : 1;
}

/* Linux's lookup_node: the node of the page at addr, faulted in for
 * reading if need be (0), or the fault's errno. Takes the mmap_lock. */
static int lookup_node(struct mm_struct *mm, unsigned long addr)
{
	struct page *page;
	long ret;

	mmap_read_lock(mm);
	ret = get_user_pages(mm, addr & PAGE_MASK, 1, 0, &page);
	mmap_read_unlock(mm);
	if (ret < 0)
		return (int)ret;
	put_user_page(page);
	return 0;
}

/* The policy of the VMA at addr, copied under the mmap_lock for reading
 * (Linux's do_get_mempolicy holds a reference instead): 0, or -EFAULT
 * for no VMA there. */
static int vma_policy_at(struct mm_struct *mm, unsigned long addr,
			 struct mempolicy *pol)
{
	struct vm_area_struct *vma;
	int err = -EFAULT;

	mmap_read_lock(mm);
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start <= addr) {
		*pol = vma->vm_policy;
		err = 0;
	}
	mmap_read_unlock(mm);
	return err;
}

/* Linux's do_get_mempolicy: *policy and the nodes' first word, or
 * -EINVAL (flags, or MPOL_F_NODE without an interleave policy or an
 * address), -EFAULT (no VMA at addr). */
static int do_get_mempolicy(int *policy, unsigned long *nodes,
			    unsigned long addr, unsigned long flags)
{
	struct mempolicy vpol;
	const struct mempolicy *pol = &current->mempolicy;

	if (flags & ~(unsigned long)(MPOL_F_NODE | MPOL_F_ADDR |
				     MPOL_F_MEMS_ALLOWED))
		return -EINVAL;
	if (flags & MPOL_F_MEMS_ALLOWED) {
		if (flags & (MPOL_F_NODE | MPOL_F_ADDR))
			return -EINVAL;
		*policy = 0;
		*nodes = 1;		/* node 0 */
		return 0;
	}
	if (flags & MPOL_F_ADDR) {
		if (vma_policy_at(current->mm, addr, &vpol))
			return -EFAULT;
		pol = &vpol;
	} else if (addr) {
		return -EINVAL;
	}
	if (flags & MPOL_F_NODE) {
		if (flags & MPOL_F_ADDR)
			*policy = lookup_node(current->mm, addr);
		else if (pol->mode == MPOL_INTERLEAVE)
			*policy = 0;	/* the next node to interleave to */
		else
			return -EINVAL;
		if (*policy < 0)
			return *policy;
	} else {
		*policy = pol->mode | (pol->flags & MPOL_MODE_FLAGS);
	}
	*nodes = policy_nodes(pol);
	return 0;
}

/* Linux's copy_nodes_to_user: maxnode - 1 bits, rounded up to words; all
 * but the first word (nr_node_ids is 1) cleared, up to a page. */
static int copy_nodes_to_user(unsigned long __user *mask,
			      unsigned long maxnode, unsigned long nodes)
{
	unsigned long copy = ((maxnode - 1 + 63) & ~63UL) / 8;

	if (copy > sizeof(long)) {
		if (copy > PAGE_SIZE)
			return -EINVAL;
		if (clear_user((char __user *)mask + sizeof(long),
			       copy - sizeof(long)))
			return -EFAULT;
		copy = sizeof(long);
	}
	return copy_to_user(mask, &nodes, copy) ? -EFAULT : 0;
}

/* get_mempolicy(2): the caller's policy, a VMA's (MPOL_F_ADDR), a page's
 * node (MPOL_F_NODE), or the nodes it may use (MPOL_F_MEMS_ALLOWED). */
static long sys_get_mempolicy(int __user *policy,
			      unsigned long __user *nmask,
			      unsigned long maxnode, unsigned long addr,
			      unsigned long flags)
{
	unsigned long nodes;
	int pval, err;

	if (nmask && maxnode < NR_NODE_IDS)
		return -EINVAL;
	err = do_get_mempolicy(&pval, &nodes, addr, flags);
	if (err)
		return err;
	if (policy && put_user(pval, policy))
		return -EFAULT;
	return nmask ? copy_nodes_to_user(nmask, maxnode, nodes) : 0;
}
SYSCALL(__NR_get_mempolicy, sys_get_mempolicy);
