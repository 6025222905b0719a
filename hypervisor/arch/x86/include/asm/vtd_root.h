/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Root's IOMMU, watched (vtd_root.c), until the hypervisor owns it: root
 * Linux runs the Intel IOMMU of platform.iommu_base, and its interrupt
 * remapping decides where root's remappable-format interrupts go.  So
 * the unit keeps that remapping on once root turned it on: root's page
 * of the IOMMU's registers is mapped read-only, its writes trap, and a
 * global-command write that would turn interrupt remapping off is
 * refused (every other write is performed).  Root's remapping table
 * itself stays root's: an entry root writes there is not checked (open
 * until the IOMMU issue).
 *
 * The register layout is the VT-d specification's (10.4).
 */
#ifndef WARDEN_ASM_VTD_ROOT_H
#define WARDEN_ASM_VTD_ROOT_H

#include <hv/types.h>

#define VTD_VER 0x00
#define VTD_GCMD 0x18		 /* global command (10.4.4) */
#define VTD_GSTS 0x1c		 /* global status (10.4.5) */
#define VTD_GCMD_IRE (1u << 25)	 /* interrupt remapping enable */
#define VTD_GSTS_IRES (1u << 25) /* ... status */

/*
 * Whether an IOMMU remaps root's interrupts now: the system config names
 * one, it answered at enable (its version register is not all ones: the
 * config may name an IOMMU the machine does not have), and its
 * GSTS.IRES is set.  Once true it stays true while Warden runs (root
 * cannot clear IRE).
 */
bool vtd_root_remaps_interrupts(void);

#endif /* WARDEN_ASM_VTD_ROOT_H */
