/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Interrupt and exception entry stubs, one per vector, INMATE_ISR_STUB_SIZE
 * bytes apart from inmate_isr_stubs.  Each stub makes the stack look the same
 * (error code, 0 if the CPU pushed none, then the vector) and jumps to
 * isr_common, which saves the general registers and calls
 * interrupt_dispatch(struct interrupt_frame *) in C.
 */
#include <inmate/arch.h>

	.text
	.balign INMATE_ISR_STUB_SIZE
	.globl inmate_isr_stubs
inmate_isr_stubs:
	.set	vec, 0
	.rept	256
	.balign	INMATE_ISR_STUB_SIZE
	/* Vectors with an error code: #DF #TS #NP #SS #GP #PF #AC #CP #VC #SX */
	.if (vec == 8) || ((vec >= 10) && (vec <= 14)) || (vec == 17) || \
		(vec == 21) || (vec == 29) || (vec == 30)
	.else
	pushq	$0
	.endif
	pushq	$vec
	jmp	isr_common
	.set	vec, vec + 1
	.endr

isr_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
	movq	%rsp, %rdi
	movq	%rsp, %rbx	/* callee-saved: the frame */
	andq	$-16, %rsp
	call	interrupt_dispatch
	movq	%rbx, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp	/* vector and error code */
	iretq

	.section .note.GNU-stack, "", @progbits
