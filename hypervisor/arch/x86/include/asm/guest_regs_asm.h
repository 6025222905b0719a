/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly only: push and pop the guest's general-purpose registers as
 * struct guest_regs (asm/percpu.h), for the VM-exit entry of each vendor
 * (vmx/vmx_entry.S) and the hypervisor's exception entry (entry.S).  The
 * RSP slot holds 0: the guest's RSP is in the vendor's guest-state area.
 */
#ifndef WARDEN_ASM_GUEST_REGS_ASM_H
#define WARDEN_ASM_GUEST_REGS_ASM_H
#ifdef __ASSEMBLY__

.macro PUSH_REGS
	push	%r15
	push	%r14
	push	%r13
	push	%r12
	push	%r11
	push	%r10
	push	%r9
	push	%r8
	push	%rdi
	push	%rsi
	push	%rbp
	push	$0		/* RSP: in the guest-state area */
	push	%rbx
	push	%rdx
	push	%rcx
	push	%rax
.endm

.macro POP_REGS
	pop	%rax
	pop	%rcx
	pop	%rdx
	pop	%rbx
	add	$8, %rsp
	pop	%rbp
	pop	%rsi
	pop	%rdi
	pop	%r8
	pop	%r9
	pop	%r10
	pop	%r11
	pop	%r12
	pop	%r13
	pop	%r14
	pop	%r15
.endm

#endif /* __ASSEMBLY__ */
#endif /* WARDEN_ASM_GUEST_REGS_ASM_H */
