// SPDX-License-Identifier: GPL-2.0
/*
 * Root's MSI messages with translated remapping indexes (contracts in
 * pci_dev.h).  Where the hypervisor owns the IOMMU's interrupt
 * remapping, a message of root's in remappable format names an index of
 * root's own table (VT-d 5.1.5.2); the device gets the hypervisor's index
 * for it instead (iommu_root_msi, asm/iommu.h), so root's indexes may lie
 * anywhere in its table and never meet a cell's entries.  The rewrite is
 * made at the trap that already sees the message: here, root's writes to
 * an MSI capability (its MSI-X table entries: pci_msix_root.c).  Root
 * reads back what it wrote (the device's address turned back into
 * root's: iommu_root_msi_back); the data is root's as it wrote it.  At
 * disable every device gets root's own address back
 * (pci_root_msi_give_back), before the IOMMU remaps through root's table
 * again.
 */
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include <asm/pci.h>
#include "pci_dev.h"
#include <asm/percpu.h>
#include <hv/percpu.h>
#include <hv/printk.h>
#include <warden/hvheader.h>

/* The capability's first four dwords (control, address, then upper
 * address and data, or data): where its data is, and whether its
 * message names an address above 4 GiB. */
static u32 data_of(const u32 dw[4], bool *high)
{
	bool is64 = (dw[0] >> 16) & PCI_MSI_CTRL_64BIT;

	*high = is64 && dw[2];
	return (is64 ? dw[3] : dw[2]) & 0xffff;
}

/* Root's view of the capability at cap of bdf: the device's dwords with
 * its address as root wrote it. */
static void root_view(u16 bdf, u8 cap, u32 dw[4])
{
	unsigned int i;
	bool high;

	for (i = 0; i < 4; i++)
		dw[i] = pci_phys_read(bdf, cap + 4 * i, 4);
	dw[1] = iommu_root_msi_back(bdf, dw[1], data_of(dw, &high));
}

/* Bytes reg .. reg + size - 1 of a value read from or written to
 * configuration space, with those of the dword at at replaced by dw. */
static u32 merge(u16 reg, unsigned int size, u32 value, u16 at, u32 dw)
{
	unsigned int i;

	for (i = 0; i < size; i++) {
		if (reg + i < at || reg + i >= at + 4u)
			continue;
		value &= ~(0xffu << (8 * i));
		value |= ((dw >> (8 * (reg + i - at))) & 0xff) << (8 * i);
	}
	return value;
}

bool pci_msi_root_read(u16 bdf, u16 reg, unsigned int size, u64 *value)
{
	u8 cap;
	u32 dw[4];

	if (reg < 0x40 || reg >= 0x100 || !iommu_cell_irqs_remapped())
		return false;
	cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);
	if (!cap || reg + size <= cap + 4u || reg >= cap + 8u)
		return false;
	root_view(bdf, cap, dw);
	*value =
		merge(reg, size, pci_phys_read(bdf, reg, size), cap + 4, dw[1]);
	return true;
}

const char *pci_msi_root_write(struct per_cpu *pc, u16 bdf, u16 reg,
			       unsigned int size, u32 value, bool *done)
{
	u32 dw[4], data, dev, now;
	unsigned int i, byte, vectors, msg_end;
	const char *why;
	bool high;
	u8 cap;

	*done = false;
	if (reg < 0x40 || reg >= 0x100)
		return NULL;
	cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);
	if (!cap || reg + size <= cap || reg >= cap + 16u)
		return NULL;
	/* the capability after the write, as root sees it */
	root_view(bdf, cap, dw);
	now = pci_phys_read(bdf, cap + 4, 4);
	for (i = 0; i < size; i++) {
		if (reg + i < cap || reg + i >= cap + 16u)
			continue;
		byte = reg + i - cap;
		dw[byte / 4] &= ~(0xffu << (8 * (byte % 4)));
		dw[byte / 4] |= ((value >> (8 * i)) & 0xff) << (8 * (byte % 4));
	}
	data = data_of(dw, &high);
	vectors = 1u << ((dw[0] >> (16 + PCI_MSI_CTRL_MME_SHIFT)) & 7);
	/* a 64-bit message above 4 GiB reaches no local APIC */
	if ((dw[0] >> 16) & PCI_MSI_CTRL_ENABLE) {
		why = irq_root_msi_refused(pc->arch.x2apic, high ? 0 : dw[1], 0,
					   data);
		if (why)
			return why;
	}
	/* the device's address: root's where root writes it, the
	 * device's own where not; translated when the message (address,
	 * data) is written or live (a control or mask-bit write while MSI
	 * is off leaves an address whose index root may have freed: it
	 * reads back as the device holds it) */
	dev = reg < cap + 8u && reg + size > cap + 4u ? dw[1] : now;
	msg_end = cap + (((dw[0] >> 16) & PCI_MSI_CTRL_64BIT) ? 14u : 10u);
	if (!high && ((reg < msg_end && reg + size > cap + 4u) ||
		      ((dw[0] >> 16) & PCI_MSI_CTRL_ENABLE))) {
		why = iommu_root_msi(pc, bdf, dw[1], data, vectors, &dev);
		if (why)
			return why;
	}
	/* the device's address first where the write leaves it (the data
	 * or the vectors changed which index it names), so that the
	 * enable bit never reaches the device before it */
	if (dev != now && (reg + size <= cap + 4u || reg >= cap + 8u))
		pci_phys_write(bdf, cap + 4, 4, dev);
	pci_phys_write(bdf, reg, size, merge(reg, size, value, cap + 4, dev));
	*done = true;
	return NULL;
}

void pci_root_msi_give_back(void)
{
	const struct warden_root_function *f;
	u32 i, dw[4], now;
	u8 cap;

	spin_lock(&pci_lock);
	for (i = 0; (f = pci_root_fn_at(i)); i++) {
		cap = pci_assigned(f->bdf)
			      ? 0
			      : pci_find_cap(f->bdf, PCI_CAP_ID_MSI);
		if (!cap)
			continue;
		now = pci_phys_read(f->bdf, cap + 4, 4);
		root_view(f->bdf, cap, dw);
		if (dw[1] != now)
			pci_phys_write(f->bdf, cap + 4, 4, dw[1]);
	}
	pci_msix_root_give_back();
	spin_unlock(&pci_lock);
}
