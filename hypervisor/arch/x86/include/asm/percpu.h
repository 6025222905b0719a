/* SPDX-License-Identifier: GPL-2.0 */
/* The x86 part of the per-CPU data. */
#ifndef WARDEN_ASM_PERCPU_H
#define WARDEN_ASM_PERCPU_H

#include <asm/access_log.h>
#include <asm/insn_cache.h>
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

struct arch_cpu {
	u64 gdt[6]; /* null, unused, code 0x10, data 0x18, TSS 0x20 (2) */
	struct tss64 tss;
	/* The vendor's own per-CPU state (vmx/: struct vmx_cpu, with the
	 * record of a failed entry), opaque here. */
	u64 vendor[64];
	/* NMIs that arrived for the guest and still have to be injected. */
	u32 guest_nmis_pending;
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
	/* the guest's MMIO instructions decoded before (guest.c) */
	struct insn_cache insn_cache;
	/* an NMI reached the hypervisor: the next VM entry exits at once
	 * (vcpu_arm_event_exit) */
	bool event_exit_armed;
	/* Requests from other CPUs (events.c): REQ_* bits, each cleared by
	 * this CPU when it has carried the request out. */
	u32 requests;
	struct cell *park_cell; /* REQ_PARK: the cell to join */
	/* suspension: the round the requester wants this CPU to wait in (0:
	 * none), the last round this CPU answered by waiting, and the last
	 * round number given out (the requester's, under hv.cells_lock) */
	u32 suspend_want, suspend_ack, suspend_rounds;
	/* For the report of a CPU that does not answer (events.c): why its
	 * last exit came, and whether it entered its guest since (no
	 * timestamp: nothing more than two stores on the exit path). */
	u32 last_exit_reason;
	u8 last_exit_kind; /* enum x86_exit_kind, after x86_exit_refine */
	bool in_guest;
	/* the exception that made the hypervisor give up this CPU */
	bool in_exception;
	u8 lost_vector;
	u64 lost_rip;
	/* what the cell's guest used through exits (exit/access_log.c) */
	struct access_log access_log;
};

/* The calling CPU's per-CPU data: the GS base points at it, and its first
 * word points at itself (struct per_cpu.self). */
struct per_cpu;
static inline struct per_cpu *arch_this_cpu(void)
{
	struct per_cpu *pc;

	asm volatile("mov %%gs:0, %0" : "=r"(pc));
	return pc;
}

/* arch_cpu.requests */
#define REQ_PARK (1u << 0)    /* join park_cell, parked */
#define REQ_RETURN (1u << 1)  /* leave the cell for root */
#define REQ_STOP (1u << 2)    /* stop running the cell's guest, parked */
#define REQ_START (1u << 3)   /* start the cell's guest */
#define REQ_CONSOLE (1u << 4) /* root: write the queued console lines */

#endif /* WARDEN_ASM_PERCPU_H */
