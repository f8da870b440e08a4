/* drivers/pci/probe.c — the PCI buses' devices, found once at boot by
 * reading each function's vendor id, and the drivers bound to them
 * (Linux's drivers/pci/probe.c and pci-driver.c, without hotplug). */
#include <zpk/pci.h>
#include <zpk/printk.h>
#include <zpk/slab.h>

/* Every function found, in bus order; written at boot only. */
static LIST_HEAD(pci_devices);

/* The function at bus/devfn onto pci_devices if it exists (a vendor id
 * of 0xffff means nothing answered). Returns its header type, or -1. */
static int pci_scan_device(u8 bus, u8 devfn)
{
	struct pci_dev probe = { .bus = bus, .devfn = devfn }, *dev;
	u16 vendor = pci_read_config_word(&probe, PCI_VENDOR_ID);

	if (vendor == 0xffff || vendor == 0)
		return -1;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -1;
	*dev = probe;
	dev->vendor = vendor;
	dev->device = pci_read_config_word(dev, PCI_DEVICE_ID);
	dev->class = pci_read_config_dword(dev, PCI_CLASS_REVISION) >> 8;
	dev->irq = pci_read_config_byte(dev, PCI_INTERRUPT_LINE);
	dev->pin = pci_read_config_byte(dev, PCI_INTERRUPT_PIN);
	list_add_tail(&dev->bus_list, &pci_devices);
	return pci_read_config_byte(dev, PCI_HEADER_TYPE);
}

/* A brute-force scan of all 256 buses (bridges are not followed: the
 * firmware numbered them already, and QEMU's pc machine has one bus). */
void pci_init(void)
{
	for (int bus = 0; bus < 256; bus++)
		for (int slot = 0; slot < 32; slot++) {
			int hdr = pci_scan_device(bus, PCI_DEVFN(slot, 0));

			if (hdr < 0 || !(hdr & 0x80))
				continue;
			for (int fn = 1; fn < 8; fn++)
				pci_scan_device(bus, PCI_DEVFN(slot, fn));
		}
}

static bool pci_match_id(const struct pci_device_id *id,
			 const struct pci_dev *dev)
{
	for (; id->vendor || id->device; id++)
		if (id->vendor == dev->vendor && id->device == dev->device)
			return true;
	return false;
}

int pci_register_driver(struct pci_driver *drv)
{
	struct pci_dev *dev;
	int n = 0;

	list_for_each_entry(dev, &pci_devices, bus_list) {
		if (dev->bound || !pci_match_id(drv->id_table, dev))
			continue;
		if (drv->probe(dev) == 0) {
			dev->bound = true;
			n++;
		}
	}
	return n;
}

void pci_enable_device(struct pci_dev *dev)
{
	u16 cmd = pci_read_config_word(dev, PCI_COMMAND);

	cmd |= PCI_COMMAND_IO | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	cmd &= ~PCI_COMMAND_INTX_DISABLE;
	pci_write_config_word(dev, PCI_COMMAND, cmd);
}

u16 pci_resource_io(const struct pci_dev *dev, int bar)
{
	u32 v = pci_read_config_dword(dev, PCI_BASE_ADDRESS_0 + 4 * bar);

	if (!(v & PCI_BASE_ADDRESS_SPACE_IO))
		return 0;
	return v & PCI_BASE_ADDRESS_IO_MASK;
}
