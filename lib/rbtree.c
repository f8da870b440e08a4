/* lib/rbtree.c — red-black tree rebalancing, erase and in-order walk
 * (include/zpk/rbtree.h). Keys are the caller's business. */
#include <zpk/rbtree.h>

/*
 * Insert and erase each have a left-hand and a right-hand version of every
 * case, mirror images. They are written once here: dir is the side (0:
 * left, 1: right) the case is about, !dir the other one.
 */
enum { RB_LEFT, RB_RIGHT };

static struct rb_node **rb_child(struct rb_node *node, int dir)
{
	return dir == RB_LEFT ? &node->rb_left : &node->rb_right;
}

static bool rb_is_red(const struct rb_node *node)
{
	return node && node->rb_color == RB_RED;	/* NULL links are black */
}

/* The link that points to node: its parent's left or right, or the root. */
static struct rb_node **rb_link_of(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent = node->rb_parent;

	if (!parent)
		return &root->rb_node;
	return parent->rb_left == node ? &parent->rb_left : &parent->rb_right;
}

/*
 * Rotates node down to its dir side: its child on the other side takes its
 * place, and that child's dir subtree becomes node's. In-order sequence is
 * unchanged. (dir RB_LEFT is the textbook left rotation.)
 */
static void rb_rotate(struct rb_node *node, int dir, struct rb_root *root)
{
	struct rb_node *up = *rb_child(node, !dir);
	struct rb_node *moved = *rb_child(up, dir);

	*rb_child(node, !dir) = moved;
	if (moved)
		moved->rb_parent = node;
	*rb_link_of(node, root) = up;
	up->rb_parent = node->rb_parent;
	*rb_child(up, dir) = node;
	node->rb_parent = up;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent, *gparent, *uncle;
	int dir;

	/* The only rule a red leaf can break: a red parent. */
	while ((parent = node->rb_parent) && parent->rb_color == RB_RED) {
		gparent = parent->rb_parent;	/* a red node is not the root */
		dir = gparent->rb_left == parent ? RB_LEFT : RB_RIGHT;
		uncle = *rb_child(gparent, !dir);
		if (rb_is_red(uncle)) {
			/* Push gparent's black down to both children: the
			 * problem, if any, moves two levels up. */
			parent->rb_color = uncle->rb_color = RB_BLACK;
			gparent->rb_color = RB_RED;
			node = gparent;
			continue;
		}
		if (node == *rb_child(parent, !dir)) {
			/* The inner grandchild: rotate it to the outside. */
			rb_rotate(parent, dir, root);
			node = parent;
			parent = node->rb_parent;
		}
		/* The outer grandchild: parent goes up, black, in gparent's
		 * place; gparent, now red, below it. Done. */
		parent->rb_color = RB_BLACK;
		gparent->rb_color = RB_RED;
		rb_rotate(gparent, !dir, root);
		break;
	}
	root->rb_node->rb_color = RB_BLACK;
}

/*
 * Restores the black height after a black node was taken out from under
 * parent: node (NULL or black) took its place and its paths are one black
 * short of its sibling's.
 */
static void rb_erase_color(struct rb_node *node, struct rb_node *parent,
			   struct rb_root *root)
{
	struct rb_node *sibling;
	int dir;

	while (node != root->rb_node && !rb_is_red(node)) {
		/* The sibling is not NULL: it holds a black more than node. */
		dir = parent->rb_left == node ? RB_LEFT : RB_RIGHT;
		sibling = *rb_child(parent, !dir);
		if (rb_is_red(sibling)) {
			/* Turn it into a black sibling: rotate it up. */
			sibling->rb_color = RB_BLACK;
			parent->rb_color = RB_RED;
			rb_rotate(parent, dir, root);
			sibling = *rb_child(parent, !dir);
		}
		if (!rb_is_red(sibling->rb_left) &&
		    !rb_is_red(sibling->rb_right)) {
			/* Take a black off the sibling's side too: now
			 * parent's whole subtree is short, one level up. */
			sibling->rb_color = RB_RED;
			node = parent;
			parent = node->rb_parent;
			continue;
		}
		if (!rb_is_red(*rb_child(sibling, !dir))) {
			/* Only the inner nephew is red: make it the outer. */
			(*rb_child(sibling, dir))->rb_color = RB_BLACK;
			sibling->rb_color = RB_RED;
			rb_rotate(sibling, !dir, root);
			sibling = *rb_child(parent, !dir);
		}
		/* The outer nephew is red: rotating parent down to node's
		 * side gives node's paths the black they lack. Done. */
		sibling->rb_color = parent->rb_color;
		parent->rb_color = RB_BLACK;
		(*rb_child(sibling, !dir))->rb_color = RB_BLACK;
		rb_rotate(parent, dir, root);
		node = root->rb_node;
		break;
	}
	if (node)
		node->rb_color = RB_BLACK;
}

/*
 * A node with two children is replaced by its successor (the leftmost of
 * its right subtree, which has no left child), so what is really unlinked
 * is always a spot with at most one child: child, under parent.
 */
void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *child, *parent, *succ;
	int color;

	if (!node->rb_left || !node->rb_right) {
		child = node->rb_left ? node->rb_left : node->rb_right;
		parent = node->rb_parent;
		color = node->rb_color;
		*rb_link_of(node, root) = child;
		if (child)
			child->rb_parent = parent;
		goto fixup;
	}
	succ = rb_first(&(struct rb_root){ node->rb_right });
	child = succ->rb_right;
	color = succ->rb_color;
	if (succ->rb_parent == node) {
		parent = succ;		/* child stays succ's right */
	} else {
		parent = succ->rb_parent;
		parent->rb_left = child;
		if (child)
			child->rb_parent = parent;
		succ->rb_right = node->rb_right;
		succ->rb_right->rb_parent = succ;
	}
	*rb_link_of(node, root) = succ;
	succ->rb_parent = node->rb_parent;
	succ->rb_left = node->rb_left;
	succ->rb_left->rb_parent = succ;
	succ->rb_color = node->rb_color;
fixup:
	if (color == RB_BLACK)
		rb_erase_color(child, parent, root);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (node->rb_left)
		node = node->rb_left;
	return node;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->rb_right)
		return rb_first(&(struct rb_root){ node->rb_right });
	/* Up until we come from a left child: that parent is next. */
	while ((parent = node->rb_parent) && node == parent->rb_right)
		node = parent;
	return parent;
}

/* The black height of node's subtree, or -1 (*why set) if it breaks a
 * rule. A node reached twice has a wrong rb_parent, so this ends. */
static int rb_black_height(const struct rb_node *node,
			   const struct rb_node *parent, const char **why)
{
	int left, right;

	if (!node)
		return 1;
	if (node->rb_parent != parent) {
		*why = "a node's rb_parent is not its parent";
		return -1;
	}
	if (node->rb_color != RB_RED && node->rb_color != RB_BLACK) {
		*why = "a node is neither red nor black";
		return -1;
	}
	if (rb_is_red(node) && (rb_is_red(node->rb_left) ||
				rb_is_red(node->rb_right))) {
		*why = "a red node has a red child";
		return -1;
	}
	left = rb_black_height(node->rb_left, node, why);
	right = left < 0 ? -1 : rb_black_height(node->rb_right, node, why);
	if (right < 0)
		return -1;
	if (left != right) {
		*why = "black heights differ";
		return -1;
	}
	return left + (node->rb_color == RB_BLACK);
}

int rb_check(const struct rb_root *root, const char **why)
{
	if (rb_is_red(root->rb_node)) {
		*why = "the root is red";
		return -1;
	}
	return rb_black_height(root->rb_node, NULL, why);
}
