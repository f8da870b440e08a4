/* zpk/pci.h — PCI devices: configuration space (arch/x86_64/pci.c), the
 * scan of the buses and the drivers that bind to what it found
 * (drivers/pci/probe.c). Names as Linux's include/linux/pci.h. */
#ifndef ZPK_PCI_H
#define ZPK_PCI_H

#include <zpk/list.h>
#include <zpk/types.h>

#define PCI_VENDOR_ID		0x00	/* 16 bits */
#define PCI_DEVICE_ID		0x02	/* 16 bits */
#define PCI_COMMAND		0x04	/* 16 bits */
#define  PCI_COMMAND_IO		0x1	/* respond to I/O space */
#define  PCI_COMMAND_MEMORY	0x2	/* respond to memory space */
#define  PCI_COMMAND_MASTER	0x4	/* may DMA */
#define  PCI_COMMAND_INTX_DISABLE 0x400
#define PCI_CLASS_REVISION	0x08	/* class << 8 | revision */
#define PCI_HEADER_TYPE		0x0e	/* bit 7: several functions */
#define PCI_BASE_ADDRESS_0	0x10	/* 6 BARs, 32 bits each */
#define  PCI_BASE_ADDRESS_SPACE_IO 0x1
#define  PCI_BASE_ADDRESS_IO_MASK  (~0x3U)
#define PCI_SUBSYSTEM_ID	0x2e
#define PCI_INTERRUPT_LINE	0x3c	/* the ISA IRQ the firmware routed */
#define PCI_INTERRUPT_PIN	0x3d	/* 1..4: INTA..INTD, 0: none */

#define PCI_DEVFN(slot, fn)	((((slot) & 0x1f) << 3) | ((fn) & 0x07))
#define PCI_SLOT(devfn)		(((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn)		((devfn) & 0x07)

struct pci_dev {
	struct list_head bus_list;	/* on pci_devices */
	u8 bus, devfn;
	u16 vendor, device;
	u32 class;			/* class << 8 | prog-if */
	u8 irq;				/* PCI_INTERRUPT_LINE; 0 or 255: none */
	u8 pin;
	bool bound;			/* a driver took it */
};

struct pci_device_id {
	u16 vendor, device;		/* both 0 ends a table */
};

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table;
	/* 0 if the driver took dev, else -errno (the next driver may). */
	int (*probe)(struct pci_dev *dev);
};

/* Configuration space through ports 0xcf8/0xcfc (type 1 access); any
 * context, under pci_config_lock. Offsets must be naturally aligned. */
u8 pci_read_config_byte(const struct pci_dev *dev, int where);
u16 pci_read_config_word(const struct pci_dev *dev, int where);
u32 pci_read_config_dword(const struct pci_dev *dev, int where);
void pci_write_config_word(const struct pci_dev *dev, int where, u16 val);
void pci_write_config_dword(const struct pci_dev *dev, int where, u32 val);

/* Boot, once: every function of every bus onto pci_devices. Silent:
 * zpk lists nothing it does not drive. */
void pci_init(void);
/* Boot: calls drv->probe for each unbound device of its id_table.
 * Returns how many devices it took. */
int pci_register_driver(struct pci_driver *drv);
/* I/O and memory decoding, bus mastering (DMA) and INTx turned on. */
void pci_enable_device(struct pci_dev *dev);
/* The I/O port base of BAR bar, or 0 if it is not an I/O BAR. */
u16 pci_resource_io(const struct pci_dev *dev, int bar);

#endif
