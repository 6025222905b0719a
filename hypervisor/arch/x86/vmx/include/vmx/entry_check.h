/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest-state area as the VM-entry checks read it (warden/vmx_entry.h:
 * the record of a failed entry root reads; the checks themselves are in
 * the tools, common/vmx_guest_check.c), and the state of a CPU in real
 * mode that the hypervisor builds from it.
 *
 * Plain C without hardware access, also compiled into the unit tests.
 */
#ifndef WARDEN_VMX_ENTRY_CHECK_H
#define WARDEN_VMX_ENTRY_CHECK_H

#include <hv/types.h>
#include <warden/vmx_entry.h>

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
void vmx_real_mode_state(struct warden_vmx_guest_state *s, u64 cs_base, u16 ip,
			 u64 cr0_keep, u64 cr4_keep);

#endif /* WARDEN_VMX_ENTRY_CHECK_H */
