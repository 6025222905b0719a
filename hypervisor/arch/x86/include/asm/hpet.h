/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HPET unit (hypervisor/arch/x86/hpet/): what other units call.
 */
#ifndef WARDEN_ASM_HPET_PUBLIC_H
#define WARDEN_ASM_HPET_PUBLIC_H

/*
 * At disable: every timer's FSB route names root's own address again
 * (root's translated, hpet.c).  The IOMMU unit's shutdown calls it before
 * its interrupt remapping goes back to root's table, as for root's MSIs
 * and IOAPIC pins (the HPET's own shutdown, which comes after the IOMMU's,
 * calls it too, for machines without an IOMMU).
 */
void hpet_root_give_back(void);

#endif /* WARDEN_ASM_HPET_PUBLIC_H */
