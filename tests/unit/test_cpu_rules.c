// SPDX-License-Identifier: GPL-2.0
/*
 * The architectural checks of guest values (hypervisor/arch/x86/
 * cpu_rules.c) against the SDM rules: for each register, values a guest
 * may load, and each rule broken on its own.
 */
#include "cmocka_wrap.h"
#include <asm/cpu_rules.h>

/* A CPU like the test machine's: everything up to AVX-512 and PKRU. */
#define XCR0_SUPPORTED 0x2ffull
/* CR0 bits allowed on a VMX CPU (IA32_VMX_CR0_FIXED1), CR4 bits of a
 * Skylake-X without VMXE (guests have no VMX) */
#define CR0_ALLOWED 0xffffffffull
#define CR4_ALLOWED (0x3727ffull & ~CR4_VMXE)
#define EFER_ALLOWED (EFER_SCE_BIT | EFER_LME_BIT | EFER_NXE_BIT)

/* Linux in 64-bit mode. */
static const struct cpu_view linux64 = {
	.cr0 = 0x80050033, /* PG WP NE ET MP PE */
	.cr3 = 0x1000,
	.cr4 = 0x3706f0 | CR4_OSXSAVE,
	.efer = EFER_SCE_BIT | EFER_LME_BIT | EFER_LMA_BIT | EFER_NXE_BIT,
	.cs_long = true,
};

/* A CPU after INIT: real mode. */
static const struct cpu_view reset = {
	.cr0 = 0x60000010,
};

static void cr0_values(void **state)
{
	struct cpu_view v = linux64;
	u64 cr0;

	(void)state;
	/* valid: the same, with TS, with CD+NW (caches off) */
	cr0 = linux64.cr0;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	assert_int_equal(cr0, linux64.cr0);
	cr0 = linux64.cr0 | CR0_TS | CR0_CD | CR0_NW;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	/* reserved bits of 31:0 are dropped, ET always reads 1 */
	cr0 = (linux64.cr0 & ~CR0_ET) | (1ull << 7) | (1ull << 20);
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	assert_int_equal(cr0, linux64.cr0);
	/* a real-mode CPU enables protection, then paging */
	v = reset;
	cr0 = 0x60000011;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	v.cr0 = 0x11;
	v.cr4 = CR4_PAE;
	v.efer = EFER_LME_BIT;
	cr0 = 0x80000011;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	assert_int_equal(efer_after_cr0(&v, cr0), EFER_LME_BIT | EFER_LMA_BIT);
	/* compatibility mode may leave IA-32e mode; LMA follows */
	v = linux64;
	v.cs_long = false;
	v.cr4 &= ~CR4_PCIDE;
	cr0 = linux64.cr0 & ~CR0_PG;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CPU_RULE_OK);
	assert_false(efer_after_cr0(&v, cr0) & EFER_LMA_BIT);
}

static void cr0_rules(void **state)
{
	struct cpu_view v = linux64;
	u64 cr0;

	(void)state;
	cr0 = linux64.cr0 | (1ull << 32);
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_RESERVED_HIGH);
	cr0 = linux64.cr0;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED & ~CR0_NE),
			 CR0_UNSUPPORTED);
	cr0 = linux64.cr0 & ~CR0_PE;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_PG_WITHOUT_PE);
	cr0 = linux64.cr0 | CR0_NW;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_NW_WITHOUT_CD);
	cr0 = linux64.cr0 & ~CR0_PG;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_PG_CLEAR_64BIT);
	v.cs_long = false;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_PG_CLEAR_PCIDE);
	v = reset;
	v.cr0 = 0x11;
	v.efer = EFER_LME_BIT;
	cr0 = 0x80000011;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_PG_LME_NO_PAE);
	v = linux64;
	v.cr4 |= CR4_CET;
	cr0 = linux64.cr0 & ~CR0_WP;
	assert_int_equal(cr0_check(&v, &cr0, CR0_ALLOWED), CR0_WP_CLEAR_CET);
	/* a refused value is left as it was */
	assert_int_equal(cr0, linux64.cr0 & ~CR0_WP);
}

static void cr4_rules(void **state)
{
	struct cpu_view v = linux64;

	(void)state;
	assert_int_equal(cr4_check(&v, linux64.cr4, CR4_ALLOWED), CPU_RULE_OK);
	assert_int_equal(cr4_check(&v, linux64.cr4 & ~(1ull << 7), CR4_ALLOWED),
			 CPU_RULE_OK);
	/* reserved bit 31; VMXE, which guests do not have; bit 63 */
	assert_int_equal(cr4_check(&v, linux64.cr4 | (1ull << 31), CR4_ALLOWED),
			 CR4_UNSUPPORTED);
	assert_int_equal(cr4_check(&v, linux64.cr4 | CR4_VMXE, CR4_ALLOWED),
			 CR4_UNSUPPORTED);
	assert_int_equal(cr4_check(&v, linux64.cr4 | (1ull << 63), CR4_ALLOWED),
			 CR4_UNSUPPORTED);
	assert_int_equal(cr4_check(&v, linux64.cr4 & ~CR4_PAE, CR4_ALLOWED),
			 CR4_PAE_CLEAR_LONG);
	assert_int_equal(cr4_check(&v, linux64.cr4 | CR4_LA57,
				   CR4_ALLOWED | CR4_LA57),
			 CR4_LA57_CHANGE);
	v.cr4 &= ~CR4_PCIDE;
	v.cr3 = 0x1005;
	assert_int_equal(cr4_check(&v, linux64.cr4, CR4_ALLOWED),
			 CR4_PCIDE_CR3_PCID);
	v.cr3 = 0x1000;
	assert_int_equal(cr4_check(&v, linux64.cr4, CR4_ALLOWED), CPU_RULE_OK);
	v = reset;
	assert_int_equal(cr4_check(&v, CR4_PCIDE, CR4_ALLOWED),
			 CR4_PCIDE_NOT_LONG);
	assert_int_equal(cr4_check(&v, CR4_PAE | CR4_LA57,
				   CR4_ALLOWED | CR4_LA57),
			 CPU_RULE_OK);
	v = linux64;
	v.cr0 &= ~CR0_WP;
	assert_int_equal(cr4_check(&v, linux64.cr4 | CR4_CET,
				   CR4_ALLOWED | CR4_CET),
			 CR4_CET_WITHOUT_WP);
}

static void efer_rules(void **state)
{
	struct cpu_view v = reset;
	u64 efer;

	(void)state;
	efer = EFER_LME_BIT | EFER_NXE_BIT | EFER_SCE_BIT;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), CPU_RULE_OK);
	/* LMA is the CPU's: a written LMA is ignored */
	efer = EFER_LME_BIT | EFER_LMA_BIT;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), CPU_RULE_OK);
	assert_int_equal(efer, EFER_LME_BIT);
	efer = EFER_SVME_BIT;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), EFER_UNSUPPORTED);
	efer = 1ull << 1;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), EFER_UNSUPPORTED);
	v = linux64;
	efer = linux64.efer & ~EFER_LME_BIT;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), EFER_LME_WITH_PG);
	efer = linux64.efer & ~EFER_NXE_BIT;
	assert_int_equal(efer_check(&v, &efer, EFER_ALLOWED), CPU_RULE_OK);
	assert_true(efer & EFER_LMA_BIT);
}

static void xcr0_rules(void **state)
{
	struct cpu_view v = linux64;

	(void)state;
	assert_int_equal(xcr0_check(&v, 0, 0x1, XCR0_SUPPORTED), CPU_RULE_OK);
	assert_int_equal(xcr0_check(&v, 0, 0x7, XCR0_SUPPORTED), CPU_RULE_OK);
	assert_int_equal(xcr0_check(&v, 0, 0xe7, XCR0_SUPPORTED), CPU_RULE_OK);
	assert_int_equal(xcr0_check(&v, 0, 0x2ff, XCR0_SUPPORTED), CPU_RULE_OK);
	assert_int_equal(xcr0_check(&v, 0, 0x1f, XCR0_SUPPORTED), CPU_RULE_OK);
	/* the case: x87 + AVX without SSE */
	assert_int_equal(xcr0_check(&v, 0, 0x5, XCR0_SUPPORTED),
			 XCR0_AVX_NO_SSE);
	assert_int_equal(xcr0_check(&v, 0, 0x6, XCR0_SUPPORTED), XCR0_NO_X87);
	assert_int_equal(xcr0_check(&v, 0, 0x0, XCR0_SUPPORTED), XCR0_NO_X87);
	assert_int_equal(xcr0_check(&v, 1, 0x1, XCR0_SUPPORTED),
			 XSETBV_NOT_XCR0);
	assert_int_equal(xcr0_check(&v, 0, 0x1 | (1ull << 10), XCR0_SUPPORTED),
			 XCR0_UNSUPPORTED);
	assert_int_equal(xcr0_check(&v, 0, 0x1 | (1ull << 63), XCR0_SUPPORTED),
			 XCR0_UNSUPPORTED);
	assert_int_equal(xcr0_check(&v, 0, 0x67, XCR0_SUPPORTED),
			 XCR0_AVX512_PARTIAL);
	assert_int_equal(xcr0_check(&v, 0, 0x87, XCR0_SUPPORTED),
			 XCR0_AVX512_PARTIAL);
	assert_int_equal(xcr0_check(&v, 0, 0xe3, XCR0_SUPPORTED),
			 XCR0_AVX512_NO_AVX);
	assert_int_equal(xcr0_check(&v, 0, 0xf, XCR0_SUPPORTED),
			 XCR0_MPX_PARTIAL);
	assert_int_equal(xcr0_check(&v, 0, 0x13, XCR0_SUPPORTED),
			 XCR0_MPX_PARTIAL);
	assert_int_equal(xcr0_check(&v, 0, 0x20003, 0x60003), XCR0_AMX_PARTIAL);
	assert_int_equal(xcr0_check(&v, 0, 0x60003, 0x60003), CPU_RULE_OK);
	/* an unsupported bit is refused before its partner rule */
	assert_int_equal(xcr0_check(&v, 0, 0x20003, XCR0_SUPPORTED),
			 XCR0_UNSUPPORTED);
	v.cpl = 3;
	assert_int_equal(xcr0_check(&v, 0, 0x3, XCR0_SUPPORTED),
			 XSETBV_NOT_CPL0);
	v = linux64;
	v.cr4 &= ~CR4_OSXSAVE;
	assert_int_equal(xcr0_check(&v, 0, 0x3, XCR0_SUPPORTED),
			 XSETBV_NO_OSXSAVE);
	assert_int_equal(cpu_rule_vector(XSETBV_NO_OSXSAVE), UD_VECTOR);
	assert_int_equal(cpu_rule_vector(XCR0_AVX_NO_SSE), GP_VECTOR);
}

static void pat_and_debugctl(void **state)
{
	(void)state;
	/* HWCR.INVDWBINVD (bit 4): set or kept, never cleared */
	assert_int_equal(hwcr_check(0x10, 0x10), CPU_RULE_OK);
	assert_int_equal(hwcr_check(0x00, 0x10), CPU_RULE_OK);
	assert_int_equal(hwcr_check(0x00, 0x00), CPU_RULE_OK);
	assert_int_equal(hwcr_check(0x40010, 0x40000), HWCR_INVDWBINVD_CLEAR);
	assert_int_equal(hwcr_check(0x10, 0x40010), CPU_RULE_OK);
	assert_int_equal(cpu_rule_vector(HWCR_INVDWBINVD_CLEAR), GP_VECTOR);
	assert_int_equal(pat_check(0x0007040600070406ull), CPU_RULE_OK);
	assert_int_equal(pat_check(0x0407050600070106ull), CPU_RULE_OK);
	assert_int_equal(pat_check(0x0007040600070402ull), PAT_INVALID);
	assert_int_equal(pat_check(0x0307040600070406ull), PAT_INVALID);
	assert_int_equal(pat_check(0x0007040600070408ull), PAT_INVALID);
	assert_int_equal(pat_check(0x00070406000704f6ull), PAT_INVALID);
	assert_int_equal(debugctl_check(0x3, 0xffc3), CPU_RULE_OK);
	assert_int_equal(debugctl_check(0x4, 0xffc3), DEBUGCTL_UNSUPPORTED);
	assert_int_equal(debugctl_check(1ull << 16, 0xffc3),
			 DEBUGCTL_UNSUPPORTED);
}

static void every_rule_named(void **state)
{
	int rule;

	(void)state;
	for (rule = 1; rule < CPU_RULE_COUNT; rule++)
		assert_string_not_equal(cpu_rule_name(rule), "unknown rule");
	assert_string_equal(cpu_rule_name(CPU_RULE_COUNT), "unknown rule");
	assert_string_equal(cpu_rule_name(-1), "unknown rule");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cr0_values),
		cmocka_unit_test(cr0_rules),
		cmocka_unit_test(cr4_rules),
		cmocka_unit_test(efer_rules),
		cmocka_unit_test(xcr0_rules),
		cmocka_unit_test(pat_and_debugctl),
		cmocka_unit_test(every_rule_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
