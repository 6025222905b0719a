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
 * Plain C without hardware access, also compiled into the unit tests.
 */
#ifndef WARDEN_VMX_ENTRY_CHECK_H
#define WARDEN_VMX_ENTRY_CHECK_H

#include <hv/types.h>

/* Segment registers in the VMCS order of their fields. */
enum vmx_seg {
	VMX_SEG_ES,
	VMX_SEG_CS,
	VMX_SEG_SS,
	VMX_SEG_DS,
	VMX_SEG_FS,
	VMX_SEG_GS,
	VMX_SEG_LDTR,
	VMX_SEG_TR,
	VMX_SEG_COUNT
};

struct vmx_segment {
	u16 selector;
	u64 base;
	u32 limit;
	u32 ar; /* access rights in the VMCS format; bit 16 unusable */
};

/* The guest-state area and the entry controls the checks read. */
struct vmx_guest_state {
	u64 cr0, cr3, cr4, dr7;
	u64 debugctl, sysenter_esp, sysenter_eip, pat, efer;
	struct vmx_segment seg[VMX_SEG_COUNT];
	u64 gdtr_base, idtr_base;
	u32 gdtr_limit, idtr_limit;
	u64 rip, rflags;
	u32 activity, interruptibility;
	u64 pending_dbg, link_pointer;
	u64 pdpte[4];
	/* controls */
	bool ia32e_guest, load_debug, load_pat, load_efer;
	bool unrestricted, ept, virtual_nmis;
	u32 entry_intr_info;
};

/* What the CPU allows (its VMX capability MSRs and CPUID). */
struct vmx_entry_limits {
	u64 cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	unsigned int phys_bits;	  /* MAXPHYADDR */
	unsigned int linear_bits; /* 48, or 57 with 5-level paging */
	u64 debugctl_allowed, efer_allowed;
	u32 activity_states; /* bit n: activity state n supported */
};

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

/*
 * The state of a CPU after INIT and a start in real mode at cs_base:ip
 * (SDM Vol. 3, 9.1.1, Table 9-1), as the guest-state area holds it under
 * unrestricted guest: the real CR0 keeps the bits VMX needs (cr0_keep; the
 * guest reads REAL_MODE_CR0_SHADOW), CR4 cr4_keep (the guest reads 0).
 * Any 16-byte-aligned cs_base below 4 GiB is valid: a SIPI's vector v
 * gives v << 12, a cell's reset address its 64 KiB-aligned part.  The
 * entry controls it sets: not IA-32e, load debug controls, PAT and EFER.
 */
#define REAL_MODE_CR0_SHADOW 0x60000010ull
void vmx_real_mode_state(struct vmx_guest_state *s, u64 cs_base, u16 ip,
			 u64 cr0_keep, u64 cr4_keep);

/* The first rule state breaks, or VMX_GUEST_OK.  *seg receives the
 * segment a segment rule is about (enum vmx_seg), else VMX_SEG_COUNT. */
int vmx_guest_check(const struct vmx_guest_state *state,
		    const struct vmx_entry_limits *limits, int *seg);

/* The rule in words, with its SDM section; the segment's name. */
const char *vmx_guest_rule_name(int rule);
const char *vmx_seg_name(int seg);

#endif /* WARDEN_VMX_ENTRY_CHECK_H */
