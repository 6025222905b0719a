// SPDX-License-Identifier: GPL-2.0
/*
 * Architectural rules for guest values the hypervisor loads (contract in
 * asm/cpu_rules.h).  Each check lists the rules in the order the SDM
 * gives them and returns the first one broken.
 */
#include <asm/cpu_rules.h>

static bool in_ia32e_mode(const struct cpu_view *v)
{
	return v->efer & EFER_LMA_BIT;
}

int cr0_check(const struct cpu_view *v, u64 *value, u64 allowed)
{
	u64 cr0 = *value, old = v->cr0;

	/* 64-bit mode: bits 63:32 are reserved and #GP (MOV CR, Vol. 2) */
	if (cr0 >> 32)
		return CR0_RESERVED_HIGH;
	/* setting reserved bits of 31:0 has no effect; ET is hardwired */
	cr0 = (cr0 & CR0_DEFINED) | CR0_ET;
	if (cr0 & ~(allowed | CR0_ET))
		return CR0_UNSUPPORTED;
	if ((cr0 & CR0_PG) && !(cr0 & CR0_PE))
		return CR0_PG_WITHOUT_PE;
	if ((cr0 & CR0_NW) && !(cr0 & CR0_CD))
		return CR0_NW_WITHOUT_CD;
	/* SDM Vol. 3, 4.1.2 (Figure 4-1): paging on with LME needs PAE */
	if ((cr0 & CR0_PG) && !(old & CR0_PG) && (v->efer & EFER_LME_BIT) &&
	    !(v->cr4 & CR4_PAE))
		return CR0_PG_LME_NO_PAE;
	if (!(cr0 & CR0_PG) && (old & CR0_PG)) {
		/* IA-32e mode is left from compatibility mode only */
		if (in_ia32e_mode(v) && v->cs_long)
			return CR0_PG_CLEAR_64BIT;
		/* SDM Vol. 3, 4.10.1 */
		if (v->cr4 & CR4_PCIDE)
			return CR0_PG_CLEAR_PCIDE;
	}
	/* SDM Vol. 3, 2.5: CET requires WP */
	if (!(cr0 & CR0_WP) && (v->cr4 & CR4_CET))
		return CR0_WP_CLEAR_CET;
	*value = cr0;
	return CPU_RULE_OK;
}

int cr4_check(const struct cpu_view *v, u64 value, u64 allowed)
{
	u64 old = v->cr4;

	if (value & ~allowed)
		return CR4_UNSUPPORTED;
	/* SDM Vol. 3, 4.1.2 */
	if (in_ia32e_mode(v) && !(value & CR4_PAE))
		return CR4_PAE_CLEAR_LONG;
	if (in_ia32e_mode(v) && ((value ^ old) & CR4_LA57))
		return CR4_LA57_CHANGE;
	/* SDM Vol. 3, 4.10.1 */
	if ((value & CR4_PCIDE) && !(old & CR4_PCIDE)) {
		if (!in_ia32e_mode(v))
			return CR4_PCIDE_NOT_LONG;
		if (v->cr3 & 0xfff)
			return CR4_PCIDE_CR3_PCID;
	}
	/* SDM Vol. 3, 2.5 */
	if ((value & CR4_CET) && !(v->cr0 & CR0_WP))
		return CR4_CET_WITHOUT_WP;
	return CPU_RULE_OK;
}

int efer_check(const struct cpu_view *v, u64 *value, u64 allowed)
{
	u64 efer = *value;

	if (efer & ~(allowed | EFER_LMA_BIT))
		return EFER_UNSUPPORTED;
	/* SDM Vol. 3, 4.1.2: LME cannot change while paging is on */
	if ((v->cr0 & CR0_PG) && ((efer ^ v->efer) & EFER_LME_BIT))
		return EFER_LME_WITH_PG;
	*value = (efer & ~EFER_LMA_BIT) | (v->efer & EFER_LMA_BIT);
	return CPU_RULE_OK;
}

u64 efer_after_cr0(const struct cpu_view *v, u64 cr0)
{
	u64 efer = v->efer;

	if (!(cr0 & CR0_PG))
		return efer & ~EFER_LMA_BIT;
	if (!(v->cr0 & CR0_PG) && (efer & EFER_LME_BIT))
		return efer | EFER_LMA_BIT;
	return efer;
}

int xcr0_check(const struct cpu_view *v, u32 index, u64 value, u64 supported)
{
	u64 avx512 = value & XCR0_AVX512;

	/* SDM Vol. 2, XSETBV: #UD without OSXSAVE, #GP at CPL > 0 or for
	 * an XCR other than 0 */
	if (!(v->cr4 & CR4_OSXSAVE))
		return XSETBV_NO_OSXSAVE;
	if (v->cpl)
		return XSETBV_NOT_CPL0;
	if (index != 0)
		return XSETBV_NOT_XCR0;
	/* SDM Vol. 1, 13.3 */
	if (!(value & XCR0_X87))
		return XCR0_NO_X87;
	if (value & ~supported)
		return XCR0_UNSUPPORTED;
	if ((value & XCR0_AVX) && !(value & XCR0_SSE))
		return XCR0_AVX_NO_SSE;
	if (avx512 && avx512 != XCR0_AVX512)
		return XCR0_AVX512_PARTIAL;
	if (avx512 && (value & (XCR0_SSE | XCR0_AVX)) != (XCR0_SSE | XCR0_AVX))
		return XCR0_AVX512_NO_AVX;
	if (!(value & XCR0_BNDREGS) != !(value & XCR0_BNDCSR))
		return XCR0_MPX_PARTIAL;
	if (!(value & XCR0_TILECFG) != !(value & XCR0_TILEDATA))
		return XCR0_AMX_PARTIAL;
	return CPU_RULE_OK;
}

int pat_check(u64 value)
{
	return x86_pat_valid(value) ? CPU_RULE_OK : PAT_INVALID;
}

int hwcr_check(u64 now, u64 value)
{
	u64 invdwbinvd = 1ull << 4;

	return (now & invdwbinvd) && !(value & invdwbinvd)
		       ? HWCR_INVDWBINVD_CLEAR
		       : CPU_RULE_OK;
}

int debugctl_check(u64 value, u64 allowed)
{
	return (value & ~allowed) ? DEBUGCTL_UNSUPPORTED : CPU_RULE_OK;
}

u8 cpu_rule_vector(int rule)
{
	return rule == XSETBV_NO_OSXSAVE ? UD_VECTOR : GP_VECTOR;
}

static const char *const names[CPU_RULE_COUNT] = {
	[CPU_RULE_OK] = "valid",
	[CR0_RESERVED_HIGH] = "CR0 bits 63:32 are reserved (SDM Vol. 2, MOV "
			      "to CR0)",
	[CR0_UNSUPPORTED] = "a CR0 bit this CPU cannot set (IA32_VMX_CR0_"
			    "FIXED1)",
	[CR0_PG_WITHOUT_PE] = "CR0.PG needs CR0.PE (SDM Vol. 3, 2.5)",
	[CR0_NW_WITHOUT_CD] = "CR0.NW needs CR0.CD (SDM Vol. 3, 2.5)",
	[CR0_PG_LME_NO_PAE] = "paging with EFER.LME needs CR4.PAE (SDM Vol. "
			      "3, 4.1.2)",
	[CR0_PG_CLEAR_64BIT] = "CR0.PG cleared in 64-bit mode (SDM Vol. 2, "
			       "MOV to CR0)",
	[CR0_PG_CLEAR_PCIDE] = "CR0.PG cleared with CR4.PCIDE set (SDM Vol. "
			       "3, 4.10.1)",
	[CR0_WP_CLEAR_CET] = "CR0.WP cleared with CR4.CET set (SDM Vol. 3, "
			     "2.5)",
	[CR4_UNSUPPORTED] = "a reserved CR4 bit or one this CPU or guest "
			    "lacks (SDM Vol. 3, 2.5)",
	[CR4_PAE_CLEAR_LONG] = "CR4.PAE cleared in IA-32e mode (SDM Vol. 3, "
			       "4.1.2)",
	[CR4_LA57_CHANGE] = "CR4.LA57 changed in IA-32e mode (SDM Vol. 2, "
			    "MOV to CR4)",
	[CR4_PCIDE_NOT_LONG] = "CR4.PCIDE set outside IA-32e mode (SDM Vol. "
			       "3, 4.10.1)",
	[CR4_PCIDE_CR3_PCID] = "CR4.PCIDE set with CR3[11:0] nonzero (SDM "
			       "Vol. 3, 4.10.1)",
	[CR4_CET_WITHOUT_WP] = "CR4.CET set with CR0.WP clear (SDM Vol. 3, "
			       "2.5)",
	[EFER_UNSUPPORTED] = "a reserved EFER bit or one this CPU lacks (SDM "
			     "Vol. 3, 2.2.1)",
	[EFER_LME_WITH_PG] = "EFER.LME changed while paging is on (SDM Vol. "
			     "3, 4.1.2)",
	[XSETBV_NOT_XCR0] = "XSETBV of an XCR other than XCR0 (SDM Vol. 2, "
			    "XSETBV)",
	[XSETBV_NO_OSXSAVE] = "XSETBV with CR4.OSXSAVE clear (SDM Vol. 2, "
			      "XSETBV)",
	[XSETBV_NOT_CPL0] = "XSETBV at CPL > 0 (SDM Vol. 2, XSETBV)",
	[XCR0_NO_X87] = "XCR0 bit 0 (x87) must be set (SDM Vol. 1, 13.3)",
	[XCR0_UNSUPPORTED] = "an XCR0 bit CPUID.(EAX=0DH,ECX=0) does not "
			     "offer (SDM Vol. 1, 13.3)",
	[XCR0_AVX_NO_SSE] = "XCR0: AVX needs SSE (SDM Vol. 1, 13.3)",
	[XCR0_AVX512_PARTIAL] = "XCR0: the AVX-512 bits 7:5 go together "
				"(SDM Vol. 1, 13.3)",
	[XCR0_AVX512_NO_AVX] = "XCR0: AVX-512 needs SSE and AVX (SDM Vol. 1, "
			       "13.3)",
	[XCR0_MPX_PARTIAL] = "XCR0: the MPX bits 4:3 go together (SDM Vol. "
			     "1, 13.3)",
	[XCR0_AMX_PARTIAL] = "XCR0: the AMX bits 18:17 go together (SDM Vol. "
			     "1, 13.3)",
	[PAT_INVALID] = "a PAT entry with a reserved memory type (SDM Vol. "
			"3, 13.12.2)",
	[DEBUGCTL_UNSUPPORTED] = "a reserved DEBUGCTL bit or one this CPU "
				 "lacks (SDM Vol. 3, 18.4.1)",
	[HWCR_INVDWBINVD_CLEAR] = "HWCR.INVDWBINVD cleared: INVD would drop "
				  "other cells' dirty cache lines (AMD PPR, "
				  "MSRC001_0015[4])",
};

const char *cpu_rule_name(int rule)
{
	if (rule < 0 || rule >= CPU_RULE_COUNT || !names[rule])
		return "unknown rule";
	return names[rule];
}
