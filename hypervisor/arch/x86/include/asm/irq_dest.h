/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a device interrupt may go: the destination checks shared by the
 * IOAPIC's redirection entries (ioapic.c) and MSI messages (pci.c).  Both
 * name their CPUs as an IPI does, so they are given in ICR form: low, the
 * ICR's low half (vector, delivery mode, destination mode; no shorthand),
 * and dest, the 8-bit destination ID.  irq_dest.c.
 */
#ifndef WARDEN_ASM_IRQ_DEST_H
#define WARDEN_ASM_IRQ_DEST_H

#include <hv/types.h>

struct cell;

/*
 * Why root may not send this interrupt, or NULL: it would reach a CPU
 * root gave to a cell.  A cell CPU's physical LDR is 0
 * (apic_cell_reset), so only its APIC ID or a broadcast names it.  On an
 * x2APIC machine (x2apic) logical destinations are refused: an x2APIC's
 * logical IDs do not fit 8 bits.
 */
const char *irq_root_dest_refused(bool x2apic, u32 low, u32 dest);

/*
 * Whether an entry of root's interrupt-remapping table may reach the CPUs
 * it names (the IOMMU unit's check before its table takes a copy): low in
 * ICR form (vector, delivery mode, destination mode 11), dest the entry's
 * destination id (x2apic: the table's x2APIC mode, 32-bit ids and the
 * x2APIC's logical cluster ids, SDM Vol. 3, 10.12.10.2; else 8 bits).
 * The CPUs of joining (a cell being created, its CPUs still root's; NULL
 * for none) count as that cell's.  NULL, or why not: a CPU not root's is
 * named (*apic_id is its APIC ID, *owner the name of the cell that has
 * it, "no cell" for a CPU lost to none), or a physical destination names
 * no CPU at all (*apic_id the id, *owner NULL).
 */
const char *irq_root_remapped_refused(bool x2apic, u32 low, u32 dest,
				      const struct cell *joining, u32 *apic_id,
				      const char **owner);

/*
 * Why root may not send an interrupt in remappable format (an MSI with
 * address bit 4, an IOAPIC entry with bit 48; VT-d 5.1.2, 5.1.5), or
 * NULL: it holds an index into root's interrupt-remapping table, so it
 * goes where that table says only while an IOMMU remaps root's
 * interrupts (iommu_remaps_interrupts); else the hardware takes it in
 * compatibility format and it goes where its destination bits say, which
 * nobody checked.
 */
const char *irq_root_remappable_refused(void);

/*
 * Why root may not send the MSI message (address addr_lo/addr_hi, data),
 * or NULL: the one rule for every message root programs -- a device's
 * MSI and MSI-X entries, the HPET's FSB routes.  The address must lie in
 * the local APICs' window (SDM Vol. 3, 11.11.1) and, in compatibility
 * format, not reach a CPU root gave to a cell (irq_root_dest_refused).
 * A message in remappable format: irq_root_remappable_refused (root's
 * table is root's until the hypervisor owns the IOMMU: its entries are
 * not checked).
 */
const char *irq_root_msi_refused(bool x2apic, u32 addr_lo, u32 addr_hi,
				 u32 data);

/*
 * Where a cell's interrupt goes: NULL with *apic_id its destination, a CPU
 * of the cell, or why it may not be sent: not one APIC ID in physical
 * mode (apic_cell_device_dest_refused: no broadcast, no logical
 * destination, since MSI and MSI-X messages reach the hardware as the
 * cell wrote them), a CPU outside the cell, or no CPU at all.
 */
const char *irq_cell_dest(const struct cell *cell, u32 low, u32 dest,
			  u32 *apic_id);

#endif /* WARDEN_ASM_IRQ_DEST_H */
