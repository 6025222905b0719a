// SPDX-License-Identifier: GPL-2.0
/*
 * VMX exits: each basic exit reason (SDM Vol. 3, Appendix C) is decoded
 * into the neutral record of asm/exit.h, from its exit qualification
 * (SDM 28.2.1), and handed to x86_handle_exit.  Before the guest resumes,
 * an event whose delivery the exit interrupted (IDT-vectoring
 * information, SDM 28.2.4) is reinjected, and NMIs kept for the guest are
 * delivered as virtual NMIs when it can take them (NMI-window exiting
 * otherwise).
 */
#include <asm/apic.h>
#include <asm/exit.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/format.h>
#include <hv/printk.h>
#include <vmx/entry_check.h>
#include <vmx/vmcs.h>
#include <vmx/vmx.h>
#include <x86/vmx.h>
#include <warden/cell.h>

/* The neutral kind of each basic exit reason this hypervisor expects;
 * any other is X86_EXIT_UNKNOWN. */
static enum x86_exit_kind kind_of(u32 reason)
{
	switch (reason) {
	case EXIT_REASON_EXCEPTION_NMI:
		return X86_EXIT_EXCEPTION; /* or NMI: decode() */
	case EXIT_REASON_TRIPLE_FAULT:
		return X86_EXIT_TRIPLE_FAULT;
	case EXIT_REASON_INIT:
		return X86_EXIT_INIT;
	case EXIT_REASON_SIPI:
		return X86_EXIT_SIPI;
	case EXIT_REASON_NMI_WINDOW:
		return X86_EXIT_NMI_WINDOW;
	case EXIT_REASON_CPUID:
		return X86_EXIT_CPUID;
	case EXIT_REASON_VMCALL:
		return X86_EXIT_HYPERCALL;
	case EXIT_REASON_CR_ACCESS:
		return X86_EXIT_CR;
	case EXIT_REASON_IO_INSTRUCTION:
		return X86_EXIT_IO;
	case EXIT_REASON_MSR_READ:
		return X86_EXIT_MSR_READ;
	case EXIT_REASON_MSR_WRITE:
		return X86_EXIT_MSR_WRITE;
	case EXIT_REASON_EPT_VIOLATION:
		return X86_EXIT_MMIO;
	case EXIT_REASON_XSETBV:
		return X86_EXIT_XSETBV;
	case EXIT_REASON_APIC_ACCESS:
		return X86_EXIT_XAPIC;
	case EXIT_REASON_PREEMPTION_TIMER:
		return X86_EXIT_EVENT;
	case EXIT_REASON_INVD: /* unconditional (SDM Vol. 3C, 26.1.2) */
		return X86_EXIT_INVD;
	case EXIT_REASON_VMCLEAR:
	case EXIT_REASON_VMLAUNCH:
	case EXIT_REASON_VMPTRLD:
	case EXIT_REASON_VMPTRST:
	case EXIT_REASON_VMREAD:
	case EXIT_REASON_VMRESUME:
	case EXIT_REASON_VMWRITE:
	case EXIT_REASON_VMXOFF:
	case EXIT_REASON_VMXON:
	case EXIT_REASON_INVEPT:
	case EXIT_REASON_INVVPID:
		return X86_EXIT_VIRT_INSN;
	}
	return X86_EXIT_UNKNOWN;
}

static void decode(struct per_cpu *pc, struct x86_exit *e, u32 full)
{
	u32 reason = full & 0xffff, info;
	u64 q = 0;

	e->reason = full;
	if (full & EXIT_REASON_ENTRY_FAILED) {
		e->qualification = vmread(EXIT_QUALIFICATION);
		e->kind = X86_EXIT_ENTRY_FAILED;
		e->why = vmx_entry_failure(pc, reason);
		return;
	}
	e->kind = kind_of(reason);
	/* only the kinds whose handlers or reports use it: the hot ones
	 * (CPUID, MSRs, hypercalls, events) skip the read */
	if (e->kind == X86_EXIT_CR || e->kind == X86_EXIT_IO ||
	    e->kind == X86_EXIT_MMIO || e->kind == X86_EXIT_XAPIC ||
	    e->kind == X86_EXIT_TRIPLE_FAULT || e->kind == X86_EXIT_UNKNOWN)
		q = vmread(EXIT_QUALIFICATION);
	e->qualification = q;
	switch (e->kind) {
	case X86_EXIT_EXCEPTION:
		info = (u32)vmread(VM_EXIT_INTR_INFO);
		if ((info & INTR_TYPE_MASK) == INTR_TYPE_NMI) {
			/* NMI exiting leaves NMIs blocked (SDM 27.2.3) */
			unblock_nmis();
			e->kind = X86_EXIT_NMI;
			break;
		}
		e->exception.vector = info & INTR_VECTOR_MASK;
		e->exception.has_error = info & INTR_INFO_DELIVER_CODE;
		e->exception.error = (u32)vmread(VM_EXIT_INTR_ERROR_CODE);
		break;
	case X86_EXIT_NMI_WINDOW:
		vmx_nmi_window_reached(pc);
		break;
	case X86_EXIT_VIRT_INSN:
		e->why = "VMX instruction, exit reason";
		break;
	case X86_EXIT_CR:
		/* Table 28-3: bits 3:0 the CR, 5:4 the access type (0: MOV
		 * to CR), 11:8 the GPR; anything but MOV to CR0/CR4 is
		 * reported as CR 15 */
		e->cr.cr = ((q >> 4) & 3) == 0 ? (q & 15) : 15;
		e->cr.gpr = (q >> 8) & 15;
		break;
	case X86_EXIT_IO:
		/* Table 28-5 */
		e->io.size = (q & 7) + 1;
		e->io.in = q & 8;
		e->io.string = q & 16;
		e->io.port = (q >> 16) & 0xffff;
		break;
	case X86_EXIT_MMIO:
		/* Table 28-7 */
		e->mmio.gpa = vmread(GUEST_PHYSICAL_ADDRESS);
		e->mmio.write = q & 2;
		e->mmio.fetch = q & 4;
		break;
	case X86_EXIT_XAPIC:
		/* Table 28-6: offset 11:0, type 15:12 (0 linear read, 1
		 * linear write) */
		e->xapic.offset = q & 0xfff;
		e->xapic.write = ((q >> 12) & 0xf) == 1;
		e->xapic.linear = ((q >> 12) & 0xf) <= 1;
		break;
	default:
		break;
	}
}

/*
 * An event (interrupt, exception, NMI) whose delivery caused the exit
 * must be delivered again, or Linux loses it (SDM 28.2.4, 27.6).
 */
static void reinject_vectoring(void)
{
	u32 info = (u32)vmread(IDT_VECTORING_INFO_FIELD);

	if (!(info & INTR_INFO_VALID))
		return;
	if (info & INTR_INFO_DELIVER_CODE)
		vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE,
			vmread(IDT_VECTORING_ERROR_CODE));
	vmwrite(VM_ENTRY_INSTRUCTION_LEN, vmread(VM_EXIT_INSTRUCTION_LEN));
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, info & ~(1u << 12));
}

/* Deliver a pending NMI now if nothing else is being injected and the
 * guest does not block NMIs; otherwise ask for the NMI window. */
static void deliver_nmis(struct per_cpu *pc)
{
	u32 intr;

	if (!__atomic_load_n(&pc->arch.guest_nmis_pending, __ATOMIC_SEQ_CST))
		return;
	intr = (u32)vmread(GUEST_INTERRUPTIBILITY_INFO);
	if ((vmread(VM_ENTRY_INTR_INFO_FIELD) & INTR_INFO_VALID) ||
	    (intr & (GUEST_INTR_NMI | GUEST_INTR_STI | GUEST_INTR_MOV_SS))) {
		vmx_request_nmi_window(pc);
		return;
	}
	__atomic_fetch_sub(&pc->arch.guest_nmis_pending, 1, __ATOMIC_SEQ_CST);
	vmwrite(VM_ENTRY_INTR_INFO_FIELD,
		NMI_VECTOR | INTR_TYPE_NMI | INTR_INFO_VALID);
	if (pc->arch.guest_nmis_pending)
		vmx_request_nmi_window(pc);
}

/*
 * A guest that enables paging with EFER.LME set enters IA-32e mode and the
 * CPU sets EFER.LMA; the "IA-32e mode guest" entry control must then agree
 * with it at the next entry (SDM 26.3.1.1), as when Linux starts a CPU
 * through its real-mode trampoline.  Where the CPU stores LMA into that
 * control at every exit (exit_saves_lma), only the hypervisor's own writes
 * of CR0 or EFER can make them disagree: those set lma_check.
 */
static void sync_ia32e_mode(struct per_cpu *pc)
{
	u64 entry;
	bool lma;

	if (vmx_ctls.exit_saves_lma && !vmx_cpu(pc)->lma_check)
		return;
	vmx_cpu(pc)->lma_check = false;
	entry = vmread(VM_ENTRY_CONTROLS);
	lma = vmread(GUEST_IA32_EFER) & EFER_LMA;

	if (lma != !!(entry & ENTRY_IA32E_MODE_GUEST))
		vmwrite(VM_ENTRY_CONTROLS,
			lma ? entry | ENTRY_IA32E_MODE_GUEST
			    : entry & ~ENTRY_IA32E_MODE_GUEST);
}

/* From vmx_exit_entry (vmx_entry.S), on every exit. */
void vmx_handle_exit(struct guest_regs *regs)
{
	struct per_cpu *pc = this_cpu();
	u32 full = (u32)vmread(VM_EXIT_REASON);
	struct x86_exit e;

	/* A VM exit clears the valid bit of the VM-entry
	 * interruption-information field (SDM Vol. 3C, 28.2: "recording
	 * VM-exit information and updating VM-entry control fields"); an
	 * exit for a failed entry does not. */
	if (!(full & EXIT_REASON_ENTRY_FAILED)) {
		if (vmx_cpu(pc)->event_exit_check)
			vmx_event_exit_checked(pc, full & 0xffff);
		reinject_vectoring();
	} else {
		vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
	}
	decode(pc, &e, full);
	x86_handle_exit(pc, regs, &e);
	sync_ia32e_mode(pc);
	deliver_nmis(pc);
}
