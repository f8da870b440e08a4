/* arch/x86_64/pci.c — PCI configuration space through the PC's two ports
 * (Linux's arch/x86/pci/direct.c, "type 1"): an address to 0xcf8, the
 * data at 0xcfc. ECAM (MMCONFIG) is not used: type 1 reaches the 256
 * bytes of every function of QEMU's buses, all a legacy driver needs. */
#include <asm/io.h>
#include <zpk/pci.h>
#include <zpk/spinlock.h>

#define PCI_CONF1_ADDRESS	0xcf8
#define PCI_CONF1_DATA		0xcfc

/* The address and data ports are one register pair for the machine:
 * two CPUs must not interleave their address-then-data sequences. */
static DEFINE_SPINLOCK(pci_config_lock);

static u32 conf1_address(const struct pci_dev *dev, int where)
{
	return 0x80000000U | (u32)dev->bus << 16 | (u32)dev->devfn << 8 |
	       (where & 0xfc);
}

u32 pci_read_config_dword(const struct pci_dev *dev, int where)
{
	unsigned long flags;
	u32 v;

	spin_lock_irqsave(&pci_config_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(dev, where));
	v = inl(PCI_CONF1_DATA);
	spin_unlock_irqrestore(&pci_config_lock, flags);
	return v;
}

u16 pci_read_config_word(const struct pci_dev *dev, int where)
{
	return pci_read_config_dword(dev, where) >> ((where & 2) * 8);
}

u8 pci_read_config_byte(const struct pci_dev *dev, int where)
{
	return pci_read_config_dword(dev, where) >> ((where & 3) * 8);
}

void pci_write_config_dword(const struct pci_dev *dev, int where, u32 val)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_config_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(dev, where));
	outl(PCI_CONF1_DATA, val);
	spin_unlock_irqrestore(&pci_config_lock, flags);
}

/* A 16-bit write at 0xcfc + (where & 2): the other half is untouched
 * (a read-modify-write of the dword would write back status bits that
 * clear when written as 1). */
void pci_write_config_word(const struct pci_dev *dev, int where, u16 val)
{
	unsigned long flags;

	spin_lock_irqsave(&pci_config_lock, flags);
	outl(PCI_CONF1_ADDRESS, conf1_address(dev, where));
	outw(PCI_CONF1_DATA + (where & 2), val);
	spin_unlock_irqrestore(&pci_config_lock, flags);
}
