/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 model-specific register numbers used by Warden (Intel SDM Vol. 4,
 * "Model-Specific Registers"), shared by the hypervisor, the driver's
 * hardware probe and the CLI's capability evaluator.
 */
#ifndef WARDEN_X86_MSR_H
#define WARDEN_X86_MSR_H

#define MSR_IA32_FEATURE_CONTROL 0x0000003a
#define FEATURE_CONTROL_LOCKED (1ull << 0)
#define FEATURE_CONTROL_VMX_INSIDE_SMX (1ull << 1)
#define FEATURE_CONTROL_VMX_OUTSIDE_SMX (1ull << 2)

#define MSR_IA32_PAT 0x00000277
#define MSR_IA32_EFER 0xc0000080
#define IA32_EFER_SVME (1ull << 12) /* SVM enabled (APM Vol. 2, 3.1.7) */
/* AMD (APM Vol. 2, 15.30): SVM's own MSRs and the system configuration */
#define MSR_AMD_SYSCFG 0xc0010010
/* HWCR bit 4: INVD is carried out as WBINVD (the BKDGs and PPRs of
 * families 10h-19h, MSRC001_0015) */
#define MSR_AMD_HWCR 0xc0010015
#define AMD_HWCR_INVDWBINVD (1ull << 4)
#define MSR_AMD_VM_CR 0xc0010114
#define AMD_VM_CR_LOCK (1ull << 3)
#define AMD_VM_CR_SVMDIS (1ull << 4)
#define MSR_AMD_VM_HSAVE_PA 0xc0010117

/* VMX capability MSRs (SDM Vol. 3, Appendix A). */
#define MSR_IA32_VMX_BASIC 0x00000480
#define MSR_IA32_VMX_PINBASED_CTLS 0x00000481
#define MSR_IA32_VMX_PROCBASED_CTLS 0x00000482
#define MSR_IA32_VMX_EXIT_CTLS 0x00000483
#define MSR_IA32_VMX_ENTRY_CTLS 0x00000484
#define MSR_IA32_VMX_MISC 0x00000485
#define MSR_IA32_VMX_CR0_FIXED0 0x00000486
#define MSR_IA32_VMX_CR0_FIXED1 0x00000487
#define MSR_IA32_VMX_CR4_FIXED0 0x00000488
#define MSR_IA32_VMX_CR4_FIXED1 0x00000489
#define MSR_IA32_VMX_VMCS_ENUM 0x0000048a
#define MSR_IA32_VMX_PROCBASED_CTLS2 0x0000048b
#define MSR_IA32_VMX_EPT_VPID_CAP 0x0000048c
#define MSR_IA32_VMX_TRUE_PINBASED_CTLS 0x0000048d
#define MSR_IA32_VMX_TRUE_PROCBASED_CTLS 0x0000048e
#define MSR_IA32_VMX_TRUE_EXIT_CTLS 0x0000048f
#define MSR_IA32_VMX_TRUE_ENTRY_CTLS 0x00000490
#define MSR_IA32_VMX_VMFUNC 0x00000491

#endif /* WARDEN_X86_MSR_H */
