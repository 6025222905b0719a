// SPDX-License-Identifier: GPL-2.0
/*
 * CPUID for a cell that runs a stock Linux kernel (WARDEN_CELL_LINUX;
 * contract in asm/exit.h), after the masking every guest gets (emulate.c).
 * Decided from the access map of the stock kernel (docs/linux-cell.md):
 *  - features whose MSRs a cell may not touch are hidden, so that Linux
 *    does not look for them: machine check (MCE, MCA: MCG_CAP and the
 *    banks), MTRRs (MTRRcap, MTRRdefType: Linux then keeps PAT off too),
 *    PDCM (PERF_CAPABILITIES), TSC_ADJUST, MONITOR/MWAIT (intel_idle's
 *    POWER_CTL and C-state MSRs), the thermal and power MSRs (ACPI, TM, TM2,
 *    EST, leaf 6 but ARAT), the performance monitors (leaf 0xa; AMD's
 *    core, northbridge and L3 counters, IBS, LWP), the resource director
 *    (leaves 0xf, 0x10), the speculation controls (SPEC_CTRL, PRED_CMD,
 *    FLUSH_CMD, ARCH_CAPABILITIES, MCU_OPT_CTRL: leaf 7 EDX, 0x80000008
 *    EBX), AMD's P-state and core-boost MSRs (0x80000007 EDX but the
 *    invariant TSC) and memory encryption (0x8000001f);
 *  - the hypervisor leaves announce KVM ("KVMKVMKVM") with no feature
 *    (0x40000001 all zero), the hypervisor bit set: Linux keeps the
 *    x2APIC without interrupt remapping only under a hypervisor it knows
 *    (linux arch/x86/kernel/kvm.c, kvm_para_available), and every KVM
 *    paravirtual feature is gated by a bit of 0x40000001 it does not
 *    see; 0x40000100 says "WardenWarden" for warden.ko in the cell;
 *  - on Intel, leaves 0x15 and 0x16 give the TSC rate Warden measured
 *    (a 1:1 ratio of a "crystal" at the TSC's rate; base and maximum
 *    MHz), never the host's: an emulator announces rates its TSC does
 *    not run at (Linux prefers these leaves to measuring).
 */
#include <asm/exit.h>
#include <asm/processor.h>
#include <hv/hypervisor.h>
#include <x86/cpuid.h>

#define BIT(n) (1u << (n))

/* "GenuineIntel" in leaf 0's EBX. */
#define CPUID0_EBX_INTEL 0x756e6547u

void cpuid_linux(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	u32 khz = hv.header->tsc_khz, max, vendor, x;

	(void)sub;
	switch (leaf) {
	case 1:
		*d &= ~(BIT(7) | BIT(12) | BIT(14) | BIT(22) | BIT(29));
		/* MONITOR/MWAIT too: Linux's intel_idle then stays away (it
		 * writes POWER_CTL, 0x1fc, with a plain wrmsr: bochs-vmx);
		 * the cell idles with HLT, which does not exit */
		*c &= ~(BIT(2) | BIT(3) | BIT(4) | BIT(7) | BIT(8) | BIT(15));
		*c |= CPUID1_ECX_HYPERVISOR;
		return;
	case 5: /* MONITOR/MWAIT, hidden above */
		*a = *b = *c = *d = 0;
		return;
	case 6:
		*a &= BIT(2); /* ARAT: the APIC timer runs in deep C-states */
		*b = *c = *d = 0;
		return;
	case 7:
		if (sub == 0) {
			/* TSC_ADJUST (Linux reads it with a plain rdmsr when
			 * the bit is set: bochs-vmx), RDT monitoring, alloc */
			*b &= ~(BIT(1) | BIT(12) | BIT(15));
			*c &= ~BIT(5); /* WAITPKG */
			*d &= ~(BIT(9) | BIT(26) | BIT(27) | BIT(28) | BIT(29) |
				BIT(31));
		}
		return;
	case 0xa:
	case 0xf:
	case 0x10:
		*a = *b = *c = *d = 0;
		return;
	case 0x15:
	case 0x16:
		cpuid(0, 0, &max, &vendor, &x, &x);
		if (vendor != CPUID0_EBX_INTEL || !khz)
			return;
		if (leaf == 0x15) {
			*a = 1;
			*b = 1;
			*c = khz * 1000u;
			*d = 0;
		} else {
			*a = *b = khz / 1000u;
			*c = 100;
			*d = 0;
		}
		return;
	case 0x40000000:
		*a = 0x40000001;
		*b = 0x4b4d564b; /* "KVMK" */
		*c = 0x564b4d56; /* "VMKV" */
		*d = 0x0000004d; /* "M\0\0\0" */
		return;
	case 0x40000100:
		/* Warden's own signature, behind KVM's: Linux takes the
		 * first known signature from 0x40000000 on (KVM's), and no
		 * hypervisor it knows answers "WardenWarden"; warden.ko scans
		 * the range the same way and finds it (docs/linux-cell.md
		 * "Network") */
		*a = 0x40000100;
		*b = 0x64726157; /* "Ward" */
		*c = 0x61576e65; /* "enWa" */
		*d = 0x6e656472; /* "rden" */
		return;
	case 0x80000001:
		*d &= ~(BIT(7) | BIT(12) | BIT(14));
		*c &= ~(BIT(10) | BIT(12) | BIT(13) | BIT(15) | BIT(17) |
			BIT(19) | BIT(23) | BIT(24) | BIT(28));
		return;
	case 0x80000007:
		*d &= BIT(8); /* the invariant TSC */
		*a = *b = *c = 0;
		return;
	case 0x80000008:
		*b &= ~(BIT(12) | BIT(14) | BIT(15) | BIT(16) | BIT(17) |
			BIT(18) | BIT(24) | BIT(25));
		return;
	case 0x8000001f:
	case 0x80000020:
	case 0x80000022:
		*a = *b = *c = *d = 0;
		return;
	default:
		if (leaf > 0x40000000 && leaf < 0x40010000)
			*a = *b = *c = *d = 0;
		return;
	}
}
