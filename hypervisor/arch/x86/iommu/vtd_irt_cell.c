// SPDX-License-Identifier: GPL-2.0
/*
 * Cells' entries in the hypervisor's interrupt remapping table
 * (contracts in vtd_hw.h).  With interrupt remapping on and CFIS clear, a
 * unit blocks interrupts in compatibility format (VT-d 5.1.2, 9.10), so
 * a cell's MSI, MSI-X and IOAPIC interrupts reach its CPUs through
 * entries the hypervisor writes: indexes VTD_IRT_CELL_FIRST up, reserved
 * per function when the cell is created (so that a cell that would run
 * out is refused then, never at run time), written from the message the
 * cell programmed after the PCI unit checked it, and given back when the
 * cell is destroyed.
 *
 * Every entry verifies its requester (SVT 01b, SQ 00b, SID the
 * function's bus/device/function: 9.10): a remappable message naming a
 * cell's index from any other requester -- root's device, a DMA write
 * into the interrupt window, another cell's function -- is blocked by
 * the unit (fault reason 0x26) instead of reaching the cell's CPU.
 *
 * After each change the entry's line of the unit's interrupt entry cache
 * is invalidated (6.5.2.7: index-selective) and waited for, before the
 * device can send with it (the PCI unit unmasks or enables only after).
 */
#include "vtd_hw.h"

#include <hv/printk.h>
#include <warden/hypercall.h>

#define CELL_ENTRIES (VTD_IRT_ENTRIES - VTD_IRT_CELL_FIRST)

/* the cell id that reserved each entry of the cells' range, 0: free
 * (root is cell 0 and never reserves one) */
static u8 owner[CELL_ENTRIES];

void vtd_irt_cell_reset(void)
{
	unsigned int i;

	for (i = 0; i < CELL_ENTRIES; i++)
		owner[i] = 0;
}

int vtd_irt_cell_alloc(unsigned int cell, unsigned int n, u32 *first)
{
	unsigned int i, run = 0;

	if (!n || !cell || cell > 0xff)
		return -WARDEN_EINVAL;
	/* first fit: a bounded walk of the cells' range */
	for (i = 0; i < CELL_ENTRIES; i++) {
		run = owner[i] ? 0 : run + 1;
		if (run < n)
			continue;
		*first = VTD_IRT_CELL_FIRST + i + 1 - n;
		for (run = 0; run < n; run++)
			owner[i + 1 - n + run] = (u8)cell;
		return 0;
	}
	return -WARDEN_ENOSPC;
}

/* Entry index not present in every unit's table that has it present,
 * its cache line invalidated there; qi_lock held. */
static void clear(u32 index)
{
	struct vtd_desc d = vtd_desc_iec_index(index);
	struct vtd_unit *u;

	for_each_unit (u) {
		if (!u->irt || !(u->irt[2 * index] & 1))
			continue;
		vtd_irte_store(u, index, 0, 0);
		vtd_sync();
		if (vtd_qi_run(u, &d, 1))
			printk("IOMMU at 0x%llx: interrupt entry cache "
			       "invalidation of entry %u not confirmed\n",
			       (unsigned long long)u->base, index);
	}
}

void vtd_irt_cell_free(u32 first, unsigned int n)
{
	u32 i;

	spin_lock(&vtd.qi_lock);
	for (i = first; i < first + n && i < VTD_IRT_ENTRIES; i++) {
		if (i < VTD_IRT_CELL_FIRST)
			continue;
		clear(i);
		owner[i - VTD_IRT_CELL_FIRST] = 0;
	}
	spin_unlock(&vtd.qi_lock);
}

void vtd_irt_cell_free_all(unsigned int cell)
{
	u32 i;

	for (i = 0; i < CELL_ENTRIES; i++)
		if (cell && owner[i] == cell)
			vtd_irt_cell_free(VTD_IRT_CELL_FIRST + i, 1);
}

/* The entry is written in the table of the unit that translates sid's
 * requests (the only one its interrupts reach: 5.1.1, each unit remaps
 * the requests of its scope through its own table); the index is
 * reserved in every table, so a cell's index means one entry. */
int vtd_irt_cell_set(u32 index, bool present, u32 vector, u32 dest, u16 sid,
		     bool level)
{
	struct vtd_desc d = vtd_desc_iec_index(index);
	struct vtd_unit *u = vtd_unit_of(sid);
	u64 lo = 0, hi = 0;
	int err;

	if (index < VTD_IRT_CELL_FIRST || index >= VTD_IRT_ENTRIES ||
	    !owner[index - VTD_IRT_CELL_FIRST] || !u || !u->irt)
		return -WARDEN_EINVAL;
	if (present)
		vtd_irte_cell(vector, dest, u->root.irta & VTD_IRTA_EIME, sid,
			      level, &lo, &hi);
	spin_lock(&vtd.qi_lock);
	if (u->irt[2 * index] == lo && u->irt[2 * index + 1] == hi) {
		spin_unlock(&vtd.qi_lock);
		return 0;
	}
	vtd_irte_store(u, index, lo, hi);
	vtd_sync();
	err = vtd_qi_run(u, &d, 1);
	spin_unlock(&vtd.qi_lock);
	if (err)
		printk("IOMMU at 0x%llx: interrupt entry cache invalidation "
		       "of entry %u not confirmed\n",
		       (unsigned long long)u->base, index);
	return err;
}

unsigned int vtd_irt_cell_used(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < CELL_ENTRIES; i++)
		n += !!owner[i];
	return n;
}

unsigned int vtd_irt_cell_held(unsigned int cell)
{
	unsigned int i, n = 0;

	for (i = 0; cell && i < CELL_ENTRIES; i++)
		n += owner[i] == cell;
	return n;
}
