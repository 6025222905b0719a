/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The error channel: a structured reason for every failure.
 *
 * Every ioctl that can fail carries a struct warden_error as its first
 * member; the driver (and, through a hypercall argument, the hypervisor)
 * fills it in before returning a negative errno.  The hypervisor has no
 * printf to spare, so the record holds numbers: which rule was broken, which
 * item of which kind, on which CPU, and up to four values.  The CLI turns a
 * record into a sentence (tools/errmsg.c); docs/abi.md lists what the values
 * of each rule mean.
 *
 * Rule ids are append-only: a number never changes its meaning.
 */
#ifndef WARDEN_ERROR_H
#define WARDEN_ERROR_H

#include "abi.h"

/* What kind of item a record is about (item_kind). */
enum warden_item {
	WARDEN_ITEM_NONE = 0,
	WARDEN_ITEM_CONFIG = 1,	       /* the blob or its header */
	WARDEN_ITEM_SYSTEM = 2,	       /* the system part of a system config */
	WARDEN_ITEM_CELL = 3,	       /* a cell (index = cell id) */
	WARDEN_ITEM_CPU = 4,	       /* index = CPU number */
	WARDEN_ITEM_MEMORY_REGION = 5, /* index into the memory regions */
	WARDEN_ITEM_PIO_RANGE = 6,     /* index into the port ranges */
	WARDEN_ITEM_CONSOLE = 7,
	WARDEN_ITEM_FEATURE = 8, /* index = WARDEN_FEAT_* (hwcaps) */
	WARDEN_ITEM_IMAGE = 9,	 /* index into the images of a load */
	WARDEN_ITEM_IOCTL = 10,
	WARDEN_ITEM_IRQ_PIN = 11,    /* index into the cell's IOAPIC pins */
	WARDEN_ITEM_PCI_DEVICE = 12, /* index into the cell's PCI devices */
	WARDEN_ITEM_IOAPIC = 13,     /* index into the system's IOAPICs */
	WARDEN_ITEM_LINK = 14,	     /* index into the system's links */
	WARDEN_ITEM_IOMMU = 15,	     /* index into the system's IOMMU units */
};

/* Rule ids (rule).  The values[] each rule fills in are given after it. */
enum warden_rule {
	WARDEN_RULE_NONE = 0,

	/* Blob and header: item CONFIG. */
	WARDEN_RULE_CONFIG_TOO_SMALL = 1, /* size, minimum */
	WARDEN_RULE_CONFIG_SIGNATURE = 2, /* found (8 bytes LE), expected */
	WARDEN_RULE_CONFIG_REVISION = 3,  /* found, supported */
	WARDEN_RULE_CONFIG_ARCH = 4,	  /* found, expected */
	WARDEN_RULE_CONFIG_SIZE = 5,	  /* header total_size, blob size */
	WARDEN_RULE_CONFIG_COUNTS = 6,	  /* size the counts need, total_size */
	WARDEN_RULE_CONFIG_RESERVED = 7,  /* byte offset of field, value */
	WARDEN_RULE_CONFIG_FLAGS = 8,	  /* flags, allowed mask */
	WARDEN_RULE_CONFIG_TOO_LARGE = 9, /* size, maximum */
	WARDEN_RULE_CONFIG_TOO_MANY = 10, /* count, maximum */

	/* Cell identity: item CELL. */
	WARDEN_RULE_NAME_EMPTY = 20,
	WARDEN_RULE_NAME_UNTERMINATED = 21,
	WARDEN_RULE_NAME_NOT_PRINTABLE = 22, /* offset, byte */
	WARDEN_RULE_NAME_DUPLICATE = 23,     /* id of the cell with that name */
	WARDEN_RULE_CELL_FLAGS = 24,	     /* flags, allowed mask */

	/* CPUs: item CPU (index = CPU) unless said otherwise. */
	WARDEN_RULE_CPUS_EMPTY = 30,	    /* item CELL */
	WARDEN_RULE_CPU_NOT_PRESENT = 31,   /* number of CPUs */
	WARDEN_RULE_CPU0_NOT_ROOT = 32,	    /* CPU 0 must stay in root */
	WARDEN_RULE_CPU_IN_OTHER_CELL = 33, /* id of the cell owning it */
	WARDEN_RULE_CPU_NOT_IN_ROOT = 34,
	WARDEN_RULE_CPU_IS_CALLER = 35, /* the CPU running the request */

	/* Memory: item MEMORY_REGION, values[0..1] = phys_start, size. */
	WARDEN_RULE_MEM_UNALIGNED = 40, /* .., guest_start */
	WARDEN_RULE_MEM_EMPTY = 41,
	WARDEN_RULE_MEM_WRAPS = 42,	  /* .., guest_start */
	WARDEN_RULE_MEM_OVERLAP = 43,	  /* .., other index, 0 phys 1 guest */
	WARDEN_RULE_MEM_OVERLAPS_HV = 44, /* .., hv start, hv size */
	WARDEN_RULE_MEM_NOT_IN_ROOT = 45,
	WARDEN_RULE_MEM_FLAGS = 46,	     /* .., flags, allowed mask */
	WARDEN_RULE_MEM_TYPE = 47,	     /* .., type */
	WARDEN_RULE_MEM_TYPE_MISMATCH = 48,  /* .., type, required type */
	WARDEN_RULE_MEM_IN_OTHER_CELL = 49,  /* .., cell id */
	WARDEN_RULE_COMM_REGION_COUNT = 50,  /* item CELL: count */
	WARDEN_RULE_COMM_REGION_SHAPE = 51,  /* .., (phys must be 0, 1 page) */
	WARDEN_RULE_RESET_NOT_LOADABLE = 52, /* item CELL: reset address */
	WARDEN_RULE_HV_MEM = 53,	     /* item SYSTEM: start, size, min */

	/* Ports: item PIO_RANGE, values[0..1] = base, length. */
	WARDEN_RULE_PIO_RANGE = 60,
	WARDEN_RULE_PIO_OVERLAP = 61, /* .., other index */
	WARDEN_RULE_PIO_NOT_IN_ROOT = 62,
	WARDEN_RULE_PIO_IN_OTHER_CELL = 63, /* .., cell id */

	/* Consoles: item CONSOLE. */
	WARDEN_RULE_CONSOLE = 70, /* type, address */

	/* Enable and disable. */
	WARDEN_RULE_CPU_OFFLINE = 80,	   /* item CPU */
	WARDEN_RULE_MEM_NOT_RESERVED = 81, /* start, size */
	/* errno, vendor the image is for (WARDEN_VENDOR_*, 0: not given);
	 * text = file name */
	WARDEN_RULE_FIRMWARE_MISSING = 82,
	WARDEN_RULE_FIRMWARE_INVALID = 83, /* found, expected; text = what */
	WARDEN_RULE_ALREADY_ENABLED = 84,
	WARDEN_RULE_NOT_ENABLED = 85,
	WARDEN_RULE_VMX_BUSY = 86, /* cpu: CR4.VMXE set elsewhere */
	WARDEN_RULE_FEATURE_MISSING =
		87, /* cpu: CPUID leaf or MSR, bits; text: which */
	WARDEN_RULE_CPU_SETUP_FAILED = 88, /* item CPU: stage, errno */
	WARDEN_RULE_NO_MEMORY = 89,	   /* pages needed, pages free */
	WARDEN_RULE_HV_MEM_TOO_SMALL = 90, /* bytes needed, bytes given */

	/* Cell management. */
	WARDEN_RULE_CELL_NOT_FOUND = 100,  /* item CELL */
	WARDEN_RULE_CELL_STATE = 101,	   /* item CELL: state */
	WARDEN_RULE_SHUTDOWN_DENIED = 102, /* item CELL */
	WARDEN_RULE_CPU_HOTPLUG = 103,	   /* item CPU: errno */
	WARDEN_RULE_IMAGE_OUTSIDE = 104,   /* item IMAGE: address, size */
	WARDEN_RULE_ROOT_CELL = 105,	   /* the root cell cannot do this */
	/* item CPU: a CPU did not answer a request of the hypervisor in
	 * time.  values: what was asked (WARDEN_REQUEST_*), ms waited */
	WARDEN_RULE_CPU_NO_ANSWER = 106,
	/* item CELL: the cell lost a CPU (WARDEN_CPU_LOST): it can only be
	 * destroyed, and its resources stay quarantined.  values: the CPU */
	WARDEN_RULE_CELL_LOST_CPU = 107,
	/* item SYSTEM: the hypervisor lost a CPU in an earlier enable; it
	 * may still run hypervisor code in the reserved memory.  values:
	 * the CPU */
	WARDEN_RULE_LOST_CPU_EARLIER = 108,

	/* Requests themselves. */
	WARDEN_RULE_BAD_ARGUMENT = 120, /* item IOCTL: which field, value */
	WARDEN_RULE_NOT_PERMITTED = 121,
	WARDEN_RULE_UNSUPPORTED = 122, /* what (e.g. ioctl number) */

	/* Appended rules (numbered in their group's range). */
	/* Blob and header: item SYSTEM (the system config) or CELL (id of an
	 * existing cell): a config that a check depends on is itself invalid.
	 * values: number of errors found in it. */
	WARDEN_RULE_CONFIG_CONTEXT = 11,
	/* Consoles: item CONSOLE: a UART console's ports are not all inside
	 * the cell's own port ranges.  values: type, address. */
	WARDEN_RULE_CONSOLE_PORTS = 71,
	/* Enable: cpu: SVM is held elsewhere, EFER.SVME is set (AMD; on
	 * Intel, VMX_BUSY with CR4.VMXE). */
	WARDEN_RULE_SVM_BUSY = 91,
	/* Enable: Warden has no hypervisor image for the CPU's vendor (only
	 * Intel, AMD and Hygon have one).  text = the vendor string of CPUID
	 * leaf 0, unprintable bytes as '?'. */
	WARDEN_RULE_CPU_VENDOR = 92,
	/* Enable: cpu: the firmware disabled SVM, VM_CR.SVMDIS is set (AMD
	 * APM Vol. 2, 15.30.1). */
	WARDEN_RULE_SVM_DISABLED = 93,
	/* Any management ioctl (enable first): this kernel runs inside a
	 * Warden cell, where only the cell's link functions are warden.ko's
	 * (ABI revision 9).  values: the CPUID leaf of Warden's signature;
	 * text: what was asked. */
	WARDEN_RULE_IN_CELL = 94,

	/* IOAPICs: item IOAPIC, values[0] = its address. */
	WARDEN_RULE_IOAPIC_ADDRESS = 130, /* 0 or not 4 KiB aligned */
	WARDEN_RULE_IOAPIC_PINS = 131,	  /* .., num_pins, maximum (240) */
	/* .., index of the earlier IOAPIC, 0 same address / 1 GSI ranges
	 * overlap */
	WARDEN_RULE_IOAPIC_OVERLAP = 132,

	/* IOAPIC pins: item IRQ_PIN, values[0] = the GSI. */
	WARDEN_RULE_PIN_DUPLICATE = 135,  /* .., index of the earlier entry */
	WARDEN_RULE_PIN_NO_IOAPIC = 136,  /* no IOAPIC of the system has it */
	WARDEN_RULE_PIN_ROOT_NEEDS = 137, /* listed in the root cell's pins */
	WARDEN_RULE_PIN_IN_OTHER_CELL = 138, /* .., cell id */
	/* A non-root cell's pin >= 16 (not an ISA IRQ) that none of its
	 * devices names as its gsi. */
	WARDEN_RULE_PIN_UNUSED = 139,
	/* A cell's pin that the INTx of a device the cell does not take
	 * drives (no device of the cell names the pin).  .., that device
	 * (domain << 16 | bdf) */
	WARDEN_RULE_PIN_SHARED = 140,

	/* PCI devices: item PCI_DEVICE, values[0] = domain << 16 | bdf. */
	WARDEN_RULE_PCI_DUPLICATE = 145,  /* .., index of the earlier entry */
	WARDEN_RULE_PCI_FLAGS = 146,	  /* .., flags, allowed mask */
	WARDEN_RULE_PCI_INT_PIN = 147,	  /* .., int_pin (> 4) */
	WARDEN_RULE_PCI_GSI_NO_PIN = 148, /* .., gsi (int_pin is 0) */
	/* .., BAR number, WARDEN_PCI_BAR_BAD_*, the value at fault */
	WARDEN_RULE_PCI_BAR = 149,
	/* A non-root cell's memory BAR not inside one IO region of the cell
	 * mapped where it is (guest_start == phys_start).  .., BAR number,
	 * address, size */
	WARDEN_RULE_PCI_BAR_NOT_MAPPED = 150,
	/* A non-root cell's I/O BAR not inside one of its port ranges.  ..,
	 * BAR number, first port, number of ports */
	WARDEN_RULE_PCI_BAR_PORTS = 151,
	WARDEN_RULE_PCI_PIN_NOT_OWNED = 152, /* .., gsi of its INTx */
	WARDEN_RULE_PCI_DMA = 153, /* a cell's device without DMA_UNISOLATED */
	WARDEN_RULE_PCI_NOT_IN_SYSTEM = 154,
	/* .., WARDEN_PCI_FIELD_*, the cell's value, the system's value */
	WARDEN_RULE_PCI_MISMATCH = 155,
	WARDEN_RULE_PCI_IN_OTHER_CELL = 156, /* .., cell id */
	/* The device's INTx line is shared with a device of the system that
	 * the cell does not take.  .., gsi, the other device (domain << 16 |
	 * bdf) */
	WARDEN_RULE_PCI_INTX_SHARED = 157,
	/* A cell's memory region (item MEMORY_REGION) or port range (item
	 * PIO_RANGE) overlaps a BAR of a PCI device of the system that the
	 * cell does not take.  values: phys_start / base, size / length,
	 * that device (domain << 16 | bdf), its BAR number */
	WARDEN_RULE_MEM_PCI_BAR = 158,
	WARDEN_RULE_PIO_PCI_BAR = 159,

	/* The IOAPIC unit (the hypervisor's own checks; the validator's
	 * rules on pins come before them). */
	/* Enable: item SYSTEM, index = the IOAPIC's place in the config:
	 * its version register gives another number of pins.  values:
	 * pins found, pins configured. */
	WARDEN_RULE_IOAPIC_PINS_FOUND = 170,
	/* Create: a pin of the cell is on no IOAPIC, or another cell owns
	 * it.  values: GSI, owner's cell id (0: none). */
	WARDEN_RULE_IOAPIC_PIN_UNAVAILABLE = 171,
	/* Create: item MEMORY_REGION: the region covers an IOAPIC, which
	 * the hypervisor keeps (a cell gets pins with irq_pins).  values:
	 * the IOAPIC's address.  No longer reported: MEM_TRAPPED (176). */
	WARDEN_RULE_IOAPIC_IN_CELL_MEMORY = 172,

	/* The PCI unit (create). */
	/* Item PCI_DEVICE: another cell owns the function, or the
	 * hypervisor has no room for more assigned functions.  values:
	 * bdf, owner's cell id (0: no room; values[2] the limit). */
	WARDEN_RULE_PCI_DEVICE_UNAVAILABLE = 173,
	/* Item PCI_DEVICE: the function is not what the config says.
	 * values: bdf, the IDs found (vendor << 16 | device; 0xffffffff:
	 * no function there), the header type found (only type 0 can be
	 * given to a cell), the IDs configured. */
	WARDEN_RULE_PCI_DEVICE_MISMATCH = 174,
	/* Item PIO_RANGE or MEMORY_REGION: the cell's ports include the
	 * configuration ports 0xcf8-0xcff, or its memory the MMCONFIG
	 * window, which the hypervisor keeps.  values: the port or
	 * address. */
	WARDEN_RULE_PCI_CONFIG_IN_CELL = 175,
	/* Item MEMORY_REGION (a cell's, the validator, also at create): the
	 * region covers an address the hypervisor traps for root or for
	 * every cell.  values: phys_start, size, what (WARDEN_TRAPPED_*),
	 * the trapped address.  (Create reported an IOAPIC page as
	 * IOAPIC_IN_CELL_MEMORY before; this rule replaces it.) */
	WARDEN_RULE_MEM_TRAPPED = 176,
	/* Item MEMORY_REGION (the driver, at create): Linux uses memory of
	 * the region (/proc/iomem: System RAM, ACPI tables or NVS, or a
	 * busy resource outside the cell's own BARs).  values: phys_start,
	 * size, the first such range's start and end (inclusive, clipped to
	 * the region); text: what it is. */
	WARDEN_RULE_MEM_LINUX_USES = 177,
	/* Create: an HPET timer root programmed drives an IOAPIC pin of the
	 * cell (its route, or the legacy routes to inputs 2 and 8).
	 * values: the timer. */
	WARDEN_RULE_HPET_ROUTES_CELL_PIN = 178,
	/* Create: the chipset routes a PIRQ line (PCI INTx) to an ISA
	 * interrupt input the cell owns.  values: the line (0: PIRQA), the
	 * ISA IRQ. */
	WARDEN_RULE_PIRQ_ROUTES_CELL_PIN = 179,

	/* Links (link.h): the validator, item LINK unless said. */
	/* Name empty, unterminated, not printable or not unique; flags;
	 * num_peers not 2 .. 4; a reserved field.  values: what
	 * (WARDEN_LINK_BAD_*), the value at fault, peer index (or ~0). */
	WARDEN_RULE_LINK_FIELDS = 180,
	/* The memory: size not a power of 2 or below the minimum, address
	 * not aligned to it, or not inside one of root's RAM regions
	 * (read/write, not io).  values: phys_start, size. */
	WARDEN_RULE_LINK_MEMORY = 181,
	/* The memory overlaps the hypervisor's memory (values[2] = 0),
	 * another link (values[2] = 1, values[3] its index) or a cell's
	 * memory (item MEMORY_REGION at create, values[2] = 2, values[3] the
	 * link).  values: phys_start, size. */
	WARDEN_RULE_LINK_MEMORY_OVERLAP = 182,
	/* A peer names no cell: the same cell twice in one link (values[1]
	 * = 0, values[2] = the earlier peer), or (config check with cell
	 * configs) a cell no config has (values[1] = 1).  values: peer
	 * index, 0 / 1, other. */
	WARDEN_RULE_LINK_PEER = 183,
	/* A peer's virtual PCI address is in use: one of root's functions
	 * (root peers), one of the cell's functions, or another link's peer
	 * of the same cell.  values: peer index, bdf. */
	WARDEN_RULE_LINK_PEER_BDF = 184,
	/* A peer's BAR addresses: regs not page aligned or above 4 GiB,
	 * root's regs outside its device memory or over a PCI BAR, root's
	 * shmem_address not phys_start, a cell's regs or shmem over its
	 * memory or each other.  values: peer index, address, what
	 * (WARDEN_LINK_BAD_*). */
	WARDEN_RULE_LINK_PEER_ADDRESS = 185,
	/* A peer's vectors not 1 .. 4.  values: peer index, vectors. */
	WARDEN_RULE_LINK_PEER_VECTORS = 186,

	/* Root's PCI functions at enable (the driver's list of them, the
	 * hypervisor's MSI-X traps). */
	/* Enable: root's function has MSI-X enabled, but its table cannot
	 * be trapped: it is not in root's device memory, or more functions
	 * have tables than the hypervisor traps.  values: bdf, the table's
	 * address (0: its BAR decodes nowhere), what
	 * (WARDEN_MSIX_UNTRAPPED_*), the limit. */
	WARDEN_RULE_ROOT_MSIX_UNTRAPPED = 187,
	/* Enable (the driver): a function Linux has cannot be described to
	 * the hypervisor: in a PCI segment other than 0 (values[1] = 0), or
	 * more than WARDEN_ROOT_PCI_MAX functions (values[1] = 1).  values:
	 * segment << 16 | bdf, what, the limit. */
	WARDEN_RULE_ROOT_PCI_UNDESCRIBED = 188,

	/* Enable: the hypervisor cannot take the IOMMU over (it owns DMA
	 * remapping).  values: the unit's register base, what
	 * (WARDEN_IOMMU_*), a value (the register or capability). */
	WARDEN_RULE_IOMMU_TAKEOVER = 189,
	/* Create, item PCI_DEVICE: the hypervisor's interrupt remapping
	 * table has no run of free cells' entries for the function's MSI
	 * vectors and MSI-X entries (a cell's interrupts are remapped
	 * wherever the IOMMU remaps interrupts).  values: bdf, entries
	 * needed, entries cells hold now. */
	WARDEN_RULE_PCI_IRQ_REMAP_FULL = 190,

	/* A Linux cell (WARDEN_CELL_LINUX) takes a function whose DMA no
	 * IOMMU confines (DMA_UNISOLATED, the system names none) while some
	 * of its memory is not at guest = phys: Linux programs the device
	 * with guest-physical addresses, which would reach other memory.
	 * item PCI_DEVICE; values: segment << 16 | bdf, the region's guest
	 * and physical address. */
	WARDEN_RULE_LINUX_DMA = 191,

	/* System config, item IOMMU: a unit that cannot be right.  values:
	 * its register base, what (WARDEN_IOMMU_UNIT_*), a value (the
	 * scope's index, the other unit's index, ...). */
	WARDEN_RULE_IOMMU_UNIT = 192,
	/* System config, item PCI_DEVICE (root's list, which holds every
	 * cell's functions): the system lists IOMMU units and none covers
	 * the function (neither its scope nor INCLUDE_PCI_ALL of its
	 * segment).  values: segment << 16 | bdf. */
	WARDEN_RULE_PCI_NO_IOMMU = 193,
	/* Create, item IOAPIC: a cell's IOAPIC pin where the IOMMU remaps
	 * cells' interrupts, and the system config has no source id for its
	 * IOAPIC (ioapics[].source_id: the remapping entry verifies it).
	 * values: the IOAPIC's address, the pin's GSI. */
	WARDEN_RULE_IOAPIC_NO_SOURCE_ID = 194,
	/* Create, item IRQ_PIN (index 0): the hypervisor's interrupt
	 * remapping table has no run of free cells' entries for the cell's
	 * IOAPIC pins.  values: the first pin's GSI, entries needed, entries
	 * cells hold now. */
	WARDEN_RULE_PIN_IRQ_REMAP_FULL = 195,
	/* Cell config, item PCI_DEVICE, where the system config names an
	 * IOMMU: a requester id the function's DMA may carry (its own, or
	 * its dma_alias as the system's entry has it) is also one of a
	 * function the cell does not take (its own id or its alias).  The
	 * IOMMU tells functions apart by requester id only, so both must
	 * have one owner.  values: segment << 16 | bdf, the shared requester
	 * id, the other function (segment << 16 | bdf). */
	WARDEN_RULE_PCI_DMA_ALIAS = 196,
};

/* What is wrong with an IOMMU unit (WARDEN_RULE_IOMMU_UNIT values[1]). */
#define WARDEN_IOMMU_UNIT_BASE 1       /* 0 or not 4 KiB aligned */
#define WARDEN_IOMMU_UNIT_FLAGS 2      /* unknown flags; value: them */
#define WARDEN_IOMMU_UNIT_SCOPES 3     /* num_scopes over the maximum */
#define WARDEN_IOMMU_UNIT_SCOPE 4      /* scope value: bad type/range */
#define WARDEN_IOMMU_UNIT_ALL_SCOPES 5 /* INCLUDE_PCI_ALL with a scope */
#define WARDEN_IOMMU_UNIT_DUPLICATE 6  /* same base as unit value */
#define WARDEN_IOMMU_UNIT_ALL_TWICE                                            \
	7 /* second INCLUDE_PCI_ALL of a
					 * segment; value: the first */
#define WARDEN_IOMMU_UNIT_NOT_LISTED                                           \
	8 /* platform.iommu_base is none of
					 * the units (base: iommu_base) */
#define WARDEN_IOMMU_UNIT_RESERVED                                             \
	9 /* reserved field or unused scope
					 * slot not 0; value: the slot */

/* Why WARDEN_RULE_IOMMU_TAKEOVER (values[1]). */
#define WARDEN_IOMMU_DMA_REMAPPING_ON 1 /* root's Linux translates DMA */
#define WARDEN_IOMMU_NO_4LEVEL 2	/* no 48-bit second-level tables */
#define WARDEN_IOMMU_NO_QI 3		/* no queued invalidation */
#define WARDEN_IOMMU_FEW_DOMAINS 4	/* fewer domain ids than cells */
#define WARDEN_IOMMU_ROOT_QUEUE 5	/* root's queue too large, 256-bit */
#define WARDEN_IOMMU_NO_ANSWER 6	/* a command was not completed */
/* 7 was WARDEN_IOMMU_SEVERAL_UNITS (more units listed than driven):
 * no longer used (every listed unit is driven), reserved. */
#define WARDEN_IOMMU_SEVERAL_UNITS 7
#define WARDEN_IOMMU_ABSENT                                                    \
	8 /* no unit answers at the base (its
					 * version register reads 0 or all
					 * ones): the config is another
					 * machine's */

/* Why WARDEN_RULE_ROOT_MSIX_UNTRAPPED (values[2]). */
#define WARDEN_MSIX_UNTRAPPED_PLACE 1 /* not in root's device memory */
#define WARDEN_MSIX_UNTRAPPED_COUNT 2 /* more tables than trapped */

/* What WARDEN_RULE_LINK_FIELDS and _LINK_PEER_ADDRESS name (values[0] /
 * values[2]). */
#define WARDEN_LINK_BAD_NAME 1
#define WARDEN_LINK_BAD_NAME_DUPLICATE 2 /* value: the earlier link */
#define WARDEN_LINK_BAD_FLAGS 3
#define WARDEN_LINK_BAD_NUM_PEERS 4
#define WARDEN_LINK_BAD_RESERVED 5
#define WARDEN_LINK_BAD_PEER_NAME 6
#define WARDEN_LINK_BAD_REGS_ALIGN 10
#define WARDEN_LINK_BAD_REGS_NOT_DEVICE 11 /* root: not its device memory */
#define WARDEN_LINK_BAD_REGS_OVER_BAR 12   /* root: over a PCI BAR */
#define WARDEN_LINK_BAD_ROOT_SHMEM 13	   /* root: not phys_start */
#define WARDEN_LINK_BAD_OVER_MEMORY 14	   /* a cell: over its memory */
#define WARDEN_LINK_BAD_OVER_OTHER                                             \
	15 /* regs over shmem, or another
					    * link's BARs of the same peer */
/* root: regs over an IOAPIC or the MMCONFIG window (the hypervisor's) */
#define WARDEN_LINK_BAD_REGS_TRAPPED 16
#define WARDEN_LINK_BAD_SHMEM_ALIGN 17 /* a cell: not aligned to the size */

/* What WARDEN_RULE_MEM_TRAPPED covers (values[2]). */
#define WARDEN_TRAPPED_LAPIC 1	/* the local APIC and MSI window */
#define WARDEN_TRAPPED_IOAPIC 2 /* an IOAPIC's page */
#define WARDEN_TRAPPED_IOMMU 3	/* the IOMMU's register page */
#define WARDEN_TRAPPED_HPET 4	/* the HPET's page */

/* What is wrong with a BAR (WARDEN_RULE_PCI_BAR values[2]); values[3] is
 * the value at fault. */
#define WARDEN_PCI_BAR_BAD_SIZE 1    /* size: not a power of 2 */
#define WARDEN_PCI_BAR_BAD_ALIGN 2   /* address: not aligned to the size */
#define WARDEN_PCI_BAR_BAD_FLAGS 3   /* flags: unknown bits */
#define WARDEN_PCI_BAR_BAD_MEM64_5 4 /* flags: MEM64 in the last BAR */
#define WARDEN_PCI_BAR_BAD_UPPER                                               \
	5 /* size: the upper half of a 64-bit
				       * BAR is not empty */
#define WARDEN_PCI_BAR_BAD_EMPTY                                               \
	6			   /* address: size 0 but address or
				       * flags set (values[3] the address) */
#define WARDEN_PCI_BAR_BAD_PORTS 7 /* address: an I/O BAR past 0xffff */

/* Which field of a cell's PCI device differs from the system's entry
 * (WARDEN_RULE_PCI_MISMATCH values[1]). */
#define WARDEN_PCI_FIELD_VENDOR 1
#define WARDEN_PCI_FIELD_DEVICE 2
#define WARDEN_PCI_FIELD_INT_PIN 3
#define WARDEN_PCI_FIELD_GSI 4
#define WARDEN_PCI_FIELD_FLAGS 5 /* MSI, MSIX */
/* DMA_ALIAS: 0x10000 | dma_alias, or 0 without the flag */
#define WARDEN_PCI_FIELD_DMA_ALIAS 6
/* BAR n: 8 + 4 * n + 0 address, 1 size, 2 flags. */
#define WARDEN_PCI_FIELD_BAR(n, what) (8 + 4 * (n) + (what))

/* What a WARDEN_RULE_CPU_NO_ANSWER request was. */
#define WARDEN_REQUEST_SUSPEND 1 /* stop running Linux for a while */
#define WARDEN_REQUEST_PARK 2	 /* join a cell */
#define WARDEN_REQUEST_RETURN 3	 /* leave a cell for root */
#define WARDEN_REQUEST_STOP 4	 /* stop running the cell */
#define WARDEN_REQUEST_START 5	 /* start the cell */
#define WARDEN_REQUEST_ENTER 6	 /* enter the hypervisor (enable) */

#define WARDEN_NO_CPU 0xffffffffu
#define WARDEN_ERROR_TEXT_LEN 48

struct warden_error {
	int32_t code;	     /* negative errno; 0: no error */
	uint32_t rule;	     /* enum warden_rule */
	uint32_t item_kind;  /* enum warden_item */
	uint32_t item_index; /* which item of that kind */
	uint32_t cpu;	     /* CPU where it failed, or WARDEN_NO_CPU */
	uint32_t reserved;
	uint64_t values[4]; /* meaning depends on rule */
	/* Optional NUL-terminated detail (file name, cell name); the
	 * hypervisor leaves it empty. */
	char text[WARDEN_ERROR_TEXT_LEN];
};
WARDEN_CHECK_SIZE(struct warden_error, 104);
WARDEN_CHECK_OFFSET(struct warden_error, values, 24);
WARDEN_CHECK_OFFSET(struct warden_error, text, 56);

/* Which of values[] holds the id of another cell a refusal names (the
 * rules above say so), or -1 if the rule names none. */
static inline int warden_rule_other_cell_value(uint32_t rule)
{
	switch (rule) {
	case WARDEN_RULE_NAME_DUPLICATE:
	case WARDEN_RULE_CPU_IN_OTHER_CELL:
		return 0;
	case WARDEN_RULE_PIN_IN_OTHER_CELL:
	case WARDEN_RULE_PCI_IN_OTHER_CELL:
		return 1;
	case WARDEN_RULE_MEM_IN_OTHER_CELL:
	case WARDEN_RULE_PIO_IN_OTHER_CELL:
		return 2;
	}
	return -1;
}

#endif /* WARDEN_ERROR_H */
