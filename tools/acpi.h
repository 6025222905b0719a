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
 * device no other unit lists (and the IOAPICs' interrupts); 0 when the
 * table has none.
 */
int acpi_parse_dmar(const void *table, size_t len, uint64_t *iommu_base,
		    const char **why);

#endif /* WARDEN_TOOLS_ACPI_H */
