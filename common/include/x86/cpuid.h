/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPUID feature bits Warden uses (Intel SDM Vol. 2A, CPUID; AMD APM Vol. 3,
 * Appendix E), shared by the hypervisor, the driver's hardware probe and
 * the CLI's capability evaluator.
 */
#ifndef WARDEN_X86_CPUID_H
#define WARDEN_X86_CPUID_H

#define CPUID1_ECX_VMX (1u << 5)
#define CPUID1_ECX_X2APIC (1u << 21)
#define CPUID1_ECX_XSAVE (1u << 26)
#define CPUID1_ECX_OSXSAVE (1u << 27)
/* set by hypervisors for their guests (SDM: "not used"; reserved for them) */
#define CPUID1_ECX_HYPERVISOR (1u << 31)
#define CPUID7_EBX_INVPCID (1u << 10)
#define CPUID7_ECX_OSPKE (1u << 4)
#define CPUIDD1_EAX_XSAVES (1u << 3)
#define CPUID80000001_EDX_RDTSCP (1u << 27)
/* AMD SVM (APM Vol. 3, Appendix E.4.2 and E.4.9; Vol. 2, 15.4) */
#define CPUID80000001_ECX_SVM (1u << 2)
#define CPUID8000000A_EDX_NPT (1u << 0)
#define CPUID8000000A_EDX_NRIPS (1u << 3)
#define CPUID8000000A_EDX_VMCB_CLEAN (1u << 5)
#define CPUID8000000A_EDX_FLUSH_BY_ASID (1u << 6)
#define CPUID8000000A_EDX_DECODE_ASSISTS (1u << 7)
#define CPUID8000000A_EDX_AVIC (1u << 13)

#endif /* WARDEN_X86_CPUID_H */
