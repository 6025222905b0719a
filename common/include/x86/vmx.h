/* SPDX-License-Identifier: GPL-2.0 */
/*
 * VMX capability and control bits (Intel SDM Vol. 3, chapter 25 "VM-Execution
 * Control Fields" ff. and Appendix A).  Control MSRs report allowed 0-settings
 * in bits 31:0 and allowed 1-settings in bits 63:32 (A.3): a control can be 1
 * when its bit is set in the high half.
 */
#ifndef WARDEN_X86_VMX_H
#define WARDEN_X86_VMX_H

/* IA32_VMX_BASIC (A.1) */
#define VMX_BASIC_REVISION(v) ((unsigned int)((v)&0x7fffffffu))
#define VMX_BASIC_VMCS_SIZE(v) ((unsigned int)(((v) >> 32) & 0x1fffu))
#define VMX_BASIC_32BIT_ADDRESSES (1ull << 48)
#define VMX_BASIC_MEMTYPE(v) ((unsigned int)(((v) >> 50) & 0xfu))
#define VMX_BASIC_TRUE_CONTROLS (1ull << 55)
#define VMX_MEMTYPE_WB 6

/* Pin-based controls (25.6.1) */
#define PIN_EXTERNAL_INTERRUPT_EXITING (1u << 0)
#define PIN_NMI_EXITING (1u << 3)
#define PIN_VIRTUAL_NMIS (1u << 5)
#define PIN_PREEMPTION_TIMER (1u << 6)

/* Primary processor-based controls (25.6.2) */
#define PROC_USE_IO_BITMAPS (1u << 25)
#define PROC_USE_MSR_BITMAPS (1u << 28)
#define PROC_ACTIVATE_SECONDARY (1u << 31)

/* Secondary processor-based controls (25.6.2) */
#define PROC2_VIRTUALIZE_APIC_ACCESSES (1u << 0)
#define PROC2_ENABLE_EPT (1u << 1)
#define PROC2_ENABLE_RDTSCP (1u << 3)
#define PROC2_VIRTUALIZE_X2APIC (1u << 4)
#define PROC2_ENABLE_VPID (1u << 5)
#define PROC2_UNRESTRICTED_GUEST (1u << 7)
#define PROC2_ENABLE_INVPCID (1u << 12)
#define PROC2_ENABLE_XSAVES (1u << 20)

/* VM-exit controls (25.7.1) */
#define EXIT_HOST_ADDRESS_SPACE_SIZE (1u << 9)
#define EXIT_SAVE_PAT (1u << 18)
#define EXIT_LOAD_PAT (1u << 19)
#define EXIT_SAVE_EFER (1u << 20)
#define EXIT_LOAD_EFER (1u << 21)

/* VM-entry controls (25.8.1) */
#define ENTRY_LOAD_DEBUG_CONTROLS (1u << 2)
#define ENTRY_IA32E_MODE_GUEST (1u << 9)
#define ENTRY_LOAD_PAT (1u << 14)
#define ENTRY_LOAD_EFER (1u << 15)

/* IA32_VMX_MISC (A.6) */
#define VMX_MISC_PREEMPTION_TIMER_RATE(v) ((unsigned int)((v)&0x1fu))
#define VMX_MISC_ACTIVITY_WAIT_FOR_SIPI (1ull << 8)

/* IA32_VMX_EPT_VPID_CAP (A.10) */
#define EPT_CAP_WALK_LENGTH_4 (1ull << 6)
#define EPT_CAP_MEMTYPE_WB (1ull << 14)
#define EPT_CAP_2M_PAGES (1ull << 16)
#define EPT_CAP_1G_PAGES (1ull << 17)
#define EPT_CAP_INVEPT (1ull << 20)
#define EPT_CAP_INVEPT_SINGLE (1ull << 25)
#define EPT_CAP_INVEPT_ALL (1ull << 26)
#define VPID_CAP_INVVPID (1ull << 32)
#define VPID_CAP_INVVPID_ADDRESS (1ull << 40)
#define VPID_CAP_INVVPID_SINGLE (1ull << 41)
#define VPID_CAP_INVVPID_ALL (1ull << 42)

/* CPUID bits: x86/cpuid.h */
#include "cpuid.h"

/* Control registers (Linux's headers define the same name) */
#ifndef X86_CR4_VMXE
#define X86_CR4_VMXE (1ul << 13)
#endif

#endif /* WARDEN_X86_VMX_H */
