// SPDX-License-Identifier: GPL-2.0
/*
 * nmi-hold: sends an NMI to itself and never returns from its handler
 * (libinmate reports the NMI as an exception and halts in it), so the
 * CPU stays in NMI-blocked state.  The hypervisor must still be able to
 * stop the cell and give the CPU back.
 * Command line: mode=x2apic|xapic (x2apic).
 */
#include <inmate.h>

void inmate_main(void)
{
	bool x2apic = strcmp(cmdline_str("mode", "x2apic"), "xapic") != 0;

	if (apic_init(x2apic) < 0) {
		printk("nmi-hold: no local APIC\n");
		return;
	}
	printk("nmi-hold: %s, APIC ID %u: sending an NMI to itself\n",
	       apic_is_x2apic() ? "x2apic" : "xapic", apic_id());
	apic_send_icr(apic_id(), APIC_ICR_DM_NMI | APIC_ICR_LEVEL_ASSERT);
	delay_us(100000);
	printk("nmi-hold: still running, the NMI did not come\n");
}
