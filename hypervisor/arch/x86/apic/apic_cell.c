// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC of cell CPUs (contracts in asm/apic.h).
 *
 * A cell starts in xAPIC mode, as a CPU does after reset, and may switch
 * to x2APIC (IA32_APIC_BASE, emulated).  The physical APIC keeps the mode
 * root uses, because leaving x2APIC needs the globally disabled state and
 * Bochs 2.7 cannot enable an APIC again from there (apic.c):
 *   - physical x2APIC (root in x2APIC mode): the cell's MSR bitmap passes
 *     every x2APIC register through except ICR and LVT writes (checked:
 *     msr.c), so a cell in
 *     x2APIC mode takes no VM exit for its timer, EOIs or self-IPIs;
 *   - physical xAPIC (root in xAPIC mode, as in the test machine): the
 *     cell's x2APIC registers are emulated on the xAPIC, each access an
 *     MSR exit.
 * In xAPIC mode the cell's page at 0xfee00000 traps (APIC-access page)
 * and each access is carried out on the physical APIC; the ID and logical
 * destination registers are the cell's own (SDM Vol. 3, 11.12.1).
 *
 * Isolation: a cell's IPIs reach only its own CPUs.  Shorthands,
 * broadcasts and logical destinations are resolved to the cell's CPUs
 * and sent as physical unicasts; a physical destination outside the cell
 * fails the cell.  INIT and SIPI between its own CPUs are emulated as for
 * root (apic.c).
 */
#include <asm/apic.h>
#include <asm/apic_dest.h>
#include <asm/processor.h>
#include <asm/exit.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/format.h>
#include <hv/printk.h>

#define X2APIC_CPUID_BIT (1u << 21) /* CPUID.1:ECX */
#define APIC_REG_SELF_IPI 0x3f	    /* x2APIC only */

static bool have_x2apic(void)
{
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	return c & X2APIC_CPUID_BIT;
}

/* The logical ID an x2APIC derives from its ID (SDM 11.12.10.2). */
static u32 x2apic_ldr(u32 id)
{
	return (id >> 4) << 16 | 1u << (id & 0xf);
}

/* The guest APIC's mode; on a physical x2APIC the cell's x2APIC MSRs
 * pass through in x2APIC mode only (vcpu_load_msr_bitmap).  pc is this
 * CPU. */
static void set_guest_mode(struct per_cpu *pc, bool x2apic)
{
	pc->arch.guest_x2apic = x2apic;
	vcpu_load_msr_bitmap(pc);
	pc->arch.ldr = x2apic ? x2apic_ldr(pc->apic_id) : 0;
	pc->arch.dfr = 0xffffffff;
	pc->arch.root_icr_high = 0;
}

void apic_cell_reset(struct per_cpu *pc)
{
	apic_reset(pc);
	/* xAPIC: the cell's logical IDs are kept in software only; the
	 * physical LDR is 0, so that a logical destination of root's (an
	 * IOAPIC entry, ioapic.c) never reaches this CPU, whatever IDs root
	 * gave it before */
	if (!pc->arch.x2apic)
		apic_write(pc, APIC_REG_LDR, 0);
	set_guest_mode(pc, false);
}

void apic_cell_leave(struct per_cpu *pc)
{
	apic_reset(pc);
	set_guest_mode(pc, pc->arch.x2apic);
	/* xAPIC: Linux writes LDR again when it onlines the CPU.  x2APIC:
	 * LDR is read-only, derived from the APIC ID (SDM Vol. 3,
	 * 11.12.10.2), and Linux only reads it: the copy set_guest_mode
	 * derived is the one root's logical IPIs are resolved with
	 * (apic.c, root_ipi) while cells exist; cleared, every one of them
	 * to this CPU was dropped. */
	if (!pc->arch.x2apic)
		pc->arch.ldr = 0;
}

static __cold bool fail_ipi(struct per_cpu *pc, u32 low, const char *why,
			    unsigned int cpu)
{
	char what[80];

	hv_format(what, sizeof(what), "IPI (ICR 0x%x) %s %u, destination", low,
		  why, cpu);
	cell_fail(pc, what, cpu, vcpu_rip());
	return false;
}

static enum apic_cell_verdict verdict(struct per_cpu *pc, struct per_cpu *t,
				      u32 low, u32 dest)
{
	struct apic_target target = { t->apic_id, t->arch.ldr, t->arch.dfr };

	return apic_cell_ipi_verdict(pc->arch.guest_x2apic, low, dest, &target,
				     t == pc, t->cell == pc->cell);
}

bool apic_cell_icr_write(struct per_cpu *pc, u32 low, u32 dest)
{
	unsigned int dm = APIC_ICR_DM(low), cpu;
	u32 unicast = low & ~(APIC_ICR_LOGICAL | (3u << 18));
	struct per_cpu *t;
	char what[96];

	if (dm != APIC_DM_FIXED && dm != APIC_DM_LOWEST && dm != APIC_DM_NMI &&
	    dm != APIC_DM_INIT && dm != APIC_DM_SIPI)
		return fail_ipi(pc, low, "with delivery mode", dm);
	/* An illegal vector fails the cell rather than being dropped with
	 * Send Illegal Vector in the ESR as an APIC would (SDM Vol. 3,
	 * 11.5.3): the hypervisor cannot set ESR bits (a write only re-arms
	 * it) and a cell's ESR reads pass through where its x2APIC does; and
	 * an emulator delivers it into the target's exception or NMI vector
	 * (apic_dest.h).  Every ICR write of a cell ends here: xAPIC page,
	 * trapped or emulated x2APIC MSR. */
	if (apic_icr_vector_illegal(low)) {
		hv_format(what, sizeof(what),
			  "IPI (ICR 0x%x) with an illegal vector (0-15, SDM "
			  "Vol. 3, 11.5.2), vector",
			  low);
		cell_fail(pc, what, APIC_ICR_VECTOR(low), vcpu_rip());
		return false;
	}
	/* Check first, send afterwards: a refused IPI reaches nobody. */
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (verdict(pc, per_cpu(cpu), low, dest) == APIC_CELL_FORBIDDEN)
			return fail_ipi(pc, low,
					"to CPU outside the cell:", cpu);
	/* INIT level de-assert: nothing to do (SDM Vol. 3, 11.6.1). */
	if (dm == APIC_DM_INIT && !(low & APIC_ICR_ASSERT))
		return true;
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		if (verdict(pc, t, low, dest) != APIC_CELL_DELIVER)
			continue;
		if (dm == APIC_DM_INIT || dm == APIC_DM_SIPI) {
			if (t == pc)
				continue; /* not to itself (as root's) */
			if (dm == APIC_DM_INIT)
				apic_post_init(t);
			else
				apic_post_sipi(t, APIC_ICR_VECTOR(low));
			continue;
		}
		/* lowest priority: the first CPU found is as low as any */
		apic_send(pc, t->apic_id,
			  dm == APIC_DM_LOWEST ? unicast & ~(7u << 8)
					       : unicast);
		if (dm == APIC_DM_LOWEST)
			break;
	}
	return true;
}

enum exit_action apic_cell_base_msr(struct per_cpu *pc, struct guest_regs *regs,
				    bool write)
{
	u64 value = APIC_DEFAULT_BASE | APIC_BASE_ENABLE;

	if (!write) {
		if (pc->arch.guest_x2apic)
			value |= APIC_BASE_X2APIC;
		regs->rax = (u32)value;
		regs->rdx = value >> 32;
		return EXIT_SKIP;
	}
	value = regs->rdx << 32 | (u32)regs->rax;
	/* The cell may switch xAPIC -> x2APIC, and stay where it is; no
	 * other base, no disabling, and x2APIC -> xAPIC is invalid on the
	 * hardware too (SDM 11.12.5). */
	if ((value & ~APIC_BASE_X2APIC) !=
		    (APIC_DEFAULT_BASE | APIC_BASE_ENABLE) ||
	    (pc->arch.guest_x2apic && !(value & APIC_BASE_X2APIC)) ||
	    ((value & APIC_BASE_X2APIC) && !have_x2apic())) {
		cell_printk(pc->cell,
			    "Cell %u, CPU %u: IA32_APIC_BASE write 0x%llx "
			    "refused "
			    "(#GP injected): only the switch to x2APIC is "
			    "supported\n",
			    pc->cell->id, pc->cpu_id,
			    (unsigned long long)value);
		return EXIT_INJECT_GP;
	}
	if (value & APIC_BASE_X2APIC)
		set_guest_mode(pc, true);
	return EXIT_SKIP;
}

bool apic_cell_lvt_write_ok(struct per_cpu *pc, unsigned int reg, u32 value)
{
	const char *mode = apic_cell_lvt_mode_refused(value);
	char what[96];

	if (!mode)
		return true;
	hv_format(what, sizeof(what),
		  "LVT write (register 0x%x) with delivery mode %s, value",
		  reg * 16, mode);
	cell_fail(pc, what, value, vcpu_rip());
	return false;
}

u32 apic_cell_mmio_read(struct per_cpu *pc, unsigned int off)
{
	unsigned int reg = off / 16;

	if (pc->arch.guest_x2apic || (off & 0xf))
		return 0; /* the xAPIC page is gone in x2APIC mode */
	switch (reg) {
	case APIC_REG_ID:
		return pc->apic_id << 24;
	case APIC_REG_LDR:
		return pc->arch.ldr;
	case APIC_REG_DFR:
		return pc->arch.dfr;
	case APIC_REG_ICR2:
		return pc->arch.root_icr_high;
	case APIC_REG_ICR:
		/* delivery is immediate: never busy */
		return apic_read(pc, reg) & ~APIC_ICR_BUSY;
	}
	return apic_reg_exists(pc, reg) ? apic_read(pc, reg) : 0;
}

bool apic_cell_mmio_write(struct per_cpu *pc, unsigned int off, u32 value)
{
	unsigned int reg = off / 16;

	if (pc->arch.guest_x2apic || (off & 0xf))
		return true;
	switch (reg) {
	case APIC_REG_LDR:
		pc->arch.ldr = value & 0xff000000;
		return true;
	case APIC_REG_DFR:
		pc->arch.dfr = value | 0x0fffffff;
		return true;
	case APIC_REG_ICR2:
		pc->arch.root_icr_high = value;
		return true;
	case APIC_REG_ICR:
		return apic_cell_icr_write(pc, value,
					   pc->arch.root_icr_high >> 24);
	case APIC_REG_EOI:
	case APIC_REG_ESR:
		apic_write(pc, reg, 0); /* an x2APIC faults on non-zero */
		return true;
	case APIC_REG_TPR:
	case APIC_REG_SVR:
	case APIC_REG_TMICT:
	case APIC_REG_TDCR:
		break;
	default:
		if (!apic_lvt_exists(pc, reg))
			return true; /* read-only and reserved: ignored */
		if (!apic_cell_lvt_write_ok(pc, reg, value))
			return false;
	}
	/* on a physical x2APIC, reserved bits fault: the write is dropped,
	 * as the xAPIC would ignore those bits */
	if (!apic_write_guest(pc, reg, value))
		cell_printk(pc->cell,
			    "Cell %u, CPU %u: xAPIC write of 0x%x to register "
			    "0x%x with reserved bits dropped",
			    pc->cell->id, pc->cpu_id, value, reg * 16);
	return true;
}

enum x2apic_result { X2APIC_DONE, X2APIC_GP, X2APIC_CELL_FAILED };

/* The cell's x2APIC on a physical xAPIC: one register access, done, to
 * be answered with #GP (as the hardware would), or failing the cell. */
static enum x2apic_result x2apic_emulate(struct per_cpu *pc,
					 struct guest_regs *regs,
					 unsigned int reg, bool write,
					 u64 value)
{
	if (!pc->arch.guest_x2apic)
		return X2APIC_GP; /* the MSRs exist in x2APIC mode only */
	if (!write) {
		switch (reg) {
		case APIC_REG_ID:
			value = pc->apic_id;
			break;
		case APIC_REG_LDR:
			value = pc->arch.ldr;
			break;
		case APIC_REG_ICR:
			value = (u64)pc->arch.root_icr_high << 32 |
				(apic_read(pc, reg) & ~APIC_ICR_BUSY);
			break;
		case APIC_REG_EOI:
		case APIC_REG_DFR:
		case APIC_REG_ICR2:
			return X2APIC_GP;
		default:
			if (!apic_reg_exists(pc, reg))
				return X2APIC_GP;
			value = apic_read(pc, reg);
		}
		regs->rax = (u32)value;
		regs->rdx = value >> 32;
		return X2APIC_DONE;
	}
	if (reg != APIC_REG_ICR && (value >> 32))
		return X2APIC_GP; /* reserved (SDM 11.12.1.3) */
	switch (reg) {
	case APIC_REG_ICR:
		/* kept for reads; the xAPIC form is only a local record */
		pc->arch.root_icr_high = value >> 32;
		return apic_cell_icr_write(pc, (u32)value, value >> 32)
			       ? X2APIC_DONE
			       : X2APIC_CELL_FAILED;
	case APIC_REG_SELF_IPI:
		apic_send(pc, pc->apic_id,
			  APIC_DM_FIXED << 8 | APIC_ICR_ASSERT |
				  (value & 0xff));
		return X2APIC_DONE;
	case APIC_REG_EOI:
	case APIC_REG_ESR:
		if (value)
			return X2APIC_GP;
		apic_write(pc, reg, 0);
		return X2APIC_DONE;
	case APIC_REG_TPR:
	case APIC_REG_SVR:
	case APIC_REG_TMICT:
	case APIC_REG_TDCR:
		apic_write(pc, reg, (u32)value);
		return X2APIC_DONE;
	}
	if (apic_lvt_exists(pc, reg)) {
		if (!apic_cell_lvt_write_ok(pc, reg, (u32)value))
			return X2APIC_CELL_FAILED;
		apic_write(pc, reg, (u32)value);
		return X2APIC_DONE;
	}
	return X2APIC_GP; /* read-only or reserved */
}

enum exit_action apic_cell_x2apic_msr(struct per_cpu *pc,
				      struct guest_regs *regs, bool write)
{
	u32 msr = (u32)regs->rcx;
	u64 value = regs->rdx << 32 | (u32)regs->rax;
	enum x2apic_result result;

	if (msr < MSR_X2APIC_FIRST || msr > MSR_X2APIC_LAST)
		return EXIT_INJECT_GP;
	result = x2apic_emulate(pc, regs, msr - MSR_X2APIC_FIRST, write, value);
	if (result == X2APIC_CELL_FAILED)
		return EXIT_CELL_FAILED;
	if (result == X2APIC_GP) {
		cell_printk(pc->cell,
			    "Cell %u, CPU %u: %s of x2APIC MSR 0x%x%s (#GP "
			    "injected)\n",
			    pc->cell->id, pc->cpu_id, write ? "write" : "read",
			    msr, pc->arch.guest_x2apic ? "" : " in xAPIC mode");
		return EXIT_INJECT_GP;
	}
	return EXIT_SKIP;
}

enum mmio_result apic_cell_mmio(void *ctx, struct per_cpu *pc,
				struct mmio_access *a)
{
	(void)ctx;
	if (a->size != 4 || (a->offset & 3))
		return MMIO_REFUSED;
	if (!a->write)
		a->value = apic_cell_mmio_read(pc, (unsigned int)a->offset);
	else if (!apic_cell_mmio_write(pc, (unsigned int)a->offset,
				       (u32)a->value))
		return MMIO_CELL_FAILED;
	return MMIO_HANDLED;
}
