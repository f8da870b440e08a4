/* zpk/virtio.h — virtio's split virtqueue (drivers/virtio/virtio_ring.c):
 * the ring layout the device reads (virtio 1.1, 2.6, the legacy layout),
 * the device status bits, and the few calls a driver makes on a queue. */
#ifndef ZPK_VIRTIO_H
#define ZPK_VIRTIO_H

#include <zpk/types.h>

/* Device status (virtio 1.1, 2.1), written in this order by a driver. */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE	1	/* a driver saw the device */
#define VIRTIO_CONFIG_S_DRIVER		2	/* and can drive it */
#define VIRTIO_CONFIG_S_DRIVER_OK	4	/* queues set up: go */
#define VIRTIO_CONFIG_S_FAILED		0x80	/* the driver gave up */

#define VRING_DESC_F_NEXT	1	/* the chain goes on at next */
#define VRING_DESC_F_WRITE	2	/* the device writes this buffer */

struct vring_desc {
	u64 addr;		/* physical */
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail {		/* the driver's: heads it offers */
	u16 flags;
	u16 idx;		/* where the driver puts the next entry */
	u16 ring[];
};

struct vring_used_elem {
	u32 id;			/* the head of a finished chain */
	u32 len;		/* bytes the device wrote into it */
};

struct vring_used {		/* the device's: heads it finished */
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];
};

/* The legacy interface's ring alignment: the used ring starts on the
 * next 4096-byte boundary after the available ring. */
#define VIRTIO_PCI_VRING_ALIGN	4096

/* One buffer of a request, as the device sees it. */
struct vring_sg {
	phys_addr_t addr;
	u32 len;
	bool device_writes;	/* VRING_DESC_F_WRITE: the device fills it */
};

struct virtqueue {
	unsigned int num;	/* entries, a power of 2 the device chose */
	unsigned int index;	/* the queue's number in its device */
	struct vring_desc *desc;
	struct vring_avail *avail;
	struct vring_used *used;
	unsigned int num_free;	/* descriptors on the free list */
	u16 free_head;		/* chained through desc[].next */
	u16 last_used_idx;	/* the used entries taken so far */
	void **data;		/* per head: the token virtqueue_add got */
	struct page *pages;	/* the rings, physically contiguous */
	unsigned int order;
	void (*notify)(struct virtqueue *vq);
	void *priv;		/* the transport's */
};

/*
 * The rings of a queue of num entries (legacy layout, zeroed), or NULL
 * if out of memory. notify tells the device that new buffers wait.
 * Boot or process context; the caller serialises every call on a queue
 * (the driver's lock).
 */
struct virtqueue *vring_new_virtqueue(unsigned int index, unsigned int num,
				      void (*notify)(struct virtqueue *),
				      void *priv);
void vring_del_virtqueue(struct virtqueue *vq);
/* The physical address of the rings (what the legacy QUEUE_PFN takes). */
phys_addr_t virtqueue_get_desc_addr(const struct virtqueue *vq);
/*
 * Offers sg[0..n) to the device as one chain with token data (not NULL),
 * which virtqueue_get_buf returns when it is done. 0, or -ENOSPC if
 * fewer than n descriptors are free (nothing added). Needs a kick.
 */
int virtqueue_add(struct virtqueue *vq, const struct vring_sg *sg,
		  unsigned int n, void *data);
/* Publishes what virtqueue_add put in and tells the device. */
void virtqueue_kick(struct virtqueue *vq);
/* The token of the next chain the device finished (its descriptors
 * back on the free list, *len the bytes it wrote), or NULL. */
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len);

#endif
