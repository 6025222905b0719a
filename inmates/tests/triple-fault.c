// SPDX-License-Identifier: GPL-2.0
/*
 * triple-fault: loads an empty IDT and raises #BP: no handler for it, nor
 * for the #GP and double fault that follow, so the CPU triple-faults.  The
 * hypervisor must stop the cell (failed, "triple fault") and nothing else.
 */
#include <inmate.h>

void inmate_main(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) empty = { 0, 0 };

	printk("triple-fault: empty IDT, then int3\n");
	asm volatile("lidt %0; int3" : : "m"(empty));
	printk("triple-fault: still running\n");
}
