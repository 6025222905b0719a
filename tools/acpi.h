/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few facts "warden config create" takes from ACPI tables (as Linux
 * exports them in /sys/firmware/acpi/tables): the local APIC and I/O APIC
 * addresses (MADT, "APIC"), the HPET base ("HPET"), PCI MMCONFIG ranges
 * ("MCFG"), the PM timer port (FADT, "FACP"), ACPI 6.5, chapter 5.2; and
 * the Intel IOMMU that covers every device ("DMAR", Intel VT-d
 * specification, chapter 8).
 *
 * The parsers take a table of len bytes (any alignment), check its header
 * (signature, length within len, checksum) and every entry's bounds, and
 * return 0 or -1 with *why set to a static phrase.
 */
#ifndef WARDEN_TOOLS_ACPI_H
#define WARDEN_TOOLS_ACPI_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define ACPI_MAX_IOAPICS 16
#define ACPI_MAX_MCFG 8

struct acpi_ioapic {
	uint8_t id;
	uint32_t address;
	uint32_t gsi_base;
};

struct acpi_mcfg {
	uint64_t base; /* ECAM base of bus 0 of the segment */
	uint16_t segment;
	uint8_t start_bus, end_bus;
};

struct acpi_madt {
	uint64_t lapic;	   /* with a LAPIC address override applied */
	unsigned int cpus; /* enabled processor (x2)APIC entries */
	unsigned int n_ioapics;
	struct acpi_ioapic ioapic[ACPI_MAX_IOAPICS];
};

int acpi_parse_madt(const void *table, size_t len, struct acpi_madt *m,
		    const char **why);
/* The HPET's MMIO base (the address must be in system memory space). */
int acpi_parse_hpet(const void *table, size_t len, uint64_t *base,
		    const char **why);
/* Up to max entries; *n is the number found. */
int acpi_parse_mcfg(const void *table, size_t len, struct acpi_mcfg *entries,
		    unsigned int max, unsigned int *n, const char **why);
/* The PM timer port (PM_TMR_BLK, or X_PM_TMR_BLK in I/O space); 0 none. */
int acpi_parse_fadt(const void *table, size_t len, uint16_t *pm_timer_port,
		    const char **why);

/*
 * The register base of the DMA remapping unit (DRHD) that has
 * INCLUDE_PCI_ALL for PCI segment 0, i.e. the one that remaps every
 * device no other unit lists (and the IOAPICs' interrupts), or else of
 * the only unit of segment 0 (which then lists every device); 0 when the
 * table has neither.
 */
int acpi_parse_dmar(const void *table, size_t len, uint64_t *iommu_base,
		    const char **why);

/* The DMAR's remapping units (DRHD) and their device scopes (VT-d 3.4,
 * 8.3), as far as the arrays hold them (more_*: some left out). */
#define ACPI_DMAR_MAX_UNITS 8
#define ACPI_DMAR_MAX_SCOPES 64
/* Device scope types (8.3.1). */
#define ACPI_DMAR_SCOPE_ENDPOINT 1
#define ACPI_DMAR_SCOPE_BRIDGE 2
#define ACPI_DMAR_SCOPE_IOAPIC 3
#define ACPI_DMAR_SCOPE_HPET 4
#define ACPI_DMAR_SCOPE_NAMESPACE 5
/* DMAR flags (8.1). */
#define ACPI_DMAR_INTR_REMAP 0x1
#define ACPI_DMAR_X2APIC_OPT_OUT 0x2

struct acpi_dmar_scope {
	uint8_t type;	    /* ACPI_DMAR_SCOPE_* */
	uint8_t enum_id;    /* the IOAPIC's id, the HPET's number */
	uint8_t hops;	    /* (device, function) pairs in the path */
	uint16_t source_id; /* start bus and first hop: bus<<8|dev<<3|fn */
};

struct acpi_dmar_unit {
	uint64_t base; /* register base */
	uint16_t segment;
	bool include_all; /* INCLUDE_PCI_ALL: every function not listed
			   * under another unit of the segment */
	bool more_scopes;
	unsigned int num_scopes;
	struct acpi_dmar_scope scopes[ACPI_DMAR_MAX_SCOPES];
};

struct acpi_dmar {
	uint8_t host_address_width; /* bits of DMA address (HAW + 1) */
	uint8_t flags;		    /* ACPI_DMAR_INTR_REMAP, ... */
	bool more_units;
	unsigned int num_units;
	struct acpi_dmar_unit units[ACPI_DMAR_MAX_UNITS];
};

/* Every DRHD of the table with its scopes; 0, or -1 and *why. */
int acpi_parse_dmar_units(const void *table, size_t len, struct acpi_dmar *out,
			  const char **why);

#endif /* WARDEN_TOOLS_ACPI_H */
