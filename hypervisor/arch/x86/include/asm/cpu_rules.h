/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The architectural rules for values a guest makes the hypervisor load into
 * hardware on its behalf: CR0, CR4 (MOV to CR that exits), XCR0 (XSETBV),
 * EFER, PAT and DEBUGCTL (MSR writes the hypervisor carries out or loads at
 * VM entry).  One check per register, each returning the first rule the
 * value breaks, so that the guest gets the exception the hardware would
 * raise (cpu_rule_vector) and the console can name the rule
 * (cpu_rule_name).  Vendor-neutral: what the CPU supports comes in as
 * masks the caller computed (VMX: IA32_VMX_CR0/CR4_FIXED1; SVM: CPUID).
 *
 * Plain C without hardware access, also compiled into the unit tests.
 */
#ifndef WARDEN_ASM_CPU_RULES_H
#define WARDEN_ASM_CPU_RULES_H

#include <asm/vectors.h>
#include <hv/types.h>
#include <x86/regs.h>

/* The rules.  0 is "valid"; cpu_rule_name gives each its text. */
enum cpu_rule {
	CPU_RULE_OK = 0,
	CR0_RESERVED_HIGH,     /* bits 63:32 set */
	CR0_UNSUPPORTED,       /* a bit the CPU does not let CR0 hold */
	CR0_PG_WITHOUT_PE,     /* PG = 1, PE = 0 */
	CR0_NW_WITHOUT_CD,     /* NW = 1, CD = 0 */
	CR0_PG_LME_NO_PAE,     /* paging on with EFER.LME = 1, CR4.PAE = 0 */
	CR0_PG_CLEAR_64BIT,    /* paging off in 64-bit mode */
	CR0_PG_CLEAR_PCIDE,    /* paging off with CR4.PCIDE = 1 */
	CR0_WP_CLEAR_CET,      /* WP cleared with CR4.CET = 1 */
	CR4_UNSUPPORTED,       /* a reserved bit or one the CPU lacks */
	CR4_PAE_CLEAR_LONG,    /* PAE cleared in IA-32e mode */
	CR4_LA57_CHANGE,       /* LA57 changed in IA-32e mode */
	CR4_PCIDE_NOT_LONG,    /* PCIDE set outside IA-32e mode */
	CR4_PCIDE_CR3_PCID,    /* PCIDE set with CR3[11:0] != 0 */
	CR4_CET_WITHOUT_WP,    /* CET set with CR0.WP = 0 */
	EFER_UNSUPPORTED,      /* a reserved bit or one the CPU lacks */
	EFER_LME_WITH_PG,      /* LME changed while paging is on */
	XSETBV_NOT_XCR0,       /* ECX names an XCR other than 0 */
	XSETBV_NO_OSXSAVE,     /* CR4.OSXSAVE = 0: #UD */
	XSETBV_NOT_CPL0,       /* CPL > 0 */
	XCR0_NO_X87,	       /* bit 0 clear */
	XCR0_UNSUPPORTED,      /* a bit CPUID.(EAX=0DH,ECX=0) does not offer */
	XCR0_AVX_NO_SSE,       /* bit 2 without bit 1 */
	XCR0_AVX512_PARTIAL,   /* bits 7:5 neither all set nor all clear */
	XCR0_AVX512_NO_AVX,    /* bits 7:5 set without bits 2:1 */
	XCR0_MPX_PARTIAL,      /* bits 4:3 differ */
	XCR0_AMX_PARTIAL,      /* bits 18:17 differ */
	PAT_INVALID,	       /* an entry 2, 3 or 8-255 */
	DEBUGCTL_UNSUPPORTED,  /* a reserved bit or one the CPU lacks */
	HWCR_INVDWBINVD_CLEAR, /* root's HWCR write clears INVDWBINVD */
	CPU_RULE_COUNT
};

/* The guest's own view of the registers a rule depends on (what it reads,
 * not what the hardware holds under the hypervisor's masks). */
struct cpu_view {
	u64 cr0, cr3, cr4, efer;
	bool cs_long; /* CS.L: 64-bit code (in IA-32e mode) */
	unsigned int cpl;
};

/*
 * MOV to CR0 of *value (SDM Vol. 3, 2.5 and 4.1.2; Vol. 2, MOV to/from
 * control registers).  allowed: the bits the CPU lets CR0 hold.  Returns
 * 0 with *value made what CR0 then reads (reserved bits of 31:0 dropped,
 * ET set), or the broken rule.
 */
int cr0_check(const struct cpu_view *v, u64 *value, u64 allowed);

/* MOV to CR4 (SDM Vol. 3, 2.5, 4.1.2, 4.10.1).  allowed: the bits the CPU
 * supports and the guest may set. */
int cr4_check(const struct cpu_view *v, u64 value, u64 allowed);

/* WRMSR to IA32_EFER (SDM Vol. 3, 2.2.1, 4.1.2).  allowed: the bits the
 * CPU supports.  LMA is the CPU's to set: its written value is ignored,
 * so *value comes back with the current LMA. */
int efer_check(const struct cpu_view *v, u64 *value, u64 allowed);

/* EFER after a valid MOV to CR0 of cr0 (SDM Vol. 3, 10.8.5): LMA follows
 * paging when LME is set. */
u64 efer_after_cr0(const struct cpu_view *v, u64 cr0);

/* XSETBV of value into XCR index (SDM Vol. 1, 13.3; Vol. 2, XSETBV).
 * supported: CPUID.(EAX=0DH,ECX=0):EDX:EAX. */
int xcr0_check(const struct cpu_view *v, u32 index, u64 value, u64 supported);

/* WRMSR to IA32_PAT (SDM Vol. 3, 13.12.2): eight types, each 0, 1, 4, 5,
 * 6 or 7. */
int pat_check(u64 value);

/* Root's WRMSR of value to AMD's HWCR (MSRC001_0015) while it holds now:
 * INVDWBINVD (bit 4, INVD carried out as WBINVD) may be set but not
 * cleared.  A CPU that has it clear already may keep it clear. */
int hwcr_check(u64 now, u64 value);

/* WRMSR to IA32_DEBUGCTL: allowed are the bits the CPU implements. */
int debugctl_check(u64 value, u64 allowed);

/* The exception the hardware raises for the rule (GP_VECTOR or
 * UD_VECTOR), and the rule in words with its SDM reference. */
u8 cpu_rule_vector(int rule);
const char *cpu_rule_name(int rule);

#endif /* WARDEN_ASM_CPU_RULES_H */
