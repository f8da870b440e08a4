/* drivers/virtio/virtio_pci_legacy.c — the legacy virtio PCI interface
 * (Linux's virtio_pci_legacy_dev.c): a 20-byte block of I/O ports in BAR
 * 0, then the device's own configuration. Chosen over the modern
 * interface because it needs no capability list walk and no MMIO
 * mapping of a BAR: port I/O alone, which zpk's pc machine in QEMU
 * offers for every -drive if=virtio (a "transitional" device). */
#include <asm/io.h>
#include <zpk/errno.h>
#include <zpk/virtio_pci.h>

#define VIRTIO_PCI_HOST_FEATURES	0	/* 32 bits, read-only */
#define VIRTIO_PCI_GUEST_FEATURES	4	/* 32 bits */
#define VIRTIO_PCI_QUEUE_PFN		8	/* 32 bits: address >> 12 */
#define VIRTIO_PCI_QUEUE_NUM		12	/* 16 bits, read-only */
#define VIRTIO_PCI_QUEUE_SEL		14	/* 16 bits */
#define VIRTIO_PCI_QUEUE_NOTIFY		16	/* 16 bits */
#define VIRTIO_PCI_STATUS		18	/* 8 bits */
#define VIRTIO_PCI_ISR			19	/* 8 bits, read clears */
#define VIRTIO_PCI_CONFIG		20	/* without MSI-X enabled */
#define VIRTIO_PCI_QUEUE_ADDR_SHIFT	12

int vp_legacy_probe(struct virtio_pci_device *vp, struct pci_dev *dev)
{
	vp->pci = dev;
	vp->ioaddr = pci_resource_io(dev, 0);
	if (!vp->ioaddr)
		return -ENODEV;
	pci_enable_device(dev);
	vp_legacy_reset(vp);
	vp_legacy_add_status(vp, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	vp_legacy_add_status(vp, VIRTIO_CONFIG_S_DRIVER);
	return 0;
}

u32 vp_legacy_get_features(struct virtio_pci_device *vp)
{
	return inl(vp->ioaddr + VIRTIO_PCI_HOST_FEATURES);
}

void vp_legacy_set_features(struct virtio_pci_device *vp, u32 features)
{
	outl(vp->ioaddr + VIRTIO_PCI_GUEST_FEATURES, features);
}

static void vp_legacy_notify(struct virtqueue *vq)
{
	struct virtio_pci_device *vp = vq->priv;

	outw(vp->ioaddr + VIRTIO_PCI_QUEUE_NOTIFY, vq->index);
}

/* The device chose the queue's size; the legacy interface cannot change
 * it, and needs the rings physically contiguous below 2^44. */
struct virtqueue *vp_legacy_setup_vq(struct virtio_pci_device *vp,
				     unsigned int index)
{
	struct virtqueue *vq;
	u16 num;

	outw(vp->ioaddr + VIRTIO_PCI_QUEUE_SEL, index);
	num = inw(vp->ioaddr + VIRTIO_PCI_QUEUE_NUM);
	if (!num || (num & (num - 1)) ||
	    inl(vp->ioaddr + VIRTIO_PCI_QUEUE_PFN))
		return NULL;
	vq = vring_new_virtqueue(index, num, vp_legacy_notify, vp);
	if (!vq)
		return NULL;
	outl(vp->ioaddr + VIRTIO_PCI_QUEUE_PFN,
	     virtqueue_get_desc_addr(vq) >> VIRTIO_PCI_QUEUE_ADDR_SHIFT);
	return vq;
}

void vp_legacy_reset(struct virtio_pci_device *vp)
{
	outb(vp->ioaddr + VIRTIO_PCI_STATUS, 0);
	/* Reading back waits for the reset to finish (virtio 1.1, 4.1.4.3). */
	(void)inb(vp->ioaddr + VIRTIO_PCI_STATUS);
}

void vp_legacy_add_status(struct virtio_pci_device *vp, u8 bits)
{
	u8 s = inb(vp->ioaddr + VIRTIO_PCI_STATUS);

	outb(vp->ioaddr + VIRTIO_PCI_STATUS, s | bits);
}

u8 vp_legacy_get_isr(struct virtio_pci_device *vp)
{
	return inb(vp->ioaddr + VIRTIO_PCI_ISR);
}

/* Byte by byte: the legacy configuration is in the guest's byte order
 * (little-endian here), and a wider read could tear a 64-bit field
 * anyway. */
void vp_legacy_get_config(struct virtio_pci_device *vp, unsigned int offset,
			  void *buf, unsigned int len)
{
	u8 *p = buf;

	for (unsigned int i = 0; i < len; i++)
		p[i] = inb(vp->ioaddr + VIRTIO_PCI_CONFIG + offset + i);
}
