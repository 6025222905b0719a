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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cf8_decodes),
		cmocka_unit_test(mmcfg_decodes),
		cmocka_unit_test(command_filtered),
		cmocka_unit_test(bars_read_and_size),
		cmocka_unit_test(bars_do_not_move),
		cmocka_unit_test(msi_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
