/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "warden config create": a system config in YAML for the running machine,
 * from what Linux exports (every value commented with its source):
 *
 *   CPUs             /sys/devices/system/cpu/possible
 *   hypervisor and   the memmap=SIZE$ADDR reservation on /proc/cmdline: the
 *   cell memory      first hv_size bytes for the hypervisor, the rest for
 *                    cells (a root region that cells take memory from)
 *   root memory      /proc/iomem: RAM, ACPI and reserved ranges (WB), the
 *                    legacy VGA window and device ranges (UC, io)
 *   device memory    local APIC and I/O APICs (MADT), HPET, PCI MMCONFIG
 *                    (MCFG), from /sys/firmware/acpi/tables
 *   ports            all but COM2 (0x2f8-0x2ff), the hypervisor's console;
 *                    /proc/ioports tells whether Linux drives COM2
 *   PM timer         FADT, else /proc/ioports ("ACPI PM_TMR")
 *   IOMMU            DMAR: the unit with INCLUDE_PCI_ALL for segment 0
 *   links            none: a commented-out example
 *   IOAPICs          MADT (24 pins each)
 *   root's pins      /proc/interrupts: the IO-APIC lines Linux handles
 *   PCI functions    /sys/bus/pci/devices/<function>: vendor, device,
 *                    class, config (interrupt pin, MSI and MSI-X
 *                    capabilities), resource (BARs), irq (the INTx GSI),
 *                    the driver link
 *
 * Every path is read under a root prefix, so that tests can use recorded
 * files (tests/unit/fixtures/bochs-2cpu/).  Nothing else is read: the CLI
 * runs in the test machine's busybox initramfs.
 */
#ifndef WARDEN_TOOLS_CONFIG_CREATE_H
#define WARDEN_TOOLS_CONFIG_CREATE_H

#include <stdint.h>
#include <stdio.h>

#include <warden/abi.h>
#include <warden/hvheader.h>

#define CC_HV_SIZE_DEFAULT 0x600000ull /* 6 MiB */
/* Up to this many CPUs the default holds the per-CPU data; each CPU
 * beyond adds WARDEN_HV_PERCPU_SIZE (include/warden/hvheader.h) to it,
 * rounded up to a MiB: 14 MiB for 256 CPUs. */
#define CC_HV_SIZE_CPUS 16
#define CC_DEBUG_PORT 0x2f8 /* COM2 */
#define CC_DEBUG_BAUD 115200
/* Redirection entries written for each IOAPIC of the MADT: what IOAPICs
 * have; "warden enable" checks it against the version register. */
#define CC_IOAPIC_PINS 24

struct cc_options {
	const char *root; /* prefix of /proc and /sys ("" for the machine) */
	uint64_t hv_size; /* part of the reservation for the hypervisor;
			   * 0: the default for the machine's CPUs */
	/* enable PCI functions without a driver for a moment to read how
	 * Linux routes their INTx (it may program the firmware's interrupt
	 * links); else their GSI is the firmware's interrupt line */
	int probe_intx;
};

/*
 * Writes the config to out.  Warnings (e.g. Linux drives COM2) go to warn
 * (may be NULL) and into the config as comments.  Returns 0, or -1 with
 * the reason in err (nothing useful was written).
 */
/* The hypervisor's part of the reservation for a machine with these
 * CPUs when none is asked for: 6 MiB up to 16 CPUs, 32 KiB more per CPU
 * beyond, rounded up to a MiB. */
uint64_t cc_default_hv_size(const struct warden_cpu_set *cpus);

int config_create(FILE *out, const struct cc_options *o, FILE *warn, char *err,
		  size_t errlen);

#endif /* WARDEN_TOOLS_CONFIG_CREATE_H */
