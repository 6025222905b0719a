/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks a VM entry makes on the guest-state area (SDM Vol. 3C, 27.3.1
 * "Checks on the Guest-State Area"), written out so that a VM entry that
 * failed with exit reason 33 ("invalid guest state", which names no field)
 * can be explained: vmx_guest_check() returns the first rule the state
 * breaks.  Only the rules for the controls Warden uses are covered
 * (unrestricted guest, EPT, IA-32e mode guest, load EFER/PAT/debug
 * controls, virtual NMIs; no VMCS shadowing, no CET or PKS state, no
 * LA57 guest paging).
 *
 * Plain C on the record the hypervisor keeps (warden/vmx_entry.h): built
 * into the CLI ("warden status") and the unit tests, not the hypervisor.
 */
#ifndef WARDEN_X86_VMX_GUEST_CHECK_H
#define WARDEN_X86_VMX_GUEST_CHECK_H

#include <warden/vmx_entry.h>

enum vmx_guest_rule {
	VMX_GUEST_OK = 0,
	VMXG_CR0_FIXED,
	VMXG_CR0_PG_PE,
	VMXG_CR4_FIXED,
	VMXG_CR4_CET_WP,
	VMXG_DEBUGCTL,
	VMXG_IA32E_PG_PAE,
	VMXG_PCIDE_NOT_IA32E,
	VMXG_CR3_RESERVED,
	VMXG_DR7_HIGH,
	VMXG_SYSENTER_CANONICAL,
	VMXG_PAT,
	VMXG_EFER_RESERVED,
	VMXG_EFER_LMA,
	VMXG_EFER_LME,
	VMXG_TR_TI,
	VMXG_LDTR_TI,
	VMXG_SS_RPL,
	VMXG_V86_SEGMENT,
	VMXG_BASE_CANONICAL,
	VMXG_BASE_HIGH,
	VMXG_CS_TYPE,
	VMXG_SS_TYPE,
	VMXG_DATA_TYPE,
	VMXG_S_BIT,
	VMXG_CS_DPL,
	VMXG_SS_DPL,
	VMXG_DATA_DPL,
	VMXG_PRESENT,
	VMXG_AR_RESERVED,
	VMXG_CS_L_D,
	VMXG_GRANULARITY,
	VMXG_TR_TYPE,
	VMXG_TR_AR,
	VMXG_LDTR_AR,
	VMXG_DTR_BASE,
	VMXG_DTR_LIMIT,
	VMXG_RIP,
	VMXG_RFLAGS_RESERVED,
	VMXG_RFLAGS_VM,
	VMXG_RFLAGS_IF,
	VMXG_ACTIVITY,
	VMXG_ACTIVITY_HLT_DPL,
	VMXG_INTR_RESERVED,
	VMXG_INTR_STI_MOVSS,
	VMXG_INTR_STI_IF,
	VMXG_INTR_INJECT,
	VMXG_PENDING_DBG,
	VMXG_PENDING_BS,
	VMXG_LINK_POINTER,
	VMXG_PDPTE,
	VMXG_RULE_COUNT
};

/* The first rule state breaks, or VMX_GUEST_OK.  *seg receives the
 * segment a segment rule is about (enum warden_vmx_seg), else
 * WARDEN_VMX_SEG_COUNT. */
int vmx_guest_check(const struct warden_vmx_guest_state *state,
		    const struct warden_vmx_entry_limits *limits, int *seg);

/* The rule in words, with its SDM section; the segment's name. */
const char *vmx_guest_rule_name(int rule);
const char *vmx_seg_name(int seg);

#endif /* WARDEN_X86_VMX_GUEST_CHECK_H */
