/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VMX entry code:
 * - vmx_exit_entry: HOST_RIP of every VMCS (SDM Vol. 3C, 28.5.3: the host
 *   state is loaded, the guest's general-purpose registers are as the
 *   guest left them);
 * - vmx_launch: the first VM entry.
 */
#include <asm/guest_regs.inc>

	.text

	.globl vmx_exit_entry
	.type vmx_exit_entry, @function
vmx_exit_entry:
	PUSH_REGS
	mov	%rsp, %rdi
	call	vmx_handle_exit
	POP_REGS
	vmresume
	/* VMRESUME failed: report, with the registers as they are */
	PUSH_REGS
	mov	%rsp, %rdi
	call	vmx_resume_failed
	ud2
	.size vmx_exit_entry, . - vmx_exit_entry

/* int vmx_launch(struct guest_regs *regs): returns only if VMLAUNCH fails. */
	.globl vmx_launch
	.type vmx_launch, @function
vmx_launch:
	/* callee-saved registers survive a failed launch */
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	0x00(%rdi), %rax
	mov	0x08(%rdi), %rcx
	mov	0x10(%rdi), %rdx
	mov	0x18(%rdi), %rbx
	mov	0x28(%rdi), %rbp
	mov	0x30(%rdi), %rsi
	mov	0x40(%rdi), %r8
	mov	0x48(%rdi), %r9
	mov	0x50(%rdi), %r10
	mov	0x58(%rdi), %r11
	mov	0x60(%rdi), %r12
	mov	0x68(%rdi), %r13
	mov	0x70(%rdi), %r14
	mov	0x78(%rdi), %r15
	mov	0x38(%rdi), %rdi
	vmlaunch
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	mov	$-1, %rax
	ret
	.size vmx_launch, . - vmx_launch
