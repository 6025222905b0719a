// SPDX-License-Identifier: GPL-2.0
/*
 * Quiet legacy ports (WARDEN_CELL_LEGACY_QUIET; contract in asm/exit.h):
 * the ports a stock Linux kernel touches on a hardware-reduced ACPI
 * machine without owning them (docs/linux-cell.md, the access map).
 * Nothing reaches the hardware; each answer is what lets Linux go on
 * quickly:
 *  - the PIT (0x40-0x43) and port B (0x61) read 0: Linux's PIT
 *    calibration of cpu_khz then gives up at once ("Fast TSC calibration
 *    failed"), where all ones would make it poll about 100,000 times
 *    (linux arch/x86/kernel/tsc.c, quick_pit_calibrate);
 *  - the CMOS (0x70-0x71) reads 0: the update-in-progress bit clear, so
 *    the wall-clock read ends (all ones would spin on it);
 *  - the ELCR (0x4d0-0x4d1) reads 0: every ISA line edge-triggered;
 *  - ports 0x80-0x8f (the POST code port Linux's I/O delay writes, the
 *    DMA page registers it probes for an i8237), the Super I/O
 *    configuration ports (0x2e-0x2f, 0x4e-0x4f), the legacy
 *    UARTs at 0x3f8, 0x2f8, 0x3e8 and 0x2e8 (the cell's own UART is its
 *    port range and never comes here), the PIC (0x20-0x21, 0xa0-0xa1),
 *    the keyboard controller (0x60, 0x64) and PCI's configuration
 *    ports (0xcf8-0xcff, when the cell has no PCI function: the PCI unit
 *    takes them otherwise) read all ones, as an absent device on the bus.
 */
#include <asm/exit.h>
#include <warden/config.h>

struct quiet_range {
	u16 first, last;
	u8 value; /* every byte a read gives */
};

static const struct quiet_range quiet[] = {
	{ 0x20, 0x21, 0xff }, /* master PIC */
	/* Super I/O configuration (index, data): Linux's 8250 driver looks
	 * for a Fintek chip behind every 16550A it registers
	 * (drivers/tty/serial/8250/8250_fintek.c) and finds none in 0xff */
	{ 0x2e, 0x2f, 0xff },
	{ 0x40, 0x43, 0x00 }, /* PIT */
	{ 0x4e, 0x4f, 0xff }, /* Super I/O configuration, second address */
	{ 0x60, 0x60, 0xff }, /* keyboard controller data */
	{ 0x61, 0x61, 0x00 }, /* port B: PIT gate and speaker */
	{ 0x64, 0x64, 0xff }, /* keyboard controller status */
	{ 0x70, 0x71, 0x00 }, /* CMOS index and data */
	/* POST code (Linux's I/O delay writes 0x80) and the DMA page
	 * registers: Linux looks for an i8237 DMA controller by reading 0x87
	 * (arch/x86/kernel/i8237.c) and finds none in 0xff */
	{ 0x80, 0x8f, 0xff },
	{ 0xa0, 0xa1, 0xff },	/* slave PIC */
	{ 0x2e8, 0x2ef, 0xff }, /* COM4 */
	{ 0x2f8, 0x2ff, 0xff }, /* COM2 */
	{ 0x3e8, 0x3ef, 0xff }, /* COM3 */
	{ 0x3f8, 0x3ff, 0xff }, /* COM1 */
	{ 0x4d0, 0x4d1, 0x00 }, /* ELCR */
	{ 0xcf8, 0xcff, 0xff }, /* PCI configuration address and data */
};

bool legacy_port_quiet(u16 port, u64 *value)
{
	unsigned int i;

	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		if (port >= quiet[i].first && port <= quiet[i].last) {
			*value = quiet[i].value * 0x01010101ull;
			return true;
		}
	return false;
}

/* ACPI 6.4, 4.8.3.7: SLP_TYPx in bits 4:2, SLP_EN bit 5 of the sleep
 * control register; WAK_STS bit 7 of the sleep status register. */
#define SLEEP_TYPE(v) (((v) >> 2) & 7)
#define SLEEP_ENABLE 0x20u
#define WAKE_STATUS 0x80u
#define S5_TYPE 5 /* the DSDT's \_S5 package (tools/linux_tables.c) */

bool linux_platform_port(u16 port, bool in, u64 written, u64 *value,
			 const char **off)
{
	*off = NULL;
	*value = 0;
	if (port == WARDEN_LINUX_SLEEP_CONTROL_PORT) {
		if (!in && (written & SLEEP_ENABLE) &&
		    SLEEP_TYPE(written) == S5_TYPE)
			*off = "ACPI soft-off (S5) through the sleep control "
			       "register";
		return true;
	}
	if (port == WARDEN_LINUX_SLEEP_STATUS_PORT) {
		/* awake: a sleep that was not entered is over at once */
		*value = WAKE_STATUS;
		return true;
	}
	if (port == WARDEN_LINUX_RESET_PORT && !in) {
		if ((written & 0xff) == WARDEN_LINUX_RESET_VALUE)
			*off = "reset through the ACPI reset register";
		return true;
	}
	return false;
}
