/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vendor interface: everything the vendor-neutral x86 layer
 * (hypervisor/arch/x86/) needs from the hardware virtualization extension
 * of one CPU vendor: Intel's VMX in hypervisor/arch/x86/vmx/, AMD's SVM
 * in hypervisor/arch/x86/svm/, each linked into its own image
 * (warden-intel.bin, warden-amd.bin).  Outside the vendor folders no code
 * reads or writes the guest-state area (the VMCS, the VMCB), a
 * second-level page-table entry or a vendor instruction: it calls these.
 *
 * Unless said otherwise, a vcpu_* function acts on the guest of the CPU it
 * runs on, from an exit handler or the event loop (its guest-state area is
 * the current one there), and cannot fail.
 */
#ifndef WARDEN_ASM_VENDOR_H
#define WARDEN_ASM_VENDOR_H

#include <hv/paging.h>
#include <hv/types.h>

struct cell;
struct cpu_view;
struct guest_limits;
struct guest_regs;
struct per_cpu;
struct warden_linux_state;

/* ---- setup and teardown ---- */

/*
 * On the first CPU, once: check that the CPU has every feature Warden
 * needs (on failure: a negative errno, the reason recorded with
 * hv_set_error, and the console names the missing feature), decide the
 * controls every CPU will use, and fill *limits with what a guest may
 * load into CR0, CR4, XCR0 and EFER on this machine.
 */
int vendor_init_system(struct per_cpu *pc, struct guest_limits *limits);

/* The second-level page-table format the vendor's hardware walks
 * (EPT or NPT), for the cells' guest-physical memory. */
const struct paging_format *vendor_second_level_format(void);

/*
 * On each CPU: enter the virtualization extension and prepare a guest
 * whose state is Linux's (pc->entry->linux_state), running in pc->cell
 * (root).  0, or a negative errno with the reason recorded and nothing
 * left enabled.  -WARDEN_EBUSY: another hypervisor uses the extension.
 */
int vendor_cpu_init(struct per_cpu *pc);

/* Undo vendor_cpu_init when another CPU failed. */
void vendor_cpu_undo(struct per_cpu *pc);

/* Word `word` (below WARDEN_VMX_ENTRY_WORDS) of pc's record of its last
 * VM entry that failed with invalid guest state (warden/vmx_entry.h), 0
 * when it has none (SVM: always; its failed entries are explained on the
 * console).  For WARDEN_HC_CPU_GET_INFO on any CPU. */
long vendor_cpu_entry_word(struct per_cpu *pc, unsigned int word);

/* First entry of the guest: returns only if it failed, with a negative
 * errno and the reason recorded, the extension left. */
int vendor_cpu_activate(struct per_cpu *pc);

/*
 * Leave the extension and continue Linux where the guest was (regs: its
 * general-purpose registers, after the instruction that exited), or where
 * the driver entered (regs NULL: a failed enable), with RAX = result.
 * Does not return.
 */
void __attribute__((noreturn))
vendor_cpu_leave(struct per_cpu *pc, long result, struct guest_regs *regs);

/*
 * A cell's vendor-format structures: the MSR permission map built from the
 * MSR policy (msr.c: msr_policy_walk) for root or a cell, root's APIC mode
 * x2apic (with x2apic, a cell also gets msr_bitmap_xapic, the policy
 * without x2APIC pass-through), and the cell's TLB tag.  0 or
 * -WARDEN_ENOMEM (nothing kept).
 */
int vendor_cell_init(struct cell *cell, bool x2apic);
/* Free what vendor_cell_init allocated. */
void vendor_cell_exit(struct cell *cell);

/* ---- the guest of this CPU ---- */

/* The guest's RIP; RSP (not in struct guest_regs) to read and write. */
u64 vcpu_rip(void);
u64 vcpu_rsp(void);
void vcpu_set_rsp(u64 value);

/* The guest's own view of CR0, CR3, CR4, EFER, CS.L and its CPL (what it
 * reads: bits the hypervisor keeps set for the extension are shown as the
 * guest wrote them). */
void vcpu_view(struct cpu_view *v);
/* The guest's CPL (hypercalls from CPL 0 only). */
unsigned int vcpu_cpl(void);

/* What the guest's instruction fetch depends on, as raw register values
 * (bits the vendor keeps set included; paging mode bits are the
 * guest's): for the decode cache's key and the guest page walk. */
struct vcpu_code {
	u64 cs_base, rip, cr0, cr3, cr4, efer;
	bool cs_long;
};
void vcpu_code(struct vcpu_code *c);

/*
 * Load a value the x86 layer has checked against the rules of
 * asm/cpu_rules.h: CR0 and CR4 as the guest reads them back (the vendor
 * keeps the bits it needs set underneath), EFER, and the four PDPTEs of
 * PAE paging (SDM Vol. 3, 4.4.1), which the CPU takes from the guest
 * state at the next entry.  A change of EFER.LMA also switches the
 * guest's IA-32e mode at the next entry.
 */
void vcpu_set_cr0(u64 value);
void vcpu_set_cr4(u64 value);
void vcpu_set_efer(u64 value);
/* The guest's PAT, checked by pat_check, loaded at the next entry
 * (VMCS: the IA32_PAT field; VMCB: G_PAT). */
void vcpu_set_pat(u64 value);
void vcpu_set_pdptes(const u64 pdpte[4]);

/* Advance the guest past the instruction that exited (its length as the
 * hardware reported it), or past an emulated one of len bytes; either
 * ends STI/MOV-SS blocking and raises the single-step #DB if RFLAGS.TF
 * is set (SDM Vol. 3C, 26.6.3). */
void vcpu_skip_instruction(void);
void vcpu_advance_rip(unsigned int len);

/* Inject a hardware exception at the next entry (one at a time: a later
 * call replaces an earlier one of the same exit). */
void vcpu_inject_exception(u8 vector, bool has_error, u32 error);

/* From another CPU, for the report of a target that did not answer a
 * request: print the vendor's view of target's event delivery (NMI
 * blocking and windows) as the target last left it.  Reads only memory;
 * the values may be stale. */
void vcpu_report_events(struct per_cpu *target);

/* Forget the events the guest had pending (INIT, a fresh start): an
 * injection, NMIs kept for it, a requested NMI window. */
void vcpu_drop_pending_events(struct per_cpu *pc);

/* Put the guest into the state INIT and SIPI leave (SDM Vol. 3, 9.1.1):
 * real mode, CS base cs_base (selector cs_base >> 4), IP ip, active. */
void vcpu_reset_to_real_mode(u64 cs_base, u16 ip);

/* Load pc->cell's controls (second-level tables, I/O and MSR maps, TLB
 * tag, APIC trapping as pc->arch.x2apic says) into this CPU. */
void vcpu_load_cell(struct per_cpu *pc);
/* Load the MSR permission map of pc->cell for the guest APIC mode
 * pc->arch.guest_x2apic (arch_cell_msr_bitmap); pc is this CPU. */
void vcpu_load_msr_bitmap(struct per_cpu *pc);

/* Drop this CPU's cached second-level translations of every cell (after
 * a change of a cell's tables), and its tagged guest-linear ones. */
void vcpu_flush_second_level(void);
void vcpu_flush_guest_tlb(void);

/*
 * The event exit: vcpu_arm_event_exit makes the next entry exit before
 * the guest's first instruction (VMX: a zero preemption timer), so that a
 * request posted after this CPU's last look at its requests never waits
 * for the guest's next exit.  NMI-safe; a no-op while the CPU has no
 * guest state; sets pc->arch.event_exit_armed.  vcpu_disarm_event_exit,
 * called before every look at the requests, undoes it and says whether
 * it was armed.
 */
void vcpu_arm_event_exit(struct per_cpu *pc);
bool vcpu_disarm_event_exit(struct per_cpu *pc);

/* WARDEN_HC_TEST WARDEN_TEST_BAD_ENTRY_STATE: break the guest state so
 * that the next entry fails (a rule the hardware checks). */
void vcpu_break_entry_state(void);

#endif /* WARDEN_ASM_VENDOR_H */
