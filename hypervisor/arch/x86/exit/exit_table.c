// SPDX-License-Identifier: GPL-2.0
/*
 * The exit kind table (contract in asm/exit.h).  Plain data, also
 * compiled into the unit tests, which hold it against warden/stats.h.
 */
#include <asm/exit.h>
#include <warden/stats.h>

#define KIND(k, n, s, h)                                                       \
	[X86_EXIT_##k] = { .name = n,                                          \
			   .stat = WARDEN_STAT_VMEXITS_##s,                    \
			   .handler = h }

const struct x86_exit_kind_info x86_exit_kinds[X86_EXIT_KINDS] = {
	KIND(CPUID, "CPUID", CPUID, x86_handle_cpuid),
	KIND(CR, "CR access", CR, x86_handle_cr),
	KIND(MSR_READ, "RDMSR", MSR_READ, x86_handle_msr),
	KIND(MSR_WRITE, "WRMSR", MSR_WRITE, x86_handle_msr),
	KIND(X2APIC_ICR, "x2APIC ICR write", X2APIC_ICR, x86_handle_msr),
	KIND(XSETBV, "XSETBV", XSETBV, x86_handle_xsetbv),
	KIND(IO, "port I/O", PIO, x86_handle_io),
	KIND(XAPIC, "xAPIC access", XAPIC, x86_handle_xapic),
	KIND(MMIO, "second-level fault", MMIO, x86_handle_mmio),
	KIND(HYPERCALL, "hypercall", HYPERCALL, x86_handle_hypercall),
	KIND(EVENT, "event", MANAGEMENT, x86_handle_event),
	KIND(NMI, "NMI", NMI, x86_handle_nmi),
	KIND(NMI_WINDOW, "NMI window", NMI, x86_handle_event),
	KIND(INIT, "INIT", INIT_SIPI, x86_handle_init),
	KIND(SIPI, "SIPI", INIT_SIPI, x86_handle_sipi),
	KIND(EXCEPTION, "exception", EXCEPTION, x86_handle_exception),
	KIND(TRIPLE_FAULT, "triple fault", OTHER, x86_handle_triple_fault),
	KIND(VIRT_INSN, "virtualization instruction", OTHER,
	     x86_handle_virt_insn),
	KIND(ENTRY_FAILED, "VM entry failure", OTHER, x86_handle_entry_failed),
	KIND(INVD, "INVD", OTHER, x86_handle_invd),
	KIND(UNKNOWN, "unexpected exit", OTHER, x86_handle_unknown),
};
