// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation, PCI device rules: a cell's devices and their BARs on
 * their own, against the system's list and the BARs of the devices it
 * does not take, PCI configuration space, and against the other cells'
 * devices (docs/validation.md).
 */
#include "check.h"

unsigned int cc_bar_fault(const struct pci *d, unsigned int b, bool upper,
			  uint64_t *value)
{
	const struct pci_bar *bar = &d->bars[b];
	uint32_t io_bad = WARDEN_PCI_BAR_MEM64 | WARDEN_PCI_BAR_PREFETCH;

	*value = bar->size;
	if (upper)
		return bar->size || bar->address || bar->flags
			       ? WARDEN_PCI_BAR_BAD_UPPER
			       : 0;
	*value = bar->flags;
	/* 64-bit and prefetchable describe memory, not ports */
	if ((bar->flags & ~WARDEN_PCI_BAR_FLAGS_ALL) ||
	    ((bar->flags & WARDEN_PCI_BAR_IO) && (bar->flags & io_bad)))
		return WARDEN_PCI_BAR_BAD_FLAGS;
	if (!bar->size) {
		*value = bar->address;
		return bar->address || bar->flags ? WARDEN_PCI_BAR_BAD_EMPTY
						  : 0;
	}
	if (!power_of_2(bar->size)) {
		*value = bar->size;
		return WARDEN_PCI_BAR_BAD_SIZE;
	}
	*value = bar->address;
	if (bar->address & (bar->size - 1))
		return WARDEN_PCI_BAR_BAD_ALIGN;
	if ((bar->flags & WARDEN_PCI_BAR_IO) &&
	    (bar->address >= PORT_END || bar->size > PORT_END - bar->address))
		return WARDEN_PCI_BAR_BAD_PORTS;
	*value = bar->flags;
	if ((bar->flags & WARDEN_PCI_BAR_MEM64) && b == WARDEN_PCI_BARS - 1)
		return WARDEN_PCI_BAR_BAD_MEM64_5;
	return 0;
}

/* Checks the BARs; ok[b]: BAR b is valid and not empty. */
static void check_bars(struct checker *ck, uint32_t i, const struct pci *d,
		       bool *ok)
{
	unsigned int b, why;
	bool upper = false;
	uint64_t value;

	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		why = cc_bar_fault(d, b, upper, &value);
		if (why)
			cc_fail(ck, WARDEN_RULE_PCI_BAR, WARDEN_ITEM_PCI_DEVICE,
				i, pci_id(d), b, why, value);
		ok[b] = !why && !upper && d->bars[b].size;
		upper = !upper && (d->bars[b].flags & WARDEN_PCI_BAR_MEM64);
	}
}

static void check_pci_reserved(struct checker *ck, const struct cell *c,
			       uint32_t i, const struct pci *d)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	unsigned int b;

	if (d->reserved0)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       off + PCI_OFF(reserved0), d->reserved0);
	if (d->reserved1)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       off + PCI_OFF(reserved1), d->reserved1);
	if (d->dma_alias && !(d->flags & WARDEN_PCI_DMA_ALIAS))
		cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
			       off + PCI_OFF(dma_alias), d->dma_alias);
	for (b = 0; b < WARDEN_PCI_BARS; b++)
		if (d->bars[b].reserved)
			cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				       off + PCI_OFF(bars) + b * BAR_SIZE +
					       BAR_OFF(reserved),
				       d->bars[b].reserved);
}

/* A non-root cell sees its device's BARs where they are and owns the pin
 * its INTx drives. */
static void check_pci_owned(struct checker *ck, const struct cell *c,
			    uint32_t i, const struct pci *d, const bool *ok)
{
	const struct pci_bar *bar;
	unsigned int b;

	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		bar = &d->bars[b];
		if (!ok[b])
			continue;
		if (bar->flags & WARDEN_PCI_BAR_IO) {
			if (!cc_ports_in_cell(c, bar->address, bar->size))
				cc_fail(ck, WARDEN_RULE_PCI_BAR_PORTS,
					WARDEN_ITEM_PCI_DEVICE, i, pci_id(d), b,
					bar->address, bar->size);
		} else if (!cc_mmio_in_cell(c, bar->address, bar->size)) {
			cc_fail(ck, WARDEN_RULE_PCI_BAR_NOT_MAPPED,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(d), b,
				bar->address, bar->size);
		}
	}
	if (pci_intx(d) && !cc_has_pin(c, d->gsi))
		cc_fail(ck, WARDEN_RULE_PCI_PIN_NOT_OWNED,
			WARDEN_ITEM_PCI_DEVICE, i, pci_id(d), d->gsi, 0, 0);
}

void cc_check_pci(struct checker *ck, const struct cell *c)
{
	uint32_t allowed = WARDEN_PCI_FLAGS_ALL;
	bool ok[WARDEN_PCI_BARS];
	struct pci d;
	uint32_t i, j;

	/* root lists the machine's devices: it takes none unisolated */
	if (c->root)
		allowed &= ~WARDEN_PCI_DMA_UNISOLATED;
	for (i = 0; i < c->num_pci; i++) {
		cc_get_pci(c, i, &d);
		check_pci_reserved(ck, c, i, &d);
		for (j = 0; j < i; j++) {
			if (cc_pci_id_at(c, j) == pci_id(&d)) {
				cc_fail(ck, WARDEN_RULE_PCI_DUPLICATE,
					WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d),
					j, 0, 0);
				break;
			}
		}
		if (d.flags & ~allowed)
			cc_fail(ck, WARDEN_RULE_PCI_FLAGS,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), d.flags,
				allowed, 0);
		if (d.int_pin > WARDEN_PCI_INT_D)
			cc_fail(ck, WARDEN_RULE_PCI_INT_PIN,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d),
				d.int_pin, 0, 0);
		else if (d.int_pin == WARDEN_PCI_INT_NONE &&
			 d.gsi != WARDEN_NO_GSI)
			cc_fail(ck, WARDEN_RULE_PCI_GSI_NO_PIN,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), d.gsi, 0,
				0);
		check_bars(ck, i, &d, ok);
		if (!c->root)
			check_pci_owned(ck, c, i, &d, ok);
	}
}

void cc_check_config_space(struct checker *ck, const struct cell *c,
			   const struct system *sys)
{
	struct region r;
	struct pio p;
	uint32_t i;

	for (i = 0; i < c->num_pio; i++) {
		cc_get_pio(c, i, &p);
		if (pio_sane(&p) && overlap(p.base, p.length, 0xcf8, 8))
			cc_fail_pio(ck, WARDEN_RULE_PCI_CONFIG_IN_CELL, i, &p,
				    0xcf8);
	}
	for (i = 0; sys->mmconfig_size && i < c->num_regions; i++) {
		cc_get_region(c, i, &r);
		if (region_sane(&r) && !is_comm(&r) &&
		    overlap(r.phys, r.size, sys->mmconfig_base,
			    sys->mmconfig_size))
			cc_fail_region(ck, WARDEN_RULE_PCI_CONFIG_IN_CELL, i,
				       &r, sys->mmconfig_base, 0);
	}
}

/* The first field of d that differs from s (WARDEN_PCI_FIELD_*, 0 none),
 * with both values. */
static unsigned int pci_diff(const struct pci *d, const struct pci *s,
			     uint64_t *dv, uint64_t *sv)
{
	const uint32_t msi = WARDEN_PCI_MSI | WARDEN_PCI_MSIX;
	unsigned int b;

#define DIFF(field, a, z)                                                      \
	do {                                                                   \
		if ((a) != (z)) {                                              \
			*dv = (a);                                             \
			*sv = (z);                                             \
			return (field);                                        \
		}                                                              \
	} while (0)
	DIFF(WARDEN_PCI_FIELD_VENDOR, d->vendor, s->vendor);
	DIFF(WARDEN_PCI_FIELD_DEVICE, d->device, s->device);
	DIFF(WARDEN_PCI_FIELD_INT_PIN, d->int_pin, s->int_pin);
	DIFF(WARDEN_PCI_FIELD_GSI, d->gsi, s->gsi);
	DIFF(WARDEN_PCI_FIELD_FLAGS, d->flags & msi, s->flags & msi);
	DIFF(WARDEN_PCI_FIELD_DMA_ALIAS, pci_alias(d), pci_alias(s));
	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		DIFF(WARDEN_PCI_FIELD_BAR(b, 0), d->bars[b].address,
		     s->bars[b].address);
		DIFF(WARDEN_PCI_FIELD_BAR(b, 1), d->bars[b].size,
		     s->bars[b].size);
		DIFF(WARDEN_PCI_FIELD_BAR(b, 2), d->bars[b].flags,
		     s->bars[b].flags);
	}
#undef DIFF
	return 0;
}

/* Rule LINUX_DMA for the cell's function i (id): its first memory
 * region, other than device memory and the communication region, whose
 * guest address is not its physical one and which is not wholly in the
 * first MiB.  Linux gives a device the addresses of buffers from its page
 * allocator, which never has the first MiB: since 5.13 x86 reserves all
 * of it in memblock and never frees it (linux 6.1
 * arch/x86/realmode/init.c, reserve_real_mode: "Unconditionally reserve
 * the entire first 1M"), so the cell's tables, boot stub and Linux's AP
 * trampoline may lie there at any physical address (docs/linux-cell.md,
 * "Devices"). */
#define LINUX_LOW_END 0x100000ull /* the first MiB */

static void linux_dma(struct checker *ck, const struct cell *c, uint32_t i,
		      uint64_t id)
{
	struct region r;
	uint32_t j;

	for (j = 0; j < c->num_regions; j++) {
		cc_get_region(c, j, &r);
		if (r.flags & (WARDEN_MEM_IO | WARDEN_MEM_COMM_REGION) ||
		    r.guest == r.phys ||
		    (r.guest < LINUX_LOW_END &&
		     r.size <= LINUX_LOW_END - r.guest))
			continue;
		cc_fail(ck, WARDEN_RULE_LINUX_DMA, WARDEN_ITEM_PCI_DEVICE, i,
			id, r.guest, r.phys, 0);
		return;
	}
}

void cc_check_pci_system(struct checker *ck, const struct cell *c,
			 const struct system *sys)
{
	struct pci d, s;
	uint64_t dv, sv;
	unsigned int field;
	int64_t k, other;
	uint32_t i;

	for (i = 0; i < c->num_pci; i++) {
		cc_get_pci(c, i, &d);
		k = cc_find_pci(&sys->root, pci_id(&d));
		if (k < 0) {
			cc_fail(ck, WARDEN_RULE_PCI_NOT_IN_SYSTEM,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), 0, 0, 0);
			continue;
		}
		/* its DMA: confined by the IOMMU the system names (the
		 * hypervisor takes every function of segment 0 into its
		 * owner's domain, or refuses enable), else only the config's
		 * word that it may go unconfined */
		if (!(d.flags & WARDEN_PCI_DMA_UNISOLATED) && !sys->iommu_base)
			cc_fail(ck, WARDEN_RULE_PCI_DMA, WARDEN_ITEM_PCI_DEVICE,
				i, pci_id(&d), 0, 0, 0);
		/* unconfined, from a Linux cell: Linux gives the device
		 * guest-physical addresses, right only at guest = phys */
		if ((d.flags & WARDEN_PCI_DMA_UNISOLATED) && !sys->iommu_base &&
		    (c->flags & WARDEN_CELL_LINUX))
			linux_dma(ck, c, i, pci_id(&d));
		cc_get_pci(&sys->root, (uint32_t)k, &s);
		field = pci_diff(&d, &s, &dv, &sv);
		if (field)
			cc_fail(ck, WARDEN_RULE_PCI_MISMATCH,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), field,
				dv, sv);
		/* an INTx line is level-triggered and shared: it cannot be
		 * split between two owners.  The line is the machine's, as
		 * the system's entry has it. */
		if (!pci_intx(&s))
			continue;
		other = cc_intx_sharer(c, sys, s.gsi, pci_id(&s));
		if (other >= 0)
			cc_fail(ck, WARDEN_RULE_PCI_INTX_SHARED,
				WARDEN_ITEM_PCI_DEVICE, i, pci_id(&d), s.gsi,
				(uint64_t)other, 0);
	}
}

#define MAX_ITEMS (CONFIG_CHECK_MAX_REGIONS + CONFIG_CHECK_MAX_PIO_RANGES)

void cc_check_bars_not_taken(struct checker *ck, const struct cell *c,
			     const struct system *sys)
{
	const struct cell *root = &sys->root;
	uint8_t reported[MAX_ITEMS / 8];
	uint32_t i, j, n = c->num_regions + c->num_pio;
	uint64_t value, start, size;
	unsigned int b;
	struct region r;
	struct pio p;
	struct pci d;
	bool upper, io;

	for (i = 0; i < MAX_ITEMS / 8; i++)
		reported[i] = 0;
	for (j = 0; j < root->num_pci; j++) {
		if (cc_find_pci(c, cc_pci_id_at(root, j)) >= 0)
			continue;
		cc_get_pci(root, j, &d);
		upper = false;
		for (b = 0; b < WARDEN_PCI_BARS; b++) {
			const struct pci_bar *bar = &d.bars[b];
			bool ok = !cc_bar_fault(&d, b, upper, &value) &&
				  !upper && bar->size;

			upper = !upper && (bar->flags & WARDEN_PCI_BAR_MEM64);
			if (!ok)
				continue;
			for (i = 0; i < n; i++) {
				io = i >= c->num_regions;
				if ((reported[i / 8] >> (i % 8)) & 1 ||
				    io != !!(bar->flags & WARDEN_PCI_BAR_IO))
					continue;
				if (io) {
					cc_get_pio(c, i - c->num_regions, &p);
					if (!pio_sane(&p))
						continue;
					start = p.base;
					size = p.length;
				} else {
					cc_get_region(c, i, &r);
					if (!region_sane(&r) || is_comm(&r))
						continue;
					start = r.phys;
					size = r.size;
				}
				if (!overlap(start, size, bar->address,
					     bar->size))
					continue;
				reported[i / 8] |= (uint8_t)(1u << (i % 8));
				if (io)
					cc_fail(ck, WARDEN_RULE_PIO_PCI_BAR,
						WARDEN_ITEM_PIO_RANGE,
						i - c->num_regions, start, size,
						pci_id(&d), b);
				else
					cc_fail(ck, WARDEN_RULE_MEM_PCI_BAR,
						WARDEN_ITEM_MEMORY_REGION, i,
						start, size, pci_id(&d), b);
			}
		}
	}
}

void cc_check_pci_other(struct checker *ck, const struct cell *c,
			const struct cell *o)
{
	uint32_t i, id;

	for (i = 0; i < c->num_pci; i++) {
		id = cc_pci_id_at(c, i);
		if (cc_find_pci(o, id) >= 0)
			cc_fail(ck, WARDEN_RULE_PCI_IN_OTHER_CELL,
				WARDEN_ITEM_PCI_DEVICE, i, id, o->id, 0, 0);
	}
}
