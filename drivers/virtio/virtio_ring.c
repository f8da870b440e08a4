/* drivers/virtio/virtio_ring.c — the split virtqueue (virtio 1.1, 2.6):
 * the driver offers chains of descriptors through the available ring,
 * the device returns them through the used ring. No indirect
 * descriptors and no event index: every kick notifies, every used
 * buffer interrupts. */
#include <zpk/atomic.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/slab.h>
#include <zpk/virtio.h>

static unsigned long vring_avail_off(unsigned int num)
{
	return num * sizeof(struct vring_desc);
}

static unsigned long vring_used_off(unsigned int num)
{
	unsigned long end = vring_avail_off(num) + sizeof(struct vring_avail) +
			    (num + 1) * sizeof(u16);	/* + used_event */

	return (end + VIRTIO_PCI_VRING_ALIGN - 1) &
	       ~(unsigned long)(VIRTIO_PCI_VRING_ALIGN - 1);
}

static unsigned long vring_size(unsigned int num)
{
	return vring_used_off(num) + sizeof(struct vring_used) +
	       num * sizeof(struct vring_used_elem) + sizeof(u16);
}

static unsigned int size_order(unsigned long size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

struct virtqueue *vring_new_virtqueue(unsigned int index, unsigned int num,
				      void (*notify)(struct virtqueue *),
				      void *priv)
{
	struct virtqueue *vq = kzalloc(sizeof(*vq), GFP_KERNEL);
	char *base;

	if (!vq)
		return NULL;
	vq->order = size_order(vring_size(num));
	vq->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, vq->order);
	vq->data = kzalloc(num * sizeof(void *), GFP_KERNEL);
	if (!vq->pages || !vq->data) {
		vring_del_virtqueue(vq);
		return NULL;
	}
	base = page_address(vq->pages);
	vq->desc = (struct vring_desc *)base;
	vq->avail = (struct vring_avail *)(base + vring_avail_off(num));
	vq->used = (struct vring_used *)(base + vring_used_off(num));
	vq->num = vq->num_free = num;
	vq->index = index;
	vq->notify = notify;
	vq->priv = priv;
	for (unsigned int i = 0; i + 1 < num; i++)
		vq->desc[i].next = i + 1;
	return vq;
}

void vring_del_virtqueue(struct virtqueue *vq)
{
	if (vq->pages)
		__free_pages(vq->pages, vq->order);
	kfree(vq->data);
	kfree(vq);
}

phys_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq)
{
	return page_to_phys(vq->pages);
}

int virtqueue_add(struct virtqueue *vq, const struct vring_sg *sg,
		  unsigned int n, void *data)
{
	u16 head = vq->free_head, i = head, prev = head;

	if (n == 0 || n > vq->num_free)
		return -ENOSPC;
	for (unsigned int k = 0; k < n; k++) {
		vq->desc[i].addr = sg[k].addr;
		vq->desc[i].len = sg[k].len;
		vq->desc[i].flags = (sg[k].device_writes ? VRING_DESC_F_WRITE
							 : 0) |
				    (k + 1 < n ? VRING_DESC_F_NEXT : 0);
		prev = i;
		i = vq->desc[i].next;
	}
	vq->free_head = vq->desc[prev].next;
	vq->num_free -= n;
	vq->data[head] = data;
	vq->avail->ring[vq->avail->idx % vq->num] = head;
	/* The entry before the index that makes it the device's (x86 keeps
	 * stores in order; the compiler must too). */
	barrier();
	WRITE_ONCE(vq->avail->idx, vq->avail->idx + 1);
	return 0;
}

/* The device may be checking avail->idx on another host thread right
 * now: a full barrier, then the notify (an I/O write, serialising). */
void virtqueue_kick(struct virtqueue *vq)
{
	smp_mb();
	vq->notify(vq);
}

/* The chain from head back on the free list. */
static void detach_buf(struct virtqueue *vq, u16 head)
{
	u16 i = head;

	vq->num_free++;
	while (vq->desc[i].flags & VRING_DESC_F_NEXT) {
		i = vq->desc[i].next;
		vq->num_free++;
	}
	vq->desc[i].next = vq->free_head;
	vq->free_head = head;
	vq->data[head] = NULL;
}

void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	struct vring_used_elem *e;
	void *data;

	if (vq->last_used_idx == READ_ONCE(vq->used->idx))
		return NULL;
	barrier();	/* the entry after the index that published it */
	e = &vq->used->ring[vq->last_used_idx % vq->num];
	if (e->id >= vq->num || !vq->data[e->id])
		return NULL;	/* a device bug: the entry is left there */
	data = vq->data[e->id];
	if (len)
		*len = e->len;
	detach_buf(vq, e->id);
	vq->last_used_idx++;
	return data;
}
