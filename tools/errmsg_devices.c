// SPDX-License-Identifier: GPL-2.0
/* Error-channel records to sentences: the rules on IOAPICs, pins and PCI devices, and root's PCI functions (errmsg_parts.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>

#include "errmsg_parts.h"

/* For WARDEN_RULE_PCI_BAR: what is wrong (values[2]) with the value at
 * fault (values[3]). */
static void bar_fault(char *buf, size_t len, unsigned long long bar,
		      unsigned long long why, unsigned long long value)
{
	errmsg_add(buf, len, "BAR %llu: ", bar);
	switch (why) {
	case WARDEN_PCI_BAR_BAD_SIZE:
		errmsg_add(buf, len, "size 0x%llx is not a power of 2", value);
		break;
	case WARDEN_PCI_BAR_BAD_ALIGN:
		errmsg_add(buf, len,
			   "address 0x%llx is not aligned to its size", value);
		break;
	case WARDEN_PCI_BAR_BAD_FLAGS:
		errmsg_add(buf, len,
			   "flags 0x%llx are unknown or do not go together (io "
			   "with mem64 or prefetch)",
			   value);
		break;
	case WARDEN_PCI_BAR_BAD_MEM64_5:
		errmsg_add(buf, len,
			   "a 64-bit BAR takes the next one too, and BAR 5 is "
			   "the "
			   "last");
		break;
	case WARDEN_PCI_BAR_BAD_UPPER:
		errmsg_add(buf, len,
			   "is the upper half of the 64-bit BAR %llu, so it "
			   "must be "
			   "empty (size 0x%llx)",
			   bar - 1, value);
		break;
	case WARDEN_PCI_BAR_BAD_EMPTY:
		errmsg_add(buf, len, "size 0 but address 0x%llx or flags set",
			   value);
		break;
	case WARDEN_PCI_BAR_BAD_PORTS:
		errmsg_add(buf, len,
			   "I/O ports from 0x%llx go past port 0xffff", value);
		break;
	default:
		errmsg_add(buf, len, "fault %llu (value 0x%llx)", why, value);
		break;
	}
}

/* For WARDEN_RULE_PCI_MISMATCH: the field (values[1]). */
static void pci_field(char *buf, size_t len, unsigned long long field)
{
	static const char *const bar_parts[] = { "address", "size", "flags" };

	switch (field) {
	case WARDEN_PCI_FIELD_VENDOR:
		errmsg_add(buf, len, "vendor id");
		break;
	case WARDEN_PCI_FIELD_DEVICE:
		errmsg_add(buf, len, "device id");
		break;
	case WARDEN_PCI_FIELD_INT_PIN:
		errmsg_add(buf, len, "int_pin");
		break;
	case WARDEN_PCI_FIELD_GSI:
		errmsg_add(buf, len, "gsi");
		break;
	case WARDEN_PCI_FIELD_FLAGS:
		errmsg_add(buf, len, "msi/msix flags");
		break;
	case WARDEN_PCI_FIELD_DMA_ALIAS:
		errmsg_add(buf, len, "dma_alias");
		break;
	default:
		if (field >= WARDEN_PCI_FIELD_BAR(0, 0) &&
		    field < WARDEN_PCI_FIELD_BAR(WARDEN_PCI_BARS, 0) &&
		    (field & 3) < 3)
			errmsg_add(buf, len, "BAR %llu %s",
				   (field - WARDEN_PCI_FIELD_BAR(0, 0)) / 4,
				   bar_parts[field & 3]);
		else
			errmsg_add(buf, len, "field %llu", field);
		break;
	}
}

/* WARDEN_RULE_IOMMU_UNIT: what is wrong with the unit at base. */
static void errmsg_iommu_unit(char *buf, size_t len, unsigned long long base,
			      unsigned long long what, unsigned long long v)
{
	switch (what) {
	case WARDEN_IOMMU_UNIT_BASE:
		errmsg_add(buf, len,
			   "the register base must be a 4 KiB aligned, "
			   "non-zero address");
		break;
	case WARDEN_IOMMU_UNIT_FLAGS:
		errmsg_add(buf, len, "unknown flags 0x%llx", v);
		break;
	case WARDEN_IOMMU_UNIT_SCOPES:
		errmsg_add(buf, len, "%llu scope entries, at most %u", v,
			   WARDEN_IOMMU_MAX_SCOPES);
		break;
	case WARDEN_IOMMU_UNIT_SCOPE:
		errmsg_add(buf, len,
			   "scope entry %llu is neither a function nor a bus "
			   "range (first bus, devfn 0, up to a last bus not "
			   "below it)",
			   v);
		break;
	case WARDEN_IOMMU_UNIT_ALL_SCOPES:
		errmsg_add(buf, len,
			   "include_pci_all covers every function: its %llu "
			   "scope entries would mean nothing",
			   v);
		break;
	case WARDEN_IOMMU_UNIT_DUPLICATE:
		errmsg_add(buf, len, "the same register base as iommus[%llu]",
			   v);
		break;
	case WARDEN_IOMMU_UNIT_ALL_TWICE:
		errmsg_add(buf, len,
			   "a second unit with include_pci_all for its "
			   "segment (iommus[%llu] is the first)",
			   v);
		break;
	case WARDEN_IOMMU_UNIT_NOT_LISTED:
		errmsg_add(buf, len,
			   "platform.iommu_base 0x%llx is not the base of a "
			   "unit of segment 0 in system.iommus",
			   base);
		break;
	default:
		errmsg_add(buf, len,
			   "a reserved field or unused scope entry (%llu) is "
			   "not 0",
			   v);
	}
}

bool errmsg_devices(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1], c = v[2], d = v[3];

	switch (e->rule) {
	case WARDEN_RULE_IOAPIC_PINS_FOUND:
		errmsg_add(buf, len,
			   "IOAPIC %u of the system config has %llu pins (its "
			   "version "
			   "register), the config says %llu",
			   e->item_index, a, b);
		break;
	case WARDEN_RULE_IOAPIC_PIN_UNAVAILABLE:
		if (b)
			errmsg_add(buf, len,
				   "IOAPIC pin GSI %llu belongs to cell %llu",
				   a, b);
		else
			errmsg_add(buf, len,
				   "GSI %llu is on no IOAPIC of the system", a);
		break;
	case WARDEN_RULE_IOAPIC_IN_CELL_MEMORY:
		errmsg_add(buf, len,
			   "covers the IOAPIC at 0x%llx, which the hypervisor "
			   "keeps: "
			   "a "
			   "cell gets IOAPIC pins with irq_pins",
			   a);
		break;
	case WARDEN_RULE_PCI_DEVICE_UNAVAILABLE:
		if (b)
			errmsg_add(buf, len,
				   "PCI function %02llx:%02llx.%llx belongs to "
				   "cell %llu",
				   a >> 8, (a >> 3) & 0x1f, a & 7, b);
		else
			errmsg_add(buf, len,
				   "PCI function %02llx:%02llx.%llx: the "
				   "hypervisor holds %llu assigned functions "
				   "at most",
				   a >> 8, (a >> 3) & 0x1f, a & 7, c);
		break;
	case WARDEN_RULE_PCI_DEVICE_MISMATCH:
		if (b == 0xffffffffull)
			errmsg_add(buf, len,
				   "no PCI function at %02llx:%02llx.%llx",
				   a >> 8, (a >> 3) & 0x1f, a & 7);
		else if (b != d)
			errmsg_add(buf, len,
				   "PCI function %02llx:%02llx.%llx is "
				   "%04llx:%04llx, the config says "
				   "%04llx:%04llx",
				   a >> 8, (a >> 3) & 0x1f, a & 7, b >> 16,
				   b & 0xffff, d >> 16, d & 0xffff);
		else
			errmsg_add(buf, len,
				   "PCI function %02llx:%02llx.%llx has "
				   "header type %llu: only endpoints (type 0) "
				   "can be "
				   "given to a cell",
				   a >> 8, (a >> 3) & 0x1f, a & 7, c);
		break;
	case WARDEN_RULE_PCI_CONFIG_IN_CELL:
		errmsg_add(buf, len,
			   "covers 0x%llx, PCI configuration space, which "
			   "the hypervisor keeps: a cell gets its functions' "
			   "configuration space with pci_devices",
			   c);
		break;
	case WARDEN_RULE_PIRQ_ROUTES_CELL_PIN:
		errmsg_add(buf, len,
			   "the chipset routes PCI interrupt line PIRQ%c to "
			   "ISA IRQ "
			   "%llu, one of the cell's pins: root's devices on "
			   "that line "
			   "would interrupt the cell",
			   (char)('A' + (a & 7)), b);
		break;
	case WARDEN_RULE_HPET_ROUTES_CELL_PIN:
		errmsg_add(buf, len,
			   "HPET timer %llu, which Linux programmed, drives "
			   "one of "
			   "the cell's IOAPIC pins: route or stop that timer "
			   "first",
			   a);
		break;
	case WARDEN_RULE_ROOT_MSIX_UNTRAPPED:
		errmsg_add(buf, len,
			   "PCI function %02llx:%02llx.%llx has MSI-X on, but "
			   "the "
			   "hypervisor cannot trap its table ",
			   (a >> 8) & 0xff, (a >> 3) & 0x1f, a & 7);
		if (b)
			errmsg_add(buf, len, "at 0x%llx: ", b);
		else
			errmsg_add(buf, len, "(its BAR decodes nowhere): ");
		errmsg_add(buf, len, "%s",
			   c == WARDEN_MSIX_UNTRAPPED_COUNT
				   ? "more functions have MSI-X tables than it "
				     "traps; "
				     "give one of them to a cell or unbind its "
				     "driver"
				   : "the table must lie in one of root's io "
				     "memory "
				     "regions of the system config");
		break;
	case WARDEN_RULE_PCI_IRQ_REMAP_FULL:
		errmsg_add(buf, len,
			   "PCI function %02llx:%02llx.%llx needs %llu "
			   "interrupt "
			   "remapping entries in a row (its MSI vectors and "
			   "MSI-X entries), and the hypervisor's table has no "
			   "such run left for cells (%llu in use)",
			   a >> 8, (a >> 3) & 0x1f, a & 7, b, c);
		break;
	case WARDEN_RULE_IOAPIC_NO_SOURCE_ID:
		errmsg_add(buf, len,
			   "the cell's pin (GSI %llu) would be an interrupt "
			   "remapping entry verifying this IOAPIC's requester "
			   "id, and the system config has none (ioapics[]."
			   "source_id: 'warden config create' reads it from "
			   "the ACPI DMAR)",
			   b);
		break;
	case WARDEN_RULE_PIN_IRQ_REMAP_FULL:
		errmsg_add(buf, len,
			   "the cell's %llu IOAPIC pins need as many interrupt "
			   "remapping entries in a row, and the hypervisor's "
			   "table has no such run left for cells (%llu in use)",
			   b, c);
		break;
	case WARDEN_RULE_ROOT_PCI_UNDESCRIBED:
		errmsg_add(buf, len,
			   "PCI function %04llx:%02llx:%02llx.%llx cannot be "
			   "handed "
			   "to the hypervisor: %s",
			   a >> 16, (a >> 8) & 0xff, (a >> 3) & 0x1f, a & 7,
			   b ? "Linux has more functions than Warden describes"
			     : "Warden traps PCI segment 0 only");
		break;
	case WARDEN_RULE_IOMMU_TAKEOVER:
		errmsg_add(buf, len,
			   "the hypervisor cannot take the IOMMU at 0x%llx "
			   "over: ",
			   a);
		switch (b) {
		case WARDEN_IOMMU_DMA_REMAPPING_ON:
			errmsg_add(buf, len,
				   "Linux has DMA remapping on; boot with "
				   "intel_iommu=off (interrupt remapping stays "
				   "on) so that the hypervisor owns it");
			break;
		case WARDEN_IOMMU_NO_4LEVEL:
			errmsg_add(buf, len,
				   "it has no 48-bit (4-level) second-level "
				   "tables (SAGAW 0x%llx)",
				   c);
			break;
		case WARDEN_IOMMU_NO_QI:
			errmsg_add(buf, len, "it has no queued invalidation");
			break;
		case WARDEN_IOMMU_FEW_DOMAINS:
			errmsg_add(buf, len,
				   "it has %llu domain ids, fewer than one per "
				   "cell",
				   c);
			break;
		case WARDEN_IOMMU_ROOT_QUEUE:
			errmsg_add(buf, len,
				   "Linux's invalidation queue (IQA bits "
				   "0x%llx) is larger than 8 pages or has "
				   "256-bit descriptors",
				   c);
			break;
		case WARDEN_IOMMU_ABSENT:
			errmsg_add(buf, len,
				   "no IOMMU answers there (its version "
				   "register reads 0 or all ones): the system "
				   "config names a unit this machine does not "
				   "have; write the config on this machine "
				   "(warden config create)");
			break;
		case WARDEN_IOMMU_SEVERAL_UNITS:
			errmsg_add(buf, len,
				   "the system config lists %llu IOMMU units "
				   "and a hypervisor of ABI revision 10 "
				   "handles one",
				   c);
			break;
		default:
			errmsg_add(buf, len,
				   "it did not complete a command (the "
				   "hypervisor's console says which)");
		}
		break;
	case WARDEN_RULE_IOMMU_UNIT:
		errmsg_iommu_unit(buf, len, a, b, c);
		break;
	case WARDEN_RULE_PCI_NO_IOMMU:
		errmsg_add(buf, len,
			   "no IOMMU unit of the system config covers it "
			   "(none lists it in its scope, none of segment %llu "
			   "has include_pci_all): its DMA would reach all "
			   "memory",
			   a >> 16);
		break;
	case WARDEN_RULE_IOAPIC_ADDRESS:
		errmsg_add(buf, len,
			   "the address must be a non-zero multiple of 4 KiB");
		break;
	case WARDEN_RULE_IOAPIC_PINS:
		errmsg_add(buf, len, "%llu pins, but an IOAPIC has 1 to %llu",
			   b, c);
		break;
	case WARDEN_RULE_IOAPIC_OVERLAP:
		errmsg_add(buf, len, "%s ioapics[%llu]",
			   c ? "its GSI range overlaps that of"
			     : "has the same address as",
			   b);
		break;
	case WARDEN_RULE_PIN_DUPLICATE:
		errmsg_add(buf, len, "listed twice (also irq_pins[%llu])", b);
		break;
	case WARDEN_RULE_PIN_NO_IOAPIC:
		errmsg_add(buf, len,
			   "is not an input of any IOAPIC of the system");
		break;
	case WARDEN_RULE_PIN_ROOT_NEEDS:
		errmsg_add(buf, len,
			   "the root cell needs it (it is in "
			   "root_cell.irq_pins)");
		break;
	case WARDEN_RULE_PIN_IN_OTHER_CELL:
		errmsg_add(buf, len, "belongs to cell %llu", b);
		break;
	case WARDEN_RULE_PIN_UNUSED:
		errmsg_add(buf, len,
			   "not an ISA IRQ, and no PCI device of the cell "
			   "names it as "
			   "its gsi (firmware does not say what drives it)");
		break;
	case WARDEN_RULE_PIN_SHARED:
		errmsg_add(buf, len, "the INTx of PCI device ");
		errmsg_pci_name(buf, len, b);
		errmsg_add(buf, len,
			   ", which the cell does not take, drives it too (an "
			   "INTx "
			   "line cannot be split between owners)");
		break;
	case WARDEN_RULE_PCI_DUPLICATE:
		errmsg_add(buf, len, "listed twice (also pci_devices[%llu])",
			   b);
		break;
	case WARDEN_RULE_PCI_FLAGS:
		/* root lists the machine's devices: none is given away */
		errmsg_add(buf, len, "unknown flags 0x%llx%s", b & ~c,
			   (b & ~c) == WARDEN_PCI_DMA_UNISOLATED ? " (dma_"
								   "unisolated:"
								   " "
								   "only a "
								   "cell takes "
								   "a device)"
								 : "");
		break;
	case WARDEN_RULE_PCI_INT_PIN:
		errmsg_add(buf, len,
			   "int_pin %llu is not one of none, A-D (0-4)", b);
		break;
	case WARDEN_RULE_PCI_GSI_NO_PIN:
		errmsg_add(buf, len, "gsi %llu given, but it has no INTx pin",
			   b);
		break;
	case WARDEN_RULE_PCI_BAR:
		bar_fault(buf, len, b, c, d);
		break;
	case WARDEN_RULE_PCI_BAR_NOT_MAPPED:
		errmsg_add(buf, len,
			   "BAR %llu 0x%llx+0x%llx is not inside one io memory "
			   "region "
			   "of the cell mapped at its own address (guest = "
			   "phys)",
			   b, c, d);
		break;
	case WARDEN_RULE_PCI_BAR_PORTS:
		errmsg_add(buf, len,
			   "BAR %llu ports 0x%llx+0x%llx are not inside one of "
			   "the "
			   "cell's port ranges",
			   b, c, d);
		break;
	case WARDEN_RULE_PCI_PIN_NOT_OWNED:
		errmsg_add(buf, len,
			   "its INTx drives GSI %llu, which the cell does not "
			   "own "
			   "(add "
			   "it to irq_pins)",
			   b);
		break;
	case WARDEN_RULE_PCI_DMA:
		errmsg_add(buf, len,
			   "no IOMMU confines its DMA (the system config "
			   "names none): the cell takes it only with "
			   "dma_unisolated: true");
		break;
	case WARDEN_RULE_LINUX_DMA:
		errmsg_add(buf, len,
			   "no IOMMU confines its DMA, and this Linux "
			   "cell's memory at guest 0x%llx is phys 0x%llx: "
			   "Linux gives the device guest-physical addresses, "
			   "its DMA would reach other memory; a Linux cell "
			   "takes it only under an IOMMU or with its memory "
			   "at guest = phys (the first MiB aside)",
			   b, c);
		break;
	case WARDEN_RULE_PCI_NOT_IN_SYSTEM:
		errmsg_add(buf, len,
			   "is not in the system config's list of PCI devices");
		break;
	case WARDEN_RULE_PCI_MISMATCH:
		pci_field(buf, len, b);
		/* pins and GSIs are counted, the rest are ids and addresses */
		if (b == WARDEN_PCI_FIELD_INT_PIN || b == WARDEN_PCI_FIELD_GSI)
			errmsg_add(buf, len,
				   " is %llu, but the system config has %llu",
				   c, d);
		else
			errmsg_add(buf, len,
				   " is 0x%llx, but the system config has "
				   "0x%llx",
				   c, d);
		break;
	case WARDEN_RULE_PCI_IN_OTHER_CELL:
		errmsg_add(buf, len, "belongs to cell %llu", b);
		break;
	case WARDEN_RULE_MEM_PCI_BAR:
	case WARDEN_RULE_PIO_PCI_BAR:
		errmsg_add(buf, len, "overlaps BAR %llu of PCI device ", d);
		errmsg_pci_name(buf, len, c);
		errmsg_add(buf, len, ", which the cell does not take");
		break;
	case WARDEN_RULE_PCI_DMA_ALIAS:
		errmsg_add(buf, len,
			   "its DMA may carry requester id %02llx:%02llx.%llx, "
			   "as may PCI device ",
			   b >> 8, (b >> 3) & 0x1f, b & 7);
		errmsg_pci_name(buf, len, c);
		errmsg_add(buf, len,
			   ", which the cell does not take (behind the same "
			   "bridge, or the bridge itself: the IOMMU tells "
			   "them apart by requester id only, so one cell "
			   "takes both)");
		break;
	case WARDEN_RULE_PCI_INTX_SHARED:
		errmsg_add(buf, len,
			   "its INTx shares GSI %llu with PCI device ", b);
		errmsg_pci_name(buf, len, c);
		errmsg_add(buf, len,
			   ", which the cell does not take (an INTx line "
			   "cannot be "
			   "split between owners)");
		break;
	default:
		return false;
	}
	return true;
}
