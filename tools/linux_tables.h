/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The platform a Linux cell boots on, generated from the cell config
 * alone (docs/linux-cell.md): ACPI tables (RSDP, XSDT, a hardware-reduced
 * FADT, MADT, DSDT with a polled PNP0501 per UART the cell owns and an
 * \_S5 package), the memory map, and the PVH start info that points at
 * them (Xen's hvm_start_info, version 1, as Linux's PVH entry reads it:
 * linux arch/x86/platform/pvh/enlighten.c).  The DSDT's AML is
 * tools/linux_dsdt.c: the UARTs with their interrupt where the cell owns
 * its pin, a host bridge with a _PRT where it owns a function's INTx pin.  Plain C without system
 * calls, tested on the host (tests/unit/test_linux_tables.c, which also
 * has Debian's iasl disassemble the tables).
 */
#ifndef WARDEN_TOOLS_LINUX_TABLES_H
#define WARDEN_TOOLS_LINUX_TABLES_H

#include <stddef.h>
#include <stdint.h>

#define LT_MAX_CPUS 64
#define LT_MAX_UARTS 4
#define LT_MAX_RAM 16
#define LT_MAX_MEMMAP 40
#define LT_MAX_IOAPICS 8
#define LT_MAX_PRT 32
/* uart_gsi of a UART without interrupt (polled); GSI 0 is never a
 * UART's */
#define LT_POLLED 0

/* What the tables describe: the cell's CPUs (APIC IDs), its UARTs (base
 * ports, 8 each, and the GSI of each one's interrupt where the cell owns
 * that IOAPIC pin, else LT_POLLED), the IOAPICs it has pins on (the MADT's
 * entries: the cell reaches the same registers, the hypervisor's view of
 * them), the INTx routes of its functions on bus 0 whose pins it owns
 * (device, pin 0-3 for INTA-INTD, GSI: the _PRT) and its RAM
 * (guest-physical). */
struct lt_platform {
	unsigned int num_cpus;
	uint32_t apic_ids[LT_MAX_CPUS];
	unsigned int num_uarts;
	uint16_t uart_ports[LT_MAX_UARTS];
	uint32_t uart_gsi[LT_MAX_UARTS];
	unsigned int num_ioapics;
	struct {
		uint8_t id;
		uint32_t address, gsi_base;
	} ioapics[LT_MAX_IOAPICS];
	unsigned int num_prt;
	struct {
		uint8_t device, pin;
		uint32_t gsi;
	} prt[LT_MAX_PRT];
	unsigned int num_ram;
	struct {
		uint64_t start, size;
	} ram[LT_MAX_RAM];
};

/* ACPI (ACPI 6.4): table signatures and the sizes this generator makes. */
#define LT_RSDP_SIZE 36
#define LT_HEADER_SIZE 36
#define LT_FADT_SIZE 276 /* revision 6 */
#define LT_FADT_REVISION 6
#define LT_FADT_HW_REDUCED (1u << 20)
#define LT_FADT_RESET_REG_SUP (1u << 10)
#define LT_IAPC_NO_VGA (1u << 2)
#define LT_IAPC_NO_CMOS_RTC (1u << 5)

/*
 * The ACPI tables for p, to be placed at guest-physical base (RSDP first,
 * at base, 16-byte aligned) into buf of len bytes: their size, or 0 if
 * buf is too small or p has more CPUs or UARTs than fit.
 */
size_t lt_acpi_tables(const struct lt_platform *p, uint64_t base, uint8_t *buf,
		      size_t len);

/* Memory map entry types (ACPI 6.4, 15.1: E820 address range types). */
#define LT_E820_RAM 1
#define LT_E820_RESERVED 2
#define LT_E820_ACPI 3

struct lt_memmap_entry {
	uint64_t addr, size;
	uint32_t type, reserved;
};
_Static_assert(sizeof(struct lt_memmap_entry) == 24, "hvm_memmap_table_entry");

/* A range the loader uses for itself inside the cell's RAM: type
 * LT_E820_ACPI or LT_E820_RESERVED. */
struct lt_hole {
	uint64_t start, size;
	uint32_t type;
};

/*
 * The memory map: p's RAM with the holes cut out and listed with their
 * type, sorted by address, into map (room for max entries): the number of
 * entries, or -1 if they do not fit or a hole is not inside the RAM.
 */
int lt_memmap(const struct lt_platform *p, const struct lt_hole *holes,
	      unsigned int num_holes, struct lt_memmap_entry *map,
	      unsigned int max);

/* Xen's PVH start info (xen/include/public/arch-x86/hvm/start_info.h). */
#define LT_START_INFO_MAGIC 0x336ec578u
struct lt_start_info {
	uint32_t magic, version, flags, nr_modules;
	uint64_t modlist_paddr, cmdline_paddr, rsdp_paddr;
	uint64_t memmap_paddr; /* version 1 */
	uint32_t memmap_entries, reserved;
};
_Static_assert(sizeof(struct lt_start_info) == 56, "hvm_start_info");

struct lt_module {
	uint64_t paddr, size, cmdline_paddr, reserved;
};
_Static_assert(sizeof(struct lt_module) == 32, "hvm_modlist_entry");

/* The ACPI checksum byte: what makes the bytes sum to 0. */
uint8_t lt_checksum(const uint8_t *bytes, size_t len);

/* Little-endian stores. */
void lt_put16(uint8_t *p, uint16_t v);
void lt_put32(uint8_t *p, uint32_t v);
void lt_put64(uint8_t *p, uint64_t v);

/* The most bytes lt_dsdt_aml writes (LT_MAX_UARTS UARTs, a host bridge
 * with LT_MAX_PRT routes, \_S5). */
#define LT_DSDT_AML_MAX 1536

/*
 * The DSDT's AML (after its header) for p into out (LT_DSDT_AML_MAX
 * bytes): Scope (\_SB) { a PNP0501 per UART, PCI0 if p has routes }
 * and \_S5; its length.  p must hold at most LT_MAX_UARTS UARTs and
 * LT_MAX_PRT routes (lt_acpi_tables checks).
 */
size_t lt_dsdt_aml(const struct lt_platform *p, uint8_t *out);

#endif /* WARDEN_TOOLS_LINUX_TABLES_H */
