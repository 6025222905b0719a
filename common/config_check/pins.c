// SPDX-License-Identifier: GPL-2.0
/*
 * Config validation, interrupt pin rules: the system's IOAPICs and a
 * cell's pins on their own, against the IOAPICs, root's pins and the
 * system's devices, and against the other cells' (docs/validation.md).
 */
#include "check.h"

void cc_check_pins(struct checker *ck, const struct cell *c)
{
	uint32_t i, j, gsi, reserved;

	for (i = 0; i < c->num_pins; i++) {
		cc_get_pin(c, i, &gsi, &reserved);
		if (reserved)
			cc_fail_config(ck, WARDEN_RULE_CONFIG_RESERVED,
				       c->pins_off + (size_t)i * PIN_SIZE +
					       PIN_OFF(reserved),
				       reserved);
		for (j = 0; j < i; j++) {
			if (cc_pin_gsi(c, j) == gsi) {
				cc_fail(ck, WARDEN_RULE_PIN_DUPLICATE,
					WARDEN_ITEM_IRQ_PIN, i, gsi, j, 0, 0);
				break;
			}
		}
		/* Firmware describes no device on a pin above the ISA IRQs
		 * that no PCI device of the cell names (Bochs drives PIRQ n
		 * on pin 16 + n too): the cell could not know what it is. */
		if (!c->root && j == i && gsi >= ISA_IRQS &&
		    !cc_pin_named(c, gsi))
			cc_fail(ck, WARDEN_RULE_PIN_UNUSED, WARDEN_ITEM_IRQ_PIN,
				i, gsi, 0, 0, 0);
	}
}

static bool ioapic_pins_ok(const struct ioapic *a)
{
	return a->num_pins && a->num_pins <= IOAPIC_MAX_PINS;
}

void cc_check_ioapics(struct checker *ck, const struct system *sys,
		      const uint8_t *p)
{
	struct ioapic a, b;
	uint32_t i, j;

	for (i = 0; i < sys->num_ioapics; i++) {
		cc_get_ioapic(sys, p, i, &a);
		if (!a.address || !page_aligned(a.address))
			cc_fail(ck, WARDEN_RULE_IOAPIC_ADDRESS,
				WARDEN_ITEM_IOAPIC, i, a.address, 0, 0, 0);
		if (!ioapic_pins_ok(&a))
			cc_fail(ck, WARDEN_RULE_IOAPIC_PINS, WARDEN_ITEM_IOAPIC,
				i, a.address, a.num_pins, IOAPIC_MAX_PINS, 0);
		for (j = 0; j < i; j++) {
			cc_get_ioapic(sys, p, j, &b);
			if (a.address == b.address) {
				cc_fail(ck, WARDEN_RULE_IOAPIC_OVERLAP,
					WARDEN_ITEM_IOAPIC, i, a.address, j, 0,
					0);
				break;
			}
			if (ioapic_pins_ok(&a) && ioapic_pins_ok(&b) &&
			    overlap(a.gsi_base, a.num_pins, b.gsi_base,
				    b.num_pins)) {
				cc_fail(ck, WARDEN_RULE_IOAPIC_OVERLAP,
					WARDEN_ITEM_IOAPIC, i, a.address, j, 1,
					0);
				break;
			}
		}
	}
}

/* Is the GSI an input of one of the system's IOAPICs? */
static bool pin_in_ioapic(const struct system *sys, uint32_t gsi)
{
	struct ioapic a;
	uint32_t i;

	if (!sys->ioapics)
		return false;
	for (i = 0; i < sys->num_ioapics; i++) {
		cc_get_ioapic(sys, sys->root.blob, i, &a);
		if (ioapic_pins_ok(&a) && gsi >= a.gsi_base &&
		    (uint64_t)gsi < (uint64_t)a.gsi_base + a.num_pins)
			return true;
	}
	return false;
}

void cc_check_pins_ioapic(struct checker *ck, const struct cell *c,
			  const struct system *sys)
{
	uint32_t i, gsi;

	for (i = 0; i < c->num_pins; i++) {
		gsi = cc_pin_gsi(c, i);
		if (!pin_in_ioapic(sys, gsi))
			cc_fail(ck, WARDEN_RULE_PIN_NO_IOAPIC,
				WARDEN_ITEM_IRQ_PIN, i, gsi, 0, 0, 0);
	}
}

void cc_check_pins_system(struct checker *ck, const struct cell *c,
			  const struct system *sys)
{
	uint32_t i, gsi;
	int64_t other;

	for (i = 0; i < c->num_pins; i++) {
		gsi = cc_pin_gsi(c, i);
		if (!pin_in_ioapic(sys, gsi)) {
			cc_fail(ck, WARDEN_RULE_PIN_NO_IOAPIC,
				WARDEN_ITEM_IRQ_PIN, i, gsi, 0, 0, 0);
			continue;
		}
		if (cc_has_pin(&sys->root, gsi)) {
			cc_fail(ck, WARDEN_RULE_PIN_ROOT_NEEDS,
				WARDEN_ITEM_IRQ_PIN, i, gsi, 0, 0, 0);
			continue;
		}
		/* with a device of the cell on the pin, PCI_INTX_SHARED
		 * names the pair */
		if (cc_pin_named(c, gsi))
			continue;
		other = cc_intx_sharer(c, sys, gsi, ~(uint64_t)0);
		if (other >= 0)
			cc_fail(ck, WARDEN_RULE_PIN_SHARED, WARDEN_ITEM_IRQ_PIN,
				i, gsi, (uint64_t)other, 0, 0);
	}
}

void cc_check_pins_other(struct checker *ck, const struct cell *c,
			 const struct cell *o)
{
	uint32_t i, gsi;

	for (i = 0; i < c->num_pins; i++) {
		gsi = cc_pin_gsi(c, i);
		if (cc_has_pin(o, gsi))
			cc_fail(ck, WARDEN_RULE_PIN_IN_OTHER_CELL,
				WARDEN_ITEM_IRQ_PIN, i, gsi, o->id, 0, 0);
	}
}
