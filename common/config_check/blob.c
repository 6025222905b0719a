// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation: reading a blob and reporting what is wrong with it.
 *
 * Blobs are never cast to structures: every field is read byte by byte at
 * its ABI offset (check.h's *_OFF), after the bounds check that
 * cc_read_cell makes for the arrays, so any alignment and any size is safe.
 * Also the look-ups that several rule families share (a pin, a device,
 * the device that shares an INTx line).
 */
#include "check.h"

void cc_fail(struct checker *ck, uint32_t rule, uint32_t kind, uint32_t index,
	     uint64_t v0, uint64_t v1, uint64_t v2, uint64_t v3)
{
	struct warden_error err = {
		.code = -CC_EINVAL,
		.rule = rule,
		.item_kind = kind,
		.item_index = index,
		.cpu = WARDEN_NO_CPU,
		.values = { v0, v1, v2, v3 },
	};

	if (rule == WARDEN_RULE_CONFIG_TOO_LARGE ||
	    rule == WARDEN_RULE_CONFIG_TOO_MANY)
		err.code = -CC_E2BIG;
	ck->errors++;
	if (ck->report)
		ck->report(ck->ctx, &err);
}

void cc_fail_config(struct checker *ck, uint32_t rule, uint64_t v0, uint64_t v1)
{
	cc_fail(ck, rule, WARDEN_ITEM_CONFIG, 0, v0, v1, 0, 0);
}

void cc_fail_region(struct checker *ck, uint32_t rule, uint32_t index,
		    const struct region *r, uint64_t v2, uint64_t v3)
{
	cc_fail(ck, rule, WARDEN_ITEM_MEMORY_REGION, index, r->phys, r->size,
		v2, v3);
}

void cc_fail_pio(struct checker *ck, uint32_t rule, uint32_t index,
		 const struct pio *p, uint64_t v2)
{
	cc_fail(ck, rule, WARDEN_ITEM_PIO_RANGE, index, p->base, p->length, v2,
		0);
}

void cc_read_console(const uint8_t *p, size_t off, struct console *c)
{
	c->type = load16(p, off + OFF(struct warden_console, type));
	c->flags = load16(p, off + OFF(struct warden_console, flags));
	c->address = load64(p, off + OFF(struct warden_console, address));
}

void cc_read_cell(struct checker *ck, struct cell *c, const uint8_t *p,
		  size_t size, size_t desc, uint64_t extra)
{
	uint32_t total =
		load32(p, OFF(struct warden_config_header, total_size));
	uint64_t needed;
	unsigned int i;

	c->blob = p;
	c->size = size;
	c->desc = desc;
	c->flags = load32(p, desc + CELL_OFF(flags));
	c->num_regions = load32(p, desc + CELL_OFF(num_memory_regions));
	c->num_pio = load32(p, desc + CELL_OFF(num_pio_ranges));
	c->num_pins = load32(p, desc + CELL_OFF(num_irq_pins));
	c->num_pci = load32(p, desc + CELL_OFF(num_pci_devices));
	c->reserved = load32(p, desc + CELL_OFF(reserved));
	for (i = 0; i < WARDEN_CPU_SET_WORDS; i++)
		c->cpus[i] = load64(p, desc + CELL_OFF(cpus) + 8 * i);
	c->reset = load64(p, desc + CELL_OFF(reset_address));
	cc_read_console(p, desc + CELL_OFF(console), &c->console);

	c->arrays = true;
	if (c->num_regions > CONFIG_CHECK_MAX_REGIONS) {
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 0,
			c->num_regions, CONFIG_CHECK_MAX_REGIONS, 0, 0);
		c->arrays = false;
	}
	if (c->num_pio > CONFIG_CHECK_MAX_PIO_RANGES) {
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 1,
			c->num_pio, CONFIG_CHECK_MAX_PIO_RANGES, 0, 0);
		c->arrays = false;
	}
	if (c->num_pins > CONFIG_CHECK_MAX_PINS) {
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 2,
			c->num_pins, CONFIG_CHECK_MAX_PINS, 0, 0);
		c->arrays = false;
	}
	if (c->num_pci > CONFIG_CHECK_MAX_PCI_DEVICES) {
		cc_fail(ck, WARDEN_RULE_CONFIG_TOO_MANY, WARDEN_ITEM_CONFIG, 3,
			c->num_pci, CONFIG_CHECK_MAX_PCI_DEVICES, 0, 0);
		c->arrays = false;
	}
	c->regions_off = desc + CELL_DESC_SIZE;
	needed = (uint64_t)c->regions_off +
		 (uint64_t)c->num_regions * REGION_SIZE +
		 (uint64_t)c->num_pio * PIO_SIZE +
		 (uint64_t)c->num_pins * PIN_SIZE +
		 (uint64_t)c->num_pci * PCI_SIZE + extra;
	/* Blame the counts only when they match neither the header nor the
	 * blob; a header that disagrees with the blob is CONFIG_SIZE. */
	if (needed != total && needed != size)
		cc_fail_config(ck, WARDEN_RULE_CONFIG_COUNTS, needed, total);
	if (needed > size)
		c->arrays = false;
	c->pio_off = c->regions_off + (size_t)c->num_regions * REGION_SIZE;
	c->pins_off = c->pio_off + (size_t)c->num_pio * PIO_SIZE;
	c->pci_off = c->pins_off + (size_t)c->num_pins * PIN_SIZE;
	c->end_off = c->pci_off + (size_t)c->num_pci * PCI_SIZE;
}

void cc_get_region(const struct cell *c, uint32_t i, struct region *r)
{
	size_t off = c->regions_off + (size_t)i * REGION_SIZE;

	r->phys = load64(c->blob, off + REGION_OFF(phys_start));
	r->guest = load64(c->blob, off + REGION_OFF(guest_start));
	r->size = load64(c->blob, off + REGION_OFF(size));
	r->flags = load32(c->blob, off + REGION_OFF(flags));
	r->type = c->blob[off + REGION_OFF(mem_type)];
	r->reserved = (uint32_t)load(c->blob, off + REGION_OFF(reserved), 3);
}

void cc_get_pio(const struct cell *c, uint32_t i, struct pio *r)
{
	size_t off = c->pio_off + (size_t)i * PIO_SIZE;

	r->base = load16(c->blob, off + PIO_OFF(base));
	r->reserved = load16(c->blob, off + PIO_OFF(reserved));
	r->length = load32(c->blob, off + PIO_OFF(length));
}

void cc_get_pin(const struct cell *c, uint32_t i, uint32_t *gsi,
		uint32_t *reserved)
{
	size_t off = c->pins_off + (size_t)i * PIN_SIZE;

	*gsi = load32(c->blob, off + PIN_OFF(gsi));
	if (reserved)
		*reserved = load32(c->blob, off + PIN_OFF(reserved));
}

uint32_t cc_pin_gsi(const struct cell *c, uint32_t i)
{
	uint32_t gsi;

	cc_get_pin(c, i, &gsi, NULL);
	return gsi;
}

void cc_get_pci(const struct cell *c, uint32_t i, struct pci *d)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	size_t bar;
	unsigned int b;

	d->domain = load16(c->blob, off + PCI_OFF(domain));
	d->bdf = load16(c->blob, off + PCI_OFF(bdf));
	d->vendor = load16(c->blob, off + PCI_OFF(vendor_id));
	d->device = load16(c->blob, off + PCI_OFF(device_id));
	d->flags = load32(c->blob, off + PCI_OFF(flags));
	d->int_pin = c->blob[off + PCI_OFF(int_pin)];
	d->reserved0 = (uint32_t)load(c->blob, off + PCI_OFF(reserved0), 3);
	d->gsi = load32(c->blob, off + PCI_OFF(gsi));
	d->dma_alias = load16(c->blob, off + PCI_OFF(dma_alias));
	d->reserved1 = load16(c->blob, off + PCI_OFF(reserved1));
	for (b = 0; b < WARDEN_PCI_BARS; b++) {
		bar = off + PCI_OFF(bars) + b * BAR_SIZE;
		d->bars[b].address = load64(c->blob, bar + BAR_OFF(address));
		d->bars[b].size = load64(c->blob, bar + BAR_OFF(size));
		d->bars[b].flags = load32(c->blob, bar + BAR_OFF(flags));
		d->bars[b].reserved = load32(c->blob, bar + BAR_OFF(reserved));
	}
}

uint32_t cc_pci_id_at(const struct cell *c, uint32_t i)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;

	return (uint32_t)load16(c->blob, off + PCI_OFF(domain)) << 16 |
	       load16(c->blob, off + PCI_OFF(bdf));
}

/* The gsi of device i, and whether its INTx drives it (int_pin A-D and
 * a GSI given), without reading the rest: the loops over pins and
 * devices stay cheap in the hypervisor. */
static uint32_t pci_gsi_at(const struct cell *c, uint32_t i, bool *intx)
{
	size_t off = c->pci_off + (size_t)i * PCI_SIZE;
	uint8_t pin = c->blob[off + PCI_OFF(int_pin)];
	uint32_t gsi = load32(c->blob, off + PCI_OFF(gsi));

	if (intx)
		*intx = pin >= WARDEN_PCI_INT_A && pin <= WARDEN_PCI_INT_D &&
			gsi != WARDEN_NO_GSI;
	return gsi;
}

void cc_get_ioapic(const struct system *sys, const uint8_t *p, uint32_t i,
		   struct ioapic *a)
{
	size_t off = sys->ioapics_off + (size_t)i * IOAPIC_SIZE;

	a->address = load64(p, off + IOAPIC_OFF(address));
	a->gsi_base = load32(p, off + IOAPIC_OFF(gsi_base));
	a->id = p[off + IOAPIC_OFF(id)];
	a->num_pins = p[off + IOAPIC_OFF(num_pins)];
	a->source_id = load16(p, off + IOAPIC_OFF(source_id));
}

bool cc_names_equal(const uint8_t *x, const uint8_t *y)
{
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (x[i] != y[i])
			return false;
		if (!x[i])
			return true;
	}
	return true;
}

bool cc_has_pin(const struct cell *c, uint32_t gsi)
{
	uint32_t i;

	for (i = 0; i < c->num_pins; i++)
		if (cc_pin_gsi(c, i) == gsi)
			return true;
	return false;
}

int64_t cc_find_pci(const struct cell *c, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < c->num_pci; i++)
		if (cc_pci_id_at(c, i) == id)
			return i;
	return -1;
}

bool cc_pin_named(const struct cell *c, uint32_t gsi)
{
	uint32_t i;

	for (i = 0; i < c->num_pci; i++)
		if (pci_gsi_at(c, i, NULL) == gsi)
			return true;
	return false;
}

int64_t cc_intx_sharer(const struct cell *c, const struct system *sys,
		       uint32_t gsi, uint64_t self)
{
	uint32_t j, id;
	bool intx;

	for (j = 0; j < sys->root.num_pci; j++) {
		if (pci_gsi_at(&sys->root, j, &intx) != gsi || !intx)
			continue;
		id = cc_pci_id_at(&sys->root, j);
		if (id != self && cc_find_pci(c, id) < 0)
			return id;
	}
	return -1;
}
