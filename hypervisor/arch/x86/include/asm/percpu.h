/* SPDX-License-Identifier: GPL-2.0 */
/* The x86 part of the per-CPU data. */
#ifndef WARDEN_ASM_PERCPU_H
#define WARDEN_ASM_PERCPU_H

#include <hv/types.h>

/* 64-bit TSS (SDM Vol. 3, 8.7). */
struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss64) == 104, "TSS layout");

/* General-purpose registers of the guest, in x86 register-number order, as
 * the VM-exit entry pushes them. */
struct guest_regs {
	u64 rax, rcx, rdx, rbx, rsp_unused, rbp, rsi, rdi;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
};

/* arch_cpu.event_exit_check: none running, the first entry must exit with
 * reason 52, or the NMI to itself never came (nothing to check). */
#define EVENT_EXIT_CHECK_NONE 0
#define EVENT_EXIT_CHECK_PENDING 1
#define EVENT_EXIT_CHECK_NO_NMI 2

struct arch_cpu {
	u64 gdt[6]; /* null, unused, code 0x10, data 0x18, TSS 0x20 (2) */
	struct tss64 tss;
	void *vmxon_region;
	void *vmcs;
	bool vmx_on;
	bool vmcs_loaded;
	/* NMIs that arrived for the guest and still have to be injected. */
	u32 guest_nmis_pending;
	bool nmi_window_armed;
	/* the VMX controls this CPU runs with */
	u32 proc_ctls;
	/* the local APIC (apic.c) */
	bool x2apic;	   /* physical x2APIC mode (else xAPIC MMIO) */
	u8 apic_max_lvt;   /* VER bits 23:16: LVT entries - 1 */
	bool guest_x2apic; /* the mode the cell's guest chose */
	/* the guest's logical destination (root: as written; cells: as
	 * written in xAPIC mode, derived from the ID in x2APIC mode) */
	u32 ldr, dfr;
	u32 root_icr_high; /* xAPIC ICR2 as the guest last wrote it */
	u32 sipi;	   /* INIT/SIPI hand-over state (apic.c) */
	bool event_nmi;	   /* the hypervisor's NMI is in flight */
	u32 irqs_dropped;  /* left pending by the previous owner (apic_reset) */
	/* an NMI reached the hypervisor: the zero VMX-preemption timer is
	 * armed, so the next VM entry exits at once (vmx_arm_event_exit) */
	bool event_exit_armed;
	/* enable's check that the armed timer exits at once (vmx.c) */
	u8 event_exit_check; /* EVENT_EXIT_CHECK_* */
	/* requests from other CPUs (cellx.c), carried out by this CPU */
	bool flush_req;	       /* invalidate EPT translations */
	struct cell *park_req; /* move into this cell, parked */
	bool return_req;       /* leave the cell, back to root */
	bool start_req;	       /* start the cell's guest */
	bool stop_req;	       /* stop running the cell, parked */
	bool suspend_req;      /* wait in the hypervisor (arch_cpu_suspend) */
	bool suspended;	       /* ... and it does */
};

#endif /* WARDEN_ASM_PERCPU_H */
