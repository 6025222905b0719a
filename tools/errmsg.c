// SPDX-License-Identifier: GPL-2.0
/* Error-channel records to sentences (see errmsg.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <warden/abi.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <x86/cpuid.h>
#include <x86/msr.h>

#include "errmsg.h"

/* What a WARDEN_RULE_CPU_NO_ANSWER request was (WARDEN_REQUEST_*). */
static const char *request_name(uint64_t what)
{
	static const char *const names[] = {
		[WARDEN_REQUEST_SUSPEND] = "suspend",
		[WARDEN_REQUEST_PARK] = "park",
		[WARDEN_REQUEST_RETURN] = "return",
		[WARDEN_REQUEST_STOP] = "stop",
		[WARDEN_REQUEST_START] = "start",
		[WARDEN_REQUEST_ENTER] = "enter",
	};

	return what < sizeof(names) / sizeof(names[0]) && names[what]
		       ? names[what]
		       : "(unknown)";
}

/* Appends to buf like snprintf, never overflowing. */
static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* A PCI function as domain << 16 | bdf, written as lspci does:
 * bus:device.function, the domain in front when it is not 0. */
static void pci_name(char *buf, size_t len, unsigned long long id)
{
	if (id >> 16)
		add(buf, len, "%04llx:", (id >> 16) & 0xffff);
	add(buf, len, "%02llx:%02llx.%llu", (id >> 8) & 0xff, (id >> 3) & 0x1f,
	    id & 7);
}

static void item(const struct warden_error *e, char *buf, size_t len)
{
	const unsigned long long *v = (const unsigned long long *)e->values;

	switch (e->item_kind) {
	case WARDEN_ITEM_CONFIG:
		add(buf, len, "config: ");
		break;
	case WARDEN_ITEM_SYSTEM:
		add(buf, len, "system config: ");
		break;
	case WARDEN_ITEM_CELL:
		add(buf, len, "cell %u%s%s%s: ", e->item_index,
		    e->text[0] ? " \"" : "", e->text[0] ? e->text : "",
		    e->text[0] ? "\"" : "");
		break;
	case WARDEN_ITEM_CPU:
		add(buf, len, "CPU %u: ", e->item_index);
		break;
	case WARDEN_ITEM_MEMORY_REGION:
		add(buf, len, "memory[%u] 0x%llx+0x%llx: ", e->item_index, v[0],
		    v[1]);
		break;
	case WARDEN_ITEM_PIO_RANGE:
		add(buf, len, "ports[%u] 0x%llx+0x%llx: ", e->item_index, v[0],
		    v[1]);
		break;
	case WARDEN_ITEM_CONSOLE:
		add(buf, len, "console: ");
		break;
	case WARDEN_ITEM_IMAGE:
		add(buf, len, "image %u: ", e->item_index);
		break;
	case WARDEN_ITEM_IRQ_PIN:
		add(buf, len, "irq_pins[%u] GSI %llu: ", e->item_index, v[0]);
		break;
	case WARDEN_ITEM_PCI_DEVICE:
		add(buf, len, "PCI device ");
		pci_name(buf, len, v[0]);
		add(buf, len, ": ");
		break;
	case WARDEN_ITEM_IOAPIC:
		add(buf, len, "ioapics[%u] 0x%llx: ", e->item_index, v[0]);
		break;
	case WARDEN_ITEM_LINK:
		/* the CLI puts the link's name into text when it knows it */
		add(buf, len, "links[%u]%s%s%s: ", e->item_index,
		    e->text[0] ? " \"" : "", e->text[0] ? e->text : "",
		    e->text[0] ? "\"" : "");
		break;
	default:
		break;
	}
}

/* For WARDEN_RULE_FIRMWARE_MISSING: the vendor the image was looked for
 * (values[1], WARDEN_VENDOR_*; 0 from drivers that do not say). */
static const char *image_vendor(unsigned long long vendor)
{
	switch (vendor) {
	case WARDEN_VENDOR_INTEL:
		return "it is the image for Intel CPUs, as this one is: ";
	case WARDEN_VENDOR_AMD:
		return "it is the image for AMD and Hygon CPUs, as this one "
		       "is: ";
	default:
		return "";
	}
}

/* For WARDEN_RULE_FEATURE_MISSING: what the hypervisor found missing,
 * from values[0] (a CPUID leaf, or a VMX capability or AMD MSR) and
 * values[1] (the bits wanted there, or the value read). */
static void feature_missing(char *buf, size_t len, unsigned long long where,
			    unsigned long long bits)
{
	if (where == 0 && bits == CPUID1_ECX_VMX)
		add(buf, len, "VMX (CPUID.1:ECX[5] = 0)");
	else if (where == 0x80000000)
		add(buf, len, "SVM (CPUID leaf 0x8000000a is missing)");
	else if (where == 0x80000001 && bits == CPUID80000001_ECX_SVM)
		add(buf, len, "SVM (CPUID 0x80000001 ECX[2] = 0)");
	else if (where == 0x8000000a && bits == CPUID8000000A_EDX_NPT)
		add(buf, len,
		    "nested paging, NPT (CPUID 0x8000000a EDX[0] = 0)");
	else if (where == 0x8000000a)
		add(buf, len, "guest ASIDs (CPUID 0x8000000a EBX = %llu)",
		    bits);
	else if (where == MSR_AMD_VM_CR)
		add(buf, len, "SVM, disabled by firmware (VM_CR.SVMDIS)");
	else if (bits)
		add(buf, len, "VMX capabilities 0x%llx of MSR 0x%llx", bits,
		    where);
	else
		add(buf, len, "VMX capabilities of MSR 0x%llx", where);
}

/* For WARDEN_RULE_PCI_BAR: what is wrong (values[2]) with the value at
 * fault (values[3]). */
static void bar_fault(char *buf, size_t len, unsigned long long bar,
		      unsigned long long why, unsigned long long value)
{
	add(buf, len, "BAR %llu: ", bar);
	switch (why) {
	case WARDEN_PCI_BAR_BAD_SIZE:
		add(buf, len, "size 0x%llx is not a power of 2", value);
		break;
	case WARDEN_PCI_BAR_BAD_ALIGN:
		add(buf, len, "address 0x%llx is not aligned to its size",
		    value);
		break;
	case WARDEN_PCI_BAR_BAD_FLAGS:
		add(buf, len,
		    "flags 0x%llx are unknown or do not go together (io "
		    "with mem64 or prefetch)",
		    value);
		break;
	case WARDEN_PCI_BAR_BAD_MEM64_5:
		add(buf, len,
		    "a 64-bit BAR takes the next one too, and BAR 5 is the "
		    "last");
		break;
	case WARDEN_PCI_BAR_BAD_UPPER:
		add(buf, len,
		    "is the upper half of the 64-bit BAR %llu, so it must be "
		    "empty (size 0x%llx)",
		    bar - 1, value);
		break;
	case WARDEN_PCI_BAR_BAD_EMPTY:
		add(buf, len, "size 0 but address 0x%llx or flags set", value);
		break;
	case WARDEN_PCI_BAR_BAD_PORTS:
		add(buf, len, "I/O ports from 0x%llx go past port 0xffff",
		    value);
		break;
	default:
		add(buf, len, "fault %llu (value 0x%llx)", why, value);
		break;
	}
}

/* For WARDEN_RULE_PCI_MISMATCH: the field (values[1]). */
static void pci_field(char *buf, size_t len, unsigned long long field)
{
	static const char *const bar_parts[] = { "address", "size", "flags" };

	switch (field) {
	case WARDEN_PCI_FIELD_VENDOR:
		add(buf, len, "vendor id");
		break;
	case WARDEN_PCI_FIELD_DEVICE:
		add(buf, len, "device id");
		break;
	case WARDEN_PCI_FIELD_INT_PIN:
		add(buf, len, "int_pin");
		break;
	case WARDEN_PCI_FIELD_GSI:
		add(buf, len, "gsi");
		break;
	case WARDEN_PCI_FIELD_FLAGS:
		add(buf, len, "msi/msix flags");
		break;
	default:
		if (field >= WARDEN_PCI_FIELD_BAR(0, 0) &&
		    field < WARDEN_PCI_FIELD_BAR(WARDEN_PCI_BARS, 0) &&
		    (field & 3) < 3)
			add(buf, len, "BAR %llu %s",
			    (field - WARDEN_PCI_FIELD_BAR(0, 0)) / 4,
			    bar_parts[field & 3]);
		else
			add(buf, len, "field %llu", field);
		break;
	}
}

/* A name fault of LINK_FIELDS (config_check.c): 0 empty, 0x100 no NUL
 * in the field, else the first byte that is not printable. */
static void name_fault(char *buf, size_t len, const char *whose,
		       unsigned long long value)
{
	if (!value)
		add(buf, len, "%s is empty", whose);
	else if (value == 0x100)
		add(buf, len, "%s is longer than %d characters", whose,
		    WARDEN_NAME_LEN - 1);
	else
		add(buf, len, "%s has a non-printable byte 0x%02llx", whose,
		    value);
}

/* WARDEN_RULE_LINK_FIELDS: what (values[0]), the value at fault and the
 * peer (values[2], not a peer index for the link's own fields). */
static void link_fields(char *buf, size_t len, unsigned long long what,
			unsigned long long value, unsigned long long peer)
{
	if (peer < WARDEN_LINK_MAX_PEERS)
		add(buf, len, "peer %llu: ", peer);
	switch (what) {
	case WARDEN_LINK_BAD_NAME:
		name_fault(buf, len, "the name", value);
		break;
	case WARDEN_LINK_BAD_NAME_DUPLICATE:
		add(buf, len, "the name is already used by links[%llu]", value);
		break;
	case WARDEN_LINK_BAD_FLAGS:
		add(buf, len, "unknown flags 0x%llx (known: directional 0x%x)",
		    value & ~(unsigned long long)WARDEN_LINK_FLAGS_ALL,
		    WARDEN_LINK_DIRECTIONAL);
		break;
	case WARDEN_LINK_BAD_NUM_PEERS:
		add(buf, len, "%llu peers, but a link has 2 to %d", value,
		    WARDEN_LINK_MAX_PEERS);
		break;
	case WARDEN_LINK_BAD_RESERVED:
		add(buf, len,
		    "byte %llu of the link is not 0 (a peer's reserved bytes, "
		    "and the entries past num_peers, must be 0)",
		    value);
		break;
	case WARDEN_LINK_BAD_PEER_NAME:
		name_fault(buf, len, "the cell name", value);
		break;
	default:
		add(buf, len, "field %llu is wrong (value 0x%llx)", what,
		    value);
		break;
	}
}

/* WARDEN_RULE_LINK_MEMORY: the fault, found again from the values. */
static void link_memory(char *buf, size_t len, unsigned long long phys,
			unsigned long long size)
{
	add(buf, len, "memory 0x%llx+0x%llx: ", phys, size);
	if (!size || (size & (size - 1)) || size < WARDEN_LINK_MIN_SIZE)
		add(buf, len,
		    "the size must be a power of 2 of at least %u KiB",
		    WARDEN_LINK_MIN_SIZE >> 10);
	else if (phys & (size - 1))
		add(buf, len, "the address must be a multiple of the size");
	else
		add(buf, len,
		    "is not inside one RAM region of the root cell (read, "
		    "write, not io): take it from the memmap= reservation");
}

/* WARDEN_RULE_LINK_PEER_ADDRESS: what (values[2]) of which address. */
static void link_address(char *buf, size_t len, unsigned long long peer,
			 unsigned long long address, unsigned long long what)
{
	add(buf, len, "peer %llu: ", peer);
	switch (what) {
	case WARDEN_LINK_BAD_REGS_ALIGN:
		add(buf, len,
		    "regs 0x%llx must be a multiple of 4 KiB, its page below "
		    "4 GiB (a 32-bit BAR)",
		    address);
		break;
	case WARDEN_LINK_BAD_REGS_NOT_DEVICE:
		add(buf, len,
		    "regs 0x%llx is not inside one io region of the root cell "
		    "(device memory, where Linux puts no RAM)",
		    address);
		break;
	case WARDEN_LINK_BAD_REGS_OVER_BAR:
		add(buf, len,
		    "regs 0x%llx overlaps a BAR of one of the root cell's PCI "
		    "devices",
		    address);
		break;
	case WARDEN_LINK_BAD_REGS_TRAPPED:
		add(buf, len,
		    "regs 0x%llx overlaps an IOAPIC or the PCI MMCONFIG "
		    "window, "
		    "which the hypervisor keeps",
		    address);
		break;
	case WARDEN_LINK_BAD_ROOT_SHMEM:
		add(buf, len,
		    "shmem 0x%llx: the root cell sees the link's memory where "
		    "it is: shmem must be the memory's phys",
		    address);
		break;
	case WARDEN_LINK_BAD_OVER_MEMORY:
		add(buf, len,
		    "0x%llx (regs or shmem) overlaps the cell's memory "
		    "(guest-physical)",
		    address);
		break;
	case WARDEN_LINK_BAD_OVER_OTHER:
		add(buf, len,
		    "0x%llx (regs or shmem) overlaps another BAR of the same "
		    "cell's links (its own regs and shmem, or another link's)",
		    address);
		break;
	case WARDEN_LINK_BAD_SHMEM_ALIGN:
		add(buf, len,
		    "shmem 0x%llx must be a multiple of the link's size (BAR "
		    "2 is aligned to its size)",
		    address);
		break;
	default:
		add(buf, len, "address 0x%llx is wrong (fault %llu)", address,
		    what);
		break;
	}
}

static const char *region_side(unsigned long long v)
{
	return v ? "guest-physical" : "physical";
}

char *warden_error_describe(const struct warden_error *e, char *buf, size_t len)
{
	const uint64_t *v = e->values;
	unsigned long long a = v[0], b = v[1], c = v[2], d = v[3];

	if (!len)
		return buf;
	buf[0] = '\0';
	item(e, buf, len);

	switch (e->rule) {
	case WARDEN_RULE_NONE:
		add(buf, len, "failed (%d) without a recorded reason", e->code);
		break;
	case WARDEN_RULE_CONFIG_TOO_SMALL:
		add(buf, len, "%llu bytes is too small, at least %llu needed",
		    a, b);
		break;
	case WARDEN_RULE_CONFIG_SIGNATURE:
		add(buf, len,
		    "wrong signature (not a Warden %s config or not compiled)",
		    b ? "cell" : "system");
		break;
	case WARDEN_RULE_CONFIG_REVISION:
		add(buf, len,
		    "revision %llu, but this Warden reads revision %llu", a, b);
		break;
	case WARDEN_RULE_CONFIG_ARCH:
		add(buf, len, "architecture %llu, expected %llu (x86-64)", a,
		    b);
		break;
	case WARDEN_RULE_CONFIG_SIZE:
		add(buf, len, "header says %llu bytes but the file has %llu", a,
		    b);
		break;
	case WARDEN_RULE_CONFIG_COUNTS:
		add(buf, len,
		    "the region and port counts need %llu bytes but the config "
		    "has %llu",
		    a, b);
		break;
	case WARDEN_RULE_CONFIG_RESERVED:
		add(buf, len,
		    "reserved field at byte %llu is 0x%llx, must be 0", a, b);
		break;
	case WARDEN_RULE_CONFIG_FLAGS:
		add(buf, len, "unknown flags 0x%llx (known: 0x%llx)", a & ~b,
		    b);
		break;
	case WARDEN_RULE_CONFIG_TOO_LARGE:
		add(buf, len, "%llu bytes is larger than the limit of %llu", a,
		    b);
		break;
	case WARDEN_RULE_CONFIG_TOO_MANY:
		add(buf, len, "%llu items, at most %llu allowed", a, b);
		break;
	case WARDEN_RULE_NAME_EMPTY:
		add(buf, len, "the name is empty");
		break;
	case WARDEN_RULE_NAME_UNTERMINATED:
		add(buf, len, "the name is longer than %d characters",
		    WARDEN_NAME_LEN - 1);
		break;
	case WARDEN_RULE_NAME_NOT_PRINTABLE:
		add(buf, len,
		    "the name has a non-printable byte 0x%02llx at %llu", b, a);
		break;
	case WARDEN_RULE_NAME_DUPLICATE:
		add(buf, len, "the name is already used by cell %llu", a);
		break;
	case WARDEN_RULE_CELL_FLAGS:
		add(buf, len, "unknown cell flags 0x%llx", a & ~b);
		break;
	case WARDEN_RULE_CPUS_EMPTY:
		add(buf, len, "the CPU set is empty");
		break;
	case WARDEN_RULE_CPU_NOT_PRESENT:
		add(buf, len, "does not exist (the machine has %llu CPUs)", a);
		break;
	case WARDEN_RULE_CPU0_NOT_ROOT:
		add(buf, len, "CPU 0 must stay in the root cell");
		break;
	case WARDEN_RULE_CPU_IN_OTHER_CELL:
		add(buf, len, "already belongs to cell %llu", a);
		break;
	case WARDEN_RULE_CPU_NOT_IN_ROOT:
		add(buf, len, "is not owned by the root cell");
		break;
	case WARDEN_RULE_CPU_IS_CALLER:
		add(buf, len, "is the CPU making the request");
		break;
	case WARDEN_RULE_MEM_UNALIGNED:
		add(buf, len,
		    "start, guest address 0x%llx and size must be multiples of "
		    "4 KiB",
		    c);
		break;
	case WARDEN_RULE_MEM_EMPTY:
		add(buf, len, "the size is 0");
		break;
	case WARDEN_RULE_MEM_WRAPS:
		add(buf, len,
		    "the region wraps around the end of the address "
		    "space");
		break;
	case WARDEN_RULE_MEM_OVERLAP:
		add(buf, len, "overlaps memory[%llu] (%s addresses)", c,
		    region_side(d));
		break;
	case WARDEN_RULE_MEM_OVERLAPS_HV:
		add(buf, len, "overlaps hypervisor memory 0x%llx+0x%llx", c, d);
		break;
	case WARDEN_RULE_MEM_NOT_IN_ROOT:
		add(buf, len, "is not memory of the root cell");
		break;
	case WARDEN_RULE_MEM_FLAGS:
		add(buf, len, "unknown flags 0x%llx", c & ~d);
		break;
	case WARDEN_RULE_MEM_TYPE:
		add(buf, len,
		    "memory type %llu is not one of UC, WC, WT, WP, WB", c);
		break;
	case WARDEN_RULE_MEM_TYPE_MISMATCH:
		add(buf, len,
		    "memory type %llu, but this kind of memory needs %s", c,
		    d == WARDEN_MEMTYPE_WB ? "WB (RAM)" : "UC (device)");
		break;
	case WARDEN_RULE_MEM_IN_OTHER_CELL:
		add(buf, len, "belongs to cell %llu", c);
		break;
	case WARDEN_RULE_COMM_REGION_COUNT:
		add(buf, len, "has %llu communication regions, needs exactly 1",
		    a);
		break;
	case WARDEN_RULE_COMM_REGION_SHAPE:
		add(buf, len,
		    "a communication region has physical start 0 and "
		    "is one page");
		break;
	case WARDEN_RULE_RESET_NOT_LOADABLE:
		add(buf, len,
		    "reset address 0x%llx is not inside a loadable executable "
		    "region",
		    a);
		break;
	case WARDEN_RULE_HV_MEM:
		add(buf, len,
		    "hypervisor memory 0x%llx+0x%llx is unaligned or smaller "
		    "than 0x%llx",
		    a, b, c);
		break;
	case WARDEN_RULE_PIO_RANGE:
		add(buf, len, "the range is empty or goes past port 0xffff");
		break;
	case WARDEN_RULE_PIO_OVERLAP:
		add(buf, len, "overlaps ports[%llu]", c);
		break;
	case WARDEN_RULE_PIO_NOT_IN_ROOT:
		add(buf, len, "the ports are not owned by the root cell");
		break;
	case WARDEN_RULE_PIO_IN_OTHER_CELL:
		add(buf, len, "the ports belong to cell %llu", c);
		break;
	case WARDEN_RULE_CONSOLE:
		add(buf, len, "console type %llu at 0x%llx is not supported", a,
		    b);
		break;
	case WARDEN_RULE_CPU_OFFLINE:
		add(buf, len,
		    "is offline; bring it online (echo 1 > "
		    "/sys/devices/system/cpu/cpu%u/online)",
		    e->item_index);
		break;
	case WARDEN_RULE_MEM_NOT_RESERVED:
		add(buf, len,
		    "memory 0x%llx+0x%llx is not reserved: boot Linux with "
		    "memmap=0x%llx$0x%llx",
		    a, b, b, a);
		break;
	case WARDEN_RULE_FIRMWARE_MISSING:
		add(buf, len,
		    "hypervisor image %s not found (error %lld); %sinstall it "
		    "to /lib/firmware",
		    e->text[0] ? e->text : "(unnamed)", (long long)a,
		    image_vendor(b));
		break;
	case WARDEN_RULE_FIRMWARE_INVALID:
		add(buf, len, "hypervisor image: %s is 0x%llx, expected 0x%llx",
		    e->text[0] ? e->text : "a header field", a, b);
		break;
	case WARDEN_RULE_ALREADY_ENABLED:
		add(buf, len, "Warden is already enabled");
		break;
	case WARDEN_RULE_NOT_ENABLED:
		add(buf, len, "Warden is not enabled");
		break;
	case WARDEN_RULE_VMX_BUSY:
		add(buf, len,
		    "VMX is in use by another hypervisor: CR4.VMXE is set (is "
		    "a KVM virtual machine running?)");
		break;
	case WARDEN_RULE_SVM_BUSY:
		add(buf, len,
		    "SVM is in use by another hypervisor: EFER.SVME is set (is "
		    "a KVM virtual machine running?)");
		break;
	case WARDEN_RULE_SVM_DISABLED:
		add(buf, len, "SVM disabled by firmware (VM_CR.SVMDIS)");
		break;
	case WARDEN_RULE_IOAPIC_PINS_FOUND:
		add(buf, len,
		    "IOAPIC %u of the system config has %llu pins (its version "
		    "register), the config says %llu",
		    e->item_index, a, b);
		break;
	case WARDEN_RULE_IOAPIC_PIN_UNAVAILABLE:
		if (b)
			add(buf, len,
			    "IOAPIC pin GSI %llu belongs to cell %llu", a, b);
		else
			add(buf, len, "GSI %llu is on no IOAPIC of the system",
			    a);
		break;
	case WARDEN_RULE_IOAPIC_IN_CELL_MEMORY:
		add(buf, len,
		    "covers the IOAPIC at 0x%llx, which the hypervisor keeps: "
		    "a "
		    "cell gets IOAPIC pins with irq_pins",
		    a);
		break;
	case WARDEN_RULE_PCI_DEVICE_UNAVAILABLE:
		if (b)
			add(buf, len,
			    "PCI function %02llx:%02llx.%llx belongs to "
			    "cell %llu",
			    a >> 8, (a >> 3) & 0x1f, a & 7, b);
		else
			add(buf, len,
			    "PCI function %02llx:%02llx.%llx: the "
			    "hypervisor holds %llu assigned functions at most",
			    a >> 8, (a >> 3) & 0x1f, a & 7, c);
		break;
	case WARDEN_RULE_PCI_DEVICE_MISMATCH:
		if (b == 0xffffffffull)
			add(buf, len, "no PCI function at %02llx:%02llx.%llx",
			    a >> 8, (a >> 3) & 0x1f, a & 7);
		else if (b != d)
			add(buf, len,
			    "PCI function %02llx:%02llx.%llx is "
			    "%04llx:%04llx, the config says %04llx:%04llx",
			    a >> 8, (a >> 3) & 0x1f, a & 7, b >> 16, b & 0xffff,
			    d >> 16, d & 0xffff);
		else
			add(buf, len,
			    "PCI function %02llx:%02llx.%llx has "
			    "header type %llu: only endpoints (type 0) can be "
			    "given to a cell",
			    a >> 8, (a >> 3) & 0x1f, a & 7, c);
		break;
	case WARDEN_RULE_PCI_CONFIG_IN_CELL:
		add(buf, len,
		    "covers 0x%llx, PCI configuration space, which "
		    "the hypervisor keeps: a cell gets its functions' "
		    "configuration space with pci_devices",
		    c);
		break;
	case WARDEN_RULE_MEM_TRAPPED:
		add(buf, len, "covers 0x%llx, %s, which the hypervisor traps%s",
		    d,
		    c == WARDEN_TRAPPED_LAPIC ? "the local APIC and MSI window"
		    : c == WARDEN_TRAPPED_IOAPIC ? "an IOAPIC"
		    : c == WARDEN_TRAPPED_IOMMU	 ? "the IOMMU's registers"
		    : c == WARDEN_TRAPPED_HPET	 ? "the HPET"
						 : "an address",
		    c == WARDEN_TRAPPED_LAPIC	 ? ": a cell reaches its own "
						   "local APIC at its APIC "
						   "base and sends device "
						   "interrupts through "
						   "pci_devices"
		    : c == WARDEN_TRAPPED_IOAPIC ? ": a cell gets IOAPIC pins "
						   "with irq_pins"
						 : "");
		break;
	case WARDEN_RULE_PIRQ_ROUTES_CELL_PIN:
		add(buf, len,
		    "the chipset routes PCI interrupt line PIRQ%c to ISA IRQ "
		    "%llu, one of the cell's pins: root's devices on that line "
		    "would interrupt the cell",
		    (char)('A' + (a & 7)), b);
		break;
	case WARDEN_RULE_HPET_ROUTES_CELL_PIN:
		add(buf, len,
		    "HPET timer %llu, which Linux programmed, drives one of "
		    "the cell's IOAPIC pins: route or stop that timer first",
		    a);
		break;
	case WARDEN_RULE_ROOT_MSIX_UNTRAPPED:
		add(buf, len,
		    "PCI function %02llx:%02llx.%llx has MSI-X on, but the "
		    "hypervisor cannot trap its table ",
		    (a >> 8) & 0xff, (a >> 3) & 0x1f, a & 7);
		if (b)
			add(buf, len, "at 0x%llx: ", b);
		else
			add(buf, len, "(its BAR decodes nowhere): ");
		add(buf, len, "%s",
		    c == WARDEN_MSIX_UNTRAPPED_COUNT
			    ? "more functions have MSI-X tables than it traps; "
			      "give one of them to a cell or unbind its driver"
			    : "the table must lie in one of root's io memory "
			      "regions of the system config");
		break;
	case WARDEN_RULE_ROOT_PCI_UNDESCRIBED:
		add(buf, len,
		    "PCI function %04llx:%02llx:%02llx.%llx cannot be handed "
		    "to the hypervisor: %s",
		    a >> 16, (a >> 8) & 0xff, (a >> 3) & 0x1f, a & 7,
		    b ? "Linux has more functions than Warden describes"
		      : "Warden traps PCI segment 0 only");
		break;
	case WARDEN_RULE_MEM_LINUX_USES:
		add(buf, len,
		    "Linux uses 0x%llx-0x%llx of it (%s in /proc/iomem): a "
		    "cell's memory comes from the memmap= reservation",
		    c, d, e->text[0] ? e->text : "a resource");
		break;
	case WARDEN_RULE_CPU_VENDOR:
		add(buf, len,
		    "CPU vendor \"%s\" is not supported: Warden runs on "
		    "Intel, AMD and Hygon CPUs",
		    e->text);
		break;
	case WARDEN_RULE_FEATURE_MISSING:
		/* the driver says it in words; the hypervisor gives where
		 * (a CPUID leaf, an MSR) and the bits */
		add(buf, len, "a required CPU feature is missing: ");
		if (e->text[0])
			add(buf, len, "%s", e->text);
		else
			feature_missing(buf, len, a, b);
		add(buf, len, " (run 'warden hardware check')");
		break;
	case WARDEN_RULE_CPU_SETUP_FAILED:
		add(buf, len,
		    "setting up the hypervisor failed at stage %llu "
		    "(error %lld)",
		    a, (long long)b);
		break;
	case WARDEN_RULE_NO_MEMORY:
		add(buf, len, "out of memory: %llu pages needed, %llu free", a,
		    b);
		break;
	case WARDEN_RULE_HV_MEM_TOO_SMALL:
		add(buf, len,
		    "hypervisor memory too small: 0x%llx bytes needed, 0x%llx "
		    "given",
		    a, b);
		break;
	case WARDEN_RULE_CELL_NOT_FOUND:
		add(buf, len, "no such cell");
		break;
	case WARDEN_RULE_CELL_STATE:
		add(buf, len,
		    "not possible now: another cell operation runs, or the "
		    "cell is in the wrong state");
		break;
	case WARDEN_RULE_SHUTDOWN_DENIED:
		add(buf, len, "the cell denied the shutdown request%s",
		    a == WARDEN_CELL_RUNNING_LOCKED ? " (it is locked)" : "");
		break;
	case WARDEN_RULE_CPU_NO_ANSWER:
		/* a root CPU's silence changes nothing, a cell CPU is lost */
		add(buf, len,
		    "CPU %u did not answer a %s request of the hypervisor "
		    "within %llu ms%s",
		    e->item_index, request_name(a), b,
		    a == WARDEN_REQUEST_SUSPEND || a == WARDEN_REQUEST_ENTER
			    ? " (nothing was changed; try again)"
			    : " (a cell CPU: it is lost, see 'warden "
			      "console')");
		break;
	case WARDEN_RULE_CELL_LOST_CPU:
		add(buf, len,
		    "the cell lost CPU %lld (see 'warden console'): it can "
		    "only be destroyed, and its memory and ports stay "
		    "quarantined until disable",
		    (long long)a);
		break;
	case WARDEN_RULE_LOST_CPU_EARLIER:
		add(buf, len,
		    "the hypervisor lost CPU %llu since this system booted; "
		    "it may still run hypervisor code: reboot before enabling "
		    "Warden again",
		    a);
		break;
	case WARDEN_RULE_CPU_HOTPLUG:
		add(buf, len, "Linux could not hand over the CPU (error %lld)",
		    (long long)a);
		break;
	case WARDEN_RULE_IMAGE_OUTSIDE:
		add(buf, len,
		    "0x%llx+0x%llx does not fit in a loadable region of the "
		    "cell",
		    a, b);
		break;
	case WARDEN_RULE_ROOT_CELL:
		add(buf, len, "not possible for the root cell");
		break;
	case WARDEN_RULE_BAD_ARGUMENT:
		add(buf, len, "invalid request argument %llu (value 0x%llx)", a,
		    b);
		break;
	case WARDEN_RULE_NOT_PERMITTED:
		add(buf, len, "not permitted");
		break;
	case WARDEN_RULE_UNSUPPORTED:
		add(buf, len,
		    "request 0x%llx is not supported by this driver version",
		    a);
		break;
	case WARDEN_RULE_CONFIG_CONTEXT:
		add(buf, len,
		    "this config, needed to check the new one, is itself "
		    "invalid (%llu errors)",
		    a);
		break;
	case WARDEN_RULE_CONSOLE_PORTS:
		add(buf, len,
		    "UART ports 0x%llx-0x%llx are not all in the cell's own "
		    "port ranges",
		    b, b + 7);
		break;
	case WARDEN_RULE_IOAPIC_ADDRESS:
		add(buf, len,
		    "the address must be a non-zero multiple of 4 KiB");
		break;
	case WARDEN_RULE_IOAPIC_PINS:
		add(buf, len, "%llu pins, but an IOAPIC has 1 to %llu", b, c);
		break;
	case WARDEN_RULE_IOAPIC_OVERLAP:
		add(buf, len, "%s ioapics[%llu]",
		    c ? "its GSI range overlaps that of"
		      : "has the same address as",
		    b);
		break;
	case WARDEN_RULE_PIN_DUPLICATE:
		add(buf, len, "listed twice (also irq_pins[%llu])", b);
		break;
	case WARDEN_RULE_PIN_NO_IOAPIC:
		add(buf, len, "is not an input of any IOAPIC of the system");
		break;
	case WARDEN_RULE_PIN_ROOT_NEEDS:
		add(buf, len,
		    "the root cell needs it (it is in root_cell.irq_pins)");
		break;
	case WARDEN_RULE_PIN_IN_OTHER_CELL:
		add(buf, len, "belongs to cell %llu", b);
		break;
	case WARDEN_RULE_PIN_UNUSED:
		add(buf, len,
		    "not an ISA IRQ, and no PCI device of the cell names it as "
		    "its gsi (firmware does not say what drives it)");
		break;
	case WARDEN_RULE_PIN_SHARED:
		add(buf, len, "the INTx of PCI device ");
		pci_name(buf, len, b);
		add(buf, len,
		    ", which the cell does not take, drives it too (an INTx "
		    "line cannot be split between owners)");
		break;
	case WARDEN_RULE_PCI_DUPLICATE:
		add(buf, len, "listed twice (also pci_devices[%llu])", b);
		break;
	case WARDEN_RULE_PCI_FLAGS:
		/* root lists the machine's devices: none is given away */
		add(buf, len, "unknown flags 0x%llx%s", b & ~c,
		    (b & ~c) == WARDEN_PCI_DMA_UNISOLATED ? " (dma_unisolated: "
							    "only a cell takes "
							    "a device)"
							  : "");
		break;
	case WARDEN_RULE_PCI_INT_PIN:
		add(buf, len, "int_pin %llu is not one of none, A-D (0-4)", b);
		break;
	case WARDEN_RULE_PCI_GSI_NO_PIN:
		add(buf, len, "gsi %llu given, but it has no INTx pin", b);
		break;
	case WARDEN_RULE_PCI_BAR:
		bar_fault(buf, len, b, c, d);
		break;
	case WARDEN_RULE_PCI_BAR_NOT_MAPPED:
		add(buf, len,
		    "BAR %llu 0x%llx+0x%llx is not inside one io memory region "
		    "of the cell mapped at its own address (guest = phys)",
		    b, c, d);
		break;
	case WARDEN_RULE_PCI_BAR_PORTS:
		add(buf, len,
		    "BAR %llu ports 0x%llx+0x%llx are not inside one of the "
		    "cell's port ranges",
		    b, c, d);
		break;
	case WARDEN_RULE_PCI_PIN_NOT_OWNED:
		add(buf, len,
		    "its INTx drives GSI %llu, which the cell does not own "
		    "(add "
		    "it to irq_pins)",
		    b);
		break;
	case WARDEN_RULE_PCI_DMA:
		add(buf, len,
		    "its DMA is not isolated (there is no IOMMU unit yet): "
		    "the cell takes it only with dma_unisolated: true");
		break;
	case WARDEN_RULE_PCI_NOT_IN_SYSTEM:
		add(buf, len,
		    "is not in the system config's list of PCI devices");
		break;
	case WARDEN_RULE_PCI_MISMATCH:
		pci_field(buf, len, b);
		/* pins and GSIs are counted, the rest are ids and addresses */
		if (b == WARDEN_PCI_FIELD_INT_PIN || b == WARDEN_PCI_FIELD_GSI)
			add(buf, len,
			    " is %llu, but the system config has %llu", c, d);
		else
			add(buf, len,
			    " is 0x%llx, but the system config has 0x%llx", c,
			    d);
		break;
	case WARDEN_RULE_PCI_IN_OTHER_CELL:
		add(buf, len, "belongs to cell %llu", b);
		break;
	case WARDEN_RULE_MEM_PCI_BAR:
	case WARDEN_RULE_PIO_PCI_BAR:
		add(buf, len, "overlaps BAR %llu of PCI device ", d);
		pci_name(buf, len, c);
		add(buf, len, ", which the cell does not take");
		break;
	case WARDEN_RULE_PCI_INTX_SHARED:
		add(buf, len, "its INTx shares GSI %llu with PCI device ", b);
		pci_name(buf, len, c);
		add(buf, len,
		    ", which the cell does not take (an INTx line cannot be "
		    "split between owners)");
		break;
	case WARDEN_RULE_LINK_FIELDS:
		link_fields(buf, len, a, b, c);
		break;
	case WARDEN_RULE_LINK_MEMORY:
		link_memory(buf, len, a, b);
		break;
	case WARDEN_RULE_LINK_MEMORY_OVERLAP:
		/* item LINK: its memory; item MEMORY_REGION: a cell's */
		if (e->item_kind == WARDEN_ITEM_LINK)
			add(buf, len, "memory 0x%llx+0x%llx: ", a, b);
		if (c == 0)
			add(buf, len, "overlaps the hypervisor's memory");
		else if (e->item_kind == WARDEN_ITEM_LINK)
			add(buf, len, "overlaps the memory of links[%llu]", d);
		else
			add(buf, len,
			    "overlaps the memory of links[%llu]%s%s%s, which "
			    "the system config shares between its peers: no "
			    "cell may take it",
			    d, e->text[0] ? " \"" : "",
			    e->text[0] ? e->text : "", e->text[0] ? "\"" : "");
		break;
	case WARDEN_RULE_LINK_PEER:
		if (b)
			add(buf, len,
			    "peer %llu: its cell is neither the root cell nor "
			    "one of the cell configs given",
			    a);
		else
			add(buf, len,
			    "peer %llu: names the same cell as peer %llu (a "
			    "cell is a peer of a link once)",
			    a, c);
		break;
	case WARDEN_RULE_LINK_PEER_BDF:
		add(buf, len, "peer %llu: PCI function ", a);
		pci_name(buf, len, b);
		add(buf, len,
		    " is in use: by one of the cell's PCI devices, or by its "
		    "function of another link");
		break;
	case WARDEN_RULE_LINK_PEER_ADDRESS:
		link_address(buf, len, a, b, c);
		break;
	case WARDEN_RULE_LINK_PEER_VECTORS:
		add(buf, len, "peer %llu: %llu vectors, but a peer has 1 to %d",
		    a, b, WARDEN_LINK_MAX_VECTORS);
		break;
	default:
		add(buf, len,
		    "rule %u broken (values 0x%llx 0x%llx 0x%llx 0x%llx)",
		    e->rule, a, b, c, d);
		break;
	}
	if (e->cpu != WARDEN_NO_CPU && e->item_kind != WARDEN_ITEM_CPU)
		add(buf, len, " (on CPU %u)", e->cpu);
	return buf;
}
