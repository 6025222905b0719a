/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plain-C rules of the link unit (link_rules.c), also compiled into
 * the unit tests: the doorbell bound, and reading an MSI through an
 * Intel IOMMU's interrupt-remapping table (Intel VT-d specification,
 * 5.1 "Interrupt Remapping": the remappable MSI format, 5.1.2.4, and the
 * remapping table entry, 9.10).
 */
#ifndef WARDEN_ASM_LINK_RULES_H
#define WARDEN_ASM_LINK_RULES_H

#include <hv/types.h>

/*
 * A token bucket: at most burst doorbells at once, rate per millisecond
 * on average.  tokens: doorbells that may go now; last: the time up to
 * which refills are counted.  link_bucket_take: may one more doorbell go
 * at time now (ms_ticks timestamp ticks per millisecond)?  True takes a
 * token.
 */
struct link_bucket {
	u64 last;
	u32 tokens;
};

void link_bucket_init(struct link_bucket *b, u64 now, u32 burst);
bool link_bucket_take(struct link_bucket *b, u64 now, u64 ms_ticks, u32 rate,
		      u32 burst);

/* DMAR registers (VT-d 10.4): global status (IRES: interrupt remapping
 * enabled), interrupt remapping table address (IRTA). */
#define VTD_GSTS 0x1c
#define VTD_GSTS_IRES (1u << 25)
#define VTD_IRTA 0xb8
#define VTD_IRTA_EIME (1ull << 11) /* x2APIC mode: 32-bit destinations */
#define VTD_IRTA_SIZE_MASK 0xfull  /* 2^(S + 1) entries */
#define VTD_IRTE_SIZE 16

/*
 * The remapping-table index of a remappable MSI (address bit 4 set):
 * handle in address bits 19:5 and 2, plus the data's sub-handle when
 * address bit 3 (SHV) is set.
 */
u32 vtd_msi_index(u32 addr, u32 data);

/*
 * An interrupt-remapping table entry's low 64 bits (lo) as an interrupt
 * in ICR form: NULL with *low (vector, delivery mode, destination mode)
 * and *dest, or why it cannot be sent as a fixed interrupt: not present,
 * posted (IM), level-triggered, a delivery mode other than Fixed or
 * Lowest Priority, or a vector below 0x10.  eime: the table is in x2APIC
 * mode (destination bits 63:32), else xAPIC (bits 47:40).
 */
const char *vtd_irte_decode(u64 lo, bool eime, u32 *low, u32 *dest);

#endif /* WARDEN_ASM_LINK_RULES_H */
