/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A failed VM entry on Intel VMX (revision 11): what the CPU refused.
 *
 * With exit reason 33 ("invalid guest state", SDM Vol. 3C, 27.8) VMX names
 * no field.  The hypervisor keeps the guest-state area and the entry
 * controls of the CPU's last such entry, with the limits the CPU reported
 * (its VMX capability MSRs and MAXPHYADDR), and root reads them word by
 * word through WARDEN_HC_CPU_GET_INFO (hypercall.h); user space through
 * WARDEN_IOCTL_CPU_ENTRY_FAILURE (ioctl.h).  "warden status" runs the
 * checks of SDM 27.3.1 on them (common/vmx_guest_check.c) and names the
 * first rule broken: the checker and its 50 rule names live in the tools,
 * not in the hypervisor's image (issue 31, the 128 KiB image).
 */
#ifndef WARDEN_VMX_ENTRY_H
#define WARDEN_VMX_ENTRY_H

#include "abi.h"

/* Segment registers in the VMCS order of their fields (SDM B.1.2). */
enum warden_vmx_seg {
	WARDEN_VMX_SEG_ES,
	WARDEN_VMX_SEG_CS,
	WARDEN_VMX_SEG_SS,
	WARDEN_VMX_SEG_DS,
	WARDEN_VMX_SEG_FS,
	WARDEN_VMX_SEG_GS,
	WARDEN_VMX_SEG_LDTR,
	WARDEN_VMX_SEG_TR,
	WARDEN_VMX_SEG_COUNT
};

struct warden_vmx_segment {
	uint16_t selector;
	uint16_t reserved;
	uint32_t limit;
	uint32_t ar; /* access rights in the VMCS format; bit 16 unusable */
	uint32_t reserved2;
	uint64_t base;
};
WARDEN_CHECK_SIZE(struct warden_vmx_segment, 24);

/* The guest-state area and the entry controls the checks read. */
struct warden_vmx_guest_state {
	uint64_t cr0, cr3, cr4, dr7;
	uint64_t debugctl, sysenter_esp, sysenter_eip, pat, efer;
	struct warden_vmx_segment seg[WARDEN_VMX_SEG_COUNT];
	uint64_t gdtr_base, idtr_base;
	uint32_t gdtr_limit, idtr_limit;
	uint64_t rip, rflags;
	uint32_t activity, interruptibility;
	uint64_t pending_dbg, link_pointer;
	uint64_t pdpte[4];
	/* controls, 0 or 1 */
	uint8_t ia32e_guest, load_debug, load_pat, load_efer;
	uint8_t unrestricted, ept, virtual_nmis, reserved;
	uint32_t entry_intr_info;
	uint32_t reserved2;
};
WARDEN_CHECK_OFFSET(struct warden_vmx_guest_state, seg, 72);
WARDEN_CHECK_OFFSET(struct warden_vmx_guest_state, pdpte, 328);
WARDEN_CHECK_SIZE(struct warden_vmx_guest_state, 376);

/* What the CPU allows (its VMX capability MSRs and CPUID). */
struct warden_vmx_entry_limits {
	uint64_t cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	uint32_t phys_bits;   /* MAXPHYADDR */
	uint32_t linear_bits; /* 48, or 57 with 5-level paging */
	uint64_t debugctl_allowed, efer_allowed;
	uint32_t activity_states; /* bit n: activity state n supported */
	uint32_t reserved;
};
WARDEN_CHECK_SIZE(struct warden_vmx_entry_limits, 64);

/* One CPU's last entry that failed with exit reason 33. */
struct warden_vmx_entry_failure {
	uint32_t exit_reason; /* 33; 0: no such entry on this CPU */
	uint32_t cell_id;     /* the cell whose guest it was */
	struct warden_vmx_entry_limits limits;
	struct warden_vmx_guest_state state;
};
WARDEN_CHECK_OFFSET(struct warden_vmx_entry_failure, state, 72);
WARDEN_CHECK_SIZE(struct warden_vmx_entry_failure, 448);

/* The record as WARDEN_HC_CPU_GET_INFO reads it: 32-bit words (a
 * hypercall's result is non-negative), in memory order. */
#define WARDEN_VMX_ENTRY_WORDS (sizeof(struct warden_vmx_entry_failure) / 4)

#endif /* WARDEN_VMX_ENTRY_H */
