// SPDX-License-Identifier: GPL-2.0
/*
 * MSR policies, allow-lists: an MSR is passed through (no exit), emulated
 * (exits, answered by the hypervisor), or refused.  Root's refused access
 * exits and Linux gets #GP, which its *_safe accessors turn into an error
 * code, and the console names the MSR: nothing unexpected kills Linux
 * silently.  A cell's refused access fails the cell (its own CPU's
 * architectural MSRs are all it may touch).
 *
 * The list covers what Linux 6.1 touches on Intel and AMD CPUs, including the
 * MTRR/PAT rendezvous when a CPU is onlined (0x200-0x2ff, 0x277, 0x8b,
 * 0x3a, TSC_ADJUST; docs/hypervisor.md).  The vendor turns the policy into
 * its permission map (msr_policy_walk).
 */
#include <asm/access_log.h>
#include <asm/apic.h>
#include <asm/arch_cell.h>
#include <asm/cpu_rules.h>
#include <asm/exit.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>
#include <warden/stats.h>
#include <x86/msr.h>

struct msr_range {
	u32 first, last;
};

/* Passed through for reads and writes. */
static const struct msr_range allowed[] = {
	{ 0x00000000, 0x00000001 }, /* P5 machine check */
	{ 0x00000010, 0x00000010 }, /* TSC */
	/* read-only; the microcode loader reads it with rdmsr (no _safe)
	 * when a CPU comes online */
	{ 0x00000017, 0x00000017 }, /* PLATFORM_ID */
	{ 0x0000001b, 0x0000001b }, /* APIC base */
	{ 0x0000002a, 0x0000002a }, /* EBL_CR_POWERON */
	{ 0x00000034, 0x00000034 }, /* SMI count */
	{ 0x0000003b, 0x0000003b }, /* TSC_ADJUST */
	{ 0x00000048, 0x00000049 }, /* SPEC_CTRL, PRED_CMD */
	{ 0x00000079, 0x00000079 }, /* microcode update trigger */
	{ 0x0000008b, 0x0000008b }, /* microcode revision */
	{ 0x0000009e, 0x0000009e }, /* SGX/misc */
	{ 0x000000c1, 0x000000c8 }, /* performance counters */
	{ 0x000000ce, 0x000000ce }, /* PLATFORM_INFO */
	{ 0x000000e1, 0x000000e2 }, /* package C-state config */
	{ 0x000000e7, 0x000000e8 }, /* MPERF, APERF */
	{ 0x000000fe, 0x000000fe }, /* MTRRCAP */
	{ 0x0000010a, 0x0000010b }, /* ARCH_CAPABILITIES, FLUSH_CMD */
	{ 0x00000122, 0x00000123 }, /* TSX_CTRL, MCU_OPT_CTRL */
	{ 0x00000140, 0x00000140 }, /* MISC_FEATURE_ENABLES */
	{ 0x00000174, 0x00000176 }, /* SYSENTER */
	{ 0x00000179, 0x0000017b }, /* MCG */
	{ 0x00000186, 0x0000018f }, /* PERFEVTSEL */
	{ 0x00000198, 0x0000019a }, /* PERF_STATUS/CTL, CLOCK_MODULATION */
	{ 0x0000019b, 0x000001a2 }, /* THERM_*, MISC_ENABLE, TEMPERATURE */
	{ 0x000001a4, 0x000001a4 }, /* MISC_FEATURE_CONTROL */
	{ 0x000001aa, 0x000001aa }, /* MISC_PWR_MGMT */
	{ 0x000001ad, 0x000001ad }, /* TURBO_RATIO_LIMIT */
	{ 0x000001b0, 0x000001b1 }, /* ENERGY_PERF_BIAS, PACKAGE_THERM */
	{ 0x000001b2, 0x000001b2 }, /* PACKAGE_THERM_INTERRUPT */
	{ 0x000001c9, 0x000001c9 }, /* LASTBRANCH_TOS */
	{ 0x000001d9, 0x000001d9 }, /* DEBUGCTL */
	{ 0x000001dd, 0x000001de }, /* LER */
	{ 0x00000200, 0x000002ff }, /* MTRRs, PAT (0x277) */
	{ 0x00000309, 0x0000030b }, /* fixed performance counters */
	{ 0x00000345, 0x00000345 }, /* PERF_CAPABILITIES */
	{ 0x0000038d, 0x00000390 }, /* perf global control */
	{ 0x000003f1, 0x000003f1 }, /* PEBS_ENABLE */
	{ 0x000003f8, 0x000003fe }, /* C-state residency */
	{ 0x00000400, 0x0000047f }, /* MCi banks */
	{ 0x000004c1, 0x000004c8 }, /* full-width counters */
	{ 0x00000600, 0x00000600 }, /* DS_AREA */
	{ 0x00000606, 0x00000606 }, /* RAPL power unit */
	{ 0x00000610, 0x0000061f }, /* RAPL package */
	{ 0x00000638, 0x0000064f }, /* RAPL PP0/PP1, config TDP */
	{ 0x00000690, 0x000006b1 }, /* perf limit reasons */
	{ 0x000006e0, 0x000006e0 }, /* TSC_DEADLINE */
	{ 0x00000770, 0x00000777 }, /* HWP */
	{ 0x00000800, 0x000008ff }, /* x2APIC */
	{ 0x00000c8d, 0x00000c8f }, /* PQM/RESCTRL: stock kernels write it */
	{ 0x00000d90, 0x00000d90 }, /* BNDCFGS */
	{ 0x00000da0, 0x00000da0 }, /* XSS */
	{ 0xc0000080, 0xc0000084 }, /* EFER, STAR, LSTAR, CSTAR, FMASK */
	{ 0xc0000100, 0xc0000103 }, /* FS/GS/KERNEL_GS base, TSC_AUX */
	/* AMD (APM Vol. 2, Appendix A; the BKDGs of families 10h-17h) */
	{ 0xc0000408, 0xc000040f }, /* MC4 miscellaneous thresholds */
	{ 0xc0010000, 0xc0010007 }, /* legacy PERF_CTL0-3, PERF_CTR0-3 */
	{ 0xc0010015, 0xc0010015 }, /* HWCR */
	/* NB_CFG: Linux enables extended PCI config access (EnableCf8ExtCfg)
	 * when a CPU comes online */
	{ 0xc001001f, 0xc001001f },
	{ 0xc0010062, 0xc0010064 }, /* P-state control, status, P0 */
	{ 0xc0010140, 0xc0010141 }, /* OSVW ID length, status */
	{ 0xc0010200, 0xc001020b }, /* core PERF_CTL/PERF_CTR 0-5 */
	{ 0xc0010240, 0xc0010247 }, /* northbridge performance counters */
	{ 0xc0011020, 0xc0011023 }, /* LS/IC/DC/BU_CFG: errata, SSBD */
	{ 0xc0011029, 0xc001102a }, /* DE_CFG (LFENCE), BU_CFG2 */
	{ 0xc0011030, 0xc001103a }, /* IBS */
};

/*
 * Read-only for root: AMD configuration Linux reads when it starts a CPU
 * or sizes memory, and whose writes would reach beyond root's share.
 * SVM's own MSRs (VM_CR, VM_HSAVE_PA) and SYSCFG are never passed
 * through: emulated_read answers them.
 */
static const struct msr_range root_read_only[] = {
	{ 0xc0010016, 0xc001001a }, /* IORR base/mask, TOP_MEM */
	{ 0xc001001d, 0xc001001d }, /* TOP_MEM2 */
	{ 0xc0010058, 0xc0010058 }, /* MMIO configuration base (MMCONFIG) */
	{ 0xc0011004, 0xc0011005 }, /* CPUID feature masks */
	{ 0xc001100c, 0xc001100c }, /* NODE_ID */
};

/*
 * What a cell's guest may touch: the architectural MSRs of a CPU running
 * in long mode and its own APIC, nothing that reaches beyond its CPU
 * (MTRRs, microcode, power and performance controls stay root's).
 */
static const struct msr_range cell_allowed[] = {
	{ 0x00000174, 0x00000176 }, /* SYSENTER */
	{ 0x00000277, 0x00000277 }, /* PAT */
	{ 0x000006e0, 0x000006e0 }, /* TSC_DEADLINE */
	{ 0x00000800, 0x000008ff }, /* x2APIC (ICR writes checked) */
	{ 0xc0000080, 0xc0000084 }, /* EFER, STAR, LSTAR, CSTAR, FMASK */
	{ 0xc0000100, 0xc0000103 }, /* FS/GS base, KERNEL_GS_BASE, TSC_AUX */
};

/* Read-only for a cell: the TSC is shared time (Linux checks that the
 * TSCs agree when it onlines the CPU again). */
static const struct msr_range cell_read_only[] = {
	{ 0x00000010, 0x00000010 }, /* TSC */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in_ranges(const struct msr_range *r, unsigned int n, u32 msr)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (msr >= r[i].first && msr <= r[i].last)
			return true;
	return false;
}

static bool is_allowed(struct per_cpu *pc, u32 msr, bool write)
{
	if (pc->cell != &hv.root)
		return in_ranges(cell_allowed, COUNT(cell_allowed), msr) ||
		       (!write &&
			in_ranges(cell_read_only, COUNT(cell_read_only), msr));
	return in_ranges(allowed, COUNT(allowed), msr) ||
	       (!write &&
		in_ranges(root_read_only, COUNT(root_read_only), msr));
}

static void
walk_ranges(const struct msr_range *r, unsigned int n, bool write,
	    void (*pass)(void *ctx, u32 first, u32 last, bool write), void *ctx)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		pass(ctx, r[i].first, r[i].last, write);
}

void msr_policy_walk(bool root, bool x2apic,
		     void (*pass)(void *ctx, u32 first, u32 last, bool write),
		     void (*intercept)(void *ctx, u32 msr, bool write),
		     void *ctx)
{
	u32 msr;

	if (root) {
		walk_ranges(allowed, COUNT(allowed), true, pass, ctx);
		walk_ranges(root_read_only, COUNT(root_read_only), false, pass,
			    ctx);
		/* root's APIC must stay where the hypervisor traps it
		 * (apic.c) */
		intercept(ctx, MSR_IA32_APIC_BASE, true);
	} else {
		walk_ranges(cell_allowed, COUNT(cell_allowed), true, pass, ctx);
		walk_ranges(cell_read_only, COUNT(cell_read_only), false, pass,
			    ctx);
		/* LVT writes are checked (apic_cell_lvt_write_ok) */
		intercept(ctx, MSR_X2APIC_FIRST + APIC_REG_LVT_CMCI, true);
		for (msr = MSR_X2APIC_FIRST + APIC_REG_LVT_TIMER;
		     msr <= MSR_X2APIC_FIRST + APIC_REG_LVT_ERROR; msr++)
			intercept(ctx, msr, true);
		/* on a physical xAPIC the cell's x2APIC is emulated
		 * (apic_cell.c) */
		if (!x2apic)
			for (msr = MSR_X2APIC_FIRST; msr <= MSR_X2APIC_LAST;
			     msr++) {
				intercept(ctx, msr, false);
				intercept(ctx, msr, true);
			}
	}
	/* x2APIC ICR writes are checked and INIT/SIPI emulated (apic.c) */
	intercept(ctx, MSR_X2APIC_ICR, true);
	/* PAT writes are checked (pat_write): SVM would pass a reserved
	 * type to G_PAT unchecked where the CPU does not refuse it */
	intercept(ctx, MSR_IA32_PAT, true);
	/* root may not clear HWCR.INVDWBINVD (hwcr_write) */
	if (root)
		intercept(ctx, MSR_AMD_HWCR, true);
}

__cold int msr_maps_build(struct arch_cell *a, bool root, bool x2apic,
			  u8 *(*build)(bool root, bool x2apic))
{
	a->msr_bitmap = build(root, x2apic);
	if (!a->msr_bitmap)
		return -WARDEN_ENOMEM;
	if (root || !x2apic)
		return 0;
	a->msr_bitmap_xapic = build(false, false);
	return a->msr_bitmap_xapic ? 0 : -WARDEN_ENOMEM;
}

/*
 * Emulated reads: IA32_FEATURE_CONTROL says VMX is locked off (the root
 * cannot use VMX), the VMX capability MSRs read as 0 rather than #GP.
 * On AMD, VM_CR says SVM is disabled and locked (APM Vol. 2, 15.30.1),
 * VM_HSAVE_PA reads as 0, and SYSCFG as it is (Linux's MTRR and memory
 * encryption code reads it; writes are refused).
 */
static bool emulated_read(u32 msr, u64 *value)
{
	if (msr == MSR_AMD_VM_CR) {
		*value = AMD_VM_CR_SVMDIS | AMD_VM_CR_LOCK;
		return true;
	}
	if (msr == MSR_AMD_VM_HSAVE_PA) {
		*value = 0;
		return true;
	}
	if (msr == MSR_AMD_SYSCFG)
		return read_msr_safe(msr, value);
	if (msr == MSR_IA32_FEATURE_CONTROL) {
		*value = FEATURE_CONTROL_LOCKED;
		return true;
	}
	if (msr >= MSR_IA32_VMX_BASIC && msr <= MSR_IA32_VMX_VMFUNC) {
		*value = 0;
		return true;
	}
	return false;
}

/*
 * EFER, when the vendor makes its accesses exit (SVM keeps EFER.SVME set
 * underneath, svm_cell.c; VMX passes EFER through): the guest reads its
 * own view, and a write is checked against the rules (cpu_rules.c) before
 * it reaches the guest state.
 */
static enum exit_action efer_access(struct per_cpu *pc, struct guest_regs *regs,
				    bool write)
{
	struct cpu_view v;
	u64 value;
	int rule;

	vcpu_view(&v);
	if (!write) {
		regs->rax = (u32)v.efer;
		regs->rdx = v.efer >> 32;
		return EXIT_SKIP;
	}
	value = (regs->rdx << 32) | (u32)regs->rax;
	rule = efer_check(&v, &value, guest_limits.efer_allowed);
	if (rule)
		return refuse_guest_value(pc, "WRMSR to EFER", value, rule);
	vcpu_set_efer(value);
	return EXIT_SKIP;
}

/*
 * WRMSR to IA32_PAT, on both vendors: a reserved memory type gets the
 * #GP the CPU raises (SDM Vol. 3, 13.12.2; APM Vol. 2, 7.8.1), named on
 * the console; a valid value becomes the guest's PAT, loaded at the next
 * entry (VMX's IA32_PAT field, SVM's G_PAT).  SVM needs the check: VMRUN
 * loads G_PAT as it finds it, and the value goes back to the CPU's PAT
 * when the hypervisor gives a CPU back to Linux (cpu.c).
 */
static enum exit_action pat_write(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 value = (regs->rdx << 32) | (u32)regs->rax;
	int rule = pat_check(value);

	if (rule)
		return refuse_guest_value(pc, "WRMSR to PAT", value, rule);
	vcpu_set_pat(value);
	return EXIT_SKIP;
}

/*
 * Root's WRMSR to AMD's HWCR: it may not clear INVDWBINVD (bit 4), which
 * turns INVD into WBINVD.  Guests' INVDs are refused anyway (exit.c), but
 * with the bit clear an INVD anywhere on the CPU -- in firmware's SMM
 * code, say -- would drop the dirty lines of every cell.  Everything else
 * in HWCR stays root's, as before.
 */
static enum exit_action hwcr_write(struct per_cpu *pc, struct guest_regs *regs)
{
	u64 value = (regs->rdx << 32) | (u32)regs->rax, now;

	if (read_msr_safe(MSR_AMD_HWCR, &now) && hwcr_check(now, value))
		return refuse_guest_value(pc, "WRMSR to HWCR", value,
					  HWCR_INVDWBINVD_CLEAR);
	if (!write_msr_safe(MSR_AMD_HWCR, value)) {
		cell_printk(pc->cell,
			    "CPU %u: write of MSR 0x%x (0x%llx) faulted (#GP "
			    "injected)",
			    pc->cpu_id, MSR_AMD_HWCR,
			    (unsigned long long)value);
		return EXIT_INJECT_GP;
	}
	return EXIT_SKIP;
}

/*
 * The Linux-cell policy (WARDEN_CELL_LINUX) for an MSR outside the cell's
 * lists: the few below read as 0 with writes dropped, because Linux reads
 * them with a plain rdmsr (where a #GP is a warning with a call trace, or,
 * before Linux has an IDT, a triple fault); every other one gets the #GP a
 * CPU without the MSR raises, which Linux's *_safe accessors turn into an
 * error code.  Nothing reaches the hardware; each MSR is counted in the
 * access log (docs/linux-cell.md lists what the stock kernel touched).
 */
static const struct msr_range linux_read_zero[] = {
	/* microcode revision, on Intel: early_init_intel writes 0 and reads
	 * it back with plain wrmsr/rdmsr (a warning each on bochs-vmx); 0:
	 * "no microcode loaded", which the cell cannot load anyway */
	{ 0x0000008b, 0x0000008b },
	/* MISC_ENABLE, on Intel: read in the kernel's first instructions
	 * (verify_cpu: XD disabled?, before any IDT) and again at CPU
	 * set-up; 0 says XD is not disabled and fast strings are off */
	{ 0x000001a0, 0x000001a0 },
};

static enum exit_action linux_msr(struct per_cpu *pc, struct guest_regs *regs,
				  u32 msr, bool write)
{
	enum access_kind kind = write ? ACCESS_MSR_WRITE : ACCESS_MSR_READ;

	if (in_ranges(linux_read_zero, COUNT(linux_read_zero), msr)) {
		access_log_record(pc, kind, msr, 0, ACCESS_READ_0);
		if (!write)
			regs->rax = regs->rdx = 0;
		return EXIT_SKIP;
	}
	access_log_record(pc, kind, msr, 0, ACCESS_GP);
	return EXIT_INJECT_GP;
}

enum exit_action x86_handle_msr(struct per_cpu *pc, struct guest_regs *regs,
				const struct x86_exit *e)
{
	bool write = e->kind != X86_EXIT_MSR_READ;
	enum access_kind kind = write ? ACCESS_MSR_WRITE : ACCESS_MSR_READ;
	u32 msr = (u32)regs->rcx;
	u64 value;

	/* on a physical x2APIC, a cell CPU whose guest APIC is in xAPIC
	 * mode has no x2APIC MSRs: its map makes them all exit, and they get
	 * the #GP the architecture gives (apic_cell.c) */
	if (msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST &&
	    pc->cell != &hv.root && pc->arch.x2apic && !pc->arch.guest_x2apic)
		return apic_cell_x2apic_msr(pc, regs, write);
	if (e->kind == X86_EXIT_X2APIC_ICR) {
		if (pc->cell == &hv.root)
			apic_root_icr_write(pc, (u32)regs->rax, (u32)regs->rdx);
		else if (!apic_cell_icr_write(pc, (u32)regs->rax,
					      (u32)regs->rdx))
			return EXIT_CELL_FAILED;
		return EXIT_SKIP;
	}
	if (msr == MSR_IA32_APIC_BASE && pc->cell != &hv.root)
		return apic_cell_base_msr(pc, regs, write);
	if (msr == MSR_IA32_APIC_BASE && write)
		return apic_root_base_write(pc, regs);
	if (msr >= MSR_X2APIC_FIRST && msr <= MSR_X2APIC_LAST &&
	    pc->cell != &hv.root && !pc->arch.x2apic)
		return apic_cell_x2apic_msr(pc, regs, write);
	if (msr == MSR_IA32_EFER)
		return efer_access(pc, regs, write);
	if (msr == MSR_IA32_PAT && write)
		return pat_write(pc, regs);
	if (msr == MSR_AMD_HWCR && write && pc->cell == &hv.root)
		return hwcr_write(pc, regs);
	/* Linux clears VM_HSAVE_PA on its way down (reboot, crash) when the
	 * CPU had SVM at boot: writing 0 asks for nothing, so it is done */
	if (msr == MSR_AMD_VM_HSAVE_PA && write && pc->cell == &hv.root &&
	    !regs->rax && !regs->rdx)
		return EXIT_SKIP;
	if (!write && emulated_read(msr, &value)) {
		access_log_record(pc, ACCESS_MSR_READ, msr, 0, ACCESS_DONE);
		regs->rax = (u32)value;
		regs->rdx = value >> 32;
		return EXIT_SKIP;
	}
	if (write && pc->cell != &hv.root &&
	    msr >= MSR_X2APIC_FIRST + APIC_REG_LVT_CMCI &&
	    msr <= MSR_X2APIC_FIRST + APIC_REG_LVT_ERROR &&
	    apic_lvt_exists(pc, msr - MSR_X2APIC_FIRST) &&
	    !apic_cell_lvt_write_ok(pc, msr - MSR_X2APIC_FIRST, (u32)regs->rax))
		return EXIT_CELL_FAILED;
	if (is_allowed(pc, msr, write)) {
		/* outside the bitmap's ranges: do it for the guest; a value
		 * the CPU refuses is the guest's #GP, not the hypervisor's */
		value = (regs->rdx << 32) | (u32)regs->rax;
		if (write ? !write_msr_safe(msr, value)
			  : !read_msr_safe(msr, &value)) {
			cell_printk(pc->cell,
				    "CPU %u: %s of MSR 0x%x (0x%llx) faulted "
				    "(#GP injected)",
				    pc->cpu_id, write ? "write" : "read", msr,
				    (unsigned long long)value);
			return EXIT_INJECT_GP;
		}
		if (!write) {
			regs->rax = (u32)value;
			regs->rdx = value >> 32;
		}
		access_log_record(pc, kind, msr, 0, ACCESS_DONE);
		return EXIT_SKIP;
	}
	if (pc->cell != &hv.root &&
	    (pc->cell->config->flags & WARDEN_CELL_LINUX))
		return linux_msr(pc, regs, msr, write);
	if (pc->cell != &hv.root) {
		/* a cell that reaches beyond its CPU is stopped */
		access_log_record(pc, kind, msr, 0, ACCESS_FAILED);
		cell_fail(pc,
			  write ? "write of a forbidden MSR"
				: "read of a forbidden MSR",
			  msr, vcpu_rip());
		return EXIT_CELL_FAILED;
	}
	cell_printk(pc->cell,
		    "CPU %u: root %s of MSR 0x%x refused (#GP "
		    "injected)",
		    pc->cpu_id, write ? "write" : "read", msr);
	return EXIT_INJECT_GP;
}
