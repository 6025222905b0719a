// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupts of a Linux cell's tables (linux_irqs.h).
 */
#include <stdbool.h>

#include "linux_irqs.h"

static bool owned(const struct warden_irq_pin *pins, unsigned int num_pins,
		  uint32_t gsi)
{
	unsigned int i;

	for (i = 0; i < num_pins; i++)
		if (pins[i].gsi == gsi)
			return true;
	return false;
}

/* The IOAPIC of madt that holds gsi, listed in p once: false if none. */
static bool ioapic_for(struct lt_platform *p, const struct acpi_madt *madt,
		       uint32_t gsi)
{
	const struct acpi_ioapic *best = NULL;
	unsigned int i;

	if (!madt)
		return false;
	for (i = 0; i < madt->n_ioapics; i++)
		if (madt->ioapic[i].gsi_base <= gsi &&
		    (!best || madt->ioapic[i].gsi_base > best->gsi_base))
			best = &madt->ioapic[i];
	if (!best)
		return false;
	for (i = 0; i < p->num_ioapics; i++)
		if (p->ioapics[i].address == best->address)
			return true;
	if (p->num_ioapics == LT_MAX_IOAPICS)
		return false;
	p->ioapics[p->num_ioapics].id = best->id;
	p->ioapics[p->num_ioapics].address = best->address;
	p->ioapics[p->num_ioapics].gsi_base = best->gsi_base;
	p->num_ioapics++;
	return true;
}

/* The PC's ISA IRQ of a legacy UART (COM1/COM3 4, COM2/COM4 3), 0 if
 * the port is none of them. */
static uint32_t uart_irq(uint16_t port)
{
	switch (port) {
	case 0x3f8:
	case 0x3e8:
		return 4;
	case 0x2f8:
	case 0x2e8:
		return 3;
	}
	return 0;
}

unsigned int lt_irqs(struct lt_platform *p, const struct warden_irq_pin *pins,
		     unsigned int num_pins, const struct warden_pci_device *fns,
		     unsigned int num_fns, const struct acpi_madt *madt)
{
	unsigned int i, left_out = 0;
	uint32_t gsi;

	for (i = 0; i < p->num_uarts; i++) {
		gsi = uart_irq(p->uart_ports[i]);
		p->uart_gsi[i] = LT_POLLED;
		if (!gsi || !owned(pins, num_pins, gsi))
			continue;
		if (ioapic_for(p, madt, gsi))
			p->uart_gsi[i] = gsi;
		else
			left_out++;
	}
	for (i = 0; i < num_fns; i++) {
		if (fns[i].int_pin < WARDEN_PCI_INT_A ||
		    fns[i].int_pin > WARDEN_PCI_INT_D ||
		    fns[i].gsi == WARDEN_NO_GSI ||
		    !owned(pins, num_pins, fns[i].gsi))
			continue;
		/* bus 0 only: the _PRT is the host bridge of bus 0's, and a
		 * route names a device, any function of it */
		if ((fns[i].bdf >> 8) || p->num_prt == LT_MAX_PRT ||
		    !ioapic_for(p, madt, fns[i].gsi)) {
			left_out++;
			continue;
		}
		p->prt[p->num_prt].device = (uint8_t)((fns[i].bdf >> 3) & 0x1f);
		p->prt[p->num_prt].pin =
			(uint8_t)(fns[i].int_pin - WARDEN_PCI_INT_A);
		p->prt[p->num_prt].gsi = fns[i].gsi;
		p->num_prt++;
	}
	return left_out;
}
