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
 * (root's entries aimed at a CPU that is not root's are refused and
 * named) at the hypervisor's own indexes: every remappable message root
 * programs is rewritten to name them (iommu_root_msi, iommu_root_index);
 * root's Linux keeps its table, writes it and invalidates it as before,
 * and each invalidation makes the copies again.  The unit keeps interrupt remapping on (root cannot turn it
 * off).  A cell's device interrupts go through entries the hypervisor
 * writes in the same table (indexes above root's), reserved per function
 * at create, each verifying its requester id (only that function may
 * use it), written from the message the cell programmed once the PCI
 * unit checked it (iommu_cell_irq_*).
 *
 * Vendor-neutral: the unit (iommu.c) holds the domains and the
 * announcements; a backend (today Intel VT-d: vtd*.c) programs the
 * hardware (iommu_backend.h).
 */
#ifndef WARDEN_ASM_IOMMU_H
#define WARDEN_ASM_IOMMU_H

#include <hv/types.h>

struct cell;
struct per_cpu;

/*
 * Whether an IOMMU remaps root's interrupts now: the system config names
 * one, it answered at enable, and its interrupt remapping is on.  Once
 * true it stays true while Warden runs (root cannot turn it off).
 */
bool iommu_remaps_interrupts(void);

/*
 * Root's interrupt remapping entry index as the hypervisor's table holds
 * it (a checked copy: not present if refused), for a unit that delivers
 * one of root's remappable messages itself (link/), sent as requester bdf
 * (the unit whose scope holds it): NULL with *lo, the
 * entry's low quadword (VT-d 9.10), and *x2apic (32-bit destination
 * ids), or why there is none (the IOMMU is not the hypervisor's, root's
 * remapping was off, an index past the table).
 */
const char *iommu_root_irte(u16 bdf, u32 index, u64 *lo, bool *x2apic);

/*
 * Root's remapping indexes translated (root's CPU pc, the trap that sees
 * the message; bdf the requester: root's indexes are those of the unit
 * whose scope holds it, each unit with its own table): root programs
 * message (addr, data) for n vectors (MSI:
 * 2^MME, else 1) into a device; the device gets *out as its address
 * instead.  A message in remappable format names root's index (VT-d
 * 5.1.5.2); *out names the hypervisor's own index for it (a run of n for
 * a multiple-message MSI), whose entry is a checked copy of root's,
 * taken again at each invalidation of root's that names root's index.
 * Any other message, or no IOMMU of the hypervisor's: *out = addr.  NULL,
 * or why it cannot be (*out = addr; the caller refuses the write).
 * iommu_root_msi_back: the address root wrote for what a device holds
 * (its read-back; disable gives it back to the device).
 */
const char *iommu_root_msi(struct per_cpu *pc, u16 bdf, u32 addr, u32 data,
			   unsigned int n, u32 *out);
u32 iommu_root_msi_back(u16 bdf, u32 addr, u32 data);
/* The same for a bare remapping index of root's, r (an IOAPIC entry in
 * remappable format, VT-d 5.1.5.1): NULL with *h, the hypervisor's index
 * (r itself where nothing is translated), or why not (*h = r); and
 * back. */
const char *iommu_root_index(struct per_cpu *pc, u16 sid, u32 r, u32 *h);
u32 iommu_root_index_back(u16 sid, u32 h);

/*
 * Whether the DMA of function bdf (PCI segment 0) is confined to its
 * owner's domain: an IOMMU the hypervisor took over covers it.  The PCI
 * unit lets a cell switch bus mastering on only then (or where the
 * cell's config says dma_unisolated).
 */
bool iommu_dma_confined(u16 bdf);

/*
 * The one place that decides whether cells' device interrupts are
 * remapped entries (true: the hypervisor owns the IOMMU and its interrupt
 * remapping is on -- a unit then blocks compatibility-format interrupts
 * unless CFIS is set, VT-d 5.1.2) or stay in compatibility format as the
 * cell wrote them (false: no IOMMU, or remapping off).  Fixed while
 * Warden runs.
 */
bool iommu_cell_irqs_remapped(void);

/*
 * At cell create (cells_lock held): reserve n consecutive remapping
 * entries for cell, not present until set: 0 with *first, -WARDEN_ENOSPC
 * when the table's cells' range has no run of n free entries (nothing
 * reserved), -WARDEN_EINVAL when cells' interrupts are not remapped.
 * iommu_cell_irq_release gives them back (cell destroy, or a create
 * that fails); whatever a destroyed cell still has goes with its DMA
 * domain.
 */
int iommu_cell_irq_reserve(const struct cell *cell, unsigned int n, u32 *first);
void iommu_cell_irq_release(u32 first, unsigned int n);

/*
 * Entry index (reserved) now delivers vector, Fixed, physical, to the CPU
 * with APIC id apic_id (checked by the caller: a CPU of the cell), and
 * only for requests of function bdf (source-id verification); present
 * false makes it not present.  The unit's cached copy is invalidated
 * before return, so the caller may then let the device send.  0 or a
 * negative errno (index not reserved; the invalidation not confirmed).
 */
int iommu_cell_irq_set(u32 index, bool present, u32 vector, u32 apic_id,
		       u16 bdf);

/* The MSI address and data (remappable format) that make a device's
 * message use entry index: what the PCI unit writes into the device. */
void iommu_cell_irq_message(u32 index, u32 *addr, u32 *data);

/* Remapping entries reserved by cells now (0 when not remapped). */
unsigned int iommu_cell_irqs_used(void);
/* Remapping entries cell holds now (MSI, MSI-X, IOAPIC pins; 0 when not
 * remapped): warden cell stats. */
unsigned int iommu_cell_irqs_held(const struct cell *cell);

/*
 * A cell's IOAPIC pin through entry index (reserved with
 * iommu_cell_irq_reserve): as iommu_cell_irq_set, with the entry's
 * trigger mode (level) and verified against sid, the IOAPIC's requester
 * id (the system config's ioapics[].source_id: the IOAPIC is one
 * requester for all its pins, so the entry, not the id, keeps cells
 * apart).  0 or a negative errno; the unit's cached copy is invalidated
 * before return.
 */
int iommu_cell_pin_set(u32 index, bool present, u32 vector, u32 apic_id,
		       u16 sid, bool level);
/* The redirection entry (remappable format) that sends compatibility-
 * format entry's pin through entry index: its vector, polarity, trigger
 * mode and mask kept.  What the IOAPIC unit writes into the IOAPIC. */
u64 iommu_cell_pin_entry(u32 index, u64 entry);

#endif /* WARDEN_ASM_IOMMU_H */
