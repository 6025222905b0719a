// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation: the IOMMU units of a system config (struct
 * warden_iommu_unit, from the ACPI DMAR's DRHDs, VT-d 8.3).  A unit
 * translates the functions of its device scope, or with INCLUDE_PCI_ALL
 * every function of its segment no other unit lists (8.3: at most one
 * such unit per segment).  Where units are listed, every PCI function of
 * root's list -- which holds every cell's function (PCI_NOT_IN_SYSTEM) --
 * must be covered by one, so that no function's DMA escapes every unit.
 * platform.iommu_base, the unit the hypervisor takes, is one of them or
 * 0 (none taken).
 */
#include "check.h"

struct unit {
	uint64_t base;
	uint16_t segment;
	uint8_t flags;
	uint8_t num_scopes;
	uint32_t reserved;
	size_t off;
};

static void get_unit(const struct system *sys, uint32_t i, struct unit *u)
{
	const uint8_t *p = sys->root.blob;

	u->off = sys->iommus_off + (size_t)i * IOMMU_SIZE;
	u->base = load64(p, u->off + IOMMU_OFF(base));
	u->segment = load16(p, u->off + IOMMU_OFF(segment));
	u->flags = p[u->off + IOMMU_OFF(flags)];
	u->num_scopes = p[u->off + IOMMU_OFF(num_scopes)];
	u->reserved = load32(p, u->off + IOMMU_OFF(reserved));
}

/* Scope slot k of the unit: bdf, type, end bus. */
static void get_scope(const struct system *sys, const struct unit *u,
		      uint32_t k, uint16_t *bdf, uint8_t *type, uint8_t *end)
{
	size_t off = u->off + IOMMU_OFF(scopes) +
		     (size_t)k * sizeof(struct warden_iommu_scope);

	*bdf = load16(sys->root.blob, off);
	*type = sys->root.blob[off + 2];
	*end = sys->root.blob[off + 3];
}

static bool scope_ok(uint16_t bdf, uint8_t type, uint8_t end)
{
	if (type == WARDEN_IOMMU_SCOPE_FUNCTION)
		return !end;
	if (type == WARDEN_IOMMU_SCOPE_BUSES)
		return !(bdf & 0xff) && end >= bdf >> 8;
	return false;
}

static void fail_unit(struct checker *ck, uint32_t i, uint64_t base,
		      uint64_t what, uint64_t value)
{
	cc_fail(ck, WARDEN_RULE_IOMMU_UNIT, WARDEN_ITEM_IOMMU, i, base, what,
		value, 0);
}

static void check_unit(struct checker *ck, const struct system *sys, uint32_t i,
		       const struct unit *u)
{
	uint32_t k, limit = WARDEN_IOMMU_MAX_SCOPES;
	uint16_t bdf;
	uint8_t type, end;

	if (!u->base || !page_aligned(u->base))
		fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_BASE, 0);
	if (u->flags & ~WARDEN_IOMMU_FLAGS_ALL)
		fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_FLAGS,
			  u->flags & ~WARDEN_IOMMU_FLAGS_ALL);
	if (u->reserved)
		fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_RESERVED,
			  WARDEN_IOMMU_MAX_SCOPES);
	if (u->num_scopes > WARDEN_IOMMU_MAX_SCOPES)
		fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_SCOPES,
			  u->num_scopes);
	else
		limit = u->num_scopes;
	if ((u->flags & WARDEN_IOMMU_INCLUDE_PCI_ALL) && u->num_scopes)
		fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_ALL_SCOPES,
			  u->num_scopes);
	for (k = 0; k < WARDEN_IOMMU_MAX_SCOPES; k++) {
		get_scope(sys, u, k, &bdf, &type, &end);
		if (k >= limit && (bdf || type || end))
			fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_RESERVED,
				  k);
		else if (k < limit && !scope_ok(bdf, type, end))
			fail_unit(ck, i, u->base, WARDEN_IOMMU_UNIT_SCOPE, k);
	}
}

/* Does unit u list function bdf (a scope of a valid type)? */
static bool unit_lists(const struct system *sys, const struct unit *u,
		       uint16_t fn)
{
	uint32_t k;
	uint16_t bdf;
	uint8_t type, end;

	for (k = 0; k < u->num_scopes && k < WARDEN_IOMMU_MAX_SCOPES; k++) {
		get_scope(sys, u, k, &bdf, &type, &end);
		if (type == WARDEN_IOMMU_SCOPE_FUNCTION && bdf == fn)
			return true;
		if (type == WARDEN_IOMMU_SCOPE_BUSES && fn >> 8 >= bdf >> 8 &&
		    fn >> 8 <= end)
			return true;
	}
	return false;
}

static bool covered(const struct system *sys, uint32_t id)
{
	struct unit u;
	uint32_t i;

	for (i = 0; i < sys->num_iommus; i++) {
		get_unit(sys, i, &u);
		if (u.segment != id >> 16)
			continue;
		if ((u.flags & WARDEN_IOMMU_INCLUDE_PCI_ALL) ||
		    unit_lists(sys, &u, (uint16_t)id))
			return true;
	}
	return false;
}

void cc_check_iommus(struct checker *ck, const struct system *sys)
{
	struct unit u, o;
	bool listed = false;
	uint32_t i, j;

	if (!sys->iommus || !sys->num_iommus)
		return;
	for (i = 0; i < sys->num_iommus; i++) {
		get_unit(sys, i, &u);
		check_unit(ck, sys, i, &u);
		listed |= u.base == sys->iommu_base && !u.segment;
		for (j = 0; j < i; j++) {
			get_unit(sys, j, &o);
			if (o.base == u.base)
				fail_unit(ck, i, u.base,
					  WARDEN_IOMMU_UNIT_DUPLICATE, j);
			else if (o.segment == u.segment &&
				 (o.flags & u.flags &
				  WARDEN_IOMMU_INCLUDE_PCI_ALL))
				fail_unit(ck, i, u.base,
					  WARDEN_IOMMU_UNIT_ALL_TWICE, j);
		}
	}
	/* iommu_base 0: the hypervisor takes no unit (cells' functions then
	 * need dma_unisolated, rule PCI_DMA) */
	if (sys->iommu_base && !listed)
		cc_fail(ck, WARDEN_RULE_IOMMU_UNIT, WARDEN_ITEM_SYSTEM, 0,
			sys->iommu_base, WARDEN_IOMMU_UNIT_NOT_LISTED, 0, 0);
	if (!sys->root.arrays)
		return;
	for (i = 0; i < sys->root.num_pci; i++)
		if (!covered(sys, cc_pci_id_at(&sys->root, i)))
			cc_fail(ck, WARDEN_RULE_PCI_NO_IOMMU,
				WARDEN_ITEM_PCI_DEVICE, i,
				cc_pci_id_at(&sys->root, i), 0, 0, 0);
}

uint64_t cc_iommu_at(const struct system *sys, uint64_t start, uint64_t size)
{
	struct unit u;
	uint32_t i;

	for (i = 0; sys->iommus && i < sys->num_iommus; i++) {
		get_unit(sys, i, &u);
		if (u.base && overlap(start, size, u.base & ~4095ull, 4096))
			return u.base;
	}
	return 0;
}
