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
#include <asm/exit.h>
#include <hv/mmio.h>
#include <hv/types.h>

#define MSR_IA32_APIC_BASE 0x1b
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_X2APIC (1ull << 10)
#define APIC_BASE_ENABLE (1ull << 11)
#define APIC_BASE_ADDR_MASK 0x000ffffffffff000ull
#define MSR_X2APIC_FIRST 0x800
#define MSR_X2APIC_ICR 0x830
#define MSR_X2APIC_LAST 0x8ff

/* Register indexes (x2APIC MSR - 0x800). */
#define APIC_REG_ID 0x02
#define APIC_REG_VER 0x03
#define APIC_REG_TPR 0x08
#define APIC_REG_PPR 0x0a
#define APIC_REG_EOI 0x0b
#define APIC_REG_LDR 0x0d
#define APIC_REG_DFR 0x0e /* xAPIC only */
#define APIC_REG_SVR 0x0f
#define APIC_REG_ISR 0x10 /* 8 registers */
#define APIC_REG_IRR 0x20 /* 8 registers; TMR (0x18) in between */
#define APIC_REG_ESR 0x28
#define APIC_REG_LVT_CMCI 0x2f
#define APIC_REG_ICR 0x30
#define APIC_REG_ICR2 0x31 /* xAPIC only: the destination half */
#define APIC_REG_LVT_TIMER 0x32
#define APIC_REG_LVT_THERMAL 0x33
#define APIC_REG_LVT_PERF 0x34
#define APIC_REG_LVT_ERROR 0x37 /* LINT0 0x35, LINT1 0x36 before it */
#define APIC_REG_TMICT 0x38
#define APIC_REG_TMCCT 0x39
#define APIC_REG_TDCR 0x3e

#define APIC_LVT_MASKED (1u << 16)
#define APIC_SVR_ENABLE (1u << 8)
#define APIC_DEFAULT_BASE 0xfee00000ull

/* ICR fields (SDM Vol. 3, 11.6.1). */
#define APIC_ICR_VECTOR(icr) ((icr)&0xff)
#define APIC_ICR_DM(icr) (((icr) >> 8) & 7)
#define APIC_DM_FIXED 0
#define APIC_DM_LOWEST 1
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

/* This CPU's physical APIC register reg (an index above), in the mode the
 * APIC is in (pc->arch.x2apic).  Only registers that exist may be passed
 * (apic_reg_exists): an x2APIC faults on the others. */
u32 apic_read(struct per_cpu *pc, unsigned int reg);
void apic_write(struct per_cpu *pc, unsigned int reg, u32 value);
/* The same with a value a guest chose: false if the APIC refused it (an
 * x2APIC faults on reserved bits), nothing written. */
bool apic_write_guest(struct per_cpu *pc, unsigned int reg, u32 value);
bool apic_reg_exists(struct per_cpu *pc, unsigned int reg);
/* reg is an LVT register this APIC has. */
bool apic_lvt_exists(struct per_cpu *pc, unsigned int reg);

/* Send an IPI from this CPU's physical APIC; dest is an APIC ID (or a
 * logical destination) in the format of this APIC's mode. */
void apic_send(struct per_cpu *pc, u32 dest, u32 low);

/*
 * Reset this CPU's physical APIC for its next owner (a CPU handed between
 * root and a cell): LVTs masked, timer stopped, in-service interrupts
 * retired, TPR 0, software-enabled.  The mode (xAPIC or x2APIC) stays
 * root's: see apic.c.  Interrupts already requested (IRR) are taken and
 * dropped, as the INIT of a real hand-over would.
 */
void apic_reset(struct per_cpu *pc);

/* Emulated INIT and SIPI to CPU t (root or a cell's own CPUs): INIT makes
 * it wait in the hypervisor for the SIPI, which restarts it in real mode
 * at vector << 12.  A SIPI without INIT before is ignored. */
void apic_post_init(struct per_cpu *t);
void apic_post_sipi(struct per_cpu *t, u32 vector);

/* Send an NMI to the CPU cpu (never the caller): the hypervisor's event
 * signal (SDM Vol. 3, 11.6.1). */
void apic_send_nmi(struct per_cpu *target);

/* The guest-physical page of a cell's xAPIC: root's APIC base, or the
 * architectural default for the other cells. */
struct cell;
u64 apic_xapic_page(const struct cell *cell);

/* The MMIO handlers (hv/mmio.h) of root's xAPIC page and of a cell's
 * (registered by apic_unit.c; mmio_exit.c decodes the instruction): root's
 * accesses are performed on the physical APIC, except the ICR, which is
 * emulated (apic_root_icr_write); 32-bit aligned accesses to the
 * registers, anything else refused; a cell's write that reaches outside
 * it fails the cell (apic_cell_mmio_write). */
enum mmio_result apic_root_mmio(void *ctx, struct per_cpu *pc,
				struct mmio_access *a);
enum mmio_result apic_cell_mmio(void *ctx, struct per_cpu *pc,
				struct mmio_access *a);

/*
 * Root wrote IA32_APIC_BASE: only its current value, and the switch from
 * xAPIC to x2APIC mode at the same base, are accepted; moving the APIC
 * away from the trapped page or disabling it would let root send IPIs the
 * hypervisor does not see, and miss the hypervisor's NMIs.  Anything else
 * gets #GP and a console line.
 */
enum exit_action apic_root_base_write(struct per_cpu *pc,
				      struct guest_regs *regs);

/*
 * Root wrote its ICR (x2APIC: the 64-bit MSR value; xAPIC: the low half,
 * with the destination it wrote to ICR2 before).  INIT and SIPI to other
 * root CPUs are emulated (they never reach the hardware, so the target
 * restarts under the hypervisor's control); any other IPI is sent as is.
 */
void apic_root_icr_write(struct per_cpu *pc, u32 low, u32 dest);

/*
 * Called by the event loop before every VM entry of this CPU: true if the
 * guest may be entered.  After an INIT from another CPU it returns false
 * (the pending events of the guest dropped) until the SIPI comes, then
 * restarts the guest in real mode at the SIPI's vector, as the hardware
 * would (SDM Vol. 3, 9.4.4), and returns true.
 */
bool apic_sipi_ready(struct per_cpu *pc, struct guest_regs *regs);

/*
 * The local APIC of a cell's CPU (apic_cell.c).  The physical APIC keeps
 * root's mode.  The cell sees xAPIC mode after start, as after reset,
 * until it sets EXTD in IA32_APIC_BASE.  x2APIC registers pass through
 * (only ICR writes exit) on a physical x2APIC, and are emulated on a
 * physical xAPIC; in xAPIC mode its page at 0xfee00000 traps
 * (APIC-access page) and each access is carried out on the physical APIC.
 *
 * apic_cell_reset: on the CPU, when it enters the cell and at each start:
 * physical APIC reset (apic_reset), the cell's mode xAPIC.
 * apic_cell_leave: on the CPU, when it goes back to root: physical APIC
 * reset.
 */
void apic_cell_reset(struct per_cpu *pc);
void apic_cell_leave(struct per_cpu *pc);

/*
 * A cell's CPU wrote its ICR (dest in the format of its virtual mode).
 * Fixed, lowest-priority and NMI IPIs go to the cell's own CPUs as
 * physical unicasts; INIT and SIPI to its own CPUs are emulated.
 * Shorthands, broadcasts and logical destinations reach only the cell's
 * own CPUs.  A physical destination outside the cell, or another delivery
 * mode, fails the cell (false: the CPU was parked and has been started
 * again or returned to root since; the instruction is not to be skipped).
 */
bool apic_cell_icr_write(struct per_cpu *pc, u32 low, u32 dest);

/*
 * A cell's write of value to its LVT register reg (an index above), in
 * either mode: true if the APIC may take it; false if its delivery mode
 * would reach outside the cell (apic_cell_lvt_mode_refused), which fails
 * the cell, naming the register, the value and the mode.
 */
bool apic_cell_lvt_write_ok(struct per_cpu *pc, unsigned int reg, u32 value);

/* A cell's access to its xAPIC page at offset off, while it is in xAPIC
 * mode (the page reads as 0 in x2APIC mode).  A write returns false if it
 * failed the cell (see apic_cell_icr_write). */
u32 apic_cell_mmio_read(struct per_cpu *pc, unsigned int off);
bool apic_cell_mmio_write(struct per_cpu *pc, unsigned int off, u32 value);

/* A cell's RDMSR/WRMSR of an x2APIC MSR (0x800-0x8ff) while the physical
 * APIC is in xAPIC mode: emulated on the xAPIC.  The action: the
 * instruction completed, #GP, or the cell failed. */
enum exit_action apic_cell_x2apic_msr(struct per_cpu *pc,
				      struct guest_regs *regs, bool write);

/* A cell's RDMSR/WRMSR of IA32_APIC_BASE: the virtual mode switch; #GP
 * for an invalid value, as the hardware does. */
enum exit_action apic_cell_base_msr(struct per_cpu *pc, struct guest_regs *regs,
				    bool write);

/* An INIT reached this CPU (INIT VM exit, or a cell's non-first CPU at
 * start): it waits for a SIPI before its next entry. */
void apic_init_received(struct per_cpu *pc);
/* Forget a pending INIT: the CPU enters its guest as it is (a cell's
 * first CPU at start, a CPU moving into a cell). */
void apic_init_cancel(struct per_cpu *pc);

/* An NMI arrived (exit or in the hypervisor): true if it was the
 * hypervisor's event signal, false if it belongs to the guest. */
bool apic_take_event_nmi(struct per_cpu *pc);

#endif /* WARDEN_ASM_APIC_H */
