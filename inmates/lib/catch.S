/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * exception_catch (inmate.h): run a function so that an exception it
 * raises returns to the caller instead of stopping the inmate.  The
 * callee-saved registers and the stack pointer at the call are kept here;
 * interrupt_dispatch (irq.c) sends a caught exception's IRET to
 * exception_caught with that stack and the vector in RAX.
 */
#include <inmate/arch.h>

	.text
	.globl exception_catch
	.type exception_catch, @function
/* int exception_catch(void (*fn)(void *), void *arg) */
exception_catch:
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rsp, inmate_catch_rsp(%rip)
	movl	$1, inmate_catch_armed(%rip)
	mov	%rdi, %rax
	mov	%rsi, %rdi
	sub	$8, %rsp	/* 7 words pushed since the caller's call */
	call	*%rax
	add	$8, %rsp
	movl	$0, inmate_catch_armed(%rip)
	mov	$-1, %eax
	jmp	1f
	.globl exception_caught
exception_caught:
	/* RSP is inmate_catch_rsp again, RAX the vector */
1:	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret
	.size exception_catch, . - exception_catch

	.data
	.balign 8
	.globl inmate_catch_rsp, inmate_catch_armed
inmate_catch_rsp:
	.quad	0
inmate_catch_armed:
	.long	0

	.section .note.GNU-stack, "", @progbits
