/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Warden binary configuration descriptor, revision 6.
 *
 * A configuration is one contiguous blob.  A system config (enable) is:
 *
 *   struct warden_config_header      signature "WRDNSYS"
 *   struct warden_system_desc        ends with the root cell's descriptor
 *   struct warden_mem_region  [root_cell.num_memory_regions]
 *   struct warden_pio_range   [root_cell.num_pio_ranges]
 *   struct warden_irq_pin     [root_cell.num_irq_pins]
 *   struct warden_pci_device  [root_cell.num_pci_devices]
 *   struct warden_ioapic      [platform.num_ioapics]
 *   struct warden_link        [platform.num_links]      (link.h)
 *   struct warden_iommu_unit  [platform.num_iommus]
 *
 * A cell config (cell create) is:
 *
 *   struct warden_config_header      signature "WRDNCEL"
 *   struct warden_cell_desc
 *   struct warden_mem_region  [num_memory_regions]
 *   struct warden_pio_range   [num_pio_ranges]
 *   struct warden_irq_pin     [num_irq_pins]
 *   struct warden_pci_device  [num_pci_devices]
 *
 * The root cell's pins are the ones root needs (a cell may not take them;
 * root owns every pin no cell has), its PCI devices every device of the
 * machine; a cell's pins and devices are the ones it owns.
 *
 * header.total_size is the exact length of the blob.  Every reserved field
 * and every undefined flag bit must be 0.  Validation rules are listed with
 * the rule ids in error.h; docs/abi.md gives the details.
 */
#ifndef WARDEN_CONFIG_H
#define WARDEN_CONFIG_H

#include "abi.h"
#include "link.h"

#define WARDEN_CONFIG_REVISION 6
#define WARDEN_SYSTEM_SIGNATURE "WRDNSYS" /* 7 characters + NUL */
#define WARDEN_CELL_SIGNATURE "WRDNCEL"

struct warden_config_header {
	char signature[8];     /* WARDEN_SYSTEM_SIGNATURE or _CELL_ */
	uint16_t revision;     /* WARDEN_CONFIG_REVISION */
	uint16_t architecture; /* WARDEN_ARCH_* */
	uint32_t total_size;   /* bytes, header included */
	uint32_t flags;	       /* none defined: must be 0 */
	uint32_t reserved;     /* must be 0 */
};
WARDEN_CHECK_SIZE(struct warden_config_header, 24);
WARDEN_CHECK_OFFSET(struct warden_config_header, total_size, 12);

/* Memory region access flags. */
#define WARDEN_MEM_READ (1u << 0)
#define WARDEN_MEM_WRITE (1u << 1)
#define WARDEN_MEM_EXECUTE (1u << 2)
/* Device memory (MMIO): must be uncached. */
#define WARDEN_MEM_IO (1u << 3)
/* May be written by root through "cell load" while the cell is stopped. */
#define WARDEN_MEM_LOADABLE (1u << 4)
/* The communication region: the hypervisor supplies the page (phys_start
 * must be 0, size one page) and maps it at guest_start. */
#define WARDEN_MEM_COMM_REGION (1u << 5)
/* Stays mapped in root while the cell exists (shared memory). */
#define WARDEN_MEM_ROOT_SHARED (1u << 6)
#define WARDEN_MEM_FLAGS_ALL 0x7fu

/*
 * Memory types, encoded as in EPT entries bits 5:3 and the PAT
 * (Intel SDM Vol. 3, 29.3.7 "EPT and Memory Typing" and 11.12.3).
 * RAM must be WB, device memory (WARDEN_MEM_IO) UC.
 */
#define WARDEN_MEMTYPE_UC 0
#define WARDEN_MEMTYPE_WC 1
#define WARDEN_MEMTYPE_WT 4
#define WARDEN_MEMTYPE_WP 5
#define WARDEN_MEMTYPE_WB 6

struct warden_mem_region {
	uint64_t phys_start;  /* host-physical address */
	uint64_t guest_start; /* guest-physical address in the cell */
	uint64_t size;	      /* bytes, a multiple of 4 KiB */
	uint32_t flags;	      /* WARDEN_MEM_* */
	uint8_t mem_type;     /* WARDEN_MEMTYPE_* */
	uint8_t reserved[3];  /* must be 0 */
};
WARDEN_CHECK_SIZE(struct warden_mem_region, 32);
WARDEN_CHECK_OFFSET(struct warden_mem_region, flags, 24);
WARDEN_CHECK_OFFSET(struct warden_mem_region, mem_type, 28);

/* I/O ports base .. base + length - 1 (base + length <= 0x10000). */
struct warden_pio_range {
	uint16_t base;
	uint16_t reserved; /* must be 0 */
	uint32_t length;
};
WARDEN_CHECK_SIZE(struct warden_pio_range, 8);

/* Cell flags. */
/* The cell does not answer messages: a shutdown request is approved. */
#define WARDEN_CELL_PASSIVE_COMM (1u << 0)
/* Record every port, MSR and CPUID leaf the cell's guest uses through an
 * exit (counted, with the first RIP), on the hypervisor console
 * (docs/linux-cell.md): the map a guest's policies are decided from. */
#define WARDEN_CELL_ACCESS_LOG (1u << 1)
/* The legacy ports a stock kernel probes without owning them answer as
 * absent hardware instead of failing the cell: the PIT, the CMOS, the
 * ELCR read 0, port 0x80 and unowned legacy UARTs and PCI configuration
 * ports read all ones, writes are dropped; each counted. */
#define WARDEN_CELL_LEGACY_QUIET (1u << 2)
/* The cell runs a stock Linux kernel: an MSR outside the cell's list gets
 * #GP (counted) instead of failing the cell, and CPUID hides the features
 * that lead to such MSRs, announces KVM's signature with no features (so
 * that Linux keeps x2APIC mode without interrupt remapping) and gives the
 * TSC rate in leaves 0x15/0x16 on Intel. */
#define WARDEN_CELL_LINUX (1u << 3)
/* A Linux cell's ACPI sleep control and status registers (the FADT's
 * SLEEP_CONTROL_REG and SLEEP_STATUS_REG, ACPI 6.4, 4.8.3.7): a write of
 * SLP_EN with SLP_TYP 5 (the DSDT's \_S5) to the control port shuts the
 * cell down; the status port reads 0 and ignores writes.  Its reset
 * register is the FADT's RESET_REG at port 0xcf9 with value 6: the cell
 * is shut down too.  Emulated for cells with WARDEN_CELL_LINUX that do
 * not own these ports. */
#define WARDEN_LINUX_SLEEP_CONTROL_PORT 0x504u
#define WARDEN_LINUX_SLEEP_STATUS_PORT 0x505u
#define WARDEN_LINUX_RESET_PORT 0xcf9u
#define WARDEN_LINUX_RESET_VALUE 6u
#define WARDEN_CELL_FLAGS_ALL 0xfu

/*
 * An IOAPIC input, by its global system interrupt number (GSI: the
 * IOAPIC's gsi_base plus the pin).
 */
struct warden_irq_pin {
	uint32_t gsi;
	uint32_t reserved; /* must be 0 */
};
WARDEN_CHECK_SIZE(struct warden_irq_pin, 8);

/* No IOAPIC input (warden_pci_device.gsi). */
#define WARDEN_NO_GSI 0xffffffffu

/* PCI BAR flags. */
#define WARDEN_PCI_BAR_IO (1u << 0)	  /* an I/O port range, else memory */
#define WARDEN_PCI_BAR_MEM64 (1u << 1)	  /* 64-bit: takes the next BAR too */
#define WARDEN_PCI_BAR_PREFETCH (1u << 2) /* prefetchable memory */
#define WARDEN_PCI_BAR_FLAGS_ALL 0x7u

/* A base address register as the firmware or Linux programmed it.  A BAR
 * not implemented, or the upper half of a 64-bit one, has size 0 and
 * everything else 0. */
struct warden_pci_bar {
	uint64_t address;  /* memory address, or the first port */
	uint64_t size;	   /* bytes or ports, a power of 2 */
	uint32_t flags;	   /* WARDEN_PCI_BAR_* */
	uint32_t reserved; /* must be 0 */
};
WARDEN_CHECK_SIZE(struct warden_pci_bar, 24);

#define WARDEN_PCI_BARS 6

/* PCI device flags. */
#define WARDEN_PCI_MSI (1u << 0)  /* has an MSI capability */
#define WARDEN_PCI_MSIX (1u << 1) /* has an MSI-X capability */
/* Cell configs only: the cell takes the device although no IOMMU keeps
 * its DMA inside the cell's memory (every PCI device may master the bus;
 * there is no IOMMU unit yet). */
#define WARDEN_PCI_DMA_UNISOLATED (1u << 2)
/* The function's DMA may reach the IOMMU with another requester id than
 * its own, dma_alias (config revision 6): a conventional PCI function
 * behind a PCIe-to-PCI bridge is seen as the bridge's secondary bus with
 * device and function 0, one behind a conventional PCI-to-PCI bridge as
 * that bridge (the requester id the IOMMU sees, VT-d specification
 * chapter 3; Linux's pci_for_each_dma_alias, drivers/pci/search.c).  "warden config
 * create" finds it; a cell's entry repeats it. */
#define WARDEN_PCI_DMA_ALIAS (1u << 3)
#define WARDEN_PCI_FLAGS_ALL 0xfu

/* PCI INTx pins (warden_pci_device.int_pin), as the Interrupt Pin
 * register has them. */
#define WARDEN_PCI_INT_NONE 0
#define WARDEN_PCI_INT_A 1
#define WARDEN_PCI_INT_D 4

/*
 * A PCI function.  The system config lists every function of the machine
 * as "warden config create" found it; a cell config repeats the entries
 * of the ones it takes (they must match) and may add DMA_UNISOLATED.
 */
struct warden_pci_device {
	uint16_t domain;    /* PCI segment */
	uint16_t bdf;	    /* bus << 8 | device << 3 | function */
	uint16_t vendor_id; /* the function's IDs, checked when it is taken */
	uint16_t device_id;
	uint32_t flags;	      /* WARDEN_PCI_* */
	uint8_t int_pin;      /* WARDEN_PCI_INT_*: INTx pin, 0 if none */
	uint8_t reserved0[3]; /* must be 0 */
	uint32_t gsi; /* IOAPIC input its INTx drives, or WARDEN_NO_GSI */
	/* With WARDEN_PCI_DMA_ALIAS: the other requester id (bus << 8 |
	 * devfn, same segment) its DMA may carry; else 0. */
	uint16_t dma_alias;
	uint16_t reserved1; /* must be 0 */
	struct warden_pci_bar bars[WARDEN_PCI_BARS];
};
WARDEN_CHECK_SIZE(struct warden_pci_device, 168);
WARDEN_CHECK_OFFSET(struct warden_pci_device, gsi, 16);
WARDEN_CHECK_OFFSET(struct warden_pci_device, dma_alias, 20);
WARDEN_CHECK_OFFSET(struct warden_pci_device, reserved1, 22);
WARDEN_CHECK_OFFSET(struct warden_pci_device, bars, 24);

/* An IOAPIC of the machine (system config). */
struct warden_ioapic {
	uint64_t address;  /* MMIO base, 4 KiB aligned */
	uint32_t gsi_base; /* GSI of its pin 0 */
	uint8_t id;	   /* IOAPIC ID (ACPI MADT) */
	uint8_t num_pins;  /* redirection entries: 1 to 240; enable checks it
			    * against the IOAPIC's version register */
	/* The requester id (bus << 8 | devfn) its interrupt messages carry,
	 * from the ACPI DMAR's IOAPIC device scope (VT-d 8.3.1.1, type 03h),
	 * or WARDEN_NO_SOURCE_ID: an interrupt remapping entry of a cell's
	 * pin verifies it (SVT 01b, VT-d 9.10). */
	uint16_t source_id;
};
WARDEN_CHECK_SIZE(struct warden_ioapic, 16);
WARDEN_CHECK_OFFSET(struct warden_ioapic, source_id, 14);

/* No source id known (warden_ioapic.source_id, platform.hpet_source_id):
 * the DMAR has no device scope for it.  0xffff is function ff:1f.7, which
 * no IOAPIC or HPET scope names on the machines Warden knows. */
#define WARDEN_NO_SOURCE_ID 0xffffu

/*
 * An IOMMU unit of the machine (system config): an ACPI DMAR DRHD (VT-d
 * 8.3).  The functions it translates are its device scope, or with
 * WARDEN_IOMMU_INCLUDE_PCI_ALL every function of its segment that no
 * other unit lists.  The scope is kept compact: up to
 * WARDEN_IOMMU_MAX_SCOPES entries, each a function or a range of buses
 * (a PCI bridge's scope: its secondary to subordinate bus).
 */
#define WARDEN_IOMMU_INCLUDE_PCI_ALL (1u << 0)
#define WARDEN_IOMMU_FLAGS_ALL WARDEN_IOMMU_INCLUDE_PCI_ALL
#define WARDEN_IOMMU_MAX_SCOPES 8
#define WARDEN_IOMMU_SCOPE_FUNCTION 1 /* bdf */
#define WARDEN_IOMMU_SCOPE_BUSES                                               \
	2 /* every function of buses
				       * bdf >> 8 .. end_bus */
struct warden_iommu_scope {
	uint16_t bdf;	 /* bus << 8 | devfn; _BUSES: devfn 0 */
	uint8_t type;	 /* WARDEN_IOMMU_SCOPE_* */
	uint8_t end_bus; /* _BUSES: the last bus; _FUNCTION: 0 */
};
WARDEN_CHECK_SIZE(struct warden_iommu_scope, 4);

struct warden_iommu_unit {
	uint64_t base;	    /* register base, 4 KiB aligned */
	uint16_t segment;   /* PCI segment */
	uint8_t flags;	    /* WARDEN_IOMMU_* */
	uint8_t num_scopes; /* 0 to WARDEN_IOMMU_MAX_SCOPES; 0 with
			     * INCLUDE_PCI_ALL */
	uint32_t reserved;  /* must be 0 */
	struct warden_iommu_scope scopes[WARDEN_IOMMU_MAX_SCOPES];
};
WARDEN_CHECK_SIZE(struct warden_iommu_unit, 48);
WARDEN_CHECK_OFFSET(struct warden_iommu_unit, scopes, 16);

struct warden_cell_desc {
	char name[WARDEN_NAME_LEN]; /* printable, NUL-terminated, unique */
	uint32_t flags;		    /* WARDEN_CELL_* */
	uint32_t num_memory_regions;
	uint32_t num_pio_ranges;
	uint32_t num_irq_pins;
	uint32_t num_pci_devices;
	uint32_t reserved; /* must be 0 */
	struct warden_cpu_set cpus;
	/* Guest-physical address where the cell's CPUs start in real mode:
	 * CS.base = reset_address & ~0xffff, IP = reset_address & 0xffff. */
	uint64_t reset_address;
	struct warden_console console;
};
WARDEN_CHECK_SIZE(struct warden_cell_desc, 112);
WARDEN_CHECK_OFFSET(struct warden_cell_desc, num_irq_pins, 44);
WARDEN_CHECK_OFFSET(struct warden_cell_desc, cpus, 56);
WARDEN_CHECK_OFFSET(struct warden_cell_desc, reset_address, 88);
WARDEN_CHECK_OFFSET(struct warden_cell_desc, console, 96);

/*
 * The local APIC window: every CPU's xAPIC registers at its APIC base
 * (0xfee00000 after reset) and the addresses device MSIs are written to
 * (SDM vol 3 10.4.1, 11.11.1: 0xFEEx_xxxx).  No cell region may cover it
 * (WARDEN_RULE_MEM_TRAPPED).
 */
#define WARDEN_LAPIC_WINDOW 0xfee00000ull
#define WARDEN_LAPIC_WINDOW_SIZE 0x100000ull

/* Facts about the platform that the hypervisor and cells need. */
struct warden_platform {
	uint32_t tsc_khz;	/* 0: the driver fills in Linux's value */
	uint32_t apic_khz;	/* 0: the hypervisor calibrates */
	uint16_t pm_timer_port; /* ACPI PM timer port, 0 if none */
	uint16_t num_ioapics;	/* the struct warden_ioapic at the end */
	uint16_t num_links;	/* the struct warden_link after them */
	uint16_t num_iommus;	/* the struct warden_iommu_unit after those */
	uint64_t mmconfig_base; /* PCI MMCONFIG base, 0 if none */
	uint8_t mmconfig_end_bus;
	uint8_t reserved2; /* must be 0 */
	/* The HPET's requester id from the DMAR's HPET device scope (VT-d
	 * 8.3.1.2, type 04h), or WARDEN_NO_SOURCE_ID. */
	uint16_t hpet_source_id;
	uint8_t reserved3[4]; /* must be 0 */
	/* Register base of the Intel IOMMU the hypervisor takes over (ACPI
	 * DMAR, the DRHD that covers every device of segment 0), 0 if none.
	 * With units listed (num_iommus) it is one of theirs or 0. */
	uint64_t iommu_base;
	/* Register base of the HPET (ACPI HPET), 0 if none: the hypervisor
	 * checks root's writes to it (hpet.c), since its timers choose their
	 * own IOAPIC pins or MSI messages. */
	uint64_t hpet_base;
};
WARDEN_CHECK_SIZE(struct warden_platform, 48);
WARDEN_CHECK_OFFSET(struct warden_platform, num_iommus, 14);
WARDEN_CHECK_OFFSET(struct warden_platform, hpet_source_id, 26);
WARDEN_CHECK_OFFSET(struct warden_platform, iommu_base, 32);

struct warden_system_desc {
	uint64_t hv_mem_start; /* reserved memory (memmap=) for the hypervisor */
	uint64_t hv_mem_size;
	struct warden_console debug_console;
	struct warden_platform platform;
	struct warden_cell_desc root_cell;
};
WARDEN_CHECK_SIZE(struct warden_system_desc, 192);
WARDEN_CHECK_OFFSET(struct warden_system_desc, debug_console, 16);
WARDEN_CHECK_OFFSET(struct warden_system_desc, platform, 32);
WARDEN_CHECK_OFFSET(struct warden_system_desc, root_cell, 80);

/* Arrays that follow a cell descriptor, and the size they take. */
static inline const struct warden_mem_region *
warden_cell_mem_regions(const struct warden_cell_desc *cell)
{
	return (const struct warden_mem_region *)(cell + 1);
}

static inline const struct warden_pio_range *
warden_cell_pio_ranges(const struct warden_cell_desc *cell)
{
	return (const struct warden_pio_range *)(warden_cell_mem_regions(cell) +
						 cell->num_memory_regions);
}

static inline const struct warden_irq_pin *
warden_cell_irq_pins(const struct warden_cell_desc *cell)
{
	return (const struct warden_irq_pin *)(warden_cell_pio_ranges(cell) +
					       cell->num_pio_ranges);
}

static inline const struct warden_pci_device *
warden_cell_pci_devices(const struct warden_cell_desc *cell)
{
	return (const struct warden_pci_device *)(warden_cell_irq_pins(cell) +
						  cell->num_irq_pins);
}

/* Bytes the arrays after a cell descriptor take (64-bit: cannot overflow
 * for 32-bit counts). */
static inline uint64_t
warden_cell_arrays_size(const struct warden_cell_desc *cell)
{
	return (uint64_t)cell->num_memory_regions *
		       sizeof(struct warden_mem_region) +
	       (uint64_t)cell->num_pio_ranges *
		       sizeof(struct warden_pio_range) +
	       (uint64_t)cell->num_irq_pins * sizeof(struct warden_irq_pin) +
	       (uint64_t)cell->num_pci_devices *
		       sizeof(struct warden_pci_device);
}

/* The IOAPICs of a system config: after the root cell's arrays. */
static inline const struct warden_ioapic *
warden_system_ioapics(const struct warden_system_desc *sys)
{
	return (const struct warden_ioapic *)((const char *)(&sys->root_cell +
							     1) +
					      warden_cell_arrays_size(
						      &sys->root_cell));
}

/* The links of a system config: after the IOAPICs. */
static inline const struct warden_link *
warden_system_links(const struct warden_system_desc *sys)
{
	return (const struct warden_link *)(warden_system_ioapics(sys) +
					    sys->platform.num_ioapics);
}

/* The IOMMU units of a system config: after the links. */
static inline const struct warden_iommu_unit *
warden_system_iommus(const struct warden_system_desc *sys)
{
	return (const struct warden_iommu_unit *)(warden_system_links(sys) +
						  sys->platform.num_links);
}

#endif /* WARDEN_CONFIG_H */
