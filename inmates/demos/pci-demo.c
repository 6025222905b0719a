// SPDX-License-Identifier: GPL-2.0
/*
 * pci-demo: a PCI function in a cell.  The demo lists the PCI functions the
 * cell sees (configuration space through ports 0xcf8/0xcfc), takes the
 * first e1000 (8086:100e), e1000e (82574L, 8086:10d3) or QEMU edu device
 * (1234:11e8), maps its BAR 0 uncached, and has the device raise its
 * interrupt N times, one at a time: each is waited for (a bounded wait:
 * one that does not come is counted as lost), acknowledged at the device
 * in the handler, then EOI.
 *
 *   e1000:  IMS enables cause 0x200 (MDI/O access complete, which only
 *           the demo's own writes cause), a write of ICS raises it, the
 *           handler reads ICR (read to clear).
 *   e1000e: the same; with MSI-X that cause is one of the
 *           "other" causes: ICR.OTHER (bit 24) is set with it, IMS enables
 *           it too, IVAR maps it to MSI-X entry 0 (its valid bit set),
 *           EIAC is 0 (no auto-clear, which would also clear IMS.OTHER)
 *           and CTRL_EXT has PBA_support set and IAME/EIAME clear; the
 *           handler's ICR read clears it (ICR.ASSERTED and a cause IMS
 *           enables), as in QEMU's model (hw/net/e1000e_core.c).
 *   edu:    a write of 0x60 raises an interrupt with that value in the
 *           status register 0x24; the handler writes it to 0x64 (ack).
 *
 * INTx goes through the IOAPIC pin the cell owns (pin=GSI), routed
 * level-triggered to this CPU; MSI is programmed to this CPU's APIC ID;
 * MSI-X (e1000e) entry 0 likewise, in the table in the function's BAR,
 * every other entry masked.
 * Command line: irqs=1000 mode=intx|msi|msix pin=GSI (default: the
 * Interrupt Line register) vector=0x52 dev=any|e1000|e1000e|edu buses=1
 * (buses 0..N-1 scanned) wait_us=100000 (per interrupt)
 * apic=x2apic|xapic.
 * Containment probes: movebar=ADDR writes BAR 0 with ADDR and prints
 * what it reads back (the hypervisor keeps BARs where the config puts
 * them); dest=ID sends the MSI or MSI-X message to APIC ID ID instead of
 * this CPU's (to a CPU outside the cell the hypervisor fails the cell).
 * The last line: "pci-demo: N of M interrupts (intx|msi|msix, bb:dd.f)";
 * then the cell reports itself shut down and idles.
 */
#include <inmate.h>

#define DEFAULT_VECTOR 0x52
#define PCI_BAR0_REG 0x10

#define E1000_VENDOR 0x8086
#define E1000_DEVICE 0x100e
#define E1000E_DEVICE 0x10d3 /* 82574L */
#define E1000_CTRL_EXT 0x18
#define E1000_ICR 0xc0
#define E1000_ICS 0xc8
#define E1000_IMS 0xd0
#define E1000_IMC 0xd8
/* MDAC, MDI/O access complete: the demo never uses the MDI/O interface,
 * so only its own ICS writes set it (a link status change, which the
 * device also reports on its own, would count one interrupt more) */
#define E1000_CAUSE 0x200
/* 82574 only */
#define E1000E_EIAC 0xdc	    /* extended interrupt auto clear */
#define E1000E_IAM 0xe0		    /* interrupt acknowledge auto mask */
#define E1000E_IVAR 0xe4	    /* interrupt vector allocation */
#define E1000E_ICR_OTHER 0x01000000 /* ICR/IMS bit 24, MSI-X only */
#define E1000E_CTRL_EXT_EIAME 0x01000000
#define E1000E_CTRL_EXT_IAME 0x08000000
#define E1000E_CTRL_EXT_PBA_SUPPORT 0x80000000
/* IVAR: a nibble per cause (RxQ0, RxQ1, TxQ0, TxQ1, other from bit 0):
 * MSI-X entry in bits 2:0, valid bit 3 */
#define E1000E_IVAR_OTHER_SHIFT 16
#define E1000E_IVAR_VALID 0x8

#define EDU_VENDOR 0x1234
#define EDU_DEVICE 0x11e8
#define EDU_IDENT 0x00
#define EDU_LIVENESS 0x04
#define EDU_IRQ_STATUS 0x24
#define EDU_IRQ_RAISE 0x60
#define EDU_IRQ_ACK 0x64

enum kind { E1000, E1000E, EDU };

static const char *const kind_names[] = { "e1000", "e1000e", "edu" };

static enum kind kind;
static uint64_t bar0;
static volatile unsigned int irqs, spurious;
static volatile uint32_t last_cause;

static void device_irq(unsigned int vector)
{
	uint32_t cause;

	(void)vector;
	if (kind != EDU) {
		cause = mmio_read32(bar0 + E1000_ICR); /* clears it */
	} else {
		cause = mmio_read32(bar0 + EDU_IRQ_STATUS);
		if (cause)
			mmio_write32(bar0 + EDU_IRQ_ACK, cause);
	}
	/* an interrupt the demo did not raise is not counted as one */
	if (kind != EDU ? (cause & E1000_CAUSE) : cause) {
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
	if (kind != EDU)
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
	} else if (kind == E1000E) {
		/* with MSI-X on, a read clears ICR only when an enabled
		 * cause is set: write 1s to clear it all */
		mmio_read32(bar0 + E1000_ICR);
		mmio_write32(bar0 + E1000_ICR, 0xffffffff);
	} else {
		status = mmio_read32(bar0 + EDU_IRQ_STATUS);
		if (status)
			mmio_write32(bar0 + EDU_IRQ_ACK, status);
	}
}

/*
 * MSI-X: every entry masked, entry 0 to APIC ID dest with vector, enabled
 * under the function mask, entry 0 unmasked, then the function mask off.
 */
static int setup_msix(uint16_t bdf, const char *name, struct pci_msix *t,
		      uint32_t dest, unsigned int vector)
{
	unsigned int i;

	if (pci_msix_find(bdf, t) < 0) {
		printk("pci-demo: %s: no MSI-X capability\n", name);
		return -1;
	}
	printk("pci-demo: %s: MSI-X at config 0x%x, %u entries, table in "
	       "BAR %u at 0x%x, PBA in BAR %u at 0x%x\n",
	       name, t->cap, t->entries, t->bir, t->offset, t->pba_bir,
	       t->pba_offset);
	if (pci_msix_map(t) < 0) {
		printk("pci-demo: %s: MSI-X table not in a memory BAR below "
		       "4 GiB\n",
		       name);
		return -1;
	}
	pci_intx_enable(bdf, false);
	pci_msi_disable(bdf);
	for (i = 0; i < t->entries; i++)
		pci_msix_mask_entry(t, i, true);
	if (pci_msix_set_entry(t, 0, dest, vector) < 0) {
		printk("pci-demo: %s: bad MSI-X message (APIC ID %u, vector "
		       "0x%x)\n",
		       name, dest, vector);
		return -1;
	}
	pci_msix_mask_all(t, true);
	pci_msix_enable(t, true);
	if (!(pci_read16(bdf, t->cap + PCI_MSIX_CTRL) & PCI_MSIX_CTRL_ENABLE)) {
		/* a hypervisor without MSI-X for cells drops the bit */
		printk("pci-demo: %s: MSI-X enable bit dropped (control "
		       "0x%x)\n",
		       name, pci_read16(bdf, t->cap + PCI_MSIX_CTRL));
		return -1;
	}
	pci_msix_mask_entry(t, 0, false);
	pci_msix_mask_all(t, false);
	printk("pci-demo: %s: MSI-X entry 0 at 0x%llx to APIC ID %u, vector "
	       "0x%x: address 0x%x, data 0x%x, vector control 0x%x\n",
	       name, (unsigned long long)t->table, dest, vector,
	       pci_msix_entry_read(t, 0, PCI_MSIX_ENTRY_ADDR_LO),
	       pci_msix_entry_read(t, 0, PCI_MSIX_ENTRY_DATA),
	       pci_msix_entry_read(t, 0, PCI_MSIX_ENTRY_CTRL));
	return 0;
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
		bool e1000e = vendor == E1000_VENDOR && device == E1000E_DEVICE;
		bool edu = vendor == EDU_VENDOR && device == EDU_DEVICE;
		enum kind k = e1000 ? E1000 : e1000e ? E1000E : EDU;

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
		if (!e1000 && !e1000e && !edu)
			continue;
		if (strcmp(want, "any") == 0 ||
		    strcmp(want, kind_names[k]) == 0) {
			found = bdf;
			kind = k;
		}
	}
	return found;
}

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("apic", "x2apic"), "xapic") != 0;
	const char *mode = cmdline_str("mode", "intx");
	bool msi = strcmp(mode, "msi") == 0;
	bool msix = strcmp(mode, "msix") == 0;
	unsigned int want = (unsigned int)cmdline_uint("irqs", 1000);
	unsigned int vector =
		(unsigned int)cmdline_uint("vector", DEFAULT_VECTOR);
	unsigned int buses = (unsigned int)cmdline_uint("buses", 1);
	uint64_t wait_us = cmdline_uint("wait_us", 100000);
	unsigned int count, pin = 0, lost = 0, n;
	uint64_t start, elapsed, wait_ticks;
	struct pci_msix table;
	struct pci_bar bar;
	uint32_t dest;
	char name[8];
	uint16_t bdf;
	int found;

	if (apic_init(x2apic) < 0) {
		printk("pci-demo: no local APIC\n");
		return;
	}
	if (vector < 0x20 || vector > 0xfe || !buses || buses > 256 ||
	    (!msi && !msix && strcmp(mode, "intx") != 0)) {
		printk("pci-demo: bad vector 0x%x, buses %u or mode %s\n",
		       vector, buses, mode);
		return;
	}
	if (!msi && !msix)
		mode = "intx";
	dest = (uint32_t)cmdline_uint("dest", apic_id());
	printk("pci-demo: %s, APIC ID %u, scanning buses 0-%u\n",
	       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(), buses - 1);
	found = scan(buses - 1, cmdline_str("dev", "any"), &count);
	printk("pci-demo: %u function(s) visible\n", count);
	if (found < 0) {
		printk("pci-demo: no e1000 (8086:100e), e1000e (8086:10d3) "
		       "or edu (1234:11e8)\n");
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
	       kind_names[kind], pci_bar_type_name(bar.type),
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
	if (kind != EDU)
		mmio_write32(bar0 + E1000_IMC, 0xffffffff);
	device_quiesce();
	irq_set_handler(vector, device_irq);
	if (msix) {
		if (setup_msix(bdf, name, &table, dest, vector) < 0)
			return;
	} else if (msi) {
		pci_intx_enable(bdf, false);
		if (pci_msi_enable(bdf, dest, vector) < 0) {
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
	if (kind == E1000E) {
		/* "other" causes to MSI-X entry 0, nothing cleared or masked
		 * automatically (QEMU: EIAC would clear IMS.OTHER too) */
		uint32_t ctrl_ext = mmio_read32(bar0 + E1000_CTRL_EXT);

		ctrl_ext |= E1000E_CTRL_EXT_PBA_SUPPORT;
		ctrl_ext &= ~(E1000E_CTRL_EXT_IAME | E1000E_CTRL_EXT_EIAME);
		mmio_write32(bar0 + E1000_CTRL_EXT, ctrl_ext);
		mmio_write32(bar0 + E1000E_EIAC, 0);
		mmio_write32(bar0 + E1000E_IAM, 0);
		mmio_write32(bar0 + E1000E_IVAR,
			     (E1000E_IVAR_VALID | 0)
				     << E1000E_IVAR_OTHER_SHIFT);
	}
	if (kind == E1000)
		mmio_write32(bar0 + E1000_IMS, E1000_CAUSE);
	else if (kind == E1000E)
		mmio_write32(bar0 + E1000_IMS,
			     E1000_CAUSE | (msix ? E1000E_ICR_OTHER : 0));
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

	if (kind != EDU)
		mmio_write32(bar0 + E1000_IMC, 0xffffffff);
	device_quiesce();
	if (msix) {
		pci_msix_mask_entry(&table, 0, true);
		pci_msix_enable(&table, false);
	} else if (msi)
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
