// SPDX-License-Identifier: GPL-2.0
/*
 * exception-test: executes ud2; libinmate's handler must report
 * "EXCEPTION 6 #UD at RIP 0x..." (the address of the ud2) and halt.
 */
#include <inmate.h>

void inmate_main(void)
{
	printk("exception-test: start\n");
	asm volatile("ud2");
	printk("exception-test: still running after ud2\n");
}
