// SPDX-License-Identifier: GPL-2.0
/*
 * ipi-root: sends a fixed IPI to APIC ID 0, a root CPU on every test
 * machine.  In a cell the hypervisor must stop the cell (failed) before it
 * sends: if it still runs 100 ms later, it prints "ipi-root: still
 * running".  Command line: mode=x2apic|xapic (x2apic).
 */
#include <inmate.h>

#define IPI_VECTOR 0x60
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

	irq_set_handler(IPI_VECTOR, ipi_handler);
	if (apic_init(x2apic) < 0) {
		printk("ipi-root: no local APIC\n");
		return;
	}
	printk("ipi-root: %s, APIC ID %u: sending IPI vector 0x%x to APIC "
	       "ID %u\n",
	       apic_is_x2apic() ? "x2apic" : "xapic", apic_id(), IPI_VECTOR,
	       TARGET_APIC_ID);
	apic_send_ipi(TARGET_APIC_ID, IPI_VECTOR);
	irq_enable();
	delay_us(WAIT_US);
	irq_disable();
	printk("ipi-root: still running\n");
	if (received)
		printk("ipi-root: the IPI came back to this CPU\n");
}
