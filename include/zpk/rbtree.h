/* zpk/rbtree.h — red-black trees with Linux's interface (lib/rbtree.c):
 * intrusive nodes, the caller walks down and links, rb_insert_color
 * rebalances. Used for each mm's VMAs (mm->mm_rb). */
#ifndef ZPK_RBTREE_H
#define ZPK_RBTREE_H

#include <zpk/compiler.h>
#include <zpk/types.h>

#define RB_RED		0
#define RB_BLACK	1

/*
 * The rules (each checked by rb_check): the root is black, a red node has
 * no red child, and every path from a node down to a NULL link crosses
 * the same number of black nodes. So no path is more than twice as long
 * as another: a tree of n nodes is at most 2 log2(n + 1) deep.
 */
struct rb_node {
	struct rb_node *rb_parent;	/* NULL at the root */
	struct rb_node *rb_left, *rb_right;
	int rb_color;			/* RB_RED or RB_BLACK */
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT		((struct rb_root) { NULL })
#define RB_EMPTY_ROOT(root)	((root)->rb_node == NULL)
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/*
 * Hangs node, a new red leaf, on *rb_link, a NULL link of parent (or the
 * root's link) found by the caller's own walk down by key. Call
 * rb_insert_color next to restore the rules.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->rb_parent = parent;
	node->rb_left = node->rb_right = NULL;
	node->rb_color = RB_RED;
	*rb_link = node;
}

/* Rebalances root after rb_link_node(node, ...): O(log n). */
void rb_insert_color(struct rb_node *node, struct rb_root *root);

/* Takes node out of root and rebalances: O(log n). node is not freed. */
void rb_erase(struct rb_node *node, struct rb_root *root);

/* The first node in key order, or NULL for an empty tree. */
struct rb_node *rb_first(const struct rb_root *root);

/* The node after node in key order, or NULL after the last. */
struct rb_node *rb_next(const struct rb_node *node);

/*
 * Checks the tree's rules and its parent links (for validate_mm and the
 * tests): returns the black height (NULL links count one), or -1 with
 * *why saying what is wrong.
 */
int rb_check(const struct rb_root *root, const char **why);

#endif
