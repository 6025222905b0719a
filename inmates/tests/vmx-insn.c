// SPDX-License-Identifier: GPL-2.0
/*
 * vmx-insn: executes a VMX instruction (Intel: VMXOFF) or an SVM one (AMD,
 * the vendor the hypercall instruction was chosen by; command line
 * insn=vmrun|vmload|vmsave|stgi|clgi|skinit|invlpga, default stgi).  In a
 * cell every VMX or SVM instruction exits to the hypervisor, which must
 * stop the cell (failed, "VMX instruction" or "SVM instruction") and leave
 * root and other cells running.
 */
#include <inmate.h>

/* The SVM instructions, each with RAX 0 (the address operand of VMRUN,
 * VMLOAD, VMSAVE and INVLPGA, SKINIT's SLB): the intercept comes before
 * any use of it (APM Vol. 2, 15.5.1, 15.14). */
static bool svm_insn(const char *name)
{
	if (!strcmp(name, "vmrun"))
		asm volatile("vmrun %%rax" : : "a"(0ul) : "memory");
	else if (!strcmp(name, "vmload"))
		asm volatile("vmload %%rax" : : "a"(0ul) : "memory");
	else if (!strcmp(name, "vmsave"))
		asm volatile("vmsave %%rax" : : "a"(0ul) : "memory");
	else if (!strcmp(name, "stgi"))
		asm volatile("stgi" ::: "memory");
	else if (!strcmp(name, "clgi"))
		asm volatile("clgi" ::: "memory");
	else if (!strcmp(name, "skinit"))
		asm volatile("skinit %%eax" : : "a"(0u) : "memory");
	else if (!strcmp(name, "invlpga"))
		asm volatile("invlpga %%rax, %%ecx"
			     :
			     : "a"(0ul), "c"(0u)
			     : "memory");
	else
		return false;
	return true;
}

void inmate_main(void)
{
	const char *name = cmdline_str("insn", "stgi");

	if (inmate_hc_insn == WARDEN_HC_INSN_VMMCALL) {
		printk("vmx-insn: executing %s\n", name);
		if (!svm_insn(name)) {
			printk("vmx-insn: unknown SVM instruction '%s'\n",
			       name);
			return;
		}
		printk("vmx-insn: still running after %s\n", name);
		return;
	}
	printk("vmx-insn: executing VMXOFF\n");
	asm volatile("vmxoff" ::: "cc", "memory");
	printk("vmx-insn: still running after VMXOFF\n");
}
