/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multiboot v1 entry of the test machine's boot shim.
 * Loaded by SYSLINUX mboot.c32 in 32-bit protected mode, paging off.
 */
#define MB_MAGIC	0x1badb002
#define MB_FLAGS	0x00000003	/* page-aligned modules, memory info */

	.section .multiboot, "a"
	.balign 4
	.long	MB_MAGIC
	.long	MB_FLAGS
	.long	-(MB_MAGIC + MB_FLAGS)

	.text
	.code32
	.globl	_start
_start:
	cli
	cld
	movl	$stack_top, %esp
	pushl	%ebx			/* multiboot info */
	pushl	%eax			/* multiboot magic */
	call	shim_main
1:	hlt
	jmp	1b

/*
 * void pvh_jump(uint32_t entry, uint32_t start_info)
 * Load a flat GDT, reload the segment registers and jump to the PVH entry
 * with EBX = start info, paging off, interrupts off.
 */
	.globl	pvh_jump
pvh_jump:
	movl	4(%esp), %esi
	movl	8(%esp), %ebx
	lgdt	gdt_desc
	ljmp	$0x08, $1f
1:	movl	$0x10, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %ss
	movl	%eax, %fs
	movl	%eax, %gs
	xorl	%eax, %eax
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	xorl	%edi, %edi
	xorl	%ebp, %ebp
	jmp	*%esi

	.section .rodata
	.balign 8
gdt:
	.quad	0
	.quad	0x00cf9a000000ffff	/* 0x08: flat 32-bit code */
	.quad	0x00cf92000000ffff	/* 0x10: flat data */
gdt_end:
	.balign 4
gdt_desc:
	.word	gdt_end - gdt - 1
	.long	gdt

	.bss
	.balign 16
	.space	16384
stack_top:

	.section .note.GNU-stack, "", @progbits
