// SPDX-License-Identifier: GPL-2.0
/*
 * The local APIC (contracts in asm/apic.h).
 *
 * Root CPU hot-plug: Linux starts a CPU with INIT, SIPI, SIPI.  A real
 * INIT cannot reach a CPU in VMX root operation and a SIPI is dropped
 * unless the target waits for one, so the physical sequence races with
 * the hypervisor (and the emulator's wait-for-SIPI guest state is not
 * reliable).  Root's INIT and SIPI IPIs are therefore emulated: the ICR
 * write traps, the target gets an event NMI and waits in the hypervisor
 * for the SIPI, which restarts its guest in real mode.  The state of that
 * hand-over is one word per CPU (pc->arch.sipi):
 *   SIPI_NONE -> (INIT) SIPI_WAIT -> (seen) SIPI_WAITING
 *             -> (SIPI v) SIPI_GO | v << 8 -> (restarted) SIPI_NONE
 * (a SIPI may also come before the CPU saw its INIT).
 */
#include <asm/apic.h>
#include <asm/apic_dest.h>
#include <asm/guest.h>
#include <asm/insn.h>
#include <asm/exit.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <x86/cpuid.h>
#include <hv/string.h>
#include <warden/config.h>

#define SIPI_NONE 0u
#define SIPI_WAIT 1u
#define SIPI_WAITING 3u
#define SIPI_GO 2u

static u64 apic_phys;

int apic_init_system(void)
{
	u64 base = read_msr(MSR_IA32_APIC_BASE);

	apic_phys = base & APIC_BASE_ADDR_MASK;
	if (base & APIC_BASE_X2APIC)
		return 0; /* MSR access only */
	return pt_map(&hv.hv_pt, APIC_HV_VIRT, apic_phys, PAGE_SIZE,
		      MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC);
}

u32 apic_read(struct per_cpu *pc, unsigned int reg)
{
	if (pc->arch.x2apic)
		return (u32)read_msr(MSR_X2APIC_FIRST + reg);
	return *(volatile u32 *)(APIC_HV_VIRT + reg * 16);
}

void apic_write(struct per_cpu *pc, unsigned int reg, u32 value)
{
	if (pc->arch.x2apic)
		write_msr(MSR_X2APIC_FIRST + reg, value);
	else
		*(volatile u32 *)(APIC_HV_VIRT + reg * 16) = value;
}

bool apic_write_guest(struct per_cpu *pc, unsigned int reg, u32 value)
{
	if (pc->arch.x2apic)
		return write_msr_safe(MSR_X2APIC_FIRST + reg, value);
	*(volatile u32 *)(APIC_HV_VIRT + reg * 16) = value;
	return true;
}

/* Send an IPI from this CPU's physical APIC; dest is an APIC ID (or
 * logical destination) in the format of the APIC's mode. */
#define ICR_BUSY_SPINS 1000000

void apic_send(struct per_cpu *pc, u32 dest, u32 low)
{
	unsigned int n;

	if (pc->arch.x2apic) {
		write_msr(MSR_X2APIC_ICR, (u64)dest << 32 | low);
		return;
	}
	/* xAPIC: one IPI at a time (SDM Vol. 3, 11.6.1: delivery status);
	 * the APIC clears it within a bus cycle or so: a bound, not a wait
	 * anyone could stretch */
	for (n = 0; n < ICR_BUSY_SPINS &&
		    (apic_read(pc, APIC_REG_ICR) & APIC_ICR_BUSY);
	     n++)
		cpu_relax();
	apic_write(pc, APIC_REG_ICR2, dest << 24);
	apic_write(pc, APIC_REG_ICR, low);
}

__cold void apic_init_cpu(struct per_cpu *pc)
{
	pc->arch.x2apic = read_msr(MSR_IA32_APIC_BASE) & APIC_BASE_X2APIC;
	pc->arch.apic_max_lvt = (apic_read(pc, APIC_REG_VER) >> 16) & 0xff;
	pc->arch.ldr = apic_read(pc, APIC_REG_LDR);
	pc->arch.dfr = pc->arch.x2apic ? 0 : apic_read(pc, APIC_REG_DFR);
	pc->arch.sipi = SIPI_NONE;
	pc->arch.event_nmi = false;
}

/* LVT registers that exist (SDM Vol. 3, 11.5.1: VER bits 23:16 hold the
 * number of LVT entries minus 1; 4 = timer, LINT0, LINT1, error; then
 * performance counters, thermal, CMCI); an x2APIC faults on the others. */
bool apic_lvt_exists(struct per_cpu *pc, unsigned int reg)
{
	unsigned int max = pc->arch.apic_max_lvt;

	switch (reg) {
	case APIC_REG_LVT_PERF:
		return max >= 4;
	case APIC_REG_LVT_THERMAL:
		return max >= 5;
	case APIC_REG_LVT_CMCI:
		return max >= 6;
	}
	return reg >= APIC_REG_LVT_TIMER && reg <= APIC_REG_LVT_ERROR;
}

bool apic_reg_exists(struct per_cpu *pc, unsigned int reg)
{
	return apic_lvt_exists(pc, reg) || reg == APIC_REG_ID ||
	       reg == APIC_REG_VER || reg == APIC_REG_TPR ||
	       reg == APIC_REG_PPR || reg == APIC_REG_LDR ||
	       reg == APIC_REG_SVR ||
	       (reg >= APIC_REG_ISR && reg < APIC_REG_IRR + 8) ||
	       reg == APIC_REG_ESR || reg == APIC_REG_ICR ||
	       reg == APIC_REG_TMICT || reg == APIC_REG_TMCCT ||
	       reg == APIC_REG_TDCR;
}

/* Any bit set in the 8 registers from first on (ISR, IRR)? */
static bool any_set(struct per_cpu *pc, unsigned int first)
{
	unsigned int reg;

	for (reg = first; reg < first + 8; reg++)
		if (apic_read(pc, reg))
			return true;
	return false;
}

/* The reset left interrupts in service or pending: say which, highest
 * vectors first (the next owner would see them). */
static void not_clean(struct per_cpu *pc)
{
	u32 w[16];
	unsigned int i;

	for (i = 0; i < 8; i++) {
		w[i] = apic_read(pc, APIC_REG_ISR + 7 - i);
		w[8 + i] = apic_read(pc, APIC_REG_IRR + 7 - i);
	}
	printk("WARNING: CPU %u: APIC not clean after its reset: ISR %08x "
	       "%08x %08x %08x %08x %08x %08x %08x IRR %08x %08x %08x %08x "
	       "%08x %08x %08x %08x SVR 0x%x TPR 0x%x PPR 0x%x\n",
	       pc->cpu_id, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8],
	       w[9], w[10], w[11], w[12], w[13], w[14], w[15],
	       apic_read(pc, APIC_REG_SVR), apic_read(pc, APIC_REG_TPR),
	       apic_read(pc, APIC_REG_PPR));
}

/* EOI until no interrupt is in service: each EOI retires the highest
 * vector in the ISR (SDM Vol. 3, 11.8.5), so 256 are always enough. */
static void retire_in_service(struct per_cpu *pc)
{
	unsigned int n;

	for (n = 0; n < 256 && any_set(pc, APIC_REG_ISR); n++)
		apic_write(pc, APIC_REG_EOI, 0);
}

__cold void apic_reset(struct per_cpu *pc)
{
	unsigned int reg, n;

	/* What the previous owner set up must not fire for the next: every
	 * LVT masked, the timer stopped, interrupts in service retired.  The
	 * mode stays: leaving x2APIC needs the globally disabled state (SDM
	 * Vol. 3, 11.12.5), and Bochs 2.7 ignores every IA32_APIC_BASE write
	 * while the APIC is disabled, so the APIC would stay dead.  The
	 * masked one-shot LVT also takes the timer out of TSC-deadline mode,
	 * which disarms a deadline the owner left (SDM Vol. 3, 11.5.4.1). */
	for (reg = APIC_REG_LVT_CMCI; reg <= APIC_REG_LVT_ERROR; reg++)
		if (apic_lvt_exists(pc, reg))
			apic_write(pc, reg, APIC_LVT_MASKED);
	apic_write(pc, APIC_REG_TMICT, 0);
	apic_write(pc, APIC_REG_TPR, 0);
	/* software-enabled (IPIs and NMIs work, and the IRR drains below),
	 * spurious vector 0xff */
	apic_write(pc, APIC_REG_SVR, APIC_SVR_ENABLE | 0xff);
	retire_in_service(pc);
	/* Interrupts accepted but not yet delivered (IRR) would reach the
	 * next owner, and software cannot clear the IRR: take them here,
	 * where hv_drop_irq retires each with an EOI, as the INIT of a real
	 * hand-over would have dropped them (SDM Vol. 3, 11.4.7.3). */
	pc->arch.irqs_dropped = 0;
	for (n = 0; n < 256 && any_set(pc, APIC_REG_IRR); n++)
		x86_take_pending_irq();
	if (pc->arch.irqs_dropped)
		printk("CPU %u: dropped %u pending interrupt(s) of its "
		       "previous owner\n",
		       pc->cpu_id, pc->arch.irqs_dropped);
	/* An interrupt with an illegal vector that an emulator accepted
	 * anyway (apic_dest.h) went, as vector 2, through the NMI gate,
	 * which sends no EOI: retire what is still in service again. */
	retire_in_service(pc);
	apic_write(pc, APIC_REG_ESR, 0);
	if (any_set(pc, APIC_REG_ISR) || any_set(pc, APIC_REG_IRR))
		not_clean(pc);
}

void apic_send_nmi(struct per_cpu *target)
{
	struct per_cpu *pc = this_cpu();

	/* One NMI in flight is enough: the target clears the flag when it
	 * takes the NMI and then looks at every event. */
	if (!__atomic_exchange_n(&target->arch.event_nmi, true,
				 __ATOMIC_SEQ_CST))
		apic_send(pc, target->apic_id,
			  APIC_DM_NMI << 8 | APIC_ICR_ASSERT);
}

bool apic_take_event_nmi(struct per_cpu *pc)
{
	return __atomic_exchange_n(&pc->arch.event_nmi, false,
				   __ATOMIC_SEQ_CST);
}

/* Is CPU t a destination of root's IPI from CPU from? */
static bool is_destination(struct per_cpu *from, struct per_cpu *t, u32 low,
			   u32 dest)
{
	struct apic_target target = {
		.apic_id = t->apic_id,
		.ldr = t->arch.ldr,
		.dfr = t->arch.dfr,
	};

	return apic_is_destination(from->arch.x2apic, low, dest, &target,
				   t == from);
}

void apic_post_init(struct per_cpu *t)
{
	__atomic_store_n(&t->arch.sipi, SIPI_WAIT, __ATOMIC_SEQ_CST);
	apic_send_nmi(t);
}

void apic_post_sipi(struct per_cpu *t, u32 vector)
{
	u32 expected = SIPI_WAIT;

	/* a CPU that did not get INIT ignores SIPI, as the hardware does;
	 * any vector is valid: it starts the CPU at vector << 12 */
	if (!__atomic_compare_exchange_n(&t->arch.sipi, &expected,
					 SIPI_GO | vector << 8, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
		expected = SIPI_WAITING;
		__atomic_compare_exchange_n(&t->arch.sipi, &expected,
					    SIPI_GO | vector << 8, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
}

/*
 * Root's IPI other than INIT/SIPI.  While no other cell exists it goes to
 * the hardware as written.  Otherwise it may only reach root's CPUs:
 * every destination (shorthands and logical ones included) is resolved
 * and each root CPU among them gets its own physical unicast; cell CPUs
 * get nothing.  Never refused: Linux cannot tell.
 */
static void root_ipi(struct per_cpu *pc, u32 low, u32 dest)
{
	u32 unicast = low & ~(APIC_ICR_LOGICAL | (3u << 18));
	unsigned int cpu, id;
	struct per_cpu *t;
	bool cells = false;

	for (id = 1; id < HV_MAX_CELLS; id++)
		cells |= hv.cells[id] != NULL;
	if (!cells) {
		apic_send(pc, dest, low);
		return;
	}
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		if (t->cell == &hv.root && is_destination(pc, t, low, dest))
			apic_send(pc, t->apic_id, unicast);
	}
}

void apic_root_icr_write(struct per_cpu *pc, u32 low, u32 dest)
{
	unsigned int dm = APIC_ICR_DM(low), cpu;
	struct per_cpu *t;

	if (dm != APIC_DM_INIT && dm != APIC_DM_SIPI) {
		root_ipi(pc, low, dest);
		return;
	}
	/* INIT level de-assert only synchronises arbitration IDs on old
	 * APICs (SDM Vol. 3, 11.6.1): nothing to do. */
	if (dm == APIC_DM_INIT && !(low & APIC_ICR_ASSERT))
		return;
	for (cpu = 0; cpu < hv.num_cpus; cpu++) {
		t = per_cpu(cpu);
		if (!is_destination(pc, t, low, dest))
			continue;
		if (t->cell != &hv.root) {
			cell_printk(pc->cell,
				    "CPU %u: root sent %s to CPU %u of cell "
				    "%u; "
				    "dropped\n",
				    pc->cpu_id,
				    dm == APIC_DM_INIT ? "INIT" : "SIPI",
				    t->cpu_id, t->cell->id);
			continue;
		}
		if (t == pc) {
			cell_printk(pc->cell,
				    "CPU %u: root sent %s to itself; ignored",
				    pc->cpu_id,
				    dm == APIC_DM_INIT ? "INIT" : "SIPI");
			continue;
		}
		if (dm == APIC_DM_INIT)
			apic_post_init(t);
		else
			apic_post_sipi(t, APIC_ICR_VECTOR(low));
	}
}

void apic_init_received(struct per_cpu *pc)
{
	__atomic_store_n(&pc->arch.sipi, SIPI_WAIT, __ATOMIC_SEQ_CST);
}

void apic_init_cancel(struct per_cpu *pc)
{
	__atomic_store_n(&pc->arch.sipi, SIPI_NONE, __ATOMIC_SEQ_CST);
}

bool apic_sipi_ready(struct per_cpu *pc, struct guest_regs *regs)
{
	u32 state = __atomic_load_n(&pc->arch.sipi, __ATOMIC_SEQ_CST), sig, b,
	    c, d;

	if (state == SIPI_NONE)
		return true;
	if (state == SIPI_WAIT) {
		/* INIT discards whatever the guest had pending (SDM Vol. 3,
		 * 9.1); the CPU then waits for its SIPI */
		vcpu_drop_pending_events(pc);
		__atomic_compare_exchange_n(&pc->arch.sipi, &state,
					    SIPI_WAITING, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		return false;
	}
	if (state == SIPI_WAITING)
		return false;
	__atomic_store_n(&pc->arch.sipi, SIPI_NONE, __ATOMIC_SEQ_CST);
	cpuid(1, 0, &sig, &b, &c, &d);
	memset(regs, 0, sizeof(*regs));
	regs->rdx = sig; /* EDX after INIT: the CPU signature (SDM 9.1.4) */
	/* SIPI vector v: CS = v << 8, base v << 12, IP 0 (SDM 9.4.4.1) */
	vcpu_reset_to_real_mode((u64)(state >> 8) << 12, 0);
	/* the owner's memory may have changed while the CPU waited */
	vcpu_flush_second_level();
	cell_printk(pc->cell, "CPU %u: started by SIPI at 0x%x", pc->cpu_id,
		    (state >> 8) << 12);
	return true;
}

__cold enum exit_action apic_root_base_write(struct per_cpu *pc,
					     struct guest_regs *regs)
{
	u64 value = regs->rdx << 32 | (u32)regs->rax;
	u64 now = read_msr(MSR_IA32_APIC_BASE);
	u32 a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	if (!((value ^ now) & ~APIC_BASE_BSP))
		return EXIT_SKIP;
	/* xAPIC -> x2APIC at the same base, enabled: the one change a
	 * running system makes (SDM Vol. 3, 11.12.5); from then on this CPU
	 * is driven and trapped through MSRs */
	if (!pc->arch.x2apic && (c & CPUID1_ECX_X2APIC) &&
	    !((value ^ (now | APIC_BASE_X2APIC)) & ~APIC_BASE_BSP) &&
	    write_msr_safe(MSR_IA32_APIC_BASE, value)) {
		pc->arch.x2apic = true;
		pc->arch.ldr = apic_read(pc, APIC_REG_LDR);
		pc->arch.dfr = 0;
		vcpu_load_cell(pc);
		printk("CPU %u: root switched its APIC to x2APIC mode\n",
		       pc->cpu_id);
		return EXIT_SKIP;
	}
	cell_printk(pc->cell,
		    "CPU %u: root write of IA32_APIC_BASE 0x%llx refused (#GP "
		    "injected): it is 0x%llx; moving or disabling the APIC "
		    "would take it from the hypervisor",
		    pc->cpu_id, (unsigned long long)value,
		    (unsigned long long)now);
	return EXIT_INJECT_GP;
}

/* Perform root's access at APIC register offset off. */
static u32 root_read(struct per_cpu *pc, unsigned int off)
{
	if (off == APIC_REG_ICR2 * 16)
		return pc->arch.root_icr_high;
	return *(volatile u32 *)(APIC_HV_VIRT + off);
}

static void root_write(struct per_cpu *pc, unsigned int off, u32 value)
{
	switch (off) {
	case APIC_REG_ICR2 * 16:
		/* kept until root writes the ICR: the hypervisor sends its
		 * own IPIs in between */
		pc->arch.root_icr_high = value;
		return;
	case APIC_REG_ICR * 16:
		apic_root_icr_write(pc, value, pc->arch.root_icr_high >> 24);
		return;
	case APIC_REG_ID * 16:
		/* Another CPU's ID would receive that CPU's IPIs, a cell's
		 * included: the ID stays (SDM Vol. 3, 11.4.6 lets software
		 * change it on some CPUs). */
		cell_printk(pc->cell,
			    "CPU %u: root write of its APIC ID (0x%x) ignored",
			    pc->cpu_id, value);
		return;
	case APIC_REG_LDR * 16:
		pc->arch.ldr = value;
		break;
	case APIC_REG_DFR * 16:
		pc->arch.dfr = value;
		break;
	}
	*(volatile u32 *)(APIC_HV_VIRT + off) = value;
}

u64 apic_xapic_page(const struct cell *cell)
{
	return cell == &hv.root ? apic_phys : APIC_DEFAULT_BASE;
}

/* Root's access to its xAPIC page (registered by apic_unit.c): 32-bit
 * registers at 16-byte offsets (SDM Vol. 3, 11.4.1). */
enum mmio_result apic_root_mmio(void *ctx, struct per_cpu *pc,
				struct mmio_access *a)
{
	(void)ctx;
	if (a->size != 4 || (a->offset & 3))
		return MMIO_REFUSED;
	if (a->write)
		root_write(pc, (unsigned int)a->offset, (u32)a->value);
	else
		a->value = root_read(pc, (unsigned int)a->offset);
	return MMIO_HANDLED;
}
