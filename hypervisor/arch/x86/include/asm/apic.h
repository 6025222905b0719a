/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The local APIC: the hypervisor's own access to the physical APIC of the
 * CPU it runs on, the root cell's trapped APIC accesses, and the
 * emulation of INIT and SIPI between root CPUs (apic.c).
 *
 * Registers are named by their x2APIC MSR index minus 0x800 (SDM Vol. 3,
 * 11.12.1.2, Table 11-6); the xAPIC MMIO offset is that index times 16.
 * Each CPU drives its APIC in the mode Linux left it in (xAPIC MMIO or
 * x2APIC MSRs), read from IA32_APIC_BASE when Warden starts.
 */
#ifndef WARDEN_ASM_APIC_H
#define WARDEN_ASM_APIC_H

#include <asm/percpu.h>
#include <hv/types.h>

#define MSR_IA32_APIC_BASE 0x1b
#define APIC_BASE_X2APIC (1ull << 10)
#define APIC_BASE_ENABLE (1ull << 11)
#define APIC_BASE_ADDR_MASK 0x000ffffffffff000ull
#define MSR_X2APIC_FIRST 0x800
#define MSR_X2APIC_ICR 0x830

/* Register indexes (x2APIC MSR - 0x800). */
#define APIC_REG_ID 0x02
#define APIC_REG_LDR 0x0d
#define APIC_REG_DFR 0x0e /* xAPIC only */
#define APIC_REG_ICR 0x30
#define APIC_REG_ICR2 0x31 /* xAPIC only: the destination half */

/* ICR fields (SDM Vol. 3, 11.6.1). */
#define APIC_ICR_VECTOR(icr) ((icr)&0xff)
#define APIC_ICR_DM(icr) (((icr) >> 8) & 7)
#define APIC_DM_FIXED 0
#define APIC_DM_NMI 4
#define APIC_DM_INIT 5
#define APIC_DM_SIPI 6
#define APIC_ICR_LOGICAL (1u << 11)
#define APIC_ICR_BUSY (1u << 12)
#define APIC_ICR_ASSERT (1u << 14)
#define APIC_ICR_LEVEL (1u << 15)
#define APIC_ICR_SHORTHAND(icr) (((icr) >> 18) & 3)
#define APIC_SH_NONE 0
#define APIC_SH_SELF 1
#define APIC_SH_ALL 2
#define APIC_SH_OTHERS 3

/* Where the hypervisor maps the physical xAPIC page (uncached). */
#define APIC_HV_VIRT 0xffffffffc0000000ul

struct per_cpu;
struct guest_regs;

/*
 * System-wide: find the APIC's physical address and map it for the
 * hypervisor.  On the first CPU, with the pool ready; 0 or -WARDEN_ENOMEM.
 */
int apic_init_system(void);

/* Per CPU, on that CPU: note its APIC mode and logical destination. */
void apic_init_cpu(struct per_cpu *pc);

/* Send an NMI to the CPU cpu (never the caller): the hypervisor's event
 * signal (SDM Vol. 3, 11.6.1). */
void apic_send_nmi(struct per_cpu *target);

/*
 * The root cell's access to its xAPIC page trapped (APIC-access VM exit,
 * SDM Vol. 3, 29.4): the instruction is decoded and performed on the
 * physical APIC, except the ICR, which is emulated
 * (apic_root_icr_write).  A form we cannot decode gets #GP and a console
 * message.
 */
void apic_handle_access(struct per_cpu *pc, struct guest_regs *regs);

/*
 * Root wrote its ICR (x2APIC: the 64-bit MSR value; xAPIC: the low half,
 * with the destination it wrote to ICR2 before).  INIT and SIPI to other
 * root CPUs are emulated (they never reach the hardware, so the target
 * restarts under the hypervisor's control); any other IPI is sent as is.
 */
void apic_root_icr_write(struct per_cpu *pc, u32 low, u32 dest);

/*
 * Called before every VM entry of this CPU: if another CPU sent it an
 * INIT, wait in the hypervisor for the SIPI and restart the guest in real
 * mode at the SIPI's vector, as the hardware would (SDM Vol. 3, 9.4.4).
 * Returns false, still waiting, if a cell is to take the CPU first.
 */
bool apic_check_init(struct per_cpu *pc, struct guest_regs *regs);

/*
 * A cell's CPU wrote its x2APIC ICR: IPIs within the cell (fixed and NMI)
 * are sent; one that would reach a CPU outside the cell, or another
 * delivery mode, fails the cell (the CPU is parked; false is returned
 * once it runs again or is back in root).
 */
bool apic_cell_icr_write(struct per_cpu *pc, u32 low, u32 dest,
			 struct guest_regs *regs);

/* An INIT signal of the hardware reached this CPU (INIT VM exit). */
void apic_init_received(struct per_cpu *pc);

/* An NMI arrived (exit or in the hypervisor): true if it was the
 * hypervisor's event signal, false if it belongs to the guest. */
bool apic_take_event_nmi(struct per_cpu *pc);

#endif /* WARDEN_ASM_APIC_H */
