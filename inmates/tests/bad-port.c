// SPDX-License-Identifier: GPL-2.0
/*
 * bad-port: writes a byte to a port its cell does not own, by default
 * 0x3f8, the data register of root's console UART.  The hypervisor must
 * stop the cell (failed, "write to a port it does not own 0x3f8") before
 * the byte reaches the port, and leave root and other cells running.
 * Command line: port=<number> (0x3f8), read=1 to read it instead,
 * pending=1 to leave an interrupt pending first (a self-IPI, vector 0x60
 * or vector=V, with interrupts off): the hypervisor must drop it when the
 * CPU goes back to root, or Linux would get a vector it never set up; a
 * vector of 16-31, which the APIC accepts, must not look like an exception
 * to the hypervisor.  self=1: through the x2APIC SELF IPI register
 * (x2APIC mode), which reaches only this CPU and is not checked: an
 * illegal vector 0-15 an emulator accepts there must leave neither an
 * exception in the hypervisor nor a vector in service for root.
 */
#include <inmate.h>

void inmate_main(void)
{
	uint16_t port = (uint16_t)cmdline_uint("port", 0x3f8);
	unsigned int vector = (unsigned int)cmdline_uint("vector", 0x60);

	if (cmdline_bool("pending", false)) {
		if (apic_init(true) < 0) {
			printk("bad-port: no local APIC\n");
			return;
		}
		if (cmdline_bool("self", false) && apic_is_x2apic())
			wrmsr(APIC_SELF_IPI, vector);
		else
			apic_send_icr(apic_id(), APIC_ICR_DM_FIXED |
							 APIC_ICR_LEVEL_ASSERT |
							 vector);
		printk("bad-port: vector 0x%x left pending\n", vector);
	}

	if (cmdline_bool("read", false)) {
		printk("bad-port: reading port 0x%x\n", port);
		printk("bad-port: still running, read 0x%x\n", inb(port));
		return;
	}
	printk("bad-port: writing '!' to port 0x%x\n", port);
	outb(port, '!');
	printk("bad-port: still running\n");
}
