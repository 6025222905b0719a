/* SPDX-License-Identifier: GPL-2.0 */
/* Interfaces between the vendor-neutral files of arch/x86. */
#ifndef WARDEN_ASM_X86_CPU_H
#define WARDEN_ASM_X86_CPU_H

#include <asm/arch_cell.h>
#include <asm/exit.h>
#include <asm/percpu.h>
#include <hv/hypervisor.h>

/* What a guest may load into CR0, CR4, XCR0 and EFER on this machine (the
 * masks of asm/cpu_rules.h), decided once (vendor_init_system). */
struct guest_limits {
	u64 cr0_allowed, cr4_allowed, xcr0_supported, efer_allowed;
	unsigned int phys_bits;
};
extern struct guest_limits guest_limits;

/*
 * The MSR policy (msr.c) for root (root) or a cell, on a CPU whose APIC
 * is in x2APIC mode (x2apic): pass(ctx, first, last, write) for each
 * range whose reads (and writes, if write) need no exit, then
 * intercept(ctx, msr, write) for accesses that exit although a range
 * passed them.  Everything else exits.  The vendor turns it into its
 * permission map (vendor_cell_init).
 */
void msr_policy_walk(bool root, bool x2apic,
		     void (*pass)(void *ctx, u32 first, u32 last, bool write),
		     void (*intercept)(void *ctx, u32 msr, bool write),
		     void *ctx);

struct arch_cell;
/*
 * A cell's MSR maps from the vendor's builder (a map of the policy for
 * root or a cell, x2APIC or not; NULL when out of memory): msr_bitmap,
 * and on a physical x2APIC a cell's msr_bitmap_xapic too (the policy of
 * a physical xAPIC: every x2APIC MSR exits).  0, or -WARDEN_ENOMEM with
 * what was built left for the vendor's vendor_cell_exit to free.
 */
int msr_maps_build(struct arch_cell *a, bool root, bool x2apic,
		   u8 *(*build)(bool root, bool x2apic));

/* A guest value broke rule (asm/cpu_rules.h): say so in the guest's share
 * of the console; returns the injection the hardware would make
 * (emulate.c). */
enum exit_action refuse_guest_value(struct per_cpu *pc, const char *what,
				    u64 value, int rule);

/*
 * On the CPU, when it changes owner (root -> cell, cell -> root): clear
 * what the previous owner left in the CPU's own registers (x87/SSE/AVX
 * state, XCR0 back to 1, DR0-3, DR6, KERNEL_GS_BASE, STAR/LSTAR/CSTAR/
 * FMASK, TSC_AUX) (scrub.c).  The guest state is reset by
 * vcpu_reset_to_real_mode, the APIC by apic_reset.
 */
void cpu_scrub(void);

/*
 * The event loop (events.c): after every exit handler (x86_handle_exit).  Carries out other CPUs' requests, waits while the
 * CPU is suspended, parked, failed or waiting for a SIPI, and returns when
 * the guest may be entered, regs holding a fresh guest's registers when
 * the CPU was (re)started.  A lost CPU never returns from it.
 */
void x86_cpu_events(struct per_cpu *pc, struct guest_regs *regs);

/* Let one interrupt in, if one is pending, and drop it (hv_drop_irq), with
 * an IDT on which every vector from 16 up is an interrupt (setup.c). */
void x86_take_pending_irq(void);

/* The hypervisor's own selectors (0: code, 1: data, 2: TSS), IDT base,
 * and the jump back to the driver's stub (entry.S) (setup.c). */
u16 arch_host_selector(int which);
u64 arch_idt_base(void);
void __attribute__((noreturn))
arch_jump_to_linux(u64 stub_leave, struct warden_linux_state *s);

/*
 * The end of vendor_cpu_leave, once the vendor has left its extension:
 * when Linux ran as a guest (guest true), its CR0, CR4, EFER and PAT as
 * it last set them in l; the console line; the jump to the driver's stub
 * with l's state, RAX = result.  Does not return.
 */
void __attribute__((noreturn))
x86_back_to_linux(struct per_cpu *pc, struct warden_linux_state *l, long result,
		  bool guest);

#endif /* WARDEN_ASM_X86_CPU_H */
