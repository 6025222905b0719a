// SPDX-License-Identifier: GPL-2.0
/* The chipset's PIRQ routing rules (contracts in asm/pci.h).  Plain C,
 * also compiled into the unit tests. */
#include <asm/pci.h>

static const struct pci_pirq_router routers[] = {
	/* PIIX3 PCI-to-ISA bridge (82371SB datasheet 4.1.10: PIRQRC[A:D],
	 * 60h-63h), Bochs's i440FX */
	{ 0x70008086u, 4, { 0x60, 0x61, 0x62, 0x63 } },
	/* ICH9 LPC (ICH9 datasheet 13.1.13 and 13.1.17: PIRQ[A-D]_ROUT
	 * 60h-63h, PIRQ[E-H]_ROUT 68h-6Bh), QEMU's q35 */
	{ 0x29188086u, 8, { 0x60, 0x61, 0x62, 0x63, 0x68, 0x69, 0x6a, 0x6b } },
};

const struct pci_pirq_router *pci_pirq_router_of(u32 ids)
{
	unsigned int i;

	for (i = 0; i < sizeof(routers) / sizeof(routers[0]); i++)
		if (routers[i].ids == ids)
			return &routers[i];
	return 0;
}

/* The ISA input value routes to, or -1. */
static int isa_input(u8 value)
{
	return (value & PCI_PIRQ_OFF) ? -1 : (int)(value & PCI_PIRQ_IRQ);
}

const char *pci_pirq_write_refused(const struct pci_pirq_cells *c,
				   unsigned int n, u8 old, u8 value)
{
	int irq = isa_input(value);

	if ((c->lines >> n) & 1)
		return value == old ? 0
				    : "the PIRQ line's IOAPIC input is a "
				      "cell's: its ISA route stays off";
	if (irq >= 0 && (c->isa >> irq) & 1)
		return "routes the PIRQ line to an ISA IRQ a cell owns";
	return 0;
}

int pci_pirq_routed_to(const struct pci_pirq_router *r, const u8 *value,
		       u32 isa)
{
	unsigned int n;
	int irq;

	for (n = 0; n < r->n; n++) {
		irq = isa_input(value[n]);
		if (irq >= 0 && (isa >> irq) & 1)
			return (int)n;
	}
	return -1;
}
