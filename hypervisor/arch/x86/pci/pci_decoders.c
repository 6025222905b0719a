// SPDX-License-Identifier: GPL-2.0
/*
 * Root's configuration registers that place address decoders outside the
 * BARs (contracts in asm/pci.h): a chipset register that moves MMCONFIG,
 * the power-management ports, the IOAPIC or SMRAM, or a bridge's bus
 * numbers and windows, would move what the hypervisor traps or reach a
 * cell's memory or functions.  Root may rewrite the value such a register
 * has (Linux does at boot and resume), never change it.  Plain C, also
 * compiled into the unit tests.
 */
#include <asm/pci.h>

struct moderated_reg {
	u32 ids; /* vendor | device << 16, as dword 0 reads; 0: any bridge */
	u16 reg;
	u16 size; /* bytes from reg */
	const char *why;
};

#define IDS(vendor, device) ((u32)(vendor) | (u32)(device) << 16)
#define Q35_MCH IDS(0x8086, 0x29c0)
#define ICH9_LPC IDS(0x8086, 0x2918)
#define I440FX IDS(0x8086, 0x1237)
#define PIIX3_ISA IDS(0x8086, 0x7000)
#define PIIX4_PM IDS(0x8086, 0x7113)
#define BRIDGE 0

static const struct moderated_reg regs[] = {
	/*
	 * Q35 MCH, D0:F0 (Intel 3 Series Express Chipset Family datasheet,
	 * 5.1 "Host Bridge/DRAM Controller Registers"; QEMU
	 * include/hw/pci-host/q35.h, MCH_HOST_BRIDGE_*).  0x50 and 0x9c
	 * are QEMU's own (extended TSEG size, SMRAM at SMBASE).
	 */
	{ Q35_MCH, 0x40, 8, "EPBAR (egress port registers) keeps its value" },
	{ Q35_MCH, 0x48, 8, "MCHBAR (MCH registers) keeps its value" },
	{ Q35_MCH, 0x50, 2, "the extended TSEG size keeps its value" },
	{ Q35_MCH, 0x52, 2, "GGC (graphics stolen memory) keeps its value" },
	{ Q35_MCH, 0x54, 4, "DEVEN (which devices answer) keeps its value" },
	{ Q35_MCH, 0x60, 8, "PCIEXBAR (the MMCONFIG window) keeps its value" },
	{ Q35_MCH, 0x68, 8, "DMIBAR (DMI registers) keeps its value" },
	{ Q35_MCH, 0x90, 8,
	  "PAM0-PAM6 and LAC (legacy ranges) keep their "
	  "values" },
	{ Q35_MCH, 0x9c, 3,
	  "SMRAM control (SMBASE, SMRAM, ESMRAMC) keeps its "
	  "value" },
	{ Q35_MCH, 0xa0, 0x12,
	  "TOM, TOUUD, GBSM, BGSM, TSEGMB and TOLUD keep "
	  "their values" },
	/*
	 * ICH9 LPC, D31:F0 (Intel I/O Controller Hub 9 datasheet, 13.1
	 * "LPC Interface Bridge Registers"; QEMU hw/isa/lpc_ich9.c):
	 * PMBASE and ACPI_CNTL, GPIOBASE and GC, the LPC I/O decode ranges
	 * (LPC_I/O_DEC, LPC_EN, GEN1_DEC-GEN4_DEC) and RCBA.
	 */
	{ ICH9_LPC, 0x40, 5,
	  "PMBASE and ACPI_CNTL (the ACPI ports) keep their "
	  "values" },
	{ ICH9_LPC, 0x48, 5,
	  "GPIOBASE and GC (the GPIO ports) keep their "
	  "values" },
	{ ICH9_LPC, 0x80, 0x14, "the LPC I/O decode ranges keep their values" },
	{ ICH9_LPC, 0xf0, 4,
	  "RCBA (chipset configuration registers) keeps its "
	  "value" },
	/* i440FX PMC (82441FX datasheet, 3.2: PAM0-PAM6 at 0x59-0x5f, SMRAM
	 * at 0x72; QEMU hw/pci-host/i440fx.c) */
	{ I440FX, 0x59, 7, "PAM0-PAM6 (legacy ranges) keep their values" },
	{ I440FX, 0x72, 1, "SMRAM control keeps its value" },
	/* PIIX3 ISA bridge (82371SB datasheet, 2.2: XBCS at 0x4e decodes
	 * the RTC, keyboard and BIOS; APICBASE at 0x80 moves the IOAPIC) */
	{ PIIX3_ISA, 0x4e, 2, "XBCS (X-bus decodes) keeps its value" },
	{ PIIX3_ISA, 0x80, 1,
	  "APICBASE (the IOAPIC's address) keeps its "
	  "value" },
	/* PIIX4 power management, function 3 (82371AB datasheet, 7.1:
	 * PMBA 0x40, PMREGMISC 0x80, SMBBA 0x90, SMBHSTCFG 0xd2) */
	{ PIIX4_PM, 0x40, 4, "PMBA (the ACPI ports) keeps its value" },
	{ PIIX4_PM, 0x80, 1,
	  "PMREGMISC (the ACPI ports' enable) keeps its "
	  "value" },
	{ PIIX4_PM, 0x90, 4, "SMBBA (the SMBus ports) keeps its value" },
	{ PIIX4_PM, 0xd2, 1,
	  "SMBHSTCFG (the SMBus ports' enable) keeps its "
	  "value" },
	/*
	 * A PCI-to-PCI bridge (type 1 header, PCI-to-PCI Bridge
	 * Architecture Specification 1.2, 3.2): the bus numbers decide
	 * which functions a configuration access reaches (a cell's function
	 * renumbered would be root's to reach), the windows which addresses
	 * it forwards.  Linux sets them at boot; later changes (hot-plug
	 * behind a bridge) are refused.
	 */
	{ BRIDGE, 0x18, 3, "a bridge's bus numbers keep their values" },
	{ BRIDGE, 0x1c, 2, "a bridge's I/O window keeps its value" },
	{ BRIDGE, 0x20, 0x10, "a bridge's memory windows keep their values" },
	{ BRIDGE, 0x30, 4, "a bridge's I/O window keeps its value" },
};

const char *pci_moderated_refused(u32 ids, u8 header_type, u16 reg,
				  unsigned int size, u32 old, u32 value)
{
	const struct moderated_reg *m;
	unsigned int i, b;
	u32 key = (header_type & 0x7f) == 1 ? BRIDGE : ids;

	for (i = 0; i < ARRAY_SIZE(regs); i++) {
		m = &regs[i];
		if (m->ids != key || reg + size <= m->reg ||
		    reg >= m->reg + m->size)
			continue;
		for (b = 0; b < size; b++)
			if (reg + b >= m->reg && reg + b < m->reg + m->size &&
			    ((old ^ value) >> (8 * b)) & 0xff)
				return m->why;
	}
	return NULL;
}

/*
 * Extended capabilities whose registers place address decoders (PCI
 * Express Base Specification 4.0): SR-IOV (9.3.3: SR-IOV Control with VF
 * Enable and VF MSE at 08h, NumVFs at 10h, System Page Size and the VF
 * BARs at 20h-3Bh), Resizable BAR and VF Resizable BAR (7.8.6: a control
 * register per BAR, the BAR's size, from 08h).  Offsets are from the
 * capability's header.
 */
static const struct moderated_reg ext_regs[] = {
	{ 0x0010, 0x08, 2,
	  "SR-IOV control (VF Enable, VF memory space) keeps its value" },
	{ 0x0010, 0x10, 2, "SR-IOV NumVFs keeps its value" },
	{ 0x0010, 0x20, 0x1c,
	  "SR-IOV system page size and VF BARs keep their values" },
	{ 0x0015, 0x04, 0x30, "Resizable BAR sizes keep their values" },
	{ 0x0024, 0x04, 0x30, "VF Resizable BAR sizes keep their values" },
};

const char *pci_ext_moderated_refused(u16 cap_id, u16 offset, unsigned int size,
				      u32 old, u32 value)
{
	const struct moderated_reg *m;
	unsigned int i, b;

	for (i = 0; i < ARRAY_SIZE(ext_regs); i++) {
		m = &ext_regs[i];
		if (m->ids != cap_id)
			continue;
		for (b = 0; b < size; b++)
			if (offset + b >= m->reg &&
			    offset + b < m->reg + m->size &&
			    ((old ^ value) >> (8 * b)) & 0xff)
				return m->why;
	}
	return NULL;
}
