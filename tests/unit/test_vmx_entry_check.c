// SPDX-License-Identifier: GPL-2.0
/*
 * The guest-state checks of a VM entry (common/vmx_guest_check.c, run by
 * "warden status" on the record of a failed entry): the states the
 * hypervisor enters with (Linux in 64-bit mode, a CPU after INIT/SIPI,
 * hypervisor/arch/x86/vmx/vmx_real_mode.c) pass, and each rule broken on
 * its own is named, with the segment it is about.
 */
#include "cmocka_wrap.h"
#include <asm/cpu_rules.h>
#include <vmx/entry_check.h>
#include <x86/vmx_guest_check.h>

#include "entry_explain.h"

static const struct warden_vmx_entry_limits limits = {
	.cr0_fixed0 = 0x80000021,
	.cr0_fixed1 = 0xffffffff,
	.cr4_fixed0 = 0x2000,
	.cr4_fixed1 = 0x3727ff,
	.phys_bits = 39,
	.linear_bits = 48,
	.debugctl_allowed = 0xffc3,
	.efer_allowed = 0xd01,
	.activity_states = 0xf,
};

static struct warden_vmx_guest_state linux64(void)
{
	struct warden_vmx_guest_state s = {
		.cr0 = 0x80050033,
		.cr3 = 0x10a000,
		.cr4 = 0x3706f0 | 0x2000,
		.dr7 = 0x400,
		.pat = 0x0407050600070106ull,
		.efer = 0xd01,
		.gdtr_base = 0xfffffe0000001000ull,
		.gdtr_limit = 0x7f,
		.idtr_base = 0xfffffe0000000000ull,
		.idtr_limit = 0xfff,
		.rip = 0xffffffff81000000ull,
		.rflags = 0x246,
		.link_pointer = ~0ull,
		.ia32e_guest = true,
		.load_debug = true,
		.load_pat = true,
		.load_efer = true,
		.unrestricted = true,
		.ept = true,
		.virtual_nmis = true,
	};
	unsigned int i;

	for (i = 0; i < WARDEN_VMX_SEG_COUNT; i++)
		s.seg[i].ar = 0x10000; /* unusable */
	s.seg[WARDEN_VMX_SEG_CS] = (struct warden_vmx_segment){
		.selector = 0x10, .base = 0, .limit = 0xffffffff, .ar = 0xa09b
	};
	s.seg[WARDEN_VMX_SEG_SS] = (struct warden_vmx_segment){
		.selector = 0x18, .base = 0, .limit = 0xffffffff, .ar = 0xc093
	};
	s.seg[WARDEN_VMX_SEG_GS].base = 0xffff888000000000ull;
	s.seg[WARDEN_VMX_SEG_TR] =
		(struct warden_vmx_segment){ .selector = 0x40,
					     .base = 0xfffffe0000003000ull,
					     .limit = 0x4087,
					     .ar = 0x8b };
	return s;
}

/* What vmx_reset_to_real_mode writes for a SIPI to vector 0x9a. */
static struct warden_vmx_guest_state real_mode(void)
{
	struct warden_vmx_guest_state s;

	vmx_real_mode_state(&s, 0x9a000, 0, 0x20, 0x2000);
	s.virtual_nmis = true;
	return s;
}

static int check(const struct warden_vmx_guest_state *s, int *seg)
{
	return vmx_guest_check(s, &limits, seg);
}

static void valid_states(void **state)
{
	struct warden_vmx_guest_state s;
	int seg;

	(void)state;
	s = linux64();
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	assert_int_equal(seg, WARDEN_VMX_SEG_COUNT);
	s = real_mode();
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	/* Linux halted in idle, with STI blocking after "sti; hlt" */
	s = linux64();
	s.activity = 1;
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	/* 32-bit protected mode with PAE paging and valid PDPTEs */
	s = real_mode();
	s.cr0 = 0x80000031;
	s.cr4 = 0x2020;
	s.pdpte[0] = 0x1001;
	s.pdpte[1] = 0x2000;
	s.seg[WARDEN_VMX_SEG_CS] = (struct warden_vmx_segment){
		.selector = 0x8, .base = 0, .limit = 0xffffffff, .ar = 0xc09b
	};
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
}

/* Every state the hypervisor starts a guest in: a SIPI with any vector,
 * a cell's reset address anywhere below 4 GiB. */
static void every_start_state(void **state)
{
	struct warden_vmx_guest_state s;
	unsigned int v;
	int seg;

	(void)state;
	for (v = 0; v < 256; v++) {
		vmx_real_mode_state(&s, (u64)v << 12, 0, 0x20, 0x2000);
		assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	}
	vmx_real_mode_state(&s, 0xf0000, 0xfff0, 0x20, 0x2000);
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	vmx_real_mode_state(&s, 0xfffe0000, 0xfff0, 0x20, 0x2000);
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
}

static void register_rules(void **state)
{
	struct warden_vmx_guest_state s;
	int seg;

	(void)state;
	s = linux64();
	s.cr0 &= ~0x20ull; /* NE is fixed to 1 */
	assert_int_equal(check(&s, &seg), VMXG_CR0_FIXED);
	s = real_mode();
	s.cr0 |= 1ull << 31;
	assert_int_equal(check(&s, &seg), VMXG_CR0_PG_PE);
	s = linux64();
	s.cr4 |= 1ull << 31;
	assert_int_equal(check(&s, &seg), VMXG_CR4_FIXED);
	s.cr4 &= ~((1ull << 31) | 0x2000);
	assert_int_equal(check(&s, &seg), VMXG_CR4_FIXED);
	s = linux64();
	s.debugctl = 4;
	assert_int_equal(check(&s, &seg), VMXG_DEBUGCTL);
	s = linux64();
	s.cr4 &= ~CR4_PAE;
	assert_int_equal(check(&s, &seg), VMXG_IA32E_PG_PAE);
	s = real_mode();
	s.cr4 |= CR4_PCIDE;
	assert_int_equal(check(&s, &seg), VMXG_PCIDE_NOT_IA32E);
	s = linux64();
	s.cr3 = 1ull << 45;
	assert_int_equal(check(&s, &seg), VMXG_CR3_RESERVED);
	s = linux64();
	s.dr7 = 1ull << 32;
	assert_int_equal(check(&s, &seg), VMXG_DR7_HIGH);
	s = linux64();
	s.sysenter_eip = 0x0000800000000000ull;
	assert_int_equal(check(&s, &seg), VMXG_SYSENTER_CANONICAL);
	s = linux64();
	s.pat = 0x0007040600070402ull;
	assert_int_equal(check(&s, &seg), VMXG_PAT);
	s = linux64();
	s.efer |= 1ull << 12;
	assert_int_equal(check(&s, &seg), VMXG_EFER_RESERVED);
	s = linux64();
	s.efer &= ~EFER_LMA_BIT;
	assert_int_equal(check(&s, &seg), VMXG_EFER_LMA);
	s = linux64();
	s.efer &= ~EFER_LME_BIT;
	assert_int_equal(check(&s, &seg), VMXG_EFER_LME);
}

static void segment_rules(void **state)
{
	struct warden_vmx_guest_state s;
	int seg;

	(void)state;
	s = linux64();
	s.seg[WARDEN_VMX_SEG_TR].selector |= 4;
	assert_int_equal(check(&s, &seg), VMXG_TR_TI);
	assert_int_equal(seg, WARDEN_VMX_SEG_TR);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar = 0xa091; /* read-only data */
	assert_int_equal(check(&s, &seg), VMXG_CS_TYPE);
	assert_int_equal(seg, WARDEN_VMX_SEG_CS);
	assert_string_equal(vmx_seg_name(seg), "CS");
	s = linux64();
	s.seg[WARDEN_VMX_SEG_SS].ar = 0xc09b;
	assert_int_equal(check(&s, &seg), VMXG_SS_TYPE);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_DS] = (struct warden_vmx_segment){
		.selector = 0x18, .base = 0, .limit = 0xffffffff, .ar = 0xc092
	};
	assert_int_equal(check(&s, &seg), VMXG_DATA_TYPE);
	assert_int_equal(seg, WARDEN_VMX_SEG_DS);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar &= ~0x10u;
	assert_int_equal(check(&s, &seg), VMXG_S_BIT);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar |= 3u << 5; /* CPL 3 code, SS DPL 0 */
	assert_int_equal(check(&s, &seg), VMXG_CS_DPL);
	s = real_mode();
	/* real mode needs SS.DPL 0 (CS.DPL follows SS.DPL) */
	s.seg[WARDEN_VMX_SEG_SS].ar |= 3u << 5;
	s.seg[WARDEN_VMX_SEG_CS].ar |= 3u << 5;
	assert_int_equal(check(&s, &seg), VMXG_SS_DPL);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_SS].ar &= ~0x80u;
	assert_int_equal(check(&s, &seg), VMXG_PRESENT);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar |= 0x100;
	assert_int_equal(check(&s, &seg), VMXG_AR_RESERVED);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar |= 0x4000;
	assert_int_equal(check(&s, &seg), VMXG_CS_L_D);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_CS].ar &= ~0x8000u; /* 4 GiB limit needs G */
	assert_int_equal(check(&s, &seg), VMXG_GRANULARITY);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_FS].base = 0x0000900000000000ull;
	assert_int_equal(check(&s, &seg), VMXG_BASE_CANONICAL);
	assert_int_equal(seg, WARDEN_VMX_SEG_FS);
	s = real_mode();
	s.seg[WARDEN_VMX_SEG_CS].base = 1ull << 32;
	assert_int_equal(check(&s, &seg), VMXG_BASE_HIGH);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_TR].ar = 0x89; /* available, not busy */
	assert_int_equal(check(&s, &seg), VMXG_TR_TYPE);
	s = linux64();
	s.seg[WARDEN_VMX_SEG_TR].ar = 0x1008b;
	assert_int_equal(check(&s, &seg), VMXG_TR_AR);
	s = real_mode();
	s.seg[WARDEN_VMX_SEG_LDTR].ar = 0x83;
	assert_int_equal(check(&s, &seg), VMXG_LDTR_AR);
	s = real_mode();
	s.rflags |= 1ull << 17;
	s.cr0 |= 1;
	s.seg[WARDEN_VMX_SEG_DS].base = 0x10;
	assert_int_equal(check(&s, &seg), VMXG_V86_SEGMENT);
}

static void other_rules(void **state)
{
	struct warden_vmx_guest_state s;
	int seg, i;

	(void)state;
	s = linux64();
	s.idtr_base = 0x0000800000000000ull;
	assert_int_equal(check(&s, &seg), VMXG_DTR_BASE);
	s = linux64();
	s.gdtr_limit = 0x10000;
	assert_int_equal(check(&s, &seg), VMXG_DTR_LIMIT);
	s = linux64();
	s.rip = 0x0000800000000000ull;
	assert_int_equal(check(&s, &seg), VMXG_RIP);
	s = real_mode();
	s.rip = 1ull << 32;
	assert_int_equal(check(&s, &seg), VMXG_RIP);
	s = linux64();
	s.rflags = 0x240;
	assert_int_equal(check(&s, &seg), VMXG_RFLAGS_RESERVED);
	s = linux64();
	s.rflags |= 1ull << 3;
	assert_int_equal(check(&s, &seg), VMXG_RFLAGS_RESERVED);
	/* virtual-8086 segments, but in real mode */
	s = real_mode();
	s.rflags |= 1ull << 17;
	for (i = WARDEN_VMX_SEG_ES; i <= WARDEN_VMX_SEG_GS; i++)
		s.seg[i].ar = 0xf3;
	s.seg[WARDEN_VMX_SEG_CS].base = 0x9a000;
	assert_int_equal(check(&s, &seg), VMXG_RFLAGS_VM);
	s = linux64();
	s.rflags &= ~(1ull << 9);
	s.entry_intr_info = 0x80000030; /* external interrupt 0x30 */
	assert_int_equal(check(&s, &seg), VMXG_RFLAGS_IF);
	s = linux64();
	s.activity = 5;
	assert_int_equal(check(&s, &seg), VMXG_ACTIVITY);
	s = linux64();
	s.activity = 1;
	s.seg[WARDEN_VMX_SEG_SS].ar |= 3u << 5;
	s.seg[WARDEN_VMX_SEG_CS].ar |= 3u << 5;
	assert_int_equal(check(&s, &seg), VMXG_ACTIVITY_HLT_DPL);
	s = linux64();
	s.interruptibility = 1u << 5;
	assert_int_equal(check(&s, &seg), VMXG_INTR_RESERVED);
	s = linux64();
	s.interruptibility = 3;
	assert_int_equal(check(&s, &seg), VMXG_INTR_STI_MOVSS);
	s = linux64();
	s.interruptibility = 1;
	s.rflags &= ~(1ull << 9);
	assert_int_equal(check(&s, &seg), VMXG_INTR_STI_IF);
	s = linux64();
	s.interruptibility = 1u << 3;
	s.entry_intr_info = 0x80000202; /* NMI, NMIs blocked */
	assert_int_equal(check(&s, &seg), VMXG_INTR_INJECT);
	s = linux64();
	s.pending_dbg = 1ull << 4;
	assert_int_equal(check(&s, &seg), VMXG_PENDING_DBG);
	s = linux64();
	s.interruptibility = 2;
	s.rflags |= 1ull << 8; /* TF: BS must be pending */
	assert_int_equal(check(&s, &seg), VMXG_PENDING_BS);
	s.pending_dbg = 1ull << 14;
	assert_int_equal(check(&s, &seg), VMX_GUEST_OK);
	s = linux64();
	s.link_pointer = 0;
	assert_int_equal(check(&s, &seg), VMXG_LINK_POINTER);
	s = real_mode();
	s.cr0 = 0x80000031;
	s.cr4 = 0x2020;
	s.seg[WARDEN_VMX_SEG_CS] = (struct warden_vmx_segment){
		.selector = 0x8, .base = 0, .limit = 0xffffffff, .ar = 0xc09b
	};
	s.pdpte[2] = 0x3003; /* R/W is reserved in a PDPTE */
	assert_int_equal(check(&s, &seg), VMXG_PDPTE);
}

static void every_rule_named(void **state)
{
	int rule;

	(void)state;
	for (rule = 1; rule < VMXG_RULE_COUNT; rule++)
		assert_string_not_equal(vmx_guest_rule_name(rule), "unknown "
								   "rule");
	assert_string_equal(vmx_guest_rule_name(VMXG_RULE_COUNT), "unknown "
								  "rule");
}

/* What "warden status" prints for a failed CPU's record: the rule with
 * its section and segment, or that none of the checks is broken. */
static void record_explained(void **state)
{
	struct warden_vmx_entry_failure f = { .exit_reason = 33,
					      .cell_id = 1,
					      .limits = limits };
	char buf[200];

	(void)state;
	f.state = linux64();
	assert_string_equal(entry_explain(&f, buf, sizeof(buf)),
			    "invalid guest state, no rule the checks know is "
			    "broken (SDM Vol. 3C)");
	f.state.seg[WARDEN_VMX_SEG_CS].ar |= 0x100; /* reserved bit 8 */
	assert_string_equal(entry_explain(&f, buf, sizeof(buf)),
			    "reserved access-rights bits set (27.3.1.2), "
			    "segment CS (SDM Vol. 3C)");
	f.state = linux64();
	f.state.rflags |= 1ull << 3; /* reserved */
	assert_string_equal(entry_explain(&f, buf, sizeof(buf)), "reserved "
								 "RFLAGS bits "
								 "(27.3.1.4) "
								 "(SDM Vol. "
								 "3C)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_states),
		cmocka_unit_test(every_start_state),
		cmocka_unit_test(register_rules),
		cmocka_unit_test(segment_rules),
		cmocka_unit_test(other_rules),
		cmocka_unit_test(every_rule_named),
		cmocka_unit_test(record_explained),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
