/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOMMU unit (hypervisor/arch/x86/iommu/): the hypervisor owns DMA
 * remapping.  Every cell, root included, has one DMA domain whose
 * second-level tables mirror the cell's memory map exactly as the
 * ownership path announces it (hv/unit.h; every trap kind is a hole), so
 * a bus master reaches what its owner's CPUs reach and nothing else: not
 * the hypervisor, not another cell, not a link its owner is no peer of.
 * A PCI function's requests go through its owner's domain: root's at
 * enable, a cell's while it has the function (cell create moves it,
 * destroy moves it back).  Faults are read and cleared by the
 * hypervisor, named on its console (function, address, read or write,
 * reason) and counted per cell.
 *
 * Interrupt remapping is the hypervisor's too: the unit remaps through
 * the hypervisor's table, which holds checked copies of root's entries
 * at root's own indexes (root's entries aimed at a CPU that is not
 * root's are refused and named); root's Linux keeps its table, writes it
 * and invalidates it as before, and each invalidation makes the copies
 * again.  The unit keeps interrupt remapping on (root cannot turn it
 * off).
 *
 * Vendor-neutral: the unit (iommu.c) holds the domains and the
 * announcements; a backend (today Intel VT-d: vtd*.c) programs the
 * hardware (iommu_backend.h).
 */
#ifndef WARDEN_ASM_IOMMU_H
#define WARDEN_ASM_IOMMU_H

#include <hv/types.h>

/*
 * Whether an IOMMU remaps root's interrupts now: the system config names
 * one, it answered at enable, and its interrupt remapping is on.  Once
 * true it stays true while Warden runs (root cannot turn it off).
 */
bool iommu_remaps_interrupts(void);

/*
 * Root's interrupt remapping entry index as the hypervisor's table holds
 * it (a checked copy: not present if refused), for a unit that delivers
 * one of root's remappable messages itself (link/): NULL with *lo, the
 * entry's low quadword (VT-d 9.10), and *x2apic (32-bit destination
 * ids), or why there is none (the IOMMU is not the hypervisor's, root's
 * remapping was off, an index past the table).
 */
const char *iommu_root_irte(u32 index, u64 *lo, bool *x2apic);

/*
 * Whether the DMA of function bdf (PCI segment 0) is confined to its
 * owner's domain: an IOMMU the hypervisor took over covers it.  The PCI
 * unit lets a cell switch bus mastering on only then (or where the
 * cell's config says dma_unisolated).
 */
bool iommu_dma_confined(u16 bdf);

#endif /* WARDEN_ASM_IOMMU_H */
