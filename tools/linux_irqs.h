/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which interrupts a Linux cell's ACPI tables describe
 * (docs/linux-cell.md "Devices"): a UART's where the cell owns the IOAPIC
 * pin of its ISA IRQ, a PCI function's INTx where it owns the pin the
 * INTx drives, and the IOAPICs those pins are on (from root's MADT: the
 * cell reaches the same registers through the hypervisor).  Plain C,
 * tested on the host (tests/unit/test_linux_tables.c).
 */
#ifndef WARDEN_TOOLS_LINUX_IRQS_H
#define WARDEN_TOOLS_LINUX_IRQS_H

#include <warden/config.h>

#include "acpi.h"
#include "linux_tables.h"

/*
 * Into p (its UARTs already listed): uart_gsi of each UART whose ISA IRQ
 * (COM1 and COM3: 4, COM2 and COM4: 3, the PC's; the GSI of the same
 * number: the test machines' MADTs override neither) is among the cell's
 * pins; a _PRT route per function of fns on bus 0 with an INTx whose GSI
 * is among them; and each IOAPIC of madt any of those GSIs is on (the one
 * with the highest GSI base at or below it).  Where madt is NULL (root's
 * MADT unreadable) or names no IOAPIC for a GSI, that interrupt is left
 * out: the UART stays polled, the function without INTx.  The number of
 * interrupts left out so, for a warning.
 */
unsigned int lt_irqs(struct lt_platform *p, const struct warden_irq_pin *pins,
		     unsigned int num_pins, const struct warden_pci_device *fns,
		     unsigned int num_fns, const struct acpi_madt *madt);

#endif /* WARDEN_TOOLS_LINUX_IRQS_H */
