// SPDX-License-Identifier: GPL-2.0
/*
 * MSI-X of a function assigned to a cell (contracts in pci_dev.h).
 * The table sits in one of the function's BARs, which the cell maps:
 * the pages holding it are taken out of the cell's second-level tables
 * and registered in its MMIO registry, so that each access traps and is
 * performed here on the hypervisor's own mapping of them.  Reads and
 * accesses beside the table (the pending bits, device registers sharing
 * the page) go to the device as they are; a write to an entry is checked
 * on what the entry becomes: an unmasked entry must be a message the
 * cell may send (pci_msix_entry_refused), else the cell fails, named, and
 * nothing is written.  Every entry is masked when the cell gets the
 * function, so the device holds no unmasked entry the hypervisor has not
 * checked (PCI 3.0, 6.8.2: the vector control's mask bit).
 */
#include <asm/mmio_rw.h>
#include <asm/irq_dest.h>
#include "pci_dev.h"
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <warden/hypercall.h>

/* The hypervisor's mappings of the tables: PCI_MSIX_MAX_PAGES per
 * assigned function, above the MMCONFIG window's gigabyte. */
#define PCI_MSIX_HV_VIRT 0xffffff8040000000ul

#define MSIX_TABLE 4 /* capability: table offset and BIR */
#define MSIX_ENTRY_SIZE 16
#define MSIX_VECTOR_CTRL 3  /* the entry's fourth dword */
#define MSIX_ENTRY_MASKED 1 /* its bit 0 */

const char *pci_msix_entry_refused(const struct cell *cell, const u32 entry[4])
{
	const char *why;
	u32 id;

	if (entry[MSIX_VECTOR_CTRL] & MSIX_ENTRY_MASKED)
		return NULL;
	if (entry[1])
		return "address above 4 GiB (no local APIC there)";
	why = msi_cell_refused(entry[0], entry[2], 1);
	if (why)
		return why;
	return irq_cell_dest(cell, msi_as_icr(entry[0], entry[2]),
			     msi_dest(entry[0]), &id);
}

/* A read of size bytes at t in d's table whose device value is v: the
 * address and data dwords come from the cell's view (pci_msi_remap.c). */
static u64 view_read(const struct pci_dev *d, u64 t, unsigned int size, u64 v)
{
	unsigned int i;
	u64 dw;

	for (i = 0; i < size / 4; i++) {
		if ((t / 4 + i) % 4 == MSIX_VECTOR_CTRL)
			continue;
		dw = d->msix_view[t / 4 + i];
		v &= ~(0xffffffffull << (32 * i));
		v |= dw << (32 * i);
	}
	return v;
}

/* The cell's access to the trapped pages of d's table. */
static enum mmio_result msix_mmio(void *ctx, struct per_cpu *pc,
				  struct mmio_access *a)
{
	struct pci_dev *d = ctx;
	volatile u8 *p = d->msix_map + a->offset;
	/* an access that overlaps the table at all is the table's: an
	 * 8-byte write at its start - 4 must not reach entry 0 unchecked */
	bool table = pci_msix_touches(d->msix_table, d->msix_entries, a->offset,
				      a->size);
	u64 t = a->offset - d->msix_table;
	/* the first dword of the entry t falls in, in the cell's view */
	u64 e0 = (t & ~(u64)(MSIX_ENTRY_SIZE - 1)) / 4;
	volatile u32 *hw;
	const char *why;
	unsigned int i;
	u32 entry[4];

	/* the table is accessed in aligned dwords or qwords (PCI 3.0,
	 * 6.8.2); the table starts qword aligned, so one that straddles its
	 * start or end is refused here */
	if (table && (a->size < 4 || (a->offset & (a->size - 1))))
		return MMIO_REFUSED;
	spin_lock(&pci_lock);
	if (!a->write) {
		a->value = mmio_read_sized(p, a->size);
		if (table && d->msix_view)
			a->value = view_read(d, t, a->size, a->value);
		spin_unlock(&pci_lock);
		return MMIO_HANDLED;
	}
	if (table) {
		hw = (volatile u32 *)(d->msix_map + d->msix_table +
				      (t & ~(u64)(MSIX_ENTRY_SIZE - 1)));
		for (i = 0; i < 4; i++)
			entry[i] = hw[i];
		if (d->msix_view)
			for (i = 0; i < 3; i++)
				entry[i] = d->msix_view[e0 + i];
		for (i = 0; i < a->size / 4; i++)
			entry[(t % MSIX_ENTRY_SIZE) / 4 + i] =
				(u32)(a->value >> (32 * i));
		why = pci_msix_entry_refused(pc->cell, entry);
		if (!why && d->msix_view)
			why = pci_msix_remap_entry(
				d, pc->cell, (u32)(t / MSIX_ENTRY_SIZE), entry);
		if (why) {
			spin_unlock(&pci_lock);
			printk("Cell %u \"%s\", CPU %u: PCI %02x:%02x.%x MSI-X "
			       "entry %llu refused: %s\n",
			       pc->cell->id, pc->cell->config->name, pc->cpu_id,
			       d->bdf >> 8, (d->bdf >> 3) & 0x1f, d->bdf & 7,
			       (unsigned long long)(t / MSIX_ENTRY_SIZE), why);
			cell_fail(pc, "MSI-X table entry",
				  (u64)entry[0] << 32 | entry[2], vcpu_rip());
			return MMIO_CELL_FAILED;
		}
	}
	if (table && d->msix_view) {
		/* address and data to the view (the device keeps its
		 * remappable message), vector control to the device, after
		 * the remapping entry (pci_msix_remap_entry) */
		for (i = 0; i < 3; i++)
			d->msix_view[e0 + i] = entry[i];
		pci_msix_remap_message(d, (u32)(t / MSIX_ENTRY_SIZE), hw);
		hw[MSIX_VECTOR_CTRL] = entry[MSIX_VECTOR_CTRL];
	} else {
		mmio_write_sized(p, a->size, a->value);
	}
	spin_unlock(&pci_lock);
	return MMIO_HANDLED;
}

void pci_msix_give_back(struct pci_dev *d)
{
	if (d->msix_view)
		page_free(&hv.pool, d->msix_view, d->msix_view_pages);
	d->msix_view = NULL;
}

int pci_msix_take(struct cell *cell, struct pci_dev *d, unsigned int slot)
{
	struct own_trap trap = { .kind = OWN_TRAP_ABSENT };
	const struct warden_pci_bar *bar;
	u32 where, entries, i;
	u64 phys, first, pages, virt;

	d->msix_map = NULL;
	d->msix_view = NULL;
	if (!d->msix_cap)
		return 0;
	where = pci_phys_read(d->bdf, d->msix_cap + MSIX_TABLE, 4);
	entries = pci_msix_entries(d->bdf, d->msix_cap);
	bar = (where & 7) < WARDEN_PCI_BARS ? &d->cfg->bars[where & 7] : NULL;
	if (!bar || !bar->size || (bar->flags & WARDEN_PCI_BAR_IO) ||
	    (where & ~7u) + (u64)MSIX_ENTRY_SIZE * entries > bar->size)
		return 0; /* not where the config maps memory: unusable */
	phys = bar->address + (where & ~7u);
	first = phys & ~(u64)(PAGE_SIZE - 1);
	pages = (phys + (u64)MSIX_ENTRY_SIZE * entries - first + PAGE_SIZE -
		 1) /
		PAGE_SIZE;
	virt = PCI_MSIX_HV_VIRT + (u64)slot * PCI_MSIX_MAX_PAGES * PAGE_SIZE;
	if (pages > PCI_MSIX_MAX_PAGES ||
	    pt_map(&hv.hv_pt, virt, first, pages * PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		return -WARDEN_ENOMEM;
	d->msix_phys = first;
	d->msix_guest = d->bars[where & 7].addr + (first - bar->address);
	d->msix_table = (u32)(phys - first);
	d->msix_entries = entries;
	d->msix_pages = (u32)pages;
	trap.start = d->msix_guest;
	trap.size = pages * PAGE_SIZE;
	if (ownership_trap(cell, &trap) ||
	    mmio_register(&cell->mmio, d->msix_guest, pages * PAGE_SIZE,
			  msix_mmio, d))
		return -WARDEN_ENOSPC;
	d->msix_map = (volatile u8 *)virt;
	for (i = 0; i < entries; i++)
		*(volatile u32 *)(d->msix_map + d->msix_table +
				  MSIX_ENTRY_SIZE * i + 4 * MSIX_VECTOR_CTRL) |=
			MSIX_ENTRY_MASKED;
	if (!d->remapped || entries > d->irq.msix)
		return 0;
	/* remapped: the cell's view of the entries (zero); the device's
	 * entries get their remappable messages as the cell writes them */
	d->msix_view_pages =
		(entries * MSIX_ENTRY_SIZE + PAGE_SIZE - 1) / PAGE_SIZE;
	d->msix_view = page_alloc(&hv.pool, d->msix_view_pages);
	if (!d->msix_view) {
		d->msix_map = NULL;
		return -WARDEN_ENOMEM;
	}
	return 0;
}
