// SPDX-License-Identifier: GPL-2.0
/*
 * The state of a CPU after INIT in real mode, as the guest-state area
 * holds it (contract in vmx/entry_check.h).  The unit tests run the
 * VM-entry checks of the tools (common/vmx_guest_check.c) on it.
 */
#include <asm/cpu_rules.h>
#include <vmx/entry_check.h>

void vmx_real_mode_state(struct warden_vmx_guest_state *s, u64 cs_base, u16 ip,
			 u64 cr0_keep, u64 cr4_keep)
{
	unsigned int i;

	*s = (struct warden_vmx_guest_state){ 0 };
	/* CR0: ET, what VMX keeps (NE); no PE, no PG */
	s->cr0 = CR0_ET | cr0_keep;
	s->cr4 = cr4_keep;
	s->dr7 = 0x400;
	s->pat = 0x0007040600070406ull; /* the power-on PAT */
	/* data segments: selector 0, base 0, limit 64 KiB, read/write
	 * accessed, present (access rights 0x93) */
	for (i = 0; i < WARDEN_VMX_SEG_COUNT; i++)
		s->seg[i] = (struct warden_vmx_segment){ .limit = 0xffff,
							 .ar = 0x93 };
	s->seg[WARDEN_VMX_SEG_CS] = (struct warden_vmx_segment){
		.selector = (u16)(cs_base >> 4),
		.limit = 0xffff,
		.ar = 0x9b,
		.base = cs_base,
	};
	/* TR a busy TSS, LDTR an LDT, both usable (27.3.1.2) */
	s->seg[WARDEN_VMX_SEG_TR].ar = 0x8b;
	s->seg[WARDEN_VMX_SEG_LDTR].ar = 0x82;
	s->gdtr_limit = 0xffff;
	s->idtr_limit = 0xffff;
	s->rip = ip;
	s->rflags = 2;
	s->link_pointer = ~0ull;
	s->load_debug = true;
	s->load_pat = true;
	s->load_efer = true;
	s->unrestricted = true;
	s->ept = true;
}
