// SPDX-License-Identifier: GPL-2.0
/* Error-channel records to sentences: the validator's rules on the blob, names, CPUs, memory, ports and the console (errmsg_parts.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>

#include "errmsg_parts.h"

static const char *region_side(unsigned long long v)
{
	return v ? "guest-physical" : "physical";
}

bool errmsg_config(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1], c = v[2], d = v[3];

	switch (e->rule) {
	case WARDEN_RULE_CONFIG_TOO_SMALL:
		errmsg_add(buf, len,
			   "%llu bytes is too small, at least %llu needed", a,
			   b);
		break;
	case WARDEN_RULE_CONFIG_SIGNATURE:
		errmsg_add(buf, len,
			   "wrong signature (not a Warden %s config or not "
			   "compiled)",
			   b ? "cell" : "system");
		break;
	case WARDEN_RULE_CONFIG_REVISION:
		errmsg_add(buf, len,
			   "revision %llu, but this Warden reads revision %llu",
			   a, b);
		break;
	case WARDEN_RULE_CONFIG_ARCH:
		errmsg_add(buf, len,
			   "architecture %llu, expected %llu (x86-64)", a, b);
		break;
	case WARDEN_RULE_CONFIG_SIZE:
		errmsg_add(buf, len,
			   "header says %llu bytes but the file has %llu", a,
			   b);
		break;
	case WARDEN_RULE_CONFIG_COUNTS:
		errmsg_add(buf, len,
			   "the region and port counts need %llu bytes but the "
			   "config "
			   "has %llu",
			   a, b);
		break;
	case WARDEN_RULE_CONFIG_RESERVED:
		errmsg_add(buf, len,
			   "reserved field at byte %llu is 0x%llx, must be 0",
			   a, b);
		break;
	case WARDEN_RULE_CONFIG_FLAGS:
		errmsg_add(buf, len, "unknown flags 0x%llx (known: 0x%llx)",
			   a & ~b, b);
		break;
	case WARDEN_RULE_CONFIG_TOO_LARGE:
		errmsg_add(buf, len,
			   "%llu bytes is larger than the limit of %llu", a, b);
		break;
	case WARDEN_RULE_CONFIG_TOO_MANY:
		errmsg_add(buf, len, "%llu items, at most %llu allowed", a, b);
		break;
	case WARDEN_RULE_NAME_EMPTY:
		errmsg_add(buf, len, "the name is empty");
		break;
	case WARDEN_RULE_NAME_UNTERMINATED:
		errmsg_add(buf, len, "the name is longer than %d characters",
			   WARDEN_NAME_LEN - 1);
		break;
	case WARDEN_RULE_NAME_NOT_PRINTABLE:
		errmsg_add(buf, len,
			   "the name has a non-printable byte 0x%02llx at %llu",
			   b, a);
		break;
	case WARDEN_RULE_NAME_DUPLICATE:
		errmsg_add(buf, len, "the name is already used by cell %llu",
			   a);
		break;
	case WARDEN_RULE_CELL_FLAGS:
		errmsg_add(buf, len,
			   "unknown cell flags 0x%llx (allowed here: 0x%llx)",
			   a & ~b, b);
		break;
	case WARDEN_RULE_CPUS_EMPTY:
		errmsg_add(buf, len, "the CPU set is empty");
		break;
	case WARDEN_RULE_CPU_NOT_PRESENT:
		errmsg_add(buf, len,
			   "does not exist (the machine has %llu CPUs)", a);
		break;
	case WARDEN_RULE_CPU_IN_OTHER_CELL:
		errmsg_add(buf, len, "already belongs to cell %llu", a);
		break;
	case WARDEN_RULE_CPU_NOT_IN_ROOT:
		errmsg_add(buf, len, "is not owned by the root cell");
		break;
	case WARDEN_RULE_CPU_IS_CALLER:
		errmsg_add(buf, len, "is the CPU making the request");
		break;
	case WARDEN_RULE_MEM_UNALIGNED:
		errmsg_add(buf, len,
			   "start, guest address 0x%llx and size must be "
			   "multiples of "
			   "4 KiB",
			   c);
		break;
	case WARDEN_RULE_MEM_EMPTY:
		errmsg_add(buf, len, "the size is 0");
		break;
	case WARDEN_RULE_MEM_WRAPS:
		errmsg_add(buf, len,
			   "the region wraps around the end of the address "
			   "space");
		break;
	case WARDEN_RULE_MEM_OVERLAP:
		errmsg_add(buf, len, "overlaps memory[%llu] (%s addresses)", c,
			   region_side(d));
		break;
	case WARDEN_RULE_MEM_OVERLAPS_HV:
		errmsg_add(buf, len, "overlaps hypervisor memory 0x%llx+0x%llx",
			   c, d);
		break;
	case WARDEN_RULE_MEM_NOT_IN_ROOT:
		errmsg_add(buf, len, "is not memory of the root cell");
		break;
	case WARDEN_RULE_MEM_FLAGS:
		errmsg_add(buf, len, "unknown flags 0x%llx", c & ~d);
		break;
	case WARDEN_RULE_MEM_TYPE:
		errmsg_add(buf, len,
			   "memory type %llu is not one of UC, WC, WT, WP, WB",
			   c);
		break;
	case WARDEN_RULE_MEM_TYPE_MISMATCH:
		errmsg_add(buf, len,
			   "memory type %llu, but this kind of memory needs %s",
			   c,
			   d == WARDEN_MEMTYPE_WB ? "WB (RAM)" : "UC (device)");
		break;
	case WARDEN_RULE_MEM_IN_OTHER_CELL:
		errmsg_add(buf, len, "belongs to cell %llu", c);
		break;
	case WARDEN_RULE_COMM_REGION_COUNT:
		errmsg_add(buf, len,
			   "has %llu communication regions, needs exactly 1",
			   a);
		break;
	case WARDEN_RULE_COMM_REGION_SHAPE:
		errmsg_add(buf, len,
			   "a communication region has physical start 0 and "
			   "is one page");
		break;
	case WARDEN_RULE_RESET_NOT_LOADABLE:
		errmsg_add(buf, len,
			   "reset address 0x%llx is not inside a loadable "
			   "executable "
			   "region",
			   a);
		break;
	case WARDEN_RULE_HV_MEM:
		errmsg_add(buf, len,
			   "hypervisor memory 0x%llx+0x%llx is unaligned or "
			   "smaller "
			   "than 0x%llx",
			   a, b, c);
		break;
	case WARDEN_RULE_PIO_RANGE:
		errmsg_add(buf, len,
			   "the range is empty or goes past port 0xffff");
		break;
	case WARDEN_RULE_PIO_OVERLAP:
		errmsg_add(buf, len, "overlaps ports[%llu]", c);
		break;
	case WARDEN_RULE_PIO_NOT_IN_ROOT:
		errmsg_add(buf, len,
			   "the ports are not owned by the root cell");
		break;
	case WARDEN_RULE_PIO_IN_OTHER_CELL:
		errmsg_add(buf, len, "the ports belong to cell %llu", c);
		break;
	case WARDEN_RULE_CONSOLE:
		errmsg_add(buf, len,
			   "console type %llu at 0x%llx is not supported", a,
			   b);
		break;
	case WARDEN_RULE_MEM_TRAPPED:
		errmsg_add(buf, len,
			   "covers 0x%llx, %s, which the hypervisor traps%s", d,
			   c == WARDEN_TRAPPED_LAPIC ? "the local APIC and MSI "
						       "window"
			   : c == WARDEN_TRAPPED_IOAPIC ? "an IOAPIC"
			   : c == WARDEN_TRAPPED_IOMMU ? "the IOMMU's registers"
			   : c == WARDEN_TRAPPED_HPET  ? "the HPET"
						       : "an address",
			   c == WARDEN_TRAPPED_LAPIC ? ": a cell reaches its "
						       "own "
						       "local APIC at its APIC "
						       "base and sends device "
						       "interrupts through "
						       "pci_devices"
			   : c == WARDEN_TRAPPED_IOAPIC ? ": a cell gets "
							  "IOAPIC pins "
							  "with irq_pins"
							: "");
		break;
	case WARDEN_RULE_MEM_LINUX_USES:
		errmsg_add(buf, len,
			   "Linux uses 0x%llx-0x%llx of it (%s in "
			   "/proc/iomem): a "
			   "cell's memory comes from the memmap= reservation",
			   c, d, e->text[0] ? e->text : "a resource");
		break;
	case WARDEN_RULE_CONFIG_CONTEXT:
		errmsg_add(buf, len,
			   "this config, needed to check the new one, is "
			   "itself "
			   "invalid (%llu errors)",
			   a);
		break;
	case WARDEN_RULE_CONSOLE_PORTS:
		errmsg_add(buf, len,
			   "UART ports 0x%llx-0x%llx are not all in the cell's "
			   "own "
			   "port ranges",
			   b, b + 7);
		break;
	default:
		return false;
	}
	return true;
}
