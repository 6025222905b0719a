// SPDX-License-Identifier: GPL-2.0
/*
 * ipi-root: sends an IPI to APIC ID 0, a root CPU on every test machine.
 * In a cell the hypervisor must stop the cell (failed) before it sends: if
 * it still runs 100 ms later, it prints "ipi-root: still running".
 * Command line: mode=x2apic|xapic (x2apic), kind=fixed|nmi|init|sipi
 * (fixed: vector 0x60; sipi: vector 0x10, start at 0x10000).
 */
#include <inmate.h>

#define IPI_VECTOR 0x60
#define SIPI_VECTOR 0x10
#define TARGET_APIC_ID 0
#define WAIT_US 100000

static volatile unsigned int received;

static void ipi_handler(unsigned int vector)
{
	(void)vector;
	received++;
	apic_eoi();
}

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("mode", "x2apic"), "xapic") != 0;
	const char *kind = cmdline_str("kind", "fixed");

	irq_set_handler(IPI_VECTOR, ipi_handler);
	if (apic_init(x2apic) < 0) {
		printk("ipi-root: no local APIC\n");
		return;
	}
	if (!strcmp(kind, "fixed")) {
		printk("ipi-root: %s, APIC ID %u: sending IPI vector 0x%x to "
		       "APIC ID %u\n",
		       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(),
		       IPI_VECTOR, TARGET_APIC_ID);
		apic_send_ipi(TARGET_APIC_ID, IPI_VECTOR);
	} else {
		printk("ipi-root: %s, APIC ID %u: sending %s to APIC ID %u\n",
		       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(), kind,
		       TARGET_APIC_ID);
		if (!strcmp(kind, "nmi"))
			apic_send_icr(TARGET_APIC_ID,
				      APIC_ICR_DM_NMI | APIC_ICR_LEVEL_ASSERT);
		else if (!strcmp(kind, "init"))
			apic_send_init(TARGET_APIC_ID);
		else if (!strcmp(kind, "sipi"))
			apic_send_sipi(TARGET_APIC_ID, SIPI_VECTOR);
		else
			printk("ipi-root: unknown kind '%s'\n", kind);
	}
	irq_enable();
	delay_us(WAIT_US);
	irq_disable();
	printk("ipi-root: still running\n");
	if (received)
		printk("ipi-root: the IPI came back to this CPU\n");
}
