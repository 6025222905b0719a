/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the files of the VMX backend (hypervisor/arch/x86/vmx/).
 * Nothing outside this folder includes it. */
#ifndef WARDEN_VMX_VMX_H
#define WARDEN_VMX_VMX_H

#include <asm/percpu.h>
#include <vmx/ept.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <warden/vmx_entry.h>

/* The VMX controls every CPU uses, decided once (vmx.c). */
struct vmx_controls {
	u32 pin, proc, proc2, exit, entry;
	u64 cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	u32 revision;
	/* IA32_VMX_MISC bit 5: every VM exit stores EFER.LMA into the
	 * "IA-32e mode guest" entry control (SDM Vol. 3C, A.6) */
	bool exit_saves_lma;
};
extern struct vmx_controls vmx_ctls;

/* vmx_cpu.event_exit_check: none running, the first entry must exit with
 * reason 52, or the NMI to itself never came (nothing to check). */
#define EVENT_EXIT_CHECK_NONE 0
#define EVENT_EXIT_CHECK_PENDING 1
#define EVENT_EXIT_CHECK_NO_NMI 2

/* VMX's per-CPU state, kept in pc->arch.vendor. */
struct vmx_cpu {
	void *vmxon_region;
	void *vmcs;
	bool vmx_on;
	bool vmcs_loaded; /* current: hv_nmi may write it */
	bool nmi_window_armed;
	u8 event_exit_check; /* EVENT_EXIT_CHECK_*, enable's check */
	/* the hypervisor wrote the guest's CR0 or EFER since the last entry:
	 * EFER.LMA and the "IA-32e mode guest" control may disagree */
	bool lma_check;
	u32 proc_ctls; /* the processor-based controls now */
	/* the last entry that failed with reason 33, for root to read */
	struct warden_vmx_entry_failure entry_failure;
};

static inline struct vmx_cpu *vmx_cpu(struct per_cpu *pc)
{
	_Static_assert(sizeof(struct vmx_cpu) <= sizeof(pc->arch.vendor),
		       "struct vmx_cpu fits pc->arch.vendor");
	return (struct vmx_cpu *)pc->arch.vendor;
}

/* The guest-state area of the current VMCS and the controls, for the
 * record of a failed entry (vmx.c, warden/vmx_entry.h). */
void vmx_read_guest_state(struct warden_vmx_guest_state *s);
extern struct warden_vmx_entry_limits vmx_entry_limits;

/* NMI-window exiting on (the guest cannot take its NMI yet) and off
 * again after the NMI-window exit (vmx_vcpu.c). */
void vmx_request_nmi_window(struct per_cpu *pc);
void vmx_nmi_window_reached(struct per_cpu *pc);

/* Why an entry failed (exit reason with bit 31 set), in words; for
 * reason 33 the record root reads is kept too (vmx.c). */
const char *vmx_entry_failure(struct per_cpu *pc, u32 reason);
/* The first exit after enable's check of the event exit: says on the
 * console whether the check passed (vmx.c). */
void vmx_event_exit_checked(struct per_cpu *pc, u32 reason);

/* The entry code (vmx_entry.S): the first entry, and HOST_RIP. */
int vmx_launch(struct guest_regs *regs);
extern const u8 vmx_exit_entry[];

#endif /* WARDEN_VMX_VMX_H */
