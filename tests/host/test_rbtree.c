/* host-test-sources: lib/rbtree.c */
/* tests/host/test_rbtree.c — lib/rbtree.c against a reference: random
 * inserts and erases of keys, after each the rules hold (rb_check) and the
 * in-order walk is exactly the reference's set; rb_check catches breakage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/rbtree.h>

#define NKEYS	512	/* key space: 0 .. NKEYS - 1 */

struct item {
	struct rb_node rb;
	int key;
};

static struct item items[NKEYS];	/* items[k] holds key k */
static bool in_tree[NKEYS];		/* the reference */
static struct rb_root root;

static void reset(void)
{
	root = RB_ROOT;
	memset(in_tree, 0, sizeof(in_tree));
	for (int k = 0; k < NKEYS; k++)
		items[k].key = k;
}

/* The caller's half of an insert, as mm/mmap.c's vma_link does it. */
static void insert(int key)
{
	struct rb_node **link = &root.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (key < rb_entry(parent, struct item, rb)->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&items[key].rb, parent, link);
	rb_insert_color(&items[key].rb, &root);
	in_tree[key] = true;
}

static void erase(int key)
{
	rb_erase(&items[key].rb, &root);
	in_tree[key] = false;
}

static int depth(const struct rb_node *n)
{
	int l, r;

	if (!n)
		return 0;
	l = depth(n->rb_left);
	r = depth(n->rb_right);
	return 1 + (l > r ? l : r);
}

/* Rules, parent links, order and membership, and the depth bound. */
static void check_tree(void)
{
	const char *why = NULL;
	struct rb_node *n = rb_first(&root);
	int count = 0, bh, log2n = 0;

	bh = rb_check(&root, &why);
	if (bh < 0)
		fail_msg("rb_check: %s", why);
	for (int k = 0; k < NKEYS; k++) {
		if (!in_tree[k])
			continue;
		assert_non_null(n);
		assert_int_equal(rb_entry(n, struct item, rb)->key, k);
		n = rb_next(n);
		count++;
	}
	assert_null(n);
	while ((1 << log2n) < count + 1)
		log2n++;
	assert_true(depth(root.rb_node) <= 2 * log2n);
}

static void test_empty_and_one(void **state)
{
	(void)state;
	reset();
	assert_true(RB_EMPTY_ROOT(&root));
	assert_null(rb_first(&root));
	assert_int_equal(rb_check(&root, &(const char *){ NULL }), 1);
	insert(7);
	check_tree();
	assert_int_equal(root.rb_node->rb_color, RB_BLACK);
	assert_null(rb_next(rb_first(&root)));
	erase(7);
	assert_true(RB_EMPTY_ROOT(&root));
}

/* Ascending and descending runs: the worst case of an unbalanced tree. */
static void test_sorted_runs(void **state)
{
	(void)state;
	reset();
	for (int k = 0; k < NKEYS; k++) {
		insert(k);
		check_tree();
	}
	for (int k = NKEYS - 1; k >= 0; k -= 2) {
		erase(k);
		check_tree();
	}
	for (int k = 0; k < NKEYS; k += 2) {
		erase(k);
		check_tree();
	}
	assert_true(RB_EMPTY_ROOT(&root));
}

/* Random inserts and erases, every case of both fix-ups many times. */
static void test_random_against_reference(void **state)
{
	(void)state;
	srand(4242);
	reset();
	for (int iter = 0; iter < 20000; iter++) {
		int k = rand() % NKEYS;

		if (in_tree[k])
			erase(k);
		else
			insert(k);
		check_tree();
	}
	for (int k = 0; k < NKEYS; k++)
		if (in_tree[k])
			erase(k);
	check_tree();
	assert_true(RB_EMPTY_ROOT(&root));
}

/* rb_check notices each kind of damage. */
static void test_check_catches(void **state)
{
	const char *why = NULL;
	struct rb_node *n;

	(void)state;
	reset();
	for (int k = 0; k < 16; k++)
		insert(k);
	check_tree();
	root.rb_node->rb_color = RB_RED;
	assert_int_equal(rb_check(&root, &why), -1);
	assert_string_equal(why, "the root is red");
	root.rb_node->rb_color = RB_BLACK;
	/* A black leaf made red... or a red one made black: either way a
	 * rule breaks. */
	n = rb_first(&root);
	n->rb_color = !n->rb_color;
	assert_int_equal(rb_check(&root, &why), -1);
	n->rb_color = !n->rb_color;
	n->rb_parent = root.rb_node == n->rb_parent ? NULL : root.rb_node;
	assert_int_equal(rb_check(&root, &why), -1);
	assert_string_equal(why, "a node's rb_parent is not its parent");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_one),
		cmocka_unit_test(test_sorted_runs),
		cmocka_unit_test(test_random_against_reference),
		cmocka_unit_test(test_check_catches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
