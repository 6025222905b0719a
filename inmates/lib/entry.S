/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Inmate entry.  The image is loaded at guest-physical 0 and the hypervisor
 * starts the cell's CPU here in 16-bit real mode (CS.base 0, IP 0) with
 * arbitrary values in every register it does not define, so nothing is
 * assumed: DS, ES, SS, the stack, CR0's cache bits, CR4 and EFER are all
 * set explicitly.
 *
 * real mode -> 32-bit protected mode (flat GDT) -> identity page tables
 * for the first 4 GiB in 2 MiB pages -> PAE, EFER.LME, paging -> 64-bit
 * mode -> stack, RFLAGS, BSS -> inmate_start() (C) -> halt forever.
 *
 * The first CPU to arrive runs the inmate.  Later arrivals are the other
 * CPUs of the cell, started by smp_start_cpus() with INIT and SIPI vector 0
 * (so here, at CS.base 0): they take the AP path, which reuses the GDT and
 * the page tables the first CPU built, takes a stack by arrival order and
 * calls inmate_ap_start() (C).  A CPU that arrives before smp_start_cpus()
 * allowed it (inmate_smp_ready still 0: the page tables may not exist yet)
 * parks with interrupts disabled, touching no memory but a counter; so does
 * one beyond INMATE_MAX_CPUS.
 */
#include <inmate/arch.h>

	.section .entry, "ax"
	.code16
	.globl _start
_start:
	cli
	cld
	xorw	%ax, %ax
	movw	%ax, %ds
	movw	$1, %ax
	lock xaddw %ax, cpu_arrivals
	testw	%ax, %ax
	jnz	ap_start16

	lgdtl	gdt_ptr
	/* PE on; CD, NW, TS, EM, AM, WP, PG off; NE and ET on. */
	movl	$(CR0_PE | CR0_ET | CR0_NE), %eax
	movl	%eax, %cr0
	ljmpl	$GDT_CODE32, $start32

	/* A later arrival: the AP path, once the first CPU allows it. */
ap_start16:
	cmpw	$0, inmate_smp_ready
	je	park16
	lgdtl	gdt_ptr
	movl	$(CR0_PE | CR0_ET | CR0_NE), %eax
	movl	%eax, %cr0
	ljmpl	$GDT_CODE32, $ap_start32

park16:
	cli
	hlt
	jmp	park16

	.code32
start32:
	movw	$GDT_DATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs

	/* PML4 and PDPT: clear, then one PML4 entry and four PDPT entries. */
	movl	$inmate_pml4, %edi
	xorl	%eax, %eax
	movl	$(2 * 4096 / 4), %ecx
	rep stosl
	movl	$(inmate_pdpt + PTE_P + PTE_RW), inmate_pml4
	movl	$inmate_pdpt, %edi
	movl	$(inmate_pd + PTE_P + PTE_RW), %eax
	movl	$4, %ecx
1:	movl	%eax, (%edi)
	addl	$4096, %eax
	addl	$8, %edi
	loop	1b

	/* Four page directories: entry i maps i * 2 MiB, i = 0..2047. */
	movl	$inmate_pd, %edi
	xorl	%ecx, %ecx
2:	movl	%ecx, %eax
	shll	$21, %eax
	orl	$(PTE_P | PTE_RW | PTE_PS), %eax
	cmpl	$(INMATE_UC_START / INMATE_PAGE_2M), %ecx
	jb	3f
	orl	$(PTE_PWT | PTE_PCD), %eax
3:	movl	%eax, (%edi, %ecx, 8)
	movl	$0, 4(%edi, %ecx, 8)
	incl	%ecx
	cmpl	$(INMATE_MAP_SIZE / INMATE_PAGE_2M), %ecx
	jb	2b

	movl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$inmate_pml4, %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	movl	$EFER_LME, %eax
	xorl	%edx, %edx
	wrmsr
	movl	$(CR0_PE | CR0_ET | CR0_NE | CR0_WP | CR0_PG), %eax
	movl	%eax, %cr0
	ljmp	$GDT_CODE64, $start64

	/* AP: the first CPU's page tables (complete by now), long mode. */
ap_start32:
	movw	$GDT_DATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$inmate_pml4, %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	movl	$EFER_LME, %eax
	xorl	%edx, %edx
	wrmsr
	movl	$(CR0_PE | CR0_ET | CR0_NE | CR0_WP | CR0_PG), %eax
	movl	%eax, %cr0
	ljmp	$GDT_CODE64, $ap_start64

	.code64
start64:
	movw	$GDT_DATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movq	$__stack_top, %rsp
	pushq	$2		/* RFLAGS: IF, DF, AC, TF all clear */
	popfq

	movq	$__bss_start, %rdi
	movq	$__bss_end, %rcx
	subq	%rdi, %rcx
	xorl	%eax, %eax
	rep stosb

	xorl	%ebp, %ebp
	call	inmate_start
	.globl inmate_halt
inmate_halt:
	cli
	hlt
	jmp	inmate_halt

	/*
	 * AP in 64-bit mode: index = arrival order (1, 2, ... from
	 * inmate_smp_next_index, which smp_start_cpus() set to 1), stack
	 * inmate_ap_stacks[index - 1], then inmate_ap_start(index).
	 */
ap_start64:
	movw	$GDT_DATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movl	$1, %edi
	lock xaddl %edi, inmate_smp_next_index
	cmpl	$INMATE_MAX_CPUS, %edi
	jae	inmate_halt
	/* the top of stack index - 1 is inmate_ap_stacks + index * size */
	imulq	$INMATE_AP_STACK_SIZE, %rdi, %rsp
	addq	$inmate_ap_stacks, %rsp
	pushq	$2		/* RFLAGS: IF, DF, AC, TF all clear */
	popfq
	xorl	%ebp, %ebp
	call	inmate_ap_start
	jmp	inmate_halt

	/*
	 * Flat descriptors; the accessed bits are preset so that the CPU
	 * never writes to the table.
	 */
	.balign 8
gdt:
	.quad	0
	.quad	0x00cf9b000000ffff	/* GDT_CODE32: 32-bit, base 0, 4 GiB */
	.quad	0x00cf93000000ffff	/* GDT_DATA: read/write, 4 GiB */
	.quad	0x00af9b000000ffff	/* GDT_CODE64: 64-bit code */
gdt_end:
gdt_ptr:
	.word	gdt_end - gdt - 1
	.long	gdt

	/*
	 * Used in real mode, so they must stay in the first 64 KiB: they
	 * live in the entry section, which the linker script puts at 0.
	 * inmate_smp_ready: set by smp_start_cpus() before it sends SIPIs.
	 */
	.section .entry.data, "aw"
	.balign 4
cpu_arrivals:
	.word	0
	.globl inmate_smp_ready
inmate_smp_ready:
	.word	0

	/* Identity page tables, outside the BSS (which is cleared later). */
	.section .pagetables, "aw", @nobits
	.balign 4096
	.globl inmate_pml4, inmate_pdpt, inmate_pd
inmate_pml4:
	.skip	4096
inmate_pdpt:
	.skip	4096
inmate_pd:
	.skip	4 * 4096

	.section .stack, "aw", @nobits
	.balign 16
	.skip	INMATE_STACK_SIZE

	.section .note.GNU-stack, "", @progbits
