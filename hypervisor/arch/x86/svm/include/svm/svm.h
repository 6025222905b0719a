/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the files of the SVM backend (hypervisor/arch/x86/svm/).
 * Nothing outside this folder includes it. */
#ifndef WARDEN_SVM_SVM_H
#define WARDEN_SVM_SVM_H

#include <asm/percpu.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <svm/vmcb.h>

/* What the CPU offers, decided once (svm.c: vendor_init_system). */
struct svm_caps {
	bool nrip_save;	    /* next_rip is written on exits (APM 15.7.1) */
	bool flush_by_asid; /* TLB_CONTROL 3 and 7 (APM 15.16.1) */
	u32 num_asids;	    /* CPUID 8000_000A EBX */
};
extern struct svm_caps svm_caps;

/* svm_cpu.event_exit_check: as on VMX, enable shows that an NMI held
 * while GIF = 0 makes the first VMRUN exit at once. */
#define EVENT_EXIT_CHECK_NONE 0
#define EVENT_EXIT_CHECK_PENDING 1

/* svm_cpu.nmi_state: where the delivery of the guest's NMIs stands; SVM
 * shows no NMI blocking in the VMCB, so it is tracked here (svm_exit.c). */
#define NMI_OPEN 0	 /* the guest can take an NMI */
#define NMI_IN_HANDLER 1 /* one was injected; its IRET exits */
#define NMI_AFTER_IRET 2 /* its IRET runs single-stepped: the #DB exit */

/* SVM's per-CPU state, kept in pc->arch.vendor. */
struct svm_cpu {
	struct vmcb *vmcb; /* the guest's, one per CPU */
	void *host_state;  /* VMSAVE area of the hypervisor's own state */
	void *hsave;	   /* VM_HSAVE_PA: VMRUN's host save area */
	bool svm_on;	   /* EFER.SVME set by us */
	bool vmcb_valid;   /* hv_nmi may arm the event exit */
	u8 event_exit_check;
	u8 nmi_state;  /* NMI_* */
	bool guest_tf; /* RFLAGS.TF was the guest's own at the NMI's IRET */
	u8 insn_len;   /* of the instruction that exited, 0: unknown */
	/* what the last VMRUN was given, for naming a consistency check it
	 * failed: the VMCB's state area is not the guest's after
	 * VMEXIT_INVALID (Bochs writes the host's back into it) */
	u16 entry_cs_attrib;
	u64 entry_efer, entry_cr0, entry_cr4, entry_rip;
};

static inline struct svm_cpu *svm_cpu(struct per_cpu *pc)
{
	_Static_assert(sizeof(struct svm_cpu) <= sizeof(pc->arch.vendor),
		       "struct svm_cpu fits pc->arch.vendor");
	return (struct svm_cpu *)pc->arch.vendor;
}

/* This CPU's VMCB (the vcpu_* functions act on the current CPU's). */
static inline struct vmcb *this_vmcb(void)
{
	return svm_cpu(this_cpu())->vmcb;
}

/* The guest's view of EFER hides SVME, which VMRUN needs set. */
static inline u64 svm_guest_efer(const struct vmcb *v)
{
	return v->save.efer & ~(1ull << 12);
}

/* The nested page-table format (npt.c). */
extern const struct paging_format svm_npt_format;

/* The first entry (svm_entry.S): switches to the top of this CPU's
 * stack with a copy of regs and runs the guest; never returns. */
void __attribute__((noreturn))
svm_start(const struct guest_regs *regs, u64 stack_top, u64 vmcb_pa,
	  u64 host_state_pa);

/* svm_exit.c: before each VMRUN (GIF cleared on return) and after each
 * #VMEXIT, from svm_entry.S. */
void svm_prepare_entry(struct guest_regs *regs);
void svm_handle_exit(struct guest_regs *regs);

/* svm_vcpu.c: NMI-window tracking (IRET intercept, then a single-step
 * #DB).  svm_nmi_window_step takes an IRET, #DB or VINTR exit; true if
 * the exit was the hypervisor's own window step, nothing for the guest. */
void svm_nmi_injected(struct per_cpu *pc);
bool svm_nmi_window_step(struct per_cpu *pc, u64 exit_code);
void svm_request_vintr(struct per_cpu *pc);

#endif /* WARDEN_SVM_SVM_H */
