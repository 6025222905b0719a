/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOAPIC unit (hypervisor/arch/x86/ioapic/): what other units call.
 */
#ifndef WARDEN_ASM_IOAPIC_H
#define WARDEN_ASM_IOAPIC_H

/*
 * At disable, called by the IOMMU unit before its interrupt remapping
 * goes back to root's table: every pin of root's whose entry names the
 * hypervisor's remapping index (root's translated, ioapic.c) gets root's
 * own entry back.
 */
void ioapic_root_give_back(void);

#endif /* WARDEN_ASM_IOAPIC_H */
