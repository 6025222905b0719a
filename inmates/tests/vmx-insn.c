// SPDX-License-Identifier: GPL-2.0
/*
 * vmx-insn: executes VMXOFF (Intel) or STGI (AMD, the vendor the hypercall
 * instruction was chosen by).  In a cell every VMX or SVM instruction
 * exits to the hypervisor, which must stop the cell (failed, "VMX
 * instruction" or "SVM instruction") and leave root and other cells
 * running.
 */
#include <inmate.h>

void inmate_main(void)
{
	if (inmate_hc_insn == WARDEN_HC_INSN_VMMCALL) {
		printk("vmx-insn: executing STGI\n");
		asm volatile("stgi" ::: "memory");
		printk("vmx-insn: still running after STGI\n");
		return;
	}
	printk("vmx-insn: executing VMXOFF\n");
	asm volatile("vmxoff" ::: "cc", "memory");
	printk("vmx-insn: still running after VMXOFF\n");
}
