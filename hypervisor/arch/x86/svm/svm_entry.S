/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SVM world switch.  Unlike VMX there is no host RIP: VMRUN returns
 * to the instruction after it on #VMEXIT, with the host state VMRUN
 * saved (RIP, RSP, RAX, CR0/3/4, EFER, RFLAGS, GDTR, IDTR, CS/SS/DS/ES;
 * APM Vol. 2, 15.5.1 and 15.6) and GIF = 0.  The rest of the processor
 * state (FS, GS, TR, LDTR with their hidden parts, KernelGsBase, STAR,
 * LSTAR, CSTAR, SFMASK, SYSENTER_*) is switched with VMLOAD/VMSAVE
 * (APM 15.5.2): the guest's around VMRUN, the hypervisor's (GS base =
 * struct per_cpu, its TR) right after.  Until that VMLOAD the GS base is
 * the guest's, so no C code runs in between; GIF = 0 keeps NMIs out too.
 *
 * The frame at the top of the CPU's stack, rsp pointing at it:
 *   0x00  VMCB physical address (the guest's)
 *   0x08  physical address of the hypervisor's VMSAVE area
 *   0x10  struct guest_regs (asm/guest_regs.inc order; RAX lives in the
 *         VMCB and is copied by svm_handle_exit/svm_prepare_entry)
 */
#include <asm/guest_regs.inc>

#define FRAME_VMCB 0x00
#define FRAME_HOST 0x08
#define R(n) (0x10 + 8 * (n))
#define FRAME_SIZE (0x10 + 16 * 8)

	.text

/* void svm_start(const struct guest_regs *regs, u64 stack_top,
 *		  u64 vmcb_pa, u64 host_state_pa) */
	.globl svm_start
	.type svm_start, @function
svm_start:
	mov	%rsi, %rsp
	sub	$FRAME_SIZE, %rsp
	mov	%rdx, FRAME_VMCB(%rsp)
	mov	%rcx, FRAME_HOST(%rsp)
	xor	%ecx, %ecx
1:	mov	(%rdi, %rcx, 8), %rax
	mov	%rax, R(0)(%rsp, %rcx, 8)
	inc	%ecx
	cmp	$16, %ecx
	jne	1b
	lea	R(0)(%rsp), %rdi
	call	svm_prepare_entry	/* returns with GIF = 0 */

svm_run:
	mov	R(1)(%rsp), %rcx
	mov	R(2)(%rsp), %rdx
	mov	R(3)(%rsp), %rbx
	mov	R(5)(%rsp), %rbp
	mov	R(6)(%rsp), %rsi
	mov	R(7)(%rsp), %rdi
	mov	R(8)(%rsp), %r8
	mov	R(9)(%rsp), %r9
	mov	R(10)(%rsp), %r10
	mov	R(11)(%rsp), %r11
	mov	R(12)(%rsp), %r12
	mov	R(13)(%rsp), %r13
	mov	R(14)(%rsp), %r14
	mov	R(15)(%rsp), %r15
	mov	FRAME_VMCB(%rsp), %rax
	vmload	%rax
	vmrun	%rax
	/* #VMEXIT: RAX and RSP are the host's again (the VMCB address and
	 * this frame), GIF = 0 */
	vmsave	%rax
	mov	%rcx, R(1)(%rsp)
	mov	%rdx, R(2)(%rsp)
	mov	%rbx, R(3)(%rsp)
	movq	$0, R(4)(%rsp)
	mov	%rbp, R(5)(%rsp)
	mov	%rsi, R(6)(%rsp)
	mov	%rdi, R(7)(%rsp)
	mov	%r8, R(8)(%rsp)
	mov	%r9, R(9)(%rsp)
	mov	%r10, R(10)(%rsp)
	mov	%r11, R(11)(%rsp)
	mov	%r12, R(12)(%rsp)
	mov	%r13, R(13)(%rsp)
	mov	%r14, R(14)(%rsp)
	mov	%r15, R(15)(%rsp)
	mov	FRAME_HOST(%rsp), %rax
	vmload	%rax
	lea	R(0)(%rsp), %rdi
	call	svm_handle_exit		/* returns with GIF = 0 */
	jmp	svm_run
	.size svm_start, . - svm_start

/*
 * The NMI that made an NMI intercept exit stays pending (APM 15.13.2) and
 * is taken when GIF becomes 1.  svm_exit.c has the exit itself to count
 * and hand on, so the NMI is taken through this IDT, whose NMI gate only
 * returns (svm_exit.c: absorb_nmi).
 */
	.globl svm_nmi_absorb
	.type svm_nmi_absorb, @function
svm_nmi_absorb:
	iretq
	.size svm_nmi_absorb, . - svm_nmi_absorb

	.section .note.GNU-stack, "", @progbits
