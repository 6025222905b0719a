/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU entry of the hypervisor image, called by the driver on every CPU
 * (System V calling convention: RDI = CPU id).
 *
 * The late launch (saving Linux's state, VMXON, VMLAUNCH back into Linux)
 * is the work of the late-launch issue; until it lands, the entry refuses
 * with -ENOSYS so that a driver calling it cannot mistake it for success.
 */
	.section .text.entry, "ax"
	.globl arch_entry
	.type arch_entry, @function
arch_entry:
	mov	$-38, %rax	/* -ENOSYS */
	ret
	.size arch_entry, . - arch_entry

	.section .note.GNU-stack, "", @progbits
