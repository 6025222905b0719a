/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly entry points of the hypervisor:
 * - arch_entry: where the driver's stub calls in, per CPU
 *   (RDI = CPU id, RSI = entry context), already on this CPU's
 *   hypervisor stack and in the hypervisor's address space;
 * - exception and NMI handlers of the hypervisor's IDT.
 */
#include <asm/guest_regs.inc>

	.section .text.entry, "ax"
	.globl arch_entry
	.type arch_entry, @function
arch_entry:
	sub	$8, %rsp	/* the stub's call left RSP 8 off alignment */
	call	hv_entry
	/* hv_entry returns only on failure: go back to Linux with it */
	mov	%rax, %rsi
	mov	%gs:0, %rdi
	xor	%edx, %edx
	call	arch_cpu_leave
	ud2
	.size arch_entry, . - arch_entry

	.text

/*
 * void arch_jump_to_linux(u64 stub_leave, struct warden_linux_state *s):
 * hand over to the driver's stub, which is mapped in both address spaces.
 */
	.globl arch_jump_to_linux
	.type arch_jump_to_linux, @function
arch_jump_to_linux:
	mov	%rdi, %rax
	mov	%rsi, %rdi
	jmp	*%rax
	.size arch_jump_to_linux, . - arch_jump_to_linux

/* Exceptions in the hypervisor itself: 32 entries of 16 bytes. */
	.balign 16
	.globl exception_entries
exception_entries:
	vector = 0
	.rept 32
	.balign 16
	.if (vector == 8) || ((vector >= 10) && (vector <= 14)) || \
	    (vector == 17) || (vector == 21) || (vector == 29) || (vector == 30)
	.else
	push	$0		/* no error code: keep the frame shape */
	.endif
	push	$vector
	jmp	exception_common
	vector = vector + 1
	.endr

exception_common:
	/* the frame: registers as struct guest_regs, vector, error, then
	 * what the CPU pushed */
	PUSH_REGS
	mov	%rsp, %rdi
	sub	$8, %rsp	/* 16 registers + 7 words: realign for the call */
	call	hv_exception
	add	$8, %rsp
	/* nonzero: an exception table entry moved the frame's RIP to its
	 * fixup; go on there */
	test	%eax, %eax
	jz	1f
	POP_REGS
	add	$16, %rsp	/* vector and error code */
	iretq
1:	cli
	hlt
	jmp	1b

/*
 * An interrupt entry that calls a C function with no arguments and returns
 * to what it interrupted: the caller-saved registers are kept around the
 * call (the C code keeps the others).  9 pushes after the CPU's 5 words
 * leave the stack 16-byte aligned at the call.
 */
.macro INTERRUPT_ENTRY name, func
	.globl \name
\name:
	push	%rax
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	call	\func
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%rax
	iretq
.endm

	INTERRUPT_ENTRY nmi_entry, hv_nmi

/*
 * Vectors 32-255, and 16-31 in the drain IDT (setup.c): the hypervisor
 * runs with interrupts off except in apic_reset, which lets in what a
 * CPU's previous owner left pending; each such interrupt is retired with
 * an EOI and dropped (hv_drop_irq).  The vector is not needed: an EOI
 * retires the highest one in service.
 */
	INTERRUPT_ENTRY irq_drop_entry, hv_drop_irq

	.section .note.GNU-stack, "", @progbits
