/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Control-register, EFER and XCR0 bits, and the PAT's rule: what the
 * hypervisor's checks of guest values (asm/cpu_rules.h) and the VM-entry
 * checker of the tools (x86/vmx_guest_check.h) both name.
 */
#ifndef WARDEN_X86_REGS_H
#define WARDEN_X86_REGS_H

#include <stdbool.h>
#include <stdint.h>

/* Register bits the rules name (SDM Vol. 3, 2.5; Vol. 1, 13.3). */
#define CR0_PE (1ull << 0)
#define CR0_MP (1ull << 1)
#define CR0_EM (1ull << 2)
#define CR0_TS (1ull << 3)
#define CR0_ET (1ull << 4)
#define CR0_NE (1ull << 5)
#define CR0_WP (1ull << 16)
#define CR0_AM (1ull << 18)
#define CR0_NW (1ull << 29)
#define CR0_CD (1ull << 30)
#define CR0_PG (1ull << 31)
/* the bits MOV to CR0 takes; writes to the other bits of 31:0 are
 * ignored, ET reads as 1 (SDM Vol. 3, 2.5) */
#define CR0_DEFINED                                                            \
	(CR0_PE | CR0_MP | CR0_EM | CR0_TS | CR0_ET | CR0_NE | CR0_WP |        \
	 CR0_AM | CR0_NW | CR0_CD | CR0_PG)

#define CR4_PAE (1ull << 5)
#define CR4_LA57 (1ull << 12)
#define CR4_VMXE (1ull << 13)
#define CR4_PCIDE (1ull << 17)
#define CR4_OSXSAVE (1ull << 18)
#define CR4_CET (1ull << 23)

#define EFER_SCE_BIT (1ull << 0)
#define EFER_LME_BIT (1ull << 8)
#define EFER_LMA_BIT (1ull << 10)
#define EFER_NXE_BIT (1ull << 11)
#define EFER_SVME_BIT (1ull << 12)

#define XCR0_X87 (1ull << 0)
#define XCR0_SSE (1ull << 1)
#define XCR0_AVX (1ull << 2)
#define XCR0_BNDREGS (1ull << 3)
#define XCR0_BNDCSR (1ull << 4)
#define XCR0_OPMASK (1ull << 5)
#define XCR0_ZMM_HI256 (1ull << 6)
#define XCR0_HI16_ZMM (1ull << 7)
#define XCR0_TILECFG (1ull << 17)
#define XCR0_TILEDATA (1ull << 18)
#define XCR0_AVX512 (XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/* Each of the PAT's 8 entries holds a memory type: 2, 3 and above 7 are
 * reserved (SDM Vol. 3, 13.12.2; WRMSR and VM entry, 27.3.1.1, alike). */
static inline bool x86_pat_valid(uint64_t pat)
{
	unsigned int i;
	uint8_t type;

	for (i = 0; i < 8; i++) {
		type = (uint8_t)(pat >> (8 * i));
		if (type > 7 || type == 2 || type == 3)
			return false;
	}
	return true;
}

#endif /* WARDEN_X86_REGS_H */
