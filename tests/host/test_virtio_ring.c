/* host-test-sources: drivers/virtio/virtio_ring.c mm/slab.c mm/page_alloc.c mm/vmstat.c lib/vsnprintf.c lib/string.c tests/host/harness.c */
/* tests/host/test_virtio_ring.c — the split virtqueue against a device
 * played by the test: the legacy layout (used ring on the next 4 KiB),
 * the chains it offers, the free list when the device returns them out
 * of order, -ENOSPC when full, and every page back afterwards. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/virtio.h>

#include "harness.h"

#define NR_PFNS		1024UL
#define NUM		256

static int kicks;

static void notify(struct virtqueue *vq)
{
	(void)vq;
	kicks++;
}

static int group_setup(void **state)
{
	(void)state;
	return harness_heap_init(NR_PFNS);
}

/* The device's side: the head of the avail entry i. */
static u16 avail_head(struct virtqueue *vq, u16 i)
{
	return vq->avail->ring[i % vq->num];
}

/* The device's side: returns head, having written len bytes. */
static void device_use(struct virtqueue *vq, u16 head, u32 len)
{
	u16 i = vq->used->idx;

	vq->used->ring[i % vq->num] = (struct vring_used_elem){ head, len };
	vq->used->idx = i + 1;
}

static void test_layout(void **state)
{
	struct virtqueue *vq = vring_new_virtqueue(0, NUM, notify, NULL);
	char *base;

	(void)state;
	assert_non_null(vq);
	base = (char *)vq->desc;
	/* Legacy: 16-byte descriptors, then avail, used at the next 4 KiB. */
	assert_ptr_equal(vq->avail, base + NUM * 16);
	assert_ptr_equal(vq->used, base + 8192);
	assert_int_equal(vq->num_free, NUM);
	assert_int_equal(virtqueue_get_desc_addr(vq) % PAGE_SIZE, 0);
	vring_del_virtqueue(vq);
}

static void test_chain(void **state)
{
	struct virtqueue *vq = vring_new_virtqueue(0, NUM, notify, NULL);
	struct vring_sg sg[3] = { { 0x1000, 16, false }, { 0x2000, 4096, true },
				  { 0x3000, 1, true } };
	int token;
	u16 h, d;
	u32 len = 0;

	(void)state;
	kicks = 0;
	assert_int_equal(virtqueue_add(vq, sg, 3, &token), 0);
	assert_int_equal(vq->avail->idx, 1);
	assert_int_equal(vq->num_free, NUM - 3);
	assert_null(virtqueue_get_buf(vq, &len));	/* not used yet */
	virtqueue_kick(vq);
	assert_int_equal(kicks, 1);
	h = d = avail_head(vq, 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(vq->desc[d].addr, sg[k].addr);
		assert_int_equal(vq->desc[d].len, sg[k].len);
		assert_int_equal(!!(vq->desc[d].flags & VRING_DESC_F_WRITE),
				 sg[k].device_writes);
		assert_int_equal(!!(vq->desc[d].flags & VRING_DESC_F_NEXT),
				 k < 2);
		d = vq->desc[d].next;
	}
	device_use(vq, h, 4097);
	assert_ptr_equal(virtqueue_get_buf(vq, &len), &token);
	assert_int_equal(len, 4097);
	assert_int_equal(vq->num_free, NUM);
	assert_null(virtqueue_get_buf(vq, &len));
	vring_del_virtqueue(vq);
}

/* Full at NUM / 3 chains of 3; returned in reverse order, every token
 * comes back once and the queue can be filled again. */
static void test_full_and_out_of_order(void **state)
{
	struct virtqueue *vq = vring_new_virtqueue(0, NUM, notify, NULL);
	struct vring_sg sg[3] = { { 0x1000, 16, false }, { 0x2000, 512, true },
				  { 0x3000, 1, true } };
	static int tokens[NUM];
	int n = 0, seen = 0;

	(void)state;
	for (int round = 0; round < 2; round++) {
		for (n = 0; virtqueue_add(vq, sg, 3, &tokens[n]) == 0; n++)
			;
		assert_int_equal(n, NUM / 3);
		assert_int_equal(virtqueue_add(vq, sg, 3, &tokens[n]),
				 -ENOSPC);
		for (int i = n - 1; i >= 0; i--)
			device_use(vq, avail_head(vq, vq->avail->idx - n + i),
				   0);
		seen = 0;
		for (int *t; (t = virtqueue_get_buf(vq, NULL)); seen++)
			assert_ptr_equal(t, &tokens[n - 1 - seen]);
		assert_int_equal(seen, n);
		assert_int_equal(vq->num_free, NUM);
	}
	vring_del_virtqueue(vq);
}

/* The rings' pages come back (after one round that may grow the slab
 * caches of the queue and its token array, which stay grown). */
static void test_pages_back(void **state)
{
	unsigned long before;

	(void)state;
	vring_del_virtqueue(vring_new_virtqueue(0, NUM, notify, NULL));
	before = nr_free_pages();
	for (int i = 0; i < 4; i++)
		vring_del_virtqueue(vring_new_virtqueue(0, NUM, notify, NULL));
	assert_int_equal(nr_free_pages(), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_full_and_out_of_order),
		cmocka_unit_test(test_pages_back),
	};

	return cmocka_run_group_tests_name("virtio_ring", tests, group_setup,
					   harness_heap_free);
}
