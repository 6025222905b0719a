// SPDX-License-Identifier: GPL-2.0
/*
 * tiny-demo: the smallest useful inmate.  Prints a banner and what it found
 * in the comm region, counts to five with ~10 ms (TSC) pauses, reports the
 * cell shut down in its comm region and halts with interrupts enabled.  It
 * expects no interrupt at all: any that reaches its CPU (an IPI of root's
 * that the hypervisor let through, say) wakes it and libinmate prints
 * "inmate: unexpected interrupt, vector N", which the system tests look
 * for.
 */
#include <inmate.h>

#define COUNT_TO 5
#define COUNT_DELAY_US 10000

void inmate_main(void)
{
	struct warden_comm_region *comm = comm_region();
	uint64_t start, elapsed;
	int n;

	printk("tiny-demo: hello from cell CPU %u\n", cpu_apic_id());
	if (comm)
		printk("tiny-demo: comm region at 0x%x: signature ok, "
		       "revision %u, tsc_khz %u, num_cpus %u\n",
		       INMATE_COMM_REGION, comm->revision, comm->tsc_khz,
		       comm->num_cpus);
	else
		printk("tiny-demo: comm region at 0x%x: signature missing\n",
		       INMATE_COMM_REGION);
	if (console_type() == WARDEN_CONSOLE_UART_PIO)
		printk("tiny-demo: console UART at port 0x%x\n",
		       console_port());
	else
		printk("tiny-demo: console type %u\n", console_type());
	printk("tiny-demo: using TSC at %u kHz\n", tsc_khz());

	start = rdtsc();
	for (n = 1; n <= COUNT_TO; n++) {
		if (n > 1)
			delay_us(COUNT_DELAY_US);
		printk("tiny-demo: count %d\n", n);
	}
	elapsed = rdtsc() - start;
	printk("tiny-demo: %d pauses took %lu us by the TSC\n", COUNT_TO - 1,
	       (unsigned long)tsc_ticks_to_us(elapsed));
	printk("tiny-demo: done\n");
	comm_set_state(WARDEN_CELL_SHUT_DOWN);
	for (;;)
		cpu_wait_for_interrupt();
}
