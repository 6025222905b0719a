// SPDX-License-Identifier: GPL-2.0
/*
 * pci-demo: a PCI function in a cell.  The demo lists the PCI functions the
 * cell sees (configuration space through ports 0xcf8/0xcfc), takes the
 * first e1000 (8086:100e) or QEMU edu device (1234:11e8), maps its BAR 0
 * uncached, and has the device raise its interrupt N times, one at a time:
 * each is waited for (a bounded wait: one that does not come is counted as
 * lost), acknowledged at the device in the handler, then EOI.
 *
 *   e1000: IMS enables cause 0x4 (link status change), a write of ICS
 *          raises it, the handler reads ICR (read to clear).
 *   edu:   a write of 0x60 raises an interrupt with that value in the
 *          status register 0x24; the handler writes it to 0x64 (ack).
 *
 * INTx goes through the IOAPIC pin the cell owns (pin=GSI), routed
 * level-triggered to this CPU; MSI is programmed to this CPU's APIC ID.
 * Command line: irqs=1000 mode=intx|msi pin=GSI (default: the Interrupt
 * Line register) vector=0x52 dev=any|e1000|edu buses=1 (buses 0..N-1
 * scanned) wait_us=100000 (per interrupt) apic=x2apic|xapic.
 * Containment probes: movebar=ADDR writes BAR 0 with ADDR and prints
 * what it reads back (the hypervisor keeps BARs where the config puts
 * them); dest=ID sends the MSI to APIC ID ID instead of this CPU's (to a
 * CPU outside the cell the hypervisor fails the cell).
 * The last line: "pci-demo: N of M interrupts (intx|msi, bb:dd.f)"; then
 * the cell reports itself shut down and idles.
 */
#include <inmate.h>

#define DEFAULT_VECTOR 0x52
#define PCI_BAR0_REG 0x10

#define E1000_VENDOR 0x8086
#define E1000_DEVICE 0x100e
#define E1000_ICR 0xc0
#define E1000_ICS 0xc8
#define E1000_IMS 0xd0
#define E1000_IMC 0xd8
#define E1000_CAUSE 0x4 /* LSC, link status change */

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define EDU_IDENT 0x00
#define EDU_LIVENESS 0x04
#define EDU_IRQ_STATUS 0x24
#define EDU_IRQ_RAISE 0x60
#define EDU_IRQ_ACK 0x64

enum kind { E1000, EDU };

static enum kind kind;
static uint64_t bar0;
static volatile unsigned int irqs, spurious;
static volatile uint32_t last_cause;

static void device_irq(unsigned int vector)
{
	uint32_t cause;

	(void)vector;
	if (kind == E1000) {
		cause = mmio_read32(bar0 + E1000_ICR); /* clears it */
	} else {
		cause = mmio_read32(bar0 + EDU_IRQ_STATUS);
		if (cause)
			mmio_write32(bar0 + EDU_IRQ_ACK, cause);
	}
	if (cause) {
		last_cause = cause;
		irqs++;
	} else {
		spurious++;
	}
	apic_eoi();
}

/* raise the device's interrupt once */
static void device_raise(unsigned int n)
{
	if (kind == E1000)
		mmio_write32(bar0 + E1000_ICS, E1000_CAUSE);
	else
		mmio_write32(bar0 + EDU_IRQ_RAISE, 0x100 | (n & 0xff));
}

/* clear whatever the device holds, with its interrupt off or lost */
static void device_quiesce(void)
{
	uint32_t status;

	if (kind == E1000) {
		mmio_read32(bar0 + E1000_ICR);
	} else {
		status = mmio_read32(bar0 + EDU_IRQ_STATUS);
		if (status)
			mmio_write32(bar0 + EDU_IRQ_ACK, status);
	}
}

static const char *class_name(uint32_t class_rev)
{
	switch (class_rev >> 24) {
	case 0x01:
		return "storage";
	case 0x02:
		return "network";
	case 0x03:
		return "display";
	case 0x06:
		return "bridge";
	case 0x08:
		return "system";
	case 0x0c:
		return "serial bus";
	case 0x00:
	case 0xff:
		return "other";
	default:
		return "-";
	}
}

static int scan(unsigned int last_bus, const char *want, unsigned int *count)
{
	int bdf = -1, found = -1;
	char name[8];

	*count = 0;
	while ((bdf = pci_next_function(bdf, last_bus, true)) >= 0) {
		uint16_t b = (uint16_t)bdf;
		uint16_t vendor = pci_read16(b, PCI_VENDOR_ID);
		uint16_t device = pci_read16(b, PCI_DEVICE_ID);
		uint32_t class_rev = pci_read32(b, PCI_CLASS);
		uint8_t int_pin = pci_read8(b, PCI_INT_PIN);
		bool e1000 = vendor == E1000_VENDOR && device == E1000_DEVICE;
		bool edu = vendor == EDU_VENDOR && device == EDU_DEVICE;

		(*count)++;
		printk("pci-demo: %s %04x:%04x class %06x (%s) header 0x%02x "
		       "INT%c%s%s\n",
		       pci_bdf_name(b, name), vendor, device, class_rev >> 8,
		       class_name(class_rev), pci_read8(b, PCI_HEADER_TYPE),
		       int_pin >= 1 && int_pin <= 4 ? 'A' + int_pin - 1 : '-',
		       pci_find_cap(b, PCI_CAP_ID_MSI) ? " MSI" : "",
		       pci_find_cap(b, PCI_CAP_ID_MSIX) ? " MSI-X" : "");
		if (found >= 0)
			continue;
		if ((e1000 && strcmp(want, "edu") != 0) ||
		    (edu && strcmp(want, "e1000") != 0)) {
			found = bdf;
			kind = e1000 ? E1000 : EDU;
		}
	}
	return found;
}

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("apic", "x2apic"), "xapic") != 0;
	bool msi = strcmp(cmdline_str("mode", "intx"), "msi") == 0;
	unsigned int want = (unsigned int)cmdline_uint("irqs", 1000);
	unsigned int vector =
		(unsigned int)cmdline_uint("vector", DEFAULT_VECTOR);
	unsigned int buses = (unsigned int)cmdline_uint("buses", 1);
	uint64_t wait_us = cmdline_uint("wait_us", 100000);
	const char *mode = msi ? "msi" : "intx";
	unsigned int count, pin = 0, lost = 0, n;
	uint64_t start, elapsed, wait_ticks;
	struct pci_bar bar;
	char name[8];
	uint16_t bdf;
	int found;

	if (apic_init(x2apic) < 0) {
		printk("pci-demo: no local APIC\n");
		return;
	}
	if (vector < 0x20 || vector > 0xfe || !buses || buses > 256) {
		printk("pci-demo: bad vector 0x%x or buses %u\n", vector,
		       buses);
		return;
	}
	printk("pci-demo: %s, APIC ID %u, scanning buses 0-%u\n",
	       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(), buses - 1);
	found = scan(buses - 1, cmdline_str("dev", "any"), &count);
	printk("pci-demo: %u function(s) visible\n", count);
	if (found < 0) {
		printk("pci-demo: no e1000 (8086:100e) or edu (1234:11e8)\n");
		comm_set_state(WARDEN_CELL_SHUT_DOWN);
		return;
	}
	bdf = (uint16_t)found;
	pci_bdf_name(bdf, name);

	if (!pci_bar_read(bdf, 0, &bar) || bar.type == PCI_BAR_PIO) {
		printk("pci-demo: %s: BAR 0 is %s, not memory\n", name,
		       pci_bar_type_name(bar.type));
		return;
	}
	printk("pci-demo: %s %s: BAR 0 %s at 0x%llx, size 0x%llx%s\n", name,
	       kind == E1000 ? "e1000" : "edu", pci_bar_type_name(bar.type),
	       (unsigned long long)bar.address, (unsigned long long)bar.size,
	       bar.prefetch ? ", prefetchable" : "");
	if (!bar.address || bar.address + bar.size > INMATE_MAP_SIZE ||
	    paging_set_uc(bar.address, bar.size, true) < 0) {
		printk("pci-demo: %s: BAR 0 is not below 4 GiB\n", name);
		return;
	}
	bar0 = bar.address;
	if (cmdline_uint("movebar", 0)) {
		uint32_t before = pci_read32(bdf, PCI_BAR0_REG);

		pci_write32(bdf, PCI_BAR0_REG,
			    (uint32_t)cmdline_uint("movebar", 0));
		printk("pci-demo: %s: BAR 0 0x%x, after a move to 0x%llx "
		       "reads 0x%x\n",
		       name, before,
		       (unsigned long long)cmdline_uint("movebar", 0),
		       pci_read32(bdf, PCI_BAR0_REG));
	}
	pci_enable_device(bdf);
	if (kind == EDU) {
		mmio_write32(bar0 + EDU_LIVENESS, 0x12345678);
		printk("pci-demo: edu identification 0x%08x, liveness "
		       "~0x12345678 = 0x%08x\n",
		       mmio_read32(bar0 + EDU_IDENT),
		       mmio_read32(bar0 + EDU_LIVENESS));
	}

	/* the device quiet first, then its interrupt towards this CPU */
	if (kind == E1000)
		mmio_write32(bar0 + E1000_IMC, 0xffffffff);
	device_quiesce();
	irq_set_handler(vector, device_irq);
	if (msi) {
		pci_intx_enable(bdf, false);
		if (pci_msi_enable(bdf,
				   (uint32_t)cmdline_uint("dest", apic_id()),
				   vector) < 0) {
			printk("pci-demo: %s: no MSI capability\n", name);
			return;
		}
		printk("pci-demo: %s: MSI at config 0x%x to APIC ID %u, "
		       "vector 0x%x\n",
		       name, pci_find_cap(bdf, PCI_CAP_ID_MSI), apic_id(),
		       vector);
	} else {
		pin = (unsigned int)cmdline_uint("pin",
						 pci_read8(bdf, PCI_INT_LINE));
		pci_msi_disable(bdf);
		ioapic_pin_route(pin, vector, apic_id(), true);
		pci_intx_enable(bdf, true);
		printk("pci-demo: %s: INT%c through IOAPIC pin %u (of %u), "
		       "level, vector 0x%x, entry 0x%llx\n",
		       name, 'A' + (pci_read8(bdf, PCI_INT_PIN) - 1) % 4, pin,
		       ioapic_pins(), vector,
		       (unsigned long long)ioapic_pin_entry(pin));
	}
	if (kind == E1000)
		mmio_write32(bar0 + E1000_IMS, E1000_CAUSE);
	irq_enable();

	wait_ticks = wait_us * tsc_khz() / 1000;
	start = rdtsc();
	for (n = 0; n < want; n++) {
		unsigned int before = irqs;
		uint64_t t0 = rdtsc();

		device_raise(n);
		while (irqs == before && rdtsc() - t0 < wait_ticks)
			cpu_relax();
		if (irqs == before) {
			lost++;
			if (lost <= 3)
				printk("pci-demo: interrupt %u lost (waited "
				       "%llu us)\n",
				       n + 1, (unsigned long long)wait_us);
			irq_disable();
			device_quiesce();
			irq_enable();
		}
	}
	elapsed = rdtsc() - start;
	/* late ones still count as arrived */
	delay_us(10000);
	irq_disable();

	if (kind == E1000)
		mmio_write32(bar0 + E1000_IMC, 0xffffffff);
	device_quiesce();
	if (msi)
		pci_msi_disable(bdf);
	else
		ioapic_pin_mask(pin);
	pci_intx_enable(bdf, false);
	printk("pci-demo: %u raised, %u lost, %u spurious, %lu unexpected, "
	       "last cause 0x%x, %llu us per interrupt\n",
	       want, lost, spurious, irq_unexpected_count(), last_cause,
	       (unsigned long long)(want ? tsc_ticks_to_us(elapsed) / want
					 : 0));
	printk("pci-demo: %u of %u interrupts (%s, %s)\n", irqs, want, mode,
	       name);
	comm_set_state(WARDEN_CELL_SHUT_DOWN);
	for (;;)
		cpu_wait_for_interrupt();
}
