/* SPDX-License-Identifier: GPL-2.0 */
/* Inter-cell links, as the core sees them (the unit: arch/x86/link.c). */
#ifndef WARDEN_HV_LINK_H
#define WARDEN_HV_LINK_H

/* WARDEN_HC_LINK_GET_STATE: link index's peers, bits 0-3 up and bits 8-11
 * present, or -WARDEN_ENOENT (include/warden/hypercall.h). */
long link_get_state(unsigned long index);

#endif /* WARDEN_HV_LINK_H */
