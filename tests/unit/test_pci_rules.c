// SPDX-License-Identifier: GPL-2.0
/*
 * PCI configuration-space rules (hypervisor/arch/x86/pci_rules.c and
 * asm/pci.h): which register an access names, what a cell may set in its
 * function's command register, how its BARs read and take writes, and
 * which MSI messages a cell may program.
 */
#include "cmocka_wrap.h"
#include <asm/pci.h>
#include <string.h>

static void cf8_decodes(void **state)
{
	struct pci_reg r;

	(void)state;
	/* bus 0, device 3, function 0, register 0x10, data port 0xcfc */
	assert_true(pci_cf8_decode(0x80001810u, 0xcfc, &r));
	assert_int_equal(r.bdf, 0x18);
	assert_int_equal(r.reg, 0x10);
	/* the byte at 0xcfe is register + 2 */
	assert_true(pci_cf8_decode(0x80ff3f04u, 0xcfe, &r));
	assert_int_equal(r.bdf, 0xff3f);
	assert_int_equal(r.reg, 0x06);
	/* enable clear, reserved bits, low bits: no access */
	assert_false(pci_cf8_decode(0x00001810u, 0xcfc, &r));
	assert_false(pci_cf8_decode(0x81001810u, 0xcfc, &r));
	assert_false(pci_cf8_decode(0x80001811u, 0xcfc, &r));
	assert_false(pci_cf8_decode(0x80001810u, 0xcf8, &r));
}

static void mmcfg_decodes(void **state)
{
	struct pci_reg r = pci_mmcfg_decode(0x18104ull);

	(void)state;
	assert_int_equal(r.bdf, 0x18);
	assert_int_equal(r.reg, 0x104);
}

static void command_filtered(void **state)
{
	(void)state;
	assert_int_equal(pci_cell_command(0xffff, false),
			 PCI_CMD_IO | PCI_CMD_MEMORY | PCI_CMD_PARITY |
				 PCI_CMD_SERR | PCI_CMD_INTX_DISABLE);
	assert_int_equal(pci_cell_command(PCI_CMD_MASTER | PCI_CMD_MEMORY,
					  true),
			 PCI_CMD_MASTER | PCI_CMD_MEMORY);
	assert_int_equal(pci_cell_command(PCI_CMD_MASTER, false), 0);
}

/* A 32-bit memory BAR of 128 KiB at 0xfeb80000, a 64-bit prefetchable
 * one of 1 MiB at 0x8_0000_0000, an I/O BAR of 64 ports at 0xc000. */
static void bars(struct pci_bar_view b[6])
{
	memset(b, 0, 6 * sizeof(*b));
	b[0].addr = 0xfeb80000;
	b[0].size = 0x20000;
	b[1].addr = 0x800000000ull;
	b[1].size = 0x100000;
	b[1].flags = PCI_BAR_MEM_TYPE_64 | 0x8;
	b[2].upper = true;
	b[3].addr = 0xc000;
	b[3].size = 64;
	b[3].flags = PCI_BAR_IO_SPACE;
}

static void bars_read_and_size(void **state)
{
	struct pci_bar_view b[6];

	(void)state;
	bars(b);
	assert_int_equal(pci_bar_read(b, 0), 0xfeb80000u);
	assert_int_equal(pci_bar_read(b, 1), 0x0000000cu);
	assert_int_equal(pci_bar_read(b, 2), 0x8u);
	assert_int_equal(pci_bar_read(b, 3), 0xc001u);
	assert_int_equal(pci_bar_read(b, 4), 0);
	/* sizing: all ones in, the size mask out */
	assert_true(pci_bar_write(b, 0, 0xffffffffu));
	assert_int_equal(pci_bar_read(b, 0), 0xfffe0000u);
	assert_true(pci_bar_write(b, 1, 0xffffffffu));
	assert_true(pci_bar_write(b, 2, 0xffffffffu));
	assert_int_equal(pci_bar_read(b, 1), 0xfff0000cu);
	assert_int_equal(pci_bar_read(b, 2), 0xffffffffu);
	assert_true(pci_bar_write(b, 3, 0xffffffffu));
	assert_int_equal(pci_bar_read(b, 3), 0xffffffc1u);
	/* the address written back: it reads again */
	assert_true(pci_bar_write(b, 0, 0xfeb80000u));
	assert_int_equal(pci_bar_read(b, 0), 0xfeb80000u);
	assert_true(pci_bar_write(b, 1, 0x0000000cu));
	assert_true(pci_bar_write(b, 2, 0x8u));
	assert_int_equal(pci_bar_read(b, 2), 0x8u);
	assert_true(pci_bar_write(b, 3, 0xc001u));
	assert_int_equal(pci_bar_read(b, 3), 0xc001u);
	/* no BAR: writes ignored, reads 0 */
	assert_true(pci_bar_write(b, 5, 0x12345678u));
	assert_int_equal(pci_bar_read(b, 5), 0);
}

static void bars_do_not_move(void **state)
{
	struct pci_bar_view b[6];

	(void)state;
	bars(b);
	assert_false(pci_bar_write(b, 0, 0x10000000u));
	assert_int_equal(pci_bar_read(b, 0), 0xfeb80000u);
	assert_false(pci_bar_write(b, 2, 0x0u));
	assert_int_equal(pci_bar_read(b, 2), 0x8u);
	assert_false(pci_bar_write(b, 3, 0xd001u));
	assert_int_equal(pci_bar_read(b, 3), 0xc001u);
	/* after sizing, a move is still refused and the mask stays */
	assert_true(pci_bar_write(b, 0, 0xffffffffu));
	assert_false(pci_bar_write(b, 0, 0x20000000u));
	assert_int_equal(pci_bar_read(b, 0), 0xfffe0000u);
}

static void msi_rules(void **state)
{
	(void)state;
	assert_null(msi_cell_refused(0xfee01000u, 0x0041, 1));
	assert_null(msi_cell_refused(0xfee00000u, 0x0140, 1)); /* lowest */
	assert_null(msi_cell_refused(0xfee00000u, 0x0040, 4));
	assert_non_null(msi_cell_refused(0xfed00000u, 0x0041, 1));
	assert_non_null(msi_cell_refused(0xfee00010u, 0x0041, 1));
	assert_non_null(msi_cell_refused(0xfee00004u, 0x0041, 1));
	assert_non_null(msi_cell_refused(0xfee00000u, 0x0441, 1)); /* NMI */
	assert_non_null(msi_cell_refused(0xfee00000u, 0x0241, 1)); /* SMI */
	assert_non_null(msi_cell_refused(0xfee00000u, 0x8041, 1));
	assert_non_null(msi_cell_refused(0xfee00000u, 0x000f, 1));
	assert_non_null(msi_cell_refused(0xfee00000u, 0x00ff, 1));
	/* 4 vectors from 0xfc would end past 0xfe; from 0x41 unaligned */
	assert_non_null(msi_cell_refused(0xfee00000u, 0x00fc, 4));
	assert_non_null(msi_cell_refused(0xfee00000u, 0x0041, 4));
	assert_int_equal(msi_dest(0xfee03000u), 3);
	assert_int_equal(msi_as_icr(0xfee03004u, 0x0141), 0x941);
}

#define Q35_MCH 0x29c08086u
#define ICH9_LPC 0x29188086u
#define I440FX 0x12378086u
#define E1000 0x100e8086u

/* PCIEXBAR (0x60-0x67) of the q35 MCH: a change refused, in any part
 * and any width; the value it has rewritten; other functions' 0x60 free */
static void moderated_pciexbar(void **state)
{
	(void)state;
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x60, 4, 0xb0000001u,
					      0xe0000001u));
	assert_non_null(strstr(pci_moderated_refused(Q35_MCH, 0, 0x60, 4,
						     0xb0000001u, 0),
			       "PCIEXBAR"));
	assert_null(pci_moderated_refused(Q35_MCH, 0, 0x60, 4, 0xb0000001u,
					  0xb0000001u));
	/* the upper half, one byte of it, the enable bit alone */
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x64, 4, 0, 1));
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x67, 1, 0, 0x80));
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x60, 1, 1, 0));
	assert_null(pci_moderated_refused(Q35_MCH, 0, 0x66, 2, 0, 0));
	/* beside it: 0x5c-0x5f is not moderated */
	assert_null(pci_moderated_refused(Q35_MCH, 0, 0x5c, 4, 0, 0x1234));
	/* another function's register at the same offset */
	assert_null(pci_moderated_refused(E1000, 0, 0x60, 4, 0xb0000001u,
					  0xe0000001u));
	assert_null(pci_moderated_refused(ICH9_LPC, 0, 0x60, 4, 0, 0x0b));
}

/* The other registers of the table: a byte that changes inside a
 * dword write is found, bytes outside the register are free */
static void moderated_others(void **state)
{
	(void)state;
	/* PAM5 (0x95) in a dword write at 0x94; SMRAM (0x9d) */
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x94, 4, 0x11111111u,
					      0x11331111u));
	assert_non_null(pci_moderated_refused(Q35_MCH, 0, 0x9d, 1, 0x02, 0x0a));
	/* ICH9: PMBASE, RCBA; not the PIRQ routing at 0x60 */
	assert_non_null(
		pci_moderated_refused(ICH9_LPC, 0, 0x40, 4, 0x601, 0x2f9));
	assert_non_null(pci_moderated_refused(ICH9_LPC, 0, 0xf0, 4, 0xfed1c001u,
					      0xfea00001u));
	assert_null(pci_moderated_refused(ICH9_LPC, 0, 0x44, 4, 0x80, 0x80));
	/* only 0x44 of 0x44-0x47 is ACPI_CNTL */
	assert_null(pci_moderated_refused(ICH9_LPC, 0, 0x45, 1, 0, 0xff));
	assert_non_null(
		pci_moderated_refused(ICH9_LPC, 0, 0x44, 4, 0x80, 0x00));
	/* i440FX: PAM0 (0x59) in the dword at 0x58, not 0x58 itself;
	 * SMRAM (0x72) in a word at 0x72 */
	assert_null(pci_moderated_refused(I440FX, 0, 0x58, 4, 0x1000, 0x1001));
	assert_non_null(
		pci_moderated_refused(I440FX, 0, 0x58, 4, 0x1000, 0x3000));
	assert_non_null(pci_moderated_refused(I440FX, 0, 0x72, 2, 0x02, 0x4a));
}

/* A bridge (header type 1, multi-function bit aside): bus numbers and
 * windows keep their values; its command register and BARs are not
 * this table's */
static void moderated_bridge(void **state)
{
	(void)state;
	assert_non_null(pci_moderated_refused(E1000, 0x81, 0x18, 4, 0x00020100u,
					      0x00050100u));
	assert_null(pci_moderated_refused(E1000, 0x01, 0x18, 4, 0x40020100u,
					  0x00020100u)); /* latency timer */
	assert_non_null(pci_moderated_refused(E1000, 1, 0x20, 4, 0xfeb0fea0u,
					      0xfeb0fe00u));
	assert_non_null(pci_moderated_refused(E1000, 1, 0x2c, 4, 0, 1));
	assert_non_null(
		pci_moderated_refused(E1000, 1, 0x1c, 2, 0xf0f0, 0x1010));
	assert_null(pci_moderated_refused(E1000, 1, 0x1e, 2, 0, 0xffff));
	assert_null(pci_moderated_refused(E1000, 1, 0x04, 2, 0, 7));
	/* a type 0 function's 0x18-0x2f are BARs, not windows */
	assert_null(pci_moderated_refused(E1000, 0, 0x18, 4, 0, 0xfe000000u));
}

/* The expansion ROM BAR: its size from the bits that stay 0; a function
 * without one counts as 2 KiB; it decodes with enable and memory on */
static void rom_bar(void **state)
{
	(void)state;
	assert_int_equal(pci_rom_size(0xfffc0000u), 0x40000);
	assert_int_equal(pci_rom_size(0xfffff800u), 0x800);
	assert_int_equal(pci_rom_size(0xfffc0001u), 0x40000);
	assert_int_equal(pci_rom_size(0), PCI_ROM_MIN_SIZE);
	assert_int_equal(pci_rom_size(0x80000000u), 0x80000000u);
	assert_true(pci_rom_decodes(PCI_CMD_MEMORY, 0xfea00001u));
	assert_false(pci_rom_decodes(PCI_CMD_MEMORY, 0xfea00000u));
	assert_false(pci_rom_decodes(PCI_CMD_IO, 0xfea00001u));
	/* Linux's sizing write: enable clear */
	assert_false(pci_rom_decodes(PCI_CMD_MEMORY, 0xfffffffeu));
}

/* An MSI-X table of 4 entries at 0x800 of its page: any access that
 * overlaps it by a byte is the table's */
static void msix_touches_table(void **state)
{
	(void)state;
	assert_true(pci_msix_touches(0x800, 4, 0x800, 4));
	assert_true(pci_msix_touches(0x800, 4, 0x83c, 4));
	/* an 8-byte write at the table's start - 4 reaches entry 0 */
	assert_true(pci_msix_touches(0x800, 4, 0x7fc, 8));
	assert_true(pci_msix_touches(0x800, 4, 0x83c, 8));
	assert_false(pci_msix_touches(0x800, 4, 0x7f8, 8));
	assert_false(pci_msix_touches(0x800, 4, 0x840, 8));
	assert_false(pci_msix_touches(0x800, 4, 0x7ff - 3, 4));
	assert_true(pci_msix_touches(0x800, 4, 0x7ff, 2));
}

/* The chipset's PIRQ routing: a cell's line keeps its route off, no
 * line goes to a cell's ISA input. */
static void pirq_routes(void **state)
{
	const struct pci_pirq_router *piix = pci_pirq_router_of(0x70008086u);
	const struct pci_pirq_router *ich9 = pci_pirq_router_of(0x29188086u);
	/* a cell owns input 17 (PIRQB) and ISA input 3 */
	const struct pci_pirq_cells c = { 1u << 1, 1u << 3 };
	u8 lines[4] = { 0x0b, 0x8b, 0x0a, 0x80 };

	(void)state;
	assert_non_null(piix);
	assert_int_equal(piix->n, 4);
	assert_int_equal(piix->reg[1], 0x61);
	assert_non_null(ich9);
	assert_int_equal(ich9->n, 8);
	assert_int_equal(ich9->reg[6], 0x6a); /* PIRQG */
	assert_null(pci_pirq_router_of(0x12378086u));
	/* the cell's line: its value (off) again, nothing else */
	assert_null(pci_pirq_write_refused(&c, 1, 0x8b, 0x8b));
	assert_non_null(pci_pirq_write_refused(&c, 1, 0x8b, 0x0b));
	assert_non_null(pci_pirq_write_refused(&c, 1, 0x8b, 0x80));
	/* another line: anywhere but the cell's ISA input */
	assert_null(pci_pirq_write_refused(&c, 0, 0x0b, 0x0a));
	assert_null(pci_pirq_write_refused(&c, 0, 0x0b, 0x83));
	assert_non_null(pci_pirq_write_refused(&c, 0, 0x0b, 0x03));
	/* which line a create finds routed to the cell's ISA inputs */
	assert_int_equal(pci_pirq_routed_to(piix, lines, 1u << 3), -1);
	assert_int_equal(pci_pirq_routed_to(piix, lines, 1u << 10), 2);
	assert_int_equal(pci_pirq_routed_to(piix, lines, 1u << 11), 0);
}

/* Extended capabilities: SR-IOV's enable, NumVFs and VF BARs and the
 * Resizable BAR sizes keep their values; others are root's to write. */
static void moderated_extended(void **state)
{
	(void)state;
	/* SR-IOV control: VF Enable */
	assert_non_null(pci_ext_moderated_refused(0x0010, 0x08, 2, 0, 1));
	assert_null(pci_ext_moderated_refused(0x0010, 0x08, 2, 0, 0));
	/* a dword at 08h: control changes, status (0Ah) does not count */
	assert_non_null(pci_ext_moderated_refused(0x0010, 0x08, 4, 0, 9));
	assert_null(pci_ext_moderated_refused(0x0010, 0x08, 4, 0, 0x10000));
	/* NumVFs, VF BAR 0 and VF BAR 5 */
	assert_non_null(pci_ext_moderated_refused(0x0010, 0x10, 2, 0, 4));
	assert_non_null(
		pci_ext_moderated_refused(0x0010, 0x24, 4, 0, 0xfe000000));
	assert_non_null(pci_ext_moderated_refused(0x0010, 0x38, 4, 0, 1));
	assert_null(pci_ext_moderated_refused(0x0010, 0x38, 4, 5, 5));
	/* Resizable BAR: the size field of BAR 0's control register */
	assert_non_null(
		pci_ext_moderated_refused(0x0015, 0x08, 4, 0x0100, 0x0200));
	assert_non_null(
		pci_ext_moderated_refused(0x0024, 0x10, 4, 0x0100, 0x0300));
	/* AER (0001h): its mask and severity registers are root's */
	assert_null(pci_ext_moderated_refused(0x0001, 0x08, 4, 0, ~0u));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cf8_decodes),
		cmocka_unit_test(mmcfg_decodes),
		cmocka_unit_test(command_filtered),
		cmocka_unit_test(bars_read_and_size),
		cmocka_unit_test(bars_do_not_move),
		cmocka_unit_test(msi_rules),
		cmocka_unit_test(moderated_pciexbar),
		cmocka_unit_test(moderated_others),
		cmocka_unit_test(moderated_bridge),
		cmocka_unit_test(rom_bar),
		cmocka_unit_test(msix_touches_table),
		cmocka_unit_test(pirq_routes),
		cmocka_unit_test(moderated_extended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
