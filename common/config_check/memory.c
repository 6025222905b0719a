// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation, memory rules: a cell's regions on their own, against
 * root's memory, the hypervisor's and the pages it traps, and against
 * the other cells' (docs/validation.md).
 */
#include "check.h"

static bool valid_mem_type(uint8_t t)
{
	return t == WARDEN_MEMTYPE_UC || t == WARDEN_MEMTYPE_WC ||
	       t == WARDEN_MEMTYPE_WT || t == WARDEN_MEMTYPE_WP ||
	       t == WARDEN_MEMTYPE_WB;
}

static void check_region_fields(struct checker *ck, const struct cell *c,
				uint32_t i, const struct region *r)
{
	uint32_t allowed = WARDEN_MEM_FLAGS_ALL;
	uint8_t need;

	if (r->reserved)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       c->regions_off + (size_t)i * REGION_SIZE +
				       REGION_OFF(reserved),
			       r->reserved);
	if (c->root)
		allowed &= ~WARDEN_MEM_COMM_REGION;
	if (r->flags & ~allowed)
		cc_fail_region(ck, WARDEN_RULE_MEM_FLAGS, i, r, r->flags,
			       allowed);
	if (!page_aligned(r->phys) || !page_aligned(r->guest) ||
	    !page_aligned(r->size))
		cc_fail_region(ck, WARDEN_RULE_MEM_UNALIGNED, i, r, r->guest,
			       0);
	if (!r->size)
		cc_fail_region(ck, WARDEN_RULE_MEM_EMPTY, i, r, 0, 0);
	else if (wraps(r->phys, r->size) || wraps(r->guest, r->size))
		cc_fail_region(ck, WARDEN_RULE_MEM_WRAPS, i, r, r->guest, 0);
	if (!valid_mem_type(r->type)) {
		cc_fail_region(ck, WARDEN_RULE_MEM_TYPE, i, r, r->type, 0);
	} else {
		need = (r->flags & WARDEN_MEM_IO) ? WARDEN_MEMTYPE_UC
						  : WARDEN_MEMTYPE_WB;
		if (r->type != need)
			cc_fail_region(ck, WARDEN_RULE_MEM_TYPE_MISMATCH, i, r,
				       r->type, need);
	}
	if (!c->root && is_comm(r) &&
	    (r->phys || r->size != CONFIG_CHECK_PAGE_SIZE ||
	     (r->flags & WARDEN_MEM_IO)))
		cc_fail_region(ck, WARDEN_RULE_COMM_REGION_SHAPE, i, r, 0, 0);
}

void cc_check_regions(struct checker *ck, const struct cell *c,
		      const struct system *sys)
{
	struct region r, q;
	unsigned int comm = 0;
	bool phys_done, guest_done, reset_ok = false;
	uint32_t i, j;

	for (i = 0; i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		check_region_fields(ck, c, i, &r);
		if (is_comm(&r))
			comm++;
		if (!region_sane(&r))
			continue;
		if ((r.flags & (WARDEN_MEM_LOADABLE | WARDEN_MEM_EXECUTE)) ==
			    (WARDEN_MEM_LOADABLE | WARDEN_MEM_EXECUTE) &&
		    !is_comm(&r) && c->reset >= r.guest &&
		    c->reset <= last(r.guest, r.size))
			reset_ok = true;
		if (sys && sys->hv_usable && !is_comm(&r) &&
		    overlap(r.phys, r.size, sys->hv_start, sys->hv_size))
			cc_fail_region(ck, WARDEN_RULE_MEM_OVERLAPS_HV, i, &r,
				       sys->hv_start, sys->hv_size);
		phys_done = is_comm(&r);
		guest_done = false;
		for (j = 0; j < i && !(phys_done && guest_done); j++) {
			cc_get_region(c, j, &q);
			if (!region_sane(&q))
				continue;
			if (!phys_done && !is_comm(&q) &&
			    overlap(r.phys, r.size, q.phys, q.size)) {
				cc_fail_region(ck, WARDEN_RULE_MEM_OVERLAP, i,
					       &r, j, 0);
				phys_done = true;
			}
			if (!guest_done &&
			    overlap(r.guest, r.size, q.guest, q.size)) {
				cc_fail_region(ck, WARDEN_RULE_MEM_OVERLAP, i,
					       &r, j, 1);
				guest_done = true;
			}
		}
	}
	if (c->root)
		return;
	if (comm != 1)
		cc_fail(ck, WARDEN_RULE_COMM_REGION_COUNT, WARDEN_ITEM_CELL,
			c->id, comm, 0, 0, 0);
	if (!reset_ok)
		cc_fail(ck, WARDEN_RULE_RESET_NOT_LOADABLE, WARDEN_ITEM_CELL,
			c->id, c->reset, 0, 0, 0);
}

bool cc_mmio_in_cell(const struct cell *c, uint64_t start, uint64_t size)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) &&
		    (r.flags & WARDEN_MEM_IO) && r.guest == r.phys &&
		    inside(start, size, r.phys, r.size))
			return true;
	}
	return false;
}

/* Is r inside one memory region of the root cell? */
static bool region_in_root(const struct region *r, const struct cell *root)
{
	struct region q;
	uint32_t i;

	for (i = 0; i < root->num_regions; i++) {
		cc_get_region(root, i, &q);
		if (region_sane(&q) && !is_comm(&q) &&
		    inside(r->phys, r->size, q.phys, q.size))
			return true;
	}
	return false;
}

/* Does r overlap a region of o?  o's comm region has no memory. */
static bool region_in_cell(const struct region *r, const struct cell *o)
{
	struct region q;
	uint32_t i;

	for (i = 0; i < o->num_regions; i++) {
		cc_get_region(o, i, &q);
		if (region_sane(&q) && !is_comm(&q) &&
		    overlap(r->phys, r->size, q.phys, q.size))
			return true;
	}
	return false;
}

/*
 * The first address the hypervisor traps for root or for every cell that
 * [start, start + size) overlaps; what (WARDEN_TRAPPED_*) says which, 0:
 * none.  MMCONFIG is cc_check_config_space's.
 *
 * - The local APIC window, 1 MiB: a CPU's xAPIC page is trapped only at
 *   the guest address where the CPU's APIC base puts it, so the same host
 *   page mapped elsewhere would reach the physical APIC (ICR: any IPI,
 *   NMI or INIT to any CPU); and the rest of the window is where MSIs are
 *   written (SDM vol 3 11.11.1: address 0xFEExxxxx), which some chipsets
 *   (QEMU's) decode from CPU writes as well.
 * - Each IOAPIC's page: root's and cells' pins are moderated there.
 * - The IOMMU's register page (VT-d 10.4: 4 KiB aligned; the hypervisor
 *   reads its remapping table and root's use of it is watched).
 * - The HPET's page: its timers choose IOAPIC pins and MSI messages, so
 *   the hypervisor checks root's writes there (hpet.c).
 */
static uint64_t trapped_at(const struct system *sys, uint64_t start,
			   uint64_t size, uint64_t *what)
{
	struct ioapic a;
	uint32_t i;

	*what = WARDEN_TRAPPED_LAPIC;
	if (overlap(start, size, WARDEN_LAPIC_WINDOW, WARDEN_LAPIC_WINDOW_SIZE))
		return WARDEN_LAPIC_WINDOW;
	*what = WARDEN_TRAPPED_IOAPIC;
	for (i = 0; sys->ioapics && i < sys->num_ioapics; i++) {
		cc_get_ioapic(sys, sys->root.blob, i, &a);
		if (overlap(start, size, a.address, 4096))
			return a.address;
	}
	*what = WARDEN_TRAPPED_IOMMU;
	if (sys->iommu_base && overlap(start, size, sys->iommu_base, 4096))
		return sys->iommu_base;
	if (cc_iommu_at(sys, start, size))
		return cc_iommu_at(sys, start, size);
	*what = WARDEN_TRAPPED_HPET;
	if (sys->hpet_base &&
	    overlap(start, size, sys->hpet_base & ~4095ull, 4096))
		return sys->hpet_base;
	*what = 0;
	return 0;
}

void cc_check_regions_root(struct checker *ck, const struct cell *c,
			   const struct system *sys)
{
	uint64_t at, what;
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		if (!region_sane(&r) || is_comm(&r))
			continue;
		if (sys->hv_usable &&
		    overlap(r.phys, r.size, sys->hv_start, sys->hv_size))
			cc_fail_region(ck, WARDEN_RULE_MEM_OVERLAPS_HV, i, &r,
				       sys->hv_start, sys->hv_size);
		else if (!region_in_root(&r, &sys->root))
			cc_fail_region(ck, WARDEN_RULE_MEM_NOT_IN_ROOT, i, &r,
				       0, 0);
		/* checked here, in the one validator, so that the CLI
		 * refuses it offline and the hypervisor again at create */
		at = trapped_at(sys, r.phys, r.size, &what);
		if (what)
			cc_fail_region(ck, WARDEN_RULE_MEM_TRAPPED, i, &r, what,
				       at);
	}
}

void cc_check_regions_other(struct checker *ck, const struct cell *c,
			    const struct cell *o)
{
	struct region r;
	uint32_t i;

	for (i = 0; i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) && region_in_cell(&r, o))
			cc_fail_region(ck, WARDEN_RULE_MEM_IN_OTHER_CELL, i, &r,
				       o->id, 0);
	}
}
