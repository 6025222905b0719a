// SPDX-License-Identifier: GPL-2.0
/*
 * The chipset's PIRQ routing, kept off cells' interrupt inputs (part of
 * the PCI unit; contracts in pci_dev.h, rules in asm/pci.h).  A PCI
 * device's INTx reaches IOAPIC input 16 + n through PIRQ line n and, where
 * the line's routing register says so, also an ISA IRQ -- an input root
 * owns.  So while a cell owns input 16 + n, line n's ISA route is off
 * (root's value is written back at destroy) and root cannot turn it on;
 * and no line may be routed to an ISA input a cell owns (a create is
 * refused while one is, a later write of root's is refused).  All under
 * pci_lock.
 */
#include <asm/pci.h>
#include "pci_dev.h"
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/cell.h>
#include <warden/error.h>
#include <warden/hypercall.h>

static struct {
	const struct pci_pirq_router *router; /* NULL: none known */
	u16 bdf;
	struct pci_pirq_cells cells;
	u8 saved[PCI_PIRQ_MAX]; /* root's value of a cell's line */
} pirq;

void pci_pirq_init(void)
{
	unsigned int dev;

	/* the router is function 0 of a device on bus 0 (PIIX3: 00:01.0,
	 * ICH9 LPC: 00:1f.0) */
	for (dev = 0; dev < 32 && !pirq.router; dev++) {
		pirq.bdf = (u16)(dev << 3);
		pirq.router = pci_pirq_router_of(
			pci_phys_read(pirq.bdf, PCI_VENDOR_ID, 4));
	}
	if (pirq.router)
		printk("PCI interrupt routing: %u PIRQ lines at %02x:%02x.0\n",
		       pirq.router->n, pirq.bdf >> 8, (pirq.bdf >> 3) & 0x1f);
}

/* The cell's PIRQ lines and ISA inputs (struct pci_pirq_cells). */
static struct pci_pirq_cells of_cell(const struct cell *cell)
{
	const struct warden_irq_pin *pins = warden_cell_irq_pins(cell->config);
	struct pci_pirq_cells c = { 0, 0 };
	unsigned int i;

	for (i = 0; i < cell->config->num_irq_pins; i++) {
		if (pins[i].gsi < 16)
			c.isa |= 1u << pins[i].gsi;
		else if (pirq.router && pins[i].gsi < 16 + pirq.router->n)
			c.lines |= 1u << (pins[i].gsi - 16);
	}
	return c;
}

int pci_pirq_check(const struct cell *cell, struct warden_error *err)
{
	struct pci_pirq_cells c = of_cell(cell);
	u8 value[PCI_PIRQ_MAX];
	unsigned int n;
	int line;

	if (!pirq.router || !c.isa)
		return 0;
	for (n = 0; n < pirq.router->n; n++)
		value[n] = (u8)pci_phys_read(pirq.bdf, pirq.router->reg[n], 1);
	line = pci_pirq_routed_to(pirq.router, value, c.isa);
	if (line < 0)
		return 0;
	err->code = -WARDEN_EBUSY;
	err->rule = WARDEN_RULE_PIRQ_ROUTES_CELL_PIN;
	err->item_kind = WARDEN_ITEM_NONE;
	err->values[0] = (u64)line;
	err->values[1] = value[line] & PCI_PIRQ_IRQ;
	return err->code;
}

void pci_pirq_take(const struct cell *cell)
{
	struct pci_pirq_cells c = of_cell(cell);
	unsigned int n;
	u16 reg;

	for (n = 0; pirq.router && n < pirq.router->n; n++) {
		if (!((c.lines >> n) & 1))
			continue;
		reg = pirq.router->reg[n];
		pirq.saved[n] = (u8)pci_phys_read(pirq.bdf, reg, 1);
		pci_phys_write(pirq.bdf, reg, 1, pirq.saved[n] | PCI_PIRQ_OFF);
	}
	pirq.cells.lines |= c.lines;
	pirq.cells.isa |= c.isa;
}

void pci_pirq_give_back(const struct cell *cell)
{
	struct pci_pirq_cells c = of_cell(cell);
	unsigned int n;

	for (n = 0; pirq.router && n < pirq.router->n; n++)
		if ((c.lines >> n) & 1 && (pirq.cells.lines >> n) & 1)
			pci_phys_write(pirq.bdf, pirq.router->reg[n], 1,
				       pirq.saved[n]);
	pirq.cells.lines &= ~c.lines;
	pirq.cells.isa &= ~c.isa;
}

const char *pci_pirq_root_refused(u16 bdf, u16 reg, unsigned int size,
				  u32 value)
{
	const char *why;
	unsigned int n;
	u16 r;

	if (!pirq.router || bdf != pirq.bdf)
		return NULL;
	for (n = 0; n < pirq.router->n; n++) {
		r = pirq.router->reg[n];
		if (r < reg || r >= reg + size)
			continue;
		why = pci_pirq_write_refused(&pirq.cells, n,
					     (u8)pci_phys_read(bdf, r, 1),
					     (u8)(value >> (8 * (r - reg))));
		if (why)
			return why;
	}
	return NULL;
}
