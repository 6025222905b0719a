// SPDX-License-Identifier: GPL-2.0
/*
 * vmx-insn: executes VMXOFF.  In a cell every VMX instruction exits to the
 * hypervisor, which must stop the cell (failed, "VMX instruction") and
 * leave root and other cells running.
 */
#include <inmate.h>

void inmate_main(void)
{
	printk("vmx-insn: executing VMXOFF\n");
	asm volatile("vmxoff" ::: "cc", "memory");
	printk("vmx-insn: still running after VMXOFF\n");
}
