/* zpk/virtio_pci.h — virtio over PCI, the legacy interface (virtio 1.1,
 * 4.1.4.8): registers in I/O BAR 0 (drivers/virtio/virtio_pci_legacy.c).
 * QEMU's "transitional" devices offer it beside the modern one. */
#ifndef ZPK_VIRTIO_PCI_H
#define ZPK_VIRTIO_PCI_H

#include <zpk/pci.h>
#include <zpk/virtio.h>

#define PCI_VENDOR_ID_REDHAT_QUMRANET	0x1af4
/* Transitional ids 0x1000..0x103f; the subsystem id says which device. */
#define VIRTIO_ID_BLOCK			2

struct virtio_pci_device {
	struct pci_dev *pci;
	u16 ioaddr;		/* BAR 0 */
};

/*
 * Boot: turns on dev's BAR 0 and bus mastering, resets the device and
 * says a driver is here (ACKNOWLEDGE | DRIVER). 0, or -ENODEV if BAR 0
 * is not I/O space (a modern-only device).
 */
int vp_legacy_probe(struct virtio_pci_device *vp, struct pci_dev *dev);
/* The device's feature bits 0..31 (all legacy has). */
u32 vp_legacy_get_features(struct virtio_pci_device *vp);
/* The subset of them the driver uses. */
void vp_legacy_set_features(struct virtio_pci_device *vp, u32 features);
/* Queue index's rings, their address given to the device; NULL if the
 * device has no such queue or memory ran out. */
struct virtqueue *vp_legacy_setup_vq(struct virtio_pci_device *vp,
				     unsigned int index);
/* The device forgets its queues and features (status 0). */
void vp_legacy_reset(struct virtio_pci_device *vp);
/* Adds bits to the device status. */
void vp_legacy_add_status(struct virtio_pci_device *vp, u8 bits);
/* Reads and clears the interrupt status: bit 0, a queue has used
 * buffers; bit 1, the configuration changed. The read also lowers the
 * INTx line. */
u8 vp_legacy_get_isr(struct virtio_pci_device *vp);
/* len bytes of the device-specific configuration at offset. */
void vp_legacy_get_config(struct virtio_pci_device *vp, unsigned int offset,
			  void *buf, unsigned int len);

#endif
