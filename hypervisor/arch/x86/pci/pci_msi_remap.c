// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's MSI and MSI-X as remapped interrupts (contracts in pci_dev.h).
 * Where the IOMMU remaps interrupts (iommu_cell_irqs_remapped), a unit
 * with CFIS clear blocks compatibility-format messages (VT-d 5.1.2), so
 * a cell's function must send remappable ones.  The cell still writes
 * compatibility format, which the hypervisor checks as before; the
 * device holds fixed remappable messages naming the function's entries
 * in the hypervisor's remapping table (reserved when the cell is
 * created: one per MSI vector the function can ask for, one per MSI-X
 * table entry), and each checked message of the cell becomes the entry's
 * vector and destination (iommu_cell_irq_set, which also makes the unit
 * drop its cached copy).  The cell reads back what it wrote: the
 * message registers and table entries are shadowed here.
 *
 * Each entry verifies the requester (the function's bus/device/function),
 * so no other device -- root's, another cell's, a DMA write aimed at the
 * interrupt window -- can raise the cell's vectors through it.
 */
#include <asm/iommu.h>
#include <asm/irq_dest.h>
#include <asm/pci.h>
#include "pci_dev.h"
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/error.h>
#include <warden/hypercall.h>

#define MSIX_ENTRY_SIZE 16

/* The most MSI vectors bdf's function can ask for (multiple message
 * capable, control bits 3:1: PCI 3.0, 6.8.1.3), 0 without MSI. */
static unsigned int msi_capable(u16 bdf)
{
	u8 cap = pci_find_cap(bdf, PCI_CAP_ID_MSI);
	unsigned int mmc;

	if (!cap)
		return 0;
	mmc = (pci_phys_read(bdf, cap + PCI_MSI_CTRL, 2) >> 1) & 7;
	return mmc > 5 ? 32 : 1u << mmc;
}

/* Its MSI-X table's entries, 0 without MSI-X. */
static unsigned int msix_size(u16 bdf)
{
	u8 cap = pci_find_cap(bdf, PCI_CAP_ID_MSIX);

	return cap ? pci_msix_entries(bdf, cap) : 0;
}

int pci_irq_reserve(const struct cell *cell,
		    const struct warden_pci_device *cfg, unsigned int n,
		    struct pci_irq_range *r, struct warden_error *err)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		r[i].msi = msi_capable(cfg[i].bdf);
		r[i].msix = msix_size(cfg[i].bdf);
		r[i].first = 0;
		if (!iommu_cell_irqs_remapped() || !(r[i].msi + r[i].msix))
			continue;
		if (!iommu_cell_irq_reserve(cell, r[i].msi + r[i].msix,
					    &r[i].first))
			continue;
		for (j = 0; j < i; j++)
			iommu_cell_irq_release(r[j].first,
					       r[j].msi + r[j].msix);
		err->code = -WARDEN_ENOSPC;
		err->rule = WARDEN_RULE_PCI_IRQ_REMAP_FULL;
		err->item_kind = WARDEN_ITEM_PCI_DEVICE;
		err->item_index = i;
		err->values[0] = cfg[i].bdf;
		err->values[1] = r[i].msi + r[i].msix;
		err->values[2] = iommu_cell_irqs_used();
		err->values[3] = 0;
		return err->code;
	}
	return 0;
}

/* The message dword of d's MSI capability at reg (dword aligned):
 * address, upper address (64-bit), data -- its index in msi_view, or -1
 * (the control word, mask and pending bits are the device's). */
static int msg_dword(const struct pci_dev *d, u16 reg)
{
	bool is64 = pci_phys_read(d->bdf, d->msi_cap + PCI_MSI_CTRL, 2) &
		    PCI_MSI_CTRL_64BIT;

	if (reg < d->msi_cap + 4 || reg > d->msi_cap + (is64 ? 12 : 8))
		return -1;
	return (reg - d->msi_cap) / 4;
}

void pci_irq_take(struct pci_dev *d, const struct pci_irq_range *r)
{
	u32 addr, data;

	d->irq = *r;
	d->remapped = r->first != 0;
	d->msi_view[0] = d->msi_view[1] = d->msi_view[2] = d->msi_view[3] = 0;
	if (!d->remapped)
		return;
	printk("Cell %u \"%s\": PCI %02x:%02x.%x interrupts remapped: "
	       "entries %u-%u (MSI %u, MSI-X %u), source id %02x:%02x.%x "
	       "verified\n",
	       d->owner->id, d->owner->config->name, d->bdf >> 8,
	       (d->bdf >> 3) & 0x1f, d->bdf & 7, r->first,
	       r->first + r->msi + r->msix - 1, r->msi, r->msix, d->bdf >> 8,
	       (d->bdf >> 3) & 0x1f, d->bdf & 7);
	if (!d->msi_cap)
		return;
	/* MSI is off (quiesce): the fixed remappable message, subhandle 0,
	 * SHV set, so that vector n of a multiple message names entry
	 * first + n (VT-d 5.1.5.2) */
	iommu_cell_irq_message(r->first, &addr, &data);
	pci_phys_write(d->bdf, d->msi_cap + 4, 4, addr);
	if (msg_dword(d, d->msi_cap + 12) > 0) {
		pci_phys_write(d->bdf, d->msi_cap + 8, 4, 0);
		pci_phys_write(d->bdf, d->msi_cap + 12, 2, data);
	} else {
		pci_phys_write(d->bdf, d->msi_cap + 8, 2, data);
	}
}

void pci_irq_give_back(struct pci_dev *d)
{
	if (d->remapped)
		iommu_cell_irq_release(d->irq.first, d->irq.msi + d->irq.msix);
	d->remapped = false;
}

bool pci_msi_view_read(const struct pci_dev *d, u16 reg, unsigned int size,
		       u64 *value)
{
	int i;

	if (!d->remapped || !d->msi_cap)
		return false;
	i = msg_dword(d, reg & ~3);
	if (i < 0)
		return false;
	*value = d->msi_view[i] >> (8 * (reg & 3));
	if (size < 4)
		*value &= (1u << (8 * size)) - 1;
	return true;
}

/* d's MSI as the cell sees it after the write (view for the message,
 * the device for the control word): whether it is enabled, and its
 * address, data and vectors. */
static bool msi_state(const struct pci_dev *d, u16 reg, unsigned int size,
		      u32 value, u32 view[4], u32 *addr, u32 *data,
		      unsigned int *vectors)
{
	u32 ctrl = pci_phys_read(d->bdf, d->msi_cap, 4);
	unsigned int i, byte;
	bool is64;

	for (i = 0; i < 4; i++)
		view[i] = d->msi_view[i];
	for (i = 0; i < size; i++) {
		byte = reg + i - d->msi_cap;
		if (byte < 4) {
			ctrl &= ~(0xffu << (8 * byte));
			ctrl |= ((value >> (8 * i)) & 0xff) << (8 * byte);
		} else if (msg_dword(d, (u16)(d->msi_cap + (byte & ~3u))) > 0) {
			view[byte / 4] &= ~(0xffu << (8 * (byte % 4)));
			view[byte / 4] |= ((value >> (8 * i)) & 0xff)
					  << (8 * (byte % 4));
		}
	}
	ctrl >>= 16;
	is64 = ctrl & PCI_MSI_CTRL_64BIT;
	*addr = view[1];
	*data = (is64 ? view[3] : view[2]) & 0xffff;
	if (is64 && view[2])
		*addr = 0; /* above 4 GiB: no local APIC there */
	*vectors = 1u << ((ctrl >> PCI_MSI_CTRL_MME_SHIFT) & 7);
	return ctrl & PCI_MSI_CTRL_ENABLE;
}

const char *pci_msi_remap_write(struct pci_dev *d, const struct cell *cell,
				u16 reg, unsigned int size, u32 value,
				bool *done, u64 *bad)
{
	u32 view[4], addr, data, id;
	unsigned int vectors, n;
	const char *why;
	bool on;

	*done = false;
	if (!d->remapped || !d->msi_cap || reg + size <= d->msi_cap ||
	    reg >= d->msi_cap + 16)
		return NULL;
	on = msi_state(d, reg, size, value, view, &addr, &data, &vectors);
	if (on) {
		if (vectors > d->irq.msi)
			return "more MSI vectors than the function offers";
		why = msi_cell_refused(addr, data, vectors);
		if (!why)
			why = irq_cell_dest(cell, msi_as_icr(addr, data),
					    msi_dest(addr), &id);
		if (why) {
			*bad = (u64)addr << 32 | data;
			return why;
		}
		/* the entries first, then the enable bit (below): the
		 * device sends only through checked entries */
		for (n = 0; n < vectors; n++)
			if (iommu_cell_irq_set(d->irq.first + n, true,
					       (data & 0xff) | n, id, d->bdf))
				return "its remapping entry could not be "
				       "written";
	}
	for (n = 0; n < 4; n++)
		d->msi_view[n] = view[n];
	/* the message stays the device's fixed remappable one */
	*done = msg_dword(d, reg & ~3) > 0;
	return NULL;
}

const char *pci_msix_remap_entry(struct pci_dev *d, const struct cell *cell,
				 u32 i, const u32 entry[4])
{
	u32 id;
	const char *why;

	if (!d->remapped || (entry[3] & 1))
		return NULL;
	why = irq_cell_dest(cell, msi_as_icr(entry[0], entry[2]),
			    msi_dest(entry[0]), &id);
	if (!why && iommu_cell_irq_set(d->irq.first + d->irq.msi + i, true,
				       entry[2] & 0xff, id, d->bdf))
		why = "its remapping entry could not be written";
	return why;
}

void pci_msix_remap_message(const struct pci_dev *d, u32 i, volatile u32 *entry)
{
	u32 addr, data;

	iommu_cell_irq_message(d->irq.first + d->irq.msi + i, &addr, &data);
	entry[0] = addr;
	entry[1] = 0;
	entry[2] = data;
}
