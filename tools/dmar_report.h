/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel IOMMU in words, for "hardware check" and "config create": the
 * ACPI DMAR's units and device scopes (acpi.h) and, where Linux shows
 * them, each unit's capability registers.
 */
#ifndef WARDEN_TOOLS_DMAR_REPORT_H
#define WARDEN_TOOLS_DMAR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acpi.h"

/* What the hypervisor needs from a unit's CAP and ECAP registers (VT-d
 * 3.4, 11.4.2 and 11.4.3). */
struct dmar_caps {
	bool levels3, levels4, levels5; /* SAGAW: 39/48/57-bit tables */
	bool pages_2m, pages_1g;	/* SLLPS */
	unsigned int fault_records;	/* NFR + 1 */
	unsigned int domain_bits;	/* ND: 2^(4 + 2 ND) domain ids */
	bool qi, ir, eim, device_tlb;	/* ECAP.QI, IR, EIM, DT */
};

void dmar_caps_decode(uint64_t cap, uint64_t ecap, struct dmar_caps *out);

/*
 * d in one line into buf (len bytes, always terminated): the DMA address
 * width, interrupt remapping, then per unit its base, what it covers
 * (all of a segment, or its listed functions) and the IOAPICs and HPETs
 * with their source ids; caps[i] (NULL, or one per unit, with known[i])
 * adds the unit's tables, page sizes, QI, IR and fault records.
 */
void dmar_describe(const struct acpi_dmar *d, const struct dmar_caps *caps,
		   const bool *known, char *buf, size_t len);

#endif /* WARDEN_TOOLS_DMAR_REPORT_H */
