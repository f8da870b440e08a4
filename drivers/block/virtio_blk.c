/* drivers/block/virtio_blk.c — QEMU's -drive if=virtio: a virtio block
 * device on PCI, driven through the legacy interface (port I/O; see
 * virtio_pci_legacy.c for why) with one virtqueue, its completions taken
 * by interrupt: the PCI INTx line through the IO-APIC. One disk, vda. */
#include <asm/io_apic.h>
#include <zpk/blkdev.h>
#include <zpk/errno.h>
#include <zpk/mm.h>
#include <zpk/printk.h>
#include <zpk/sched.h>
#include <zpk/slab.h>
#include <zpk/spinlock.h>
#include <zpk/string.h>
#include <zpk/virtio_pci.h>

#define VIRTIO_BLK_F_RO		5	/* the disk is read-only */
#define VIRTIO_BLK_F_FLUSH	9	/* it has a write cache to flush */

#define VIRTIO_BLK_T_IN		0
#define VIRTIO_BLK_T_OUT	1
#define VIRTIO_BLK_T_FLUSH	4
#define VIRTIO_BLK_S_OK		0

/* What the device reads first in each request (virtio 1.1, 5.2.6). */
struct virtio_blk_outhdr {
	u32 type;
	u32 ioprio;
	u64 sector;
};

/* A request in flight: the header and status byte live here, not in the
 * bio, because the device reads and writes them by physical address and
 * the bio may be on a stack. On the free list through next when idle. */
struct virtblk_req {
	struct virtio_blk_outhdr out_hdr;
	u8 status;			/* the device writes it last */
	struct bio *bio;
	struct virtblk_req *next;
};

struct virtio_blk {
	struct virtio_pci_device vp;
	struct virtqueue *vq;
	spinlock_t lock;		/* vq and free_reqs; irqsave */
	struct virtblk_req *reqs;	/* vq->num of them */
	struct virtblk_req *free_reqs;
	struct wait_queue_head room;	/* submitters out of descriptors */
	struct gendisk disk;
	unsigned long irqs;		/* interrupts that found work */
};

/* The one disk: the interrupt handler has no argument to find it by. */
static struct virtio_blk *vblk_dev;

/* The chain of a bio: header, one buffer per vec, status. n of them. */
static unsigned int virtblk_map(struct virtblk_req *req, struct bio *bio,
				struct vring_sg *sg)
{
	unsigned int n = 0;
	bool in = bio->bi_opf == REQ_OP_READ;

	sg[n++] = (struct vring_sg){ __pa(&req->out_hdr),
				     sizeof(req->out_hdr), false };
	for (int i = 0; i < bio->bi_vcnt; i++) {
		struct bio_vec *v = &bio->bi_io_vec[i];

		sg[n++] = (struct vring_sg){
			page_to_phys(v->bv_page) + v->bv_offset, v->bv_len, in };
	}
	sg[n++] = (struct vring_sg){ __pa(&req->status), 1, true };
	return n;
}

static u32 virtblk_type(enum req_op op)
{
	if (op == REQ_OP_READ)
		return VIRTIO_BLK_T_IN;
	return op == REQ_OP_WRITE ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_FLUSH;
}

/* Sleeps until the queue has n free descriptors; returns with the lock
 * held (flags saved), which it takes. */
static void virtblk_wait_room(struct virtio_blk *vblk, unsigned int n,
			      unsigned long *flags)
{
	struct wait_queue_entry e = { .task = current };

	spin_lock_irqsave(&vblk->lock, *flags);
	while (vblk->vq->num_free < n || !vblk->free_reqs) {
		spin_unlock_irqrestore(&vblk->lock, *flags);
		prepare_to_wait(&vblk->room, &e, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(vblk->vq->num_free) < n)
			schedule();
		finish_wait(&vblk->room, &e);
		spin_lock_irqsave(&vblk->lock, *flags);
	}
}

/* block_device_operations.submit_bio: process context, may sleep for
 * room; returns once the device has the request. */
static void virtblk_submit_bio(struct bio *bio)
{
	struct virtio_blk *vblk = bio->bi_disk->private_data;
	struct vring_sg sg[BIO_MAX_VECS + 2];
	struct virtblk_req *req;
	unsigned long flags;
	unsigned int n;

	if (bio->bi_vcnt + 2U > vblk->vq->num) {	/* would wait forever */
		bio_endio(bio, -EIO);
		return;
	}
	virtblk_wait_room(vblk, bio->bi_vcnt + 2, &flags);
	req = vblk->free_reqs;
	vblk->free_reqs = req->next;
	req->out_hdr = (struct virtio_blk_outhdr){
		.type = virtblk_type(bio->bi_opf), .sector = bio->bi_sector };
	req->status = 0xff;		/* not OK unless the device says so */
	req->bio = bio;
	n = virtblk_map(req, bio, sg);
	virtqueue_add(vblk->vq, sg, n, req);	/* room was checked */
	virtqueue_kick(vblk->vq);
	spin_unlock_irqrestore(&vblk->lock, flags);
}

/*
 * The INTx line, on the boot CPU with interrupts off. Reading the ISR
 * both says whether the device interrupted (the line may be shared) and
 * lowers the line; every finished request ends its bio.
 */
static void virtblk_interrupt(struct pt_regs *regs)
{
	struct virtio_blk *vblk = vblk_dev;
	struct virtblk_req *req;

	(void)regs;
	if (!vblk || !(vp_legacy_get_isr(&vblk->vp) & 1))
		return;
	vblk->irqs++;
	spin_lock(&vblk->lock);
	while ((req = virtqueue_get_buf(vblk->vq, NULL))) {
		bio_endio(req->bio, req->status == VIRTIO_BLK_S_OK ? 0 : -EIO);
		req->bio = NULL;
		req->next = vblk->free_reqs;
		vblk->free_reqs = req;
	}
	spin_unlock(&vblk->lock);
	wake_up(&vblk->room);
}

static const struct block_device_operations virtblk_fops = {
	.submit_bio = virtblk_submit_bio,
};

/* The request pool: as many as descriptors, more than can be in flight
 * (each takes at least two descriptors). */
static int virtblk_init_reqs(struct virtio_blk *vblk)
{
	unsigned int num = vblk->vq->num;

	vblk->reqs = kzalloc(num * sizeof(*vblk->reqs), GFP_KERNEL);
	if (!vblk->reqs)
		return -ENOMEM;
	for (unsigned int i = 0; i < num; i++) {
		vblk->reqs[i].next = vblk->free_reqs;
		vblk->free_reqs = &vblk->reqs[i];
	}
	return 0;
}

/* Features, the queue, the request pool: 0 or -errno. */
static int virtblk_setup(struct virtio_blk *vblk, u32 *features)
{
	*features = vp_legacy_get_features(&vblk->vp) &
		    (1U << VIRTIO_BLK_F_RO | 1U << VIRTIO_BLK_F_FLUSH);
	vp_legacy_set_features(&vblk->vp, *features);
	vblk->vq = vp_legacy_setup_vq(&vblk->vp, 0);
	if (!vblk->vq)
		return -ENOMEM;
	return virtblk_init_reqs(vblk);
}

static void virtblk_init_disk(struct virtio_blk *vblk, u32 features)
{
	struct gendisk *disk = &vblk->disk;

	strlcpy(disk->disk_name, "vda", sizeof(disk->disk_name));
	vp_legacy_get_config(&vblk->vp, 0, &disk->capacity, 8);
	disk->read_only = features & (1U << VIRTIO_BLK_F_RO);
	disk->has_flush = features & (1U << VIRTIO_BLK_F_FLUSH);
	disk->major = 254;		/* virtblk's usual dynamic major */
	disk->first_minor = 0;
	disk->fops = &virtblk_fops;
	disk->private_data = vblk;
	init_waitqueue_head(&disk->wait);
	init_rwsem(&disk->rmw_lock);
}

/* Linux's line: "[vda] 16384 512-byte logical blocks (8.39 MB/8.00 MiB)". */
static void virtblk_announce(struct virtio_blk *vblk, int gsi)
{
	unsigned long bytes = vblk->disk.capacity << SECTOR_SHIFT;
	unsigned long mb = (bytes + 5000) / 10000;
	unsigned long mib = ((bytes * 100) + (1 << 19)) >> 20;

	pr_info("virtio_blk virtio0: [%s] %lu 512-byte logical blocks "
		"(%lu.%02lu MB/%lu.%02lu MiB)%s, IRQ %u (GSI %d)\n",
		vblk->disk.disk_name, (unsigned long)vblk->disk.capacity,
		mb / 100, mb % 100, mib / 100, mib % 100,
		vblk->disk.read_only ? ", read-only" : "",
		vblk->vp.pci->irq, gsi);
}

/* A probe that failed: the device reset first (it forgets the rings'
 * address, so their pages may go), then FAILED, then the memory. */
static void virtblk_free(struct virtio_blk *vblk)
{
	if (vblk->vp.ioaddr) {
		vp_legacy_reset(&vblk->vp);
		vp_legacy_add_status(&vblk->vp, VIRTIO_CONFIG_S_FAILED);
	}
	if (vblk->vq)
		vring_del_virtqueue(vblk->vq);
	kfree(vblk->reqs);
	kfree(vblk);
}

static int virtblk_probe(struct pci_dev *dev)
{
	struct virtio_blk *vblk;
	u32 features;
	int err, gsi;

	if (pci_read_config_word(dev, PCI_SUBSYSTEM_ID) != VIRTIO_ID_BLOCK)
		return -ENODEV;
	if (vblk_dev) {
		pr_warn("virtio_blk: one disk only: %02x:%02x.%x not used\n",
			dev->bus, PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn));
		return -EBUSY;
	}
	vblk = kzalloc(sizeof(*vblk), GFP_KERNEL);
	if (!vblk)
		return -ENOMEM;
	spin_lock_init(&vblk->lock);
	init_waitqueue_head(&vblk->room);
	err = vp_legacy_probe(&vblk->vp, dev);
	if (!err)
		err = virtblk_setup(vblk, &features);
	if (err)
		goto fail;
	vblk_dev = vblk;
	gsi = io_apic_request_pci_irq(dev->irq, virtblk_interrupt);
	if (gsi < 0) {
		err = gsi;
		goto fail;
	}
	virtblk_init_disk(vblk, features);
	vp_legacy_add_status(&vblk->vp, VIRTIO_CONFIG_S_DRIVER_OK);
	virtblk_announce(vblk, gsi);
	return add_disk(&vblk->disk);
fail:
	pr_warn("virtio_blk: %02x:%02x.%x not used (%d)\n", dev->bus,
		PCI_SLOT(dev->devfn), PCI_FUNC(dev->devfn), err);
	vblk_dev = NULL;
	virtblk_free(vblk);
	return err;
}

/* Transitional virtio ids: 0x1001 is the block device. */
static const struct pci_device_id virtblk_ids[] = {
	{ PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1001 },
	{ 0, 0 },
};

static struct pci_driver virtio_blk_driver = {
	.name = "virtio_blk",
	.id_table = virtblk_ids,
	.probe = virtblk_probe,
};

void virtio_blk_init(void)
{
	pci_register_driver(&virtio_blk_driver);
}

unsigned long virtio_blk_irqs(void)
{
	return vblk_dev ? vblk_dev->irqs : 0;
}
