// SPDX-License-Identifier: GPL-2.0
/*
 * bad-msr: reads IA32_MISC_ENABLE (0x1a0), a package-wide MSR no cell may
 * touch.  The hypervisor must stop the cell (failed, "read of a forbidden
 * MSR 0x1a0") and leave root and other cells running.
 */
#include <inmate.h>

void inmate_main(void)
{
	uint32_t lo, hi;

	printk("bad-msr: reading MSR 0x1a0\n");
	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(0x1a0));
	printk("bad-msr: still running, read 0x%x%08x\n", hi, lo);
}
