// SPDX-License-Identifier: GPL-2.0
/*
 * The guest of this CPU through its VMCS: the vcpu_* half of the vendor
 * interface (contracts in asm/vendor.h).  Field encodings: SDM Vol. 3,
 * Appendix B; the guest-state area: chapter 25.4.
 */
#include <asm/cpu_rules.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <vmx/entry_check.h>
#include <vmx/vmcs.h>
#include <vmx/vmx.h>
#include <x86/vmx.h>

u64 vcpu_rip(void)
{
	return vmread(GUEST_RIP);
}

u64 vcpu_rsp(void)
{
	return vmread(GUEST_RSP);
}

void vcpu_set_rsp(u64 value)
{
	vmwrite(GUEST_RSP, value);
}

void vcpu_view(struct cpu_view *v)
{
	u64 m0 = vmread(CR0_GUEST_HOST_MASK), m4 = vmread(CR4_GUEST_HOST_MASK);

	v->cr0 = (vmread(GUEST_CR0) & ~m0) | (vmread(CR0_READ_SHADOW) & m0);
	v->cr4 = (vmread(GUEST_CR4) & ~m4) | (vmread(CR4_READ_SHADOW) & m4);
	v->cr3 = vmread(GUEST_CR3);
	v->efer = vmread(GUEST_IA32_EFER);
	v->cs_long = (vmread(GUEST_CS_AR_BYTES) >> 13) & 1;
	/* the CPL is SS.DPL (SDM 25.4.1) */
	v->cpl = (vmread(GUEST_SS_AR_BYTES) >> 5) & 3;
}

unsigned int vcpu_cpl(void)
{
	/* the CPL is SS.DPL (SDM 25.4.1) */
	return (vmread(GUEST_SS_AR_BYTES) >> 5) & 3;
}

void vcpu_code(struct vcpu_code *c)
{
	c->cs_base = vmread(GUEST_CS_BASE);
	c->rip = vmread(GUEST_RIP);
	/* CR0.PG and CR4.LA57 are not in the guest/host masks */
	c->cr0 = vmread(GUEST_CR0);
	c->cr3 = vmread(GUEST_CR3);
	c->cr4 = vmread(GUEST_CR4);
	c->efer = vmread(GUEST_IA32_EFER);
	c->cs_long = (vmread(GUEST_CS_AR_BYTES) >> 13) & 1;
}

/* The guest reads the value through the read shadow; the real register
 * keeps the bits of the guest/host mask set (SDM 25.6.6). */
void vcpu_set_cr0(u64 value)
{
	vmx_cpu(this_cpu())->lma_check = true;
	vmwrite(CR0_READ_SHADOW, value);
	vmwrite(GUEST_CR0, value | vmread(CR0_GUEST_HOST_MASK));
}

void vcpu_set_cr4(u64 value)
{
	vmwrite(CR4_READ_SHADOW, value);
	vmwrite(GUEST_CR4, value | vmread(CR4_GUEST_HOST_MASK));
}

/* EFER.LMA must agree with the "IA-32e mode guest" entry control at the
 * next entry (SDM 26.3.1.1); vmx_handle_exit syncs it before the entry
 * after this write or vcpu_set_cr0's. */
void vcpu_set_efer(u64 value)
{
	vmx_cpu(this_cpu())->lma_check = true;
	vmwrite(GUEST_IA32_EFER, value);
}

/* loaded by the "load IA32_PAT" entry control, saved at each exit */
void vcpu_set_pat(u64 value)
{
	vmwrite(GUEST_IA32_PAT, value);
}

void vcpu_set_pdptes(const u64 pdpte[4])
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		vmwrite(GUEST_PDPTR0 + 2 * i, pdpte[i]);
}

void vcpu_inject_exception(u8 vector, bool has_error, u32 error)
{
	u32 info = vector | INTR_TYPE_HARD_EXCEPTION | INTR_INFO_VALID;

	if (has_error) {
		info |= INTR_INFO_DELIVER_CODE;
		vmwrite(VM_ENTRY_EXCEPTION_ERROR_CODE, error);
	}
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, info);
}

void vcpu_advance_rip(unsigned int len)
{
	u32 intr = (u32)vmread(GUEST_INTERRUPTIBILITY_INFO);

	vmwrite(GUEST_RIP, vmread(GUEST_RIP) + len);
	if (intr & (GUEST_INTR_STI | GUEST_INTR_MOV_SS))
		vmwrite(GUEST_INTERRUPTIBILITY_INFO,
			intr & ~(GUEST_INTR_STI | GUEST_INTR_MOV_SS));
	/* pending debug exceptions, BS: the single-step trap (SDM 25.4.2) */
	if (vmread(GUEST_RFLAGS) & X86_RFLAGS_TF)
		vmwrite(GUEST_PENDING_DBG_EXCEPTIONS,
			vmread(GUEST_PENDING_DBG_EXCEPTIONS) | (1u << 14));
}

void vcpu_skip_instruction(void)
{
	vcpu_advance_rip((unsigned int)vmread(VM_EXIT_INSTRUCTION_LEN));
}

static void set_nmi_window(struct vmx_cpu *v, bool on)
{
	if (on)
		v->proc_ctls |= PROC_NMI_WINDOW_EXITING;
	else
		v->proc_ctls &= ~PROC_NMI_WINDOW_EXITING;
	vmwrite(CPU_BASED_VM_EXEC_CONTROL, v->proc_ctls);
	v->nmi_window_armed = on;
}

void vmx_request_nmi_window(struct per_cpu *pc)
{
	if (!vmx_cpu(pc)->nmi_window_armed)
		set_nmi_window(vmx_cpu(pc), true);
}

/* The VMCS of another CPU cannot be read from here (VMREAD acts on the
 * current one): only the software state. */
__cold void vcpu_report_events(struct per_cpu *target)
{
	printk("CPU %u: NMI window %s, %u NMIs kept for the guest\n",
	       target->cpu_id,
	       vmx_cpu(target)->nmi_window_armed ? "armed" : "not armed",
	       __atomic_load_n(&target->arch.guest_nmis_pending,
			       __ATOMIC_RELAXED));
}

void vcpu_drop_pending_events(struct per_cpu *pc)
{
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
	__atomic_store_n(&pc->arch.guest_nmis_pending, 0, __ATOMIC_SEQ_CST);
	if (vmx_cpu(pc)->nmi_window_armed)
		set_nmi_window(vmx_cpu(pc), false);
}

/* After an NMI-window exit: the window has come (vmx_exit.c). */
void vmx_nmi_window_reached(struct per_cpu *pc)
{
	set_nmi_window(vmx_cpu(pc), false);
}

static void write_seg(enum vmcs_field sel, const struct warden_vmx_segment *g)
{
	vmwrite(sel, g->selector);
	vmwrite(GUEST_ES_LIMIT + (sel - GUEST_ES_SELECTOR), g->limit);
	vmwrite(GUEST_ES_AR_BYTES + (sel - GUEST_ES_SELECTOR), g->ar);
	vmwrite(GUEST_ES_BASE + (sel - GUEST_ES_SELECTOR), g->base);
}

/* The state of vmx_real_mode_state (unit-tested against the VM-entry
 * checks) into the current VMCS. */
__cold void vcpu_reset_to_real_mode(u64 cs_base, u16 ip)
{
	struct warden_vmx_guest_state s;
	unsigned int i;

	vmx_real_mode_state(&s, cs_base, ip, vmread(CR0_GUEST_HOST_MASK),
			    vmread(CR4_GUEST_HOST_MASK));
	/* what the guest reads: CR0 after INIT, CD, NW and ET set */
	vmwrite(CR0_READ_SHADOW, REAL_MODE_CR0_SHADOW);
	vmwrite(CR4_READ_SHADOW, 0);
	vmwrite(GUEST_CR0, s.cr0);
	vmwrite(GUEST_CR3, s.cr3);
	vmwrite(GUEST_CR4, s.cr4);
	vmwrite(GUEST_DR7, s.dr7);
	vmwrite(GUEST_IA32_DEBUGCTL, s.debugctl);
	vmwrite(GUEST_SYSENTER_CS, 0);
	vmwrite(GUEST_SYSENTER_ESP, s.sysenter_esp);
	vmwrite(GUEST_SYSENTER_EIP, s.sysenter_eip);
	vmwrite(GUEST_IA32_PAT, s.pat);
	vmwrite(GUEST_IA32_EFER, s.efer);
	vmwrite(VM_ENTRY_CONTROLS,
		vmread(VM_ENTRY_CONTROLS) & ~ENTRY_IA32E_MODE_GUEST);
	for (i = 0; i < WARDEN_VMX_SEG_COUNT; i++)
		write_seg(GUEST_ES_SELECTOR + 2 * i, &s.seg[i]);
	vmwrite(GUEST_GDTR_BASE, s.gdtr_base);
	vmwrite(GUEST_GDTR_LIMIT, s.gdtr_limit);
	vmwrite(GUEST_IDTR_BASE, s.idtr_base);
	vmwrite(GUEST_IDTR_LIMIT, s.idtr_limit);
	vmwrite(GUEST_RIP, s.rip);
	vmwrite(GUEST_RSP, 0);
	vmwrite(GUEST_RFLAGS, s.rflags);
	vmwrite(GUEST_INTERRUPTIBILITY_INFO, s.interruptibility);
	vmwrite(GUEST_PENDING_DBG_EXCEPTIONS, s.pending_dbg);
	vmwrite(GUEST_ACTIVITY_STATE, s.activity);
	vmwrite(VM_ENTRY_INTR_INFO_FIELD, 0);
}

void vcpu_flush_second_level(void)
{
	invept_all();
}

void vcpu_flush_guest_tlb(void)
{
	invvpid_all();
}

void vcpu_arm_event_exit(struct per_cpu *pc)
{
	if (!__atomic_load_n(&vmx_cpu(pc)->vmcs_loaded, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&pc->arch.event_exit_armed, true, __ATOMIC_SEQ_CST);
	vmwrite(VMX_PREEMPTION_TIMER_VALUE, 0);
	vmwrite(PIN_BASED_VM_EXEC_CONTROL, vmx_ctls.pin | PIN_PREEMPTION_TIMER);
}

/* Called on every exit, so the common case (not armed) is one plain load:
 * only this CPU's NMI handler sets the flag, so no locked operation is
 * needed.  An NMI between the clear and the VMWRITE arms the timer again
 * and leaves the flag set, and the VMWRITE then stops the timer: the
 * caller looks at its requests after this anyway, and the flag it finds
 * set makes the exit path look once more. */
bool vcpu_disarm_event_exit(struct per_cpu *pc)
{
	if (!__atomic_load_n(&pc->arch.event_exit_armed, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&pc->arch.event_exit_armed, false, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	vmwrite(PIN_BASED_VM_EXEC_CONTROL, vmx_ctls.pin);
	return true;
}

/* Bits 11:8 of CS's access rights are reserved (SDM Vol. 3C, 27.3.1.2):
 * the next entry fails. */
void vcpu_break_entry_state(void)
{
	vmwrite(GUEST_CS_AR_BYTES, vmread(GUEST_CS_AR_BYTES) | 0x100);
}
