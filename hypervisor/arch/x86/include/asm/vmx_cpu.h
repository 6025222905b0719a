/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the VMX files of arch/x86. */
#ifndef WARDEN_ASM_VMX_CPU_H
#define WARDEN_ASM_VMX_CPU_H

#include <asm/percpu.h>
#include <hv/hypervisor.h>

/* What a guest may load into CR0, CR4, XCR0 and EFER on this machine
 * (the masks of asm/cpu_rules.h), decided once (vmx.c). */
struct guest_limits {
	u64 cr0_allowed, cr4_allowed, xcr0_supported, efer_allowed;
	unsigned int phys_bits;
};
extern struct guest_limits guest_limits;

/* The VMX controls every CPU uses, decided once (vmx.c). */
struct vmx_controls {
	u32 pin, proc, proc2, exit, entry;
	u64 cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	u32 revision;
};
extern struct vmx_controls vmx_ctls;

/* The root cell's x86 state (cell.c). */
struct arch_cell {
	struct page_table ept;
	void *apic_access_page; /* root: backs the xAPIC page, accesses exit */
	void *comm_page;	/* cells: the communication region */
	/* Held while the EPT is changed or walked by software (guest.c):
	 * root's changes while its other CPUs decode APIC accesses.  Never
	 * held while waiting for another CPU. */
	spinlock_t ept_lock;
	/* Bumped before and after every change of the EPT (odd while one
	 * runs), so that lock-free readers can tell (asm/insn_cache.h). */
	u64 ept_gen;
	u8 *io_bitmap;	/* 2 pages: ports 0-0x7fff, 0x8000-0xffff */
	u8 *msr_bitmap; /* 1 page (SDM 25.6.9) */
	u16 vpid;
};

/* Set up the MSR bitmap of the root cell: pass through what the policy
 * allows, intercept the rest (msr.c). */
void msr_bitmap_init_root(u8 *bitmap);
/* The same for a cell: only the MSRs of its own CPU (msr.c); the x2APIC
 * range is passed through only on a physical x2APIC (x2apic). */
void msr_bitmap_init_cell(u8 *bitmap, bool x2apic);
/* Handle an intercepted RDMSR/WRMSR of the guest; true if the
 * instruction completed, false if #GP was injected (msr.c). */
bool msr_handle(struct per_cpu *pc, struct guest_regs *regs, bool write);

/* The guest's own view of its control registers, EFER, CS.L and CPL
 * (what it reads, through the read shadows) (vmexit.c). */
struct cpu_view;
void vmx_guest_view(struct cpu_view *v);

/* A guest value broke rule (asm/cpu_rules.h): inject the exception the
 * hardware raises and say so in the guest's share of the console
 * (vmexit.c). */
void refuse_guest_value(struct per_cpu *pc, const char *what, u64 value,
			int rule);

/* The guest's RIP, for reports. */
u64 vmx_guest_rip(void);

/* Forget the events the guest had pending (an INIT, a fresh start):
 * injection, NMIs kept for it, the NMI window (vmexit.c). */
void vmx_drop_pending_events(struct per_cpu *pc);

/* The guest-state area of the current VMCS and the controls, for the
 * VM-entry checks (vmx.c, asm/vmx_entry_check.h). */
struct vmx_guest_state;
struct vmx_entry_limits;
void vmx_read_guest_state(struct vmx_guest_state *s);
extern struct vmx_entry_limits vmx_entry_limits;

/*
 * On the CPU, when it changes owner (root -> cell, cell -> root): clear
 * what the previous owner left in the CPU's own registers (x87/SSE/AVX
 * state, XCR0 back to 1, DR0-3, DR6, KERNEL_GS_BASE, STAR/LSTAR/CSTAR/
 * FMASK, TSC_AUX) (scrub.c).  The guest state in the VMCS is reset by
 * vmx_reset_to_real_mode, the APIC by apic_reset.
 */
void cpu_scrub(void);

/* Inject a hardware exception into the guest at the next entry. */
void vmx_inject_exception(u8 vector, bool has_error, u32 error);
/* Put the guest CPU of the current VMCS into the state INIT + SIPI leave
 * (SDM 9.1.1): real mode, CS base cs_base (selector cs_base >> 4), IP ip,
 * active. */
void vmx_reset_to_real_mode(u64 cs_base, u16 ip);
/* Advance the guest past the instruction that exited. */
void vmx_skip_instruction(void);
/* Advance the guest past an emulated instruction of len bytes. */
void vmx_advance_rip(unsigned int len);

/*
 * The event exit.  Requests from other CPUs are words in struct arch_cpu
 * plus an NMI (apic_send_nmi).  An NMI that reaches the guest exits at once
 * (NMI exiting); one that reaches the hypervisor calls vmx_arm_event_exit,
 * which sets the VMX-preemption timer to 0, so that the next VM entry exits
 * before the guest's first instruction (SDM Vol. 3C 26.6.4): a request
 * posted after this CPU's last look at its request words is never left
 * waiting for the guest's next exit, which for a cell may never come.
 * vmx_disarm_event_exit, called before every look at the request words,
 * stops the timer again and says whether it was armed.  Both run on the
 * CPU itself; arm is NMI-safe and a no-op while no VMCS is current.
 */
void vmx_arm_event_exit(struct per_cpu *pc);
bool vmx_disarm_event_exit(struct per_cpu *pc);

/* Load the controls of pc->cell (EPT, bitmaps, VPID, APIC access) into
 * this CPU's VMCS (vmx.c). */
void vmx_load_cell_controls(struct per_cpu *pc);
/* Map root's xAPIC page to the APIC-access page again (cell.c). */
int arch_root_map_apic_page(void);
/*
 * The event loop (events.c): after every exit handler, and before the
 * first entry of a CPU.  Carries out other CPUs' requests, waits while the
 * CPU is suspended, parked, failed or waiting for a SIPI, and returns when
 * the guest may be entered, regs holding a fresh guest's registers when
 * the CPU was (re)started.  A lost CPU never returns from it.
 */
void x86_cpu_events(struct per_cpu *pc, struct guest_regs *regs);

/* Let one interrupt in, if one is pending, and drop it (hv_drop_irq), with
 * an IDT on which every vector from 16 up is an interrupt (setup.c). */
void arch_take_pending_irq(void);

u16 arch_host_selector(int which);
u64 arch_idt_base(void);
int vmx_launch(struct guest_regs *regs);
extern const u8 vmx_exit_entry[];
void __attribute__((noreturn))
arch_jump_to_linux(u64 stub_leave, struct warden_linux_state *s);

#endif /* WARDEN_ASM_VMX_CPU_H */
