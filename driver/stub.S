/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The entry stub: the only code that runs in both Linux's and the
 * hypervisor's address space.  It sits alone in a page-aligned section of
 * the module's text, which the driver maps at the same address in the page
 * tables it builds for the hypervisor (every exported mapper gives
 * non-executable memory, so the module's own text is the one executable
 * place; docs/driver.md).
 *
 * wd_stub_enter(ctx): save Linux's callee-saved registers and flags on the
 * Linux stack, note where to resume, load the trampoline IDT (an NMI during
 * the switch is dropped instead of hitting unmapped handlers), switch to the
 * hypervisor's page tables, flush global TLB entries (a CR3 write keeps
 * them), and call the hypervisor entry on its own stack.  Linux continues at
 * wd_stub_resume: as a guest after VMLAUNCH (RAX = 0), or through
 * wd_stub_leave if entering failed (RAX = -errno).
 *
 * wd_stub_leave(state): jumped to by the hypervisor (disable, or a failed
 * enable) with CR0/CR4/EFER/PAT already restored: switch back to Linux's
 * page tables, stack, GDT (clearing the TSS busy bit through the writable
 * GDT alias before LTR), IDT, segments and bases, then all registers, and
 * continue at state->rip.
 */
#include <linux/linkage.h>
#include <asm/msr-index.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

#include "stub.h"

	.section .text.warden_stub, "ax"
	.balign 4096
	.globl wd_stub_start
wd_stub_start:

SYM_CODE_START(wd_stub_enter)
	UNWIND_HINT_EMPTY
	push	%rbp
	push	%rbx
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	pushfq
	mov	%rsp, CTX_LINUX + LS_RSP(%rdi)
	lea	wd_stub_resume(%rip), %rax
	mov	%rax, CTX_LINUX + LS_RIP(%rdi)
	pushfq
	pop	%rax
	mov	%rax, CTX_LINUX + LS_RFLAGS(%rdi)

	lidt	CTX_TRAMP_IDT(%rdi)
	mov	CTX_HV_CR3(%rdi), %rax
	mov	%rax, %cr3
	mov	%cr4, %rax
	mov	%rax, %rcx
	and	$~0x80, %rax		/* CR4.PGE */
	mov	%rax, %cr4
	mov	%rcx, %cr4

	mov	CTX_HV_STACK(%rdi), %rsp
	mov	%rdi, %rsi
	mov	CTX_CPU_ID(%rdi), %edi
	/* the target is the hypervisor, not Linux code to protect */
	ANNOTATE_RETPOLINE_SAFE
	call	*CTX_HV_ENTRY(%rsi)
	ud2

SYM_INNER_LABEL(wd_stub_resume, SYM_L_GLOBAL)
	UNWIND_HINT_EMPTY
	popfq
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbx
	pop	%rbp
	RET
SYM_CODE_END(wd_stub_enter)

SYM_CODE_START(wd_stub_leave)
	UNWIND_HINT_EMPTY
	mov	LS_CR3(%rdi), %rax
	mov	%rax, %cr3
	mov	LS_RSP(%rdi), %rsp

	/*
	 * Load Linux's GDT through its writable alias first: LTR writes the
	 * busy bit, and Linux's usual GDT mapping is read-only (the way
	 * Linux's own force_reload_TR() does it).
	 */
	sub	$16, %rsp
	movzwl	LS_GDTR_LIMIT(%rdi), %eax
	mov	%ax, 6(%rsp)
	mov	LS_GDT_RW(%rdi), %rax
	mov	%rax, 8(%rsp)
	lgdt	6(%rsp)

	/* Segments and the FS/GS bases before Linux's IDT: a fault from here
	 * on must find Linux's per-CPU data through GS. */
	movzwl	LS_SS(%rdi), %eax
	mov	%eax, %ss
	movzwl	LS_DS(%rdi), %eax
	mov	%eax, %ds
	movzwl	LS_ES(%rdi), %eax
	mov	%eax, %es
	movzwl	LS_FS(%rdi), %eax
	mov	%eax, %fs
	movzwl	LS_GS(%rdi), %eax
	mov	%eax, %gs
	mov	$MSR_FS_BASE, %ecx
	mov	LS_FS + SEG_BASE(%rdi), %rax
	mov	%rax, %rdx
	shr	$32, %rdx
	wrmsr
	mov	$MSR_GS_BASE, %ecx
	mov	LS_GS + SEG_BASE(%rdi), %rax
	mov	%rax, %rdx
	shr	$32, %rdx
	wrmsr

	/* TR: the descriptor is marked busy; LTR wants it available */
	mov	LS_GDT_RW(%rdi), %rax
	movzwl	LS_TR(%rdi), %ecx
	and	$~7, %ecx
	andb	$~0x02, 5(%rax, %rcx)
	ltr	%cx

	/* now the GDT address Linux normally uses, and its IDT */
	mov	LS_GDTR_BASE(%rdi), %rax
	mov	%rax, 8(%rsp)
	lgdt	6(%rsp)
	movzwl	LS_IDTR_LIMIT(%rdi), %eax
	mov	%ax, 6(%rsp)
	mov	LS_IDTR_BASE(%rdi), %rax
	mov	%rax, 8(%rsp)
	lidt	6(%rsp)
	add	$16, %rsp

	/* CS: a far return into Linux's code selector */
	movzwl	LS_CS(%rdi), %eax
	push	%rax
	lea	1f(%rip), %rax
	push	%rax
	lretq
1:
	UNWIND_HINT_EMPTY
	push	LS_RIP(%rdi)
	push	LS_RFLAGS(%rdi)
	mov	LS_REGS + 0x00(%rdi), %rax
	mov	LS_REGS + 0x08(%rdi), %rcx
	mov	LS_REGS + 0x10(%rdi), %rdx
	mov	LS_REGS + 0x18(%rdi), %rbx
	mov	LS_REGS + 0x28(%rdi), %rbp
	mov	LS_REGS + 0x30(%rdi), %rsi
	mov	LS_REGS + 0x40(%rdi), %r8
	mov	LS_REGS + 0x48(%rdi), %r9
	mov	LS_REGS + 0x50(%rdi), %r10
	mov	LS_REGS + 0x58(%rdi), %r11
	mov	LS_REGS + 0x60(%rdi), %r12
	mov	LS_REGS + 0x68(%rdi), %r13
	mov	LS_REGS + 0x70(%rdi), %r14
	mov	LS_REGS + 0x78(%rdi), %r15
	mov	LS_REGS + 0x38(%rdi), %rdi
	popfq
	RET
SYM_CODE_END(wd_stub_leave)

/* The trampoline IDT's NMI handler: drop the NMI. */
SYM_CODE_START(wd_stub_nmi)
	UNWIND_HINT_EMPTY
	iretq
SYM_CODE_END(wd_stub_nmi)

	.globl wd_stub_end
wd_stub_end:
