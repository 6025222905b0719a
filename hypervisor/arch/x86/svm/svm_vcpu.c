// SPDX-License-Identifier: GPL-2.0
/*
 * The guest of this CPU through its VMCB: the vcpu_* half of the vendor
 * interface (contracts in asm/vendor.h).  Layout: AMD APM Vol. 2,
 * Appendix B; the guest state VMRUN loads: 15.5.1.
 */
#include <asm/cpu_rules.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <svm/svm.h>
#include <svm/vmcb.h>

u64 vcpu_rip(void)
{
	return this_vmcb()->save.rip;
}

u64 vcpu_rsp(void)
{
	return this_vmcb()->save.rsp;
}

void vcpu_set_rsp(u64 value)
{
	this_vmcb()->save.rsp = value;
}

/* Nothing is masked on SVM but EFER.SVME, which VMRUN needs and the
 * guest never set. */
void vcpu_view(struct cpu_view *v)
{
	const struct vmcb *vmcb = this_vmcb();

	v->cr0 = vmcb->save.cr0;
	v->cr3 = vmcb->save.cr3;
	v->cr4 = vmcb->save.cr4;
	v->efer = svm_guest_efer(vmcb);
	v->cs_long = vmcb->save.cs.attrib & SEG_ATTR_L;
	v->cpl = vmcb->save.cpl;
}

unsigned int vcpu_cpl(void)
{
	return this_vmcb()->save.cpl;
}

void vcpu_code(struct vcpu_code *c)
{
	const struct vmcb *vmcb = this_vmcb();

	c->cs_base = vmcb->save.cs.base;
	c->rip = vmcb->save.rip;
	c->cr0 = vmcb->save.cr0;
	c->cr3 = vmcb->save.cr3;
	c->cr4 = vmcb->save.cr4;
	c->efer = vmcb->save.efer;
	c->cs_long = vmcb->save.cs.attrib & SEG_ATTR_L;
}

/*
 * No CR0/CR4 bits are kept on SVM: the value is the guest's as it is.
 * These emulate an intercepted MOV to CR0/CR4, whose TLB side effects
 * (a changed CR0.PG or WP, CR4.PGE, PAE, PSE, PCIDE, SMEP ...; SDM Vol. 3,
 * 4.10.4.1) the hardware did not carry out: the guest's ASID is flushed
 * at the next VMRUN, for any change (the writes are rare).
 */
void vcpu_set_cr0(u64 value)
{
	if (this_vmcb()->save.cr0 != value)
		vcpu_flush_guest_tlb();
	this_vmcb()->save.cr0 = value;
}

void vcpu_set_cr4(u64 value)
{
	if (this_vmcb()->save.cr4 != value)
		vcpu_flush_guest_tlb();
	this_vmcb()->save.cr4 = value;
}

/* SVME stays set underneath (APM 15.5.1); EFER.LMA is the guest's, and
 * VMRUN takes the mode from EFER, CR0 and CS. */
void vcpu_set_efer(u64 value)
{
	this_vmcb()->save.efer = value | EFER_SVME;
}

/* With nested paging G_PAT is the guest's PAT: VMRUN loads it, #VMEXIT
 * saves it (APM Vol. 2, 15.25.8) */
void vcpu_set_pat(u64 value)
{
	this_vmcb()->save.g_pat = value;
}

/* With nested paging the CPU reads a PAE guest's PDPTEs from guest
 * memory itself (APM 15.25.10): the VMCB has no PDPTE fields. */
void vcpu_set_pdptes(const u64 pdpte[4])
{
	(void)pdpte;
}

void vcpu_inject_exception(u8 vector, bool has_error, u32 error)
{
	u64 inj = vector | EVENT_TYPE_EXCEPTION | EVENT_VALID;

	if (has_error)
		inj |= EVENT_ERROR_VALID | (u64)error << 32;
	this_vmcb()->control.event_inj = inj;
}

/*
 * Past an emulated instruction: the STI/MOV SS shadow ends, and with
 * RFLAGS.TF the single-step trap is due (DR6.BS, APM Vol. 2, 13.1.1.4),
 * injected as #DB unless an event is already being injected.
 */
void vcpu_advance_rip(unsigned int len)
{
	struct vmcb *v = this_vmcb();

	v->save.rip += len;
	v->control.interrupt_shadow &= ~INTERRUPT_SHADOW_ACTIVE;
	if ((v->save.rflags & X86_RFLAGS_TF) &&
	    !(v->control.event_inj & EVENT_VALID)) {
		v->save.dr6 |= DR6_BS;
		v->control.event_inj = 1 | EVENT_TYPE_EXCEPTION | EVENT_VALID;
	}
}

/* The length svm_exit.c found: next_rip - rip with NRIP save, else
 * decoded from the guest's bytes. */
void vcpu_skip_instruction(void)
{
	vcpu_advance_rip(svm_cpu(this_cpu())->insn_len);
}

static void set_iret_intercept(struct vmcb *v, bool on)
{
	if (on)
		v->control.intercept_misc1 |= INTERCEPT_IRET;
	else
		v->control.intercept_misc1 &= ~INTERCEPT_IRET;
}

static void set_vintr_window(struct vmcb *v, bool on)
{
	if (on) {
		v->control.vintr |= VINTR_V_IRQ | VINTR_IGN_TPR |
				    (0xfull << VINTR_PRIO_SHIFT);
		v->control.intercept_misc1 |= INTERCEPT_VINTR;
	} else {
		v->control.vintr &= ~(VINTR_V_IRQ | VINTR_IGN_TPR |
				      (0xfull << VINTR_PRIO_SHIFT));
		v->control.intercept_misc1 &= ~INTERCEPT_VINTR;
	}
}

/*
 * SVM keeps no NMI-blocking state in the VMCB: after an injected NMI the
 * guest blocks NMIs until its IRET (APM Vol. 2, 15.20; Vol. 2, 8.2.2).
 * The hypervisor intercepts that IRET; the exit comes before the IRET
 * runs, so the IRET is then single-stepped: with RFLAGS.TF set when it
 * starts, a #DB trap follows it whatever RFLAGS it pops (APM Vol. 2,
 * 13.1.1.4), and the #DB intercept (always on) brings the CPU back with
 * NMIs open, whether the guest then takes interrupts or not.  (A window
 * of interrupts, VINTR, would wait for RFLAGS.IF = 1, and for a halted
 * CPU's next interrupt under QEMU: NMIs came late.)  The step's DR6.BS is
 * taken back out, unless the guest was single-stepping itself; then, or
 * with a breakpoint of its own hit by the IRET, the #DB goes on to it.
 */
void svm_nmi_injected(struct per_cpu *pc)
{
	svm_cpu(pc)->nmi_state = NMI_IN_HANDLER;
	set_iret_intercept(svm_cpu(pc)->vmcb, true);
}

bool svm_nmi_window_step(struct per_cpu *pc, u64 exit_code)
{
	struct svm_cpu *s = svm_cpu(pc);
	struct vmcb *v = s->vmcb;

	if (exit_code == SVM_EXIT_IRET && s->nmi_state == NMI_IN_HANDLER) {
		set_iret_intercept(v, false);
		s->guest_tf = v->save.rflags & X86_RFLAGS_TF;
		v->save.rflags |= X86_RFLAGS_TF;
		s->nmi_state = NMI_AFTER_IRET;
		return true;
	}
	if (exit_code == SVM_EXIT_EXCP_BASE + 1 &&
	    s->nmi_state == NMI_AFTER_IRET) {
		s->nmi_state = NMI_OPEN;
		if (s->guest_tf)
			return false; /* the guest's own single step */
		v->save.dr6 &= ~DR6_BS;
		/* a breakpoint of the guest's own (DR6.B0-B3) that came with
		 * the step: its #DB goes on to the guest */
		return !(v->save.dr6 & 0xf);
	}
	if (exit_code == SVM_EXIT_VINTR) {
		set_vintr_window(v, false);
		return true;
	}
	return false;
}

/* The guest has an injection pending or is in an interrupt shadow: exit
 * once it can take an interrupt (VINTR), then inject. */
void svm_request_vintr(struct per_cpu *pc)
{
	set_vintr_window(svm_cpu(pc)->vmcb, true);
}

__cold void vcpu_report_events(struct per_cpu *target)
{
	static const char *const names[] = { "open", "in the guest's handler",
					     "after the handler's IRET" };
	struct svm_cpu *s = svm_cpu(target);
	const struct vmcb *v = s->vmcb;

	printk("CPU %u: guest NMIs %s, %u kept; guest RIP 0x%llx RFLAGS "
	       "0x%llx at the last exit, intercepts 0x%llx, injection 0x%llx\n",
	       target->cpu_id,
	       s->nmi_state < 3 ? names[s->nmi_state] : "in an unknown state",
	       __atomic_load_n(&target->arch.guest_nmis_pending,
			       __ATOMIC_RELAXED),
	       (unsigned long long)v->save.rip,
	       (unsigned long long)v->save.rflags,
	       (unsigned long long)v->control.intercept_misc1,
	       (unsigned long long)v->control.event_inj);
	if (s->nmi_state == NMI_IN_HANDLER)
		printk("CPU %u: its guest has not returned from its NMI "
		       "handler "
		       "(no IRET yet); an AMD CPU without vNMI takes no NMI, "
		       "the hypervisor's included, until it does\n",
		       target->cpu_id);
}

void vcpu_drop_pending_events(struct per_cpu *pc)
{
	struct svm_cpu *s = svm_cpu(pc);

	s->vmcb->control.event_inj = 0;
	__atomic_store_n(&pc->arch.guest_nmis_pending, 0, __ATOMIC_SEQ_CST);
	set_iret_intercept(s->vmcb, false);
	set_vintr_window(s->vmcb, false);
	if (s->nmi_state == NMI_AFTER_IRET && !s->guest_tf)
		s->vmcb->save.rflags &= ~X86_RFLAGS_TF;
	s->nmi_state = NMI_OPEN;
}

static void real_seg(struct vmcb_seg *s, u16 selector, u64 base, u16 attrib)
{
	s->selector = selector;
	s->base = base;
	s->limit = 0xffff;
	s->attrib = attrib;
}

/*
 * The state INIT and SIPI leave (APM Vol. 2, 14.1.3, Table 14-1, with the
 * SIPI's CS): real mode, CR0 = 0x60000010 (CD, NW, ET), EFER 0 (plus SVME
 * for VMRUN), segments with limit 0xffff, present read/write data or
 * execute/read code, DR6/DR7/PAT at their reset values; TR as VMX has it
 * (below).  The syscall MSRs
 * VMLOAD takes from here are cleared too: the physical ones cpu_scrub
 * clears are not the ones the guest will see.
 */
__cold void vcpu_reset_to_real_mode(u64 cs_base, u16 ip)
{
	struct vmcb *v = this_vmcb();
	struct vmcb_save *s = &v->save;

	s->cr0 = 0x60000010;
	s->cr2 = 0;
	s->cr3 = 0;
	s->cr4 = 0;
	s->efer = EFER_SVME;
	s->rflags = 2;
	s->rip = ip;
	s->rsp = 0;
	s->dr6 = 0xffff0ff0;
	s->dr7 = 0x400;
	s->g_pat = 0x0007040600070406ull;
	s->dbgctl = 0;
	s->cpl = 0;
	real_seg(&s->cs, (u16)(cs_base >> 4), cs_base,
		 SEG_ATTR_P | SEG_ATTR_S | 0xb);
	real_seg(&s->ds, 0, 0, SEG_ATTR_P | SEG_ATTR_S | 0x3);
	real_seg(&s->es, 0, 0, SEG_ATTR_P | SEG_ATTR_S | 0x3);
	real_seg(&s->ss, 0, 0, SEG_ATTR_P | SEG_ATTR_S | 0x3);
	real_seg(&s->fs, 0, 0, SEG_ATTR_P | SEG_ATTR_S | 0x3);
	real_seg(&s->gs, 0, 0, SEG_ATTR_P | SEG_ATTR_S | 0x3);
	real_seg(&s->ldtr, 0, 0, SEG_ATTR_P | 0x2);
	/* a busy 32-bit TSS, not the 16-bit one of RESET: Bochs refuses to
	 * enable long mode with a 16-bit TSS in TR, and Linux's trampoline
	 * loads its own TR only once in long mode */
	real_seg(&s->tr, 0, 0, SEG_ATTR_P | 0xb);
	real_seg(&s->gdtr, 0, 0, 0);
	real_seg(&s->idtr, 0, 0, 0);
	s->star = 0;
	s->lstar = 0;
	s->cstar = 0;
	s->sfmask = 0;
	s->kernel_gs_base = 0;
	s->sysenter_cs = 0;
	s->sysenter_esp = 0;
	s->sysenter_eip = 0;
	v->control.interrupt_shadow = 0;
	v->control.event_inj = 0;
}

/*
 * TLB flushes take effect at the next VMRUN through TLB_CONTROL (APM
 * Vol. 2, 15.16.1); svm_exit.c sets it back to 0 after each exit, so a
 * flush is done once.  Second-level translations: the contract is "every
 * cell's" (a CPU may have run another cell, or a cell with the same ASID
 * whose tables have changed since), so the whole TLB, every ASID, goes.
 */
void vcpu_flush_second_level(void)
{
	this_vmcb()->control.tlb_control = TLB_CONTROL_FLUSH_ALL;
}

/* The guest's own linear translations: its ASID's entries (flush by
 * ASID), or the whole TLB on a CPU without it. */
void vcpu_flush_guest_tlb(void)
{
	struct vmcb *v = this_vmcb();

	if (v->control.tlb_control == TLB_CONTROL_FLUSH_ALL)
		return;
	v->control.tlb_control = svm_caps.flush_by_asid ? TLB_CONTROL_FLUSH_ASID
							: TLB_CONTROL_FLUSH_ALL;
}

/*
 * The event exit.  The hypervisor runs with GIF = 1 between exits (so
 * that hv_nmi, the drain of apic_reset and the INIT/NMI signals behave as
 * on VMX) and clears GIF right before VMRUN; svm_prepare_entry looks at
 * event_exit_armed after its CLGI.  An NMI before that CLGI went to
 * hv_nmi, which armed it: the prepare loop handles it as an event exit.
 * An NMI after the CLGI is held pending by GIF = 0 and, with the NMI
 * intercept, makes VMRUN exit before the guest's first instruction (APM
 * 15.17, 15.13.2).  So nothing like VMX's preemption timer is needed: the
 * hardware holds the signal for us.
 */
void vcpu_arm_event_exit(struct per_cpu *pc)
{
	if (!__atomic_load_n(&svm_cpu(pc)->vmcb_valid, __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&pc->arch.event_exit_armed, true, __ATOMIC_SEQ_CST);
}

bool vcpu_disarm_event_exit(struct per_cpu *pc)
{
	if (!__atomic_load_n(&pc->arch.event_exit_armed, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&pc->arch.event_exit_armed, false, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return true;
}

/* VMRUN refuses a guest EFER without SVME (APM Vol. 2, 15.5.1): the next
 * entry exits with VMEXIT_INVALID. */
void vcpu_break_entry_state(void)
{
	this_vmcb()->save.efer &= ~(u64)EFER_SVME;
}
