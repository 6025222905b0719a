// SPDX-License-Identifier: GPL-2.0
/*
 * The VM-entry checks on the guest-state area (contract in
 * x86/vmx_guest_check.h), in the order of SDM Vol. 3C, 27.3.1.1-27.3.1.6.
 * Host C: the CLI runs them on the record of a failed entry that the
 * hypervisor keeps (warden/vmx_entry.h); the unit tests run them on the
 * state the hypervisor builds.
 */
#include <x86/regs.h>
#include <x86/vmx_guest_check.h>

/* Access-rights fields (SDM Vol. 3C, 25.4.1, Table 25-2). */
#define AR_TYPE(ar) ((ar)&0xf)
#define AR_S (1u << 4)
#define AR_DPL(ar) (((ar) >> 5) & 3)
#define AR_P (1u << 7)
#define AR_RESERVED_LOW (0xfu << 8)
#define AR_L (1u << 13)
#define AR_DB (1u << 14)
#define AR_G (1u << 15)
#define AR_UNUSABLE (1u << 16)
#define AR_RESERVED_HIGH 0xfffe0000u

#define RFLAGS_FIXED1 (1ull << 1)
#define RFLAGS_RESERVED (~0x3f7fd7ull)
#define RFLAGS_TF (1ull << 8)
#define RFLAGS_IF (1ull << 9)
#define RFLAGS_VM (1ull << 17)

#define INTR_STI (1u << 0)
#define INTR_MOV_SS (1u << 1)
#define INTR_SMI (1u << 2)
#define INTR_NMI (1u << 3)
#define INTR_RESERVED 0xffffffe0u

#define ENTRY_INFO_VALID (1u << 31)
#define ENTRY_INFO_TYPE(info) (((info) >> 8) & 7)
#define ENTRY_TYPE_EXTERNAL 0
#define ENTRY_TYPE_NMI 2

#define PENDING_BS (1ull << 14)
#define PENDING_RESERVED (~0x1500full)
#define DEBUGCTL_BTF (1ull << 1)

#define ACTIVITY_HLT 1

/* The segment a rule is about, reported to the caller. */
struct check {
	const struct warden_vmx_guest_state *s;
	const struct warden_vmx_entry_limits *l;
	int seg;
};

static bool canonical(uint64_t addr, unsigned int bits)
{
	uint64_t top = addr >> (bits - 1);

	return top == 0 || top == (~0ull >> (bits - 1));
}

static bool above_phys(uint64_t addr, unsigned int bits)
{
	return bits < 64 && (addr >> bits);
}

static bool ia32e(const struct check *c)
{
	return c->s->ia32e_guest;
}

static bool v86(const struct check *c)
{
	return c->s->rflags & RFLAGS_VM;
}

static bool usable(const struct warden_vmx_segment *s)
{
	return !(s->ar & AR_UNUSABLE);
}

/* 27.3.1.1: control registers, debug registers and MSRs. */
static int check_registers(const struct check *c)
{
	const struct warden_vmx_guest_state *s = c->s;
	const struct warden_vmx_entry_limits *l = c->l;
	uint64_t fixed0 = l->cr0_fixed0;

	if (s->unrestricted)
		fixed0 &= ~(CR0_PE | CR0_PG);
	if ((s->cr0 & fixed0) != fixed0 || (s->cr0 & ~l->cr0_fixed1))
		return VMXG_CR0_FIXED;
	if ((s->cr0 & CR0_PG) && !(s->cr0 & CR0_PE))
		return VMXG_CR0_PG_PE;
	if ((s->cr4 & l->cr4_fixed0) != l->cr4_fixed0 ||
	    (s->cr4 & ~l->cr4_fixed1))
		return VMXG_CR4_FIXED;
	if ((s->cr4 & CR4_CET) && !(s->cr0 & CR0_WP))
		return VMXG_CR4_CET_WP;
	if (s->load_debug && (s->debugctl & ~l->debugctl_allowed))
		return VMXG_DEBUGCTL;
	if (s->ia32e_guest && (!(s->cr0 & CR0_PG) || !(s->cr4 & CR4_PAE)))
		return VMXG_IA32E_PG_PAE;
	if (!s->ia32e_guest && (s->cr4 & CR4_PCIDE))
		return VMXG_PCIDE_NOT_IA32E;
	if (above_phys(s->cr3, l->phys_bits))
		return VMXG_CR3_RESERVED;
	if (s->load_debug && (s->dr7 >> 32))
		return VMXG_DR7_HIGH;
	if (!canonical(s->sysenter_esp, l->linear_bits) ||
	    !canonical(s->sysenter_eip, l->linear_bits))
		return VMXG_SYSENTER_CANONICAL;
	if (s->load_pat && !x86_pat_valid(s->pat))
		return VMXG_PAT;
	if (s->load_efer) {
		if (s->efer & ~(l->efer_allowed | EFER_LMA_BIT))
			return VMXG_EFER_RESERVED;
		if (!(s->efer & EFER_LMA_BIT) != !s->ia32e_guest)
			return VMXG_EFER_LMA;
		if ((s->cr0 & CR0_PG) &&
		    !(s->efer & EFER_LMA_BIT) != !(s->efer & EFER_LME_BIT))
			return VMXG_EFER_LME;
	}
	return VMX_GUEST_OK;
}

/* G must agree with the limit (SDM Vol. 3C, 27.3.1.2). */
static bool granularity_ok(const struct warden_vmx_segment *s)
{
	if ((s->limit & 0xfff) != 0xfff && (s->ar & AR_G))
		return false;
	if ((s->limit & 0xfff00000) && !(s->ar & AR_G))
		return false;
	return true;
}

/* The code and data segments outside virtual-8086 mode. */
static int check_code_data(struct check *c, int i)
{
	const struct warden_vmx_guest_state *s = c->s;
	const struct warden_vmx_segment *g = &s->seg[i];
	const struct warden_vmx_segment *ss = &s->seg[WARDEN_VMX_SEG_SS];
	const struct warden_vmx_segment *cs = &s->seg[WARDEN_VMX_SEG_CS];
	uint32_t type = AR_TYPE(g->ar);

	c->seg = i;
	if (i != WARDEN_VMX_SEG_CS && !usable(g))
		return VMX_GUEST_OK;
	if (i == WARDEN_VMX_SEG_CS) {
		if (type != 9 && type != 11 && type != 13 && type != 15 &&
		    !(type == 3 && s->unrestricted))
			return VMXG_CS_TYPE;
	} else if (i == WARDEN_VMX_SEG_SS) {
		if (type != 3 && type != 7)
			return VMXG_SS_TYPE;
	} else if (!(type & 1) || ((type & 8) && !(type & 2))) {
		return VMXG_DATA_TYPE;
	}
	if (!(g->ar & AR_S))
		return VMXG_S_BIT;
	if (i == WARDEN_VMX_SEG_CS) {
		if ((type == 3 && AR_DPL(g->ar) != 0) ||
		    ((type == 9 || type == 11) &&
		     AR_DPL(g->ar) != AR_DPL(ss->ar)) ||
		    ((type == 13 || type == 15) &&
		     AR_DPL(g->ar) > AR_DPL(ss->ar)))
			return VMXG_CS_DPL;
	} else if (i == WARDEN_VMX_SEG_SS) {
		if (!s->unrestricted && AR_DPL(g->ar) != (g->selector & 3))
			return VMXG_SS_DPL;
		if ((AR_TYPE(cs->ar) == 3 || !(s->cr0 & CR0_PE)) &&
		    AR_DPL(g->ar) != 0)
			return VMXG_SS_DPL;
	} else if (!s->unrestricted && type <= 11 &&
		   AR_DPL(g->ar) < (g->selector & 3)) {
		return VMXG_DATA_DPL;
	}
	if (!(g->ar & AR_P))
		return VMXG_PRESENT;
	if (g->ar & (AR_RESERVED_LOW | AR_RESERVED_HIGH))
		return VMXG_AR_RESERVED;
	if (i == WARDEN_VMX_SEG_CS && ia32e(c) && (g->ar & AR_L) &&
	    (g->ar & AR_DB))
		return VMXG_CS_L_D;
	if (!granularity_ok(g))
		return VMXG_GRANULARITY;
	return VMX_GUEST_OK;
}

/* 27.3.1.2: segment registers. */
static int check_segments(struct check *c)
{
	const struct warden_vmx_guest_state *s = c->s;
	const struct warden_vmx_segment *tr = &s->seg[WARDEN_VMX_SEG_TR];
	const struct warden_vmx_segment *ldtr = &s->seg[WARDEN_VMX_SEG_LDTR];
	unsigned int bits = c->l->linear_bits;
	int i, rule;

	c->seg = WARDEN_VMX_SEG_TR;
	if (tr->selector & 4)
		return VMXG_TR_TI;
	c->seg = WARDEN_VMX_SEG_LDTR;
	if (usable(ldtr) && (ldtr->selector & 4))
		return VMXG_LDTR_TI;
	c->seg = WARDEN_VMX_SEG_SS;
	if (!v86(c) && !s->unrestricted &&
	    (s->seg[WARDEN_VMX_SEG_SS].selector & 3) !=
		    (s->seg[WARDEN_VMX_SEG_CS].selector & 3))
		return VMXG_SS_RPL;
	for (i = WARDEN_VMX_SEG_ES; i <= WARDEN_VMX_SEG_GS; i++) {
		const struct warden_vmx_segment *g = &s->seg[i];

		c->seg = i;
		if (v86(c) && (g->base != (uint64_t)g->selector << 4 ||
			       g->limit != 0xffff || g->ar != 0xf3))
			return VMXG_V86_SEGMENT;
	}
	for (i = 0; i < WARDEN_VMX_SEG_COUNT; i++) {
		const struct warden_vmx_segment *g = &s->seg[i];

		c->seg = i;
		if ((i == WARDEN_VMX_SEG_FS || i == WARDEN_VMX_SEG_GS ||
		     i == WARDEN_VMX_SEG_TR ||
		     (i == WARDEN_VMX_SEG_LDTR && usable(g))) &&
		    !canonical(g->base, bits))
			return VMXG_BASE_CANONICAL;
		if ((i == WARDEN_VMX_SEG_CS ||
		     ((i == WARDEN_VMX_SEG_SS || i == WARDEN_VMX_SEG_DS ||
		       i == WARDEN_VMX_SEG_ES) &&
		      usable(g))) &&
		    (g->base >> 32))
			return VMXG_BASE_HIGH;
	}
	if (!v86(c))
		for (i = WARDEN_VMX_SEG_ES; i <= WARDEN_VMX_SEG_GS; i++) {
			rule = check_code_data(c, i);
			if (rule)
				return rule;
		}
	c->seg = WARDEN_VMX_SEG_TR;
	if (AR_TYPE(tr->ar) != 11 && (ia32e(c) || AR_TYPE(tr->ar) != 3))
		return VMXG_TR_TYPE;
	if ((tr->ar &
	     (AR_S | AR_UNUSABLE | AR_RESERVED_LOW | AR_RESERVED_HIGH)) ||
	    !(tr->ar & AR_P) || !granularity_ok(tr))
		return VMXG_TR_AR;
	c->seg = WARDEN_VMX_SEG_LDTR;
	if (usable(ldtr) &&
	    (AR_TYPE(ldtr->ar) != 2 ||
	     (ldtr->ar & (AR_S | AR_RESERVED_LOW | AR_RESERVED_HIGH)) ||
	     !(ldtr->ar & AR_P) || !granularity_ok(ldtr)))
		return VMXG_LDTR_AR;
	c->seg = WARDEN_VMX_SEG_COUNT;
	return VMX_GUEST_OK;
}

/* 27.3.1.3 and 27.3.1.4: descriptor tables, RIP and RFLAGS. */
static int check_dtr_rip_rflags(const struct check *c)
{
	const struct warden_vmx_guest_state *s = c->s;
	unsigned int bits = c->l->linear_bits;
	bool long_code = ia32e(c) && (s->seg[WARDEN_VMX_SEG_CS].ar & AR_L);

	if (!canonical(s->gdtr_base, bits) || !canonical(s->idtr_base, bits))
		return VMXG_DTR_BASE;
	if ((s->gdtr_limit | s->idtr_limit) >> 16)
		return VMXG_DTR_LIMIT;
	if (long_code ? !canonical(s->rip, bits) : (s->rip >> 32) != 0)
		return VMXG_RIP;
	if ((s->rflags & RFLAGS_RESERVED) || !(s->rflags & RFLAGS_FIXED1))
		return VMXG_RFLAGS_RESERVED;
	if ((ia32e(c) || !(s->cr0 & CR0_PE)) && (s->rflags & RFLAGS_VM))
		return VMXG_RFLAGS_VM;
	if ((s->entry_intr_info & ENTRY_INFO_VALID) &&
	    ENTRY_INFO_TYPE(s->entry_intr_info) == ENTRY_TYPE_EXTERNAL &&
	    !(s->rflags & RFLAGS_IF))
		return VMXG_RFLAGS_IF;
	return VMX_GUEST_OK;
}

/* 27.3.1.5 and 27.3.1.6: non-register state and PDPTEs. */
static int check_non_register(const struct check *c)
{
	const struct warden_vmx_guest_state *s = c->s;
	uint32_t intr = s->interruptibility, info = s->entry_intr_info;
	bool inject = info & ENTRY_INFO_VALID;
	unsigned int i;
	bool bs_wanted;

	if (s->activity > 3 || !(c->l->activity_states & (1u << s->activity)))
		return VMXG_ACTIVITY;
	if (s->activity == ACTIVITY_HLT &&
	    AR_DPL(s->seg[WARDEN_VMX_SEG_SS].ar) != 0)
		return VMXG_ACTIVITY_HLT_DPL;
	if (s->activity != 0 && (intr & (INTR_STI | INTR_MOV_SS)))
		return VMXG_ACTIVITY;
	if (intr & INTR_RESERVED)
		return VMXG_INTR_RESERVED;
	if ((intr & INTR_STI) && (intr & INTR_MOV_SS))
		return VMXG_INTR_STI_MOVSS;
	if ((intr & INTR_STI) && !(s->rflags & RFLAGS_IF))
		return VMXG_INTR_STI_IF;
	if (intr & INTR_SMI)
		return VMXG_INTR_RESERVED; /* only when entering from SMM */
	if (inject && ENTRY_INFO_TYPE(info) == ENTRY_TYPE_EXTERNAL &&
	    (intr & (INTR_STI | INTR_MOV_SS)))
		return VMXG_INTR_INJECT;
	if (inject && ENTRY_INFO_TYPE(info) == ENTRY_TYPE_NMI &&
	    ((intr & INTR_MOV_SS) || (s->virtual_nmis && (intr & INTR_NMI))))
		return VMXG_INTR_INJECT;
	if (s->pending_dbg & PENDING_RESERVED)
		return VMXG_PENDING_DBG;
	if ((intr & (INTR_STI | INTR_MOV_SS)) || s->activity == ACTIVITY_HLT) {
		bs_wanted = (s->rflags & RFLAGS_TF) &&
			    !(s->debugctl & DEBUGCTL_BTF);
		if (!(s->pending_dbg & PENDING_BS) != !bs_wanted)
			return VMXG_PENDING_BS;
	}
	if (s->link_pointer != ~0ull)
		return VMXG_LINK_POINTER;
	/* PAE paging outside IA-32e mode: the PDPTEs come from the VMCS */
	if (s->ept && (s->cr0 & CR0_PG) && (s->cr4 & CR4_PAE) &&
	    !s->ia32e_guest)
		for (i = 0; i < 4; i++)
			if ((s->pdpte[i] & 1) &&
			    ((s->pdpte[i] & 0x1e6) ||
			     above_phys(s->pdpte[i], c->l->phys_bits)))
				return VMXG_PDPTE;
	return VMX_GUEST_OK;
}

int vmx_guest_check(const struct warden_vmx_guest_state *state,
		    const struct warden_vmx_entry_limits *limits, int *seg)
{
	struct check c = { state, limits, WARDEN_VMX_SEG_COUNT };
	int rule;

	rule = check_registers(&c);
	if (!rule)
		rule = check_segments(&c);
	if (!rule) {
		c.seg = WARDEN_VMX_SEG_COUNT;
		rule = check_dtr_rip_rflags(&c);
	}
	if (!rule)
		rule = check_non_register(&c);
	*seg = rule && c.seg < WARDEN_VMX_SEG_COUNT ? c.seg
						    : WARDEN_VMX_SEG_COUNT;
	return rule;
}

static const char *const names[VMXG_RULE_COUNT] = {
	[VMX_GUEST_OK] = "valid",
	[VMXG_CR0_FIXED] = "CR0 breaks IA32_VMX_CR0_FIXED0/1 (27.3.1.1)",
	[VMXG_CR0_PG_PE] = "CR0.PG set without CR0.PE (27.3.1.1)",
	[VMXG_CR4_FIXED] = "CR4 breaks IA32_VMX_CR4_FIXED0/1 (27.3.1.1)",
	[VMXG_CR4_CET_WP] = "CR4.CET set without CR0.WP (27.3.1.1)",
	[VMXG_DEBUGCTL] = "reserved IA32_DEBUGCTL bits set (27.3.1.1)",
	[VMXG_IA32E_PG_PAE] = "IA-32e mode guest without CR0.PG and CR4.PAE "
			      "(27.3.1.1)",
	[VMXG_PCIDE_NOT_IA32E] = "CR4.PCIDE outside IA-32e mode (27.3.1.1)",
	[VMXG_CR3_RESERVED] = "CR3 bits beyond MAXPHYADDR (27.3.1.1)",
	[VMXG_DR7_HIGH] = "DR7 bits 63:32 set (27.3.1.1)",
	[VMXG_SYSENTER_CANONICAL] = "SYSENTER_ESP/EIP not canonical "
				    "(27.3.1.1)",
	[VMXG_PAT] = "IA32_PAT entry with a reserved type (27.3.1.1)",
	[VMXG_EFER_RESERVED] = "reserved IA32_EFER bits set (27.3.1.1)",
	[VMXG_EFER_LMA] = "EFER.LMA differs from the IA-32e mode guest "
			  "control (27.3.1.1)",
	[VMXG_EFER_LME] = "EFER.LMA differs from EFER.LME with paging on "
			  "(27.3.1.1)",
	[VMXG_TR_TI] = "TR selector has TI set (27.3.1.2)",
	[VMXG_LDTR_TI] = "LDTR selector has TI set (27.3.1.2)",
	[VMXG_SS_RPL] = "SS.RPL differs from CS.RPL (27.3.1.2)",
	[VMXG_V86_SEGMENT] = "virtual-8086 segment not base selector*16, "
			     "limit 0xffff, AR 0xf3 (27.3.1.2)",
	[VMXG_BASE_CANONICAL] = "segment base not canonical (27.3.1.2)",
	[VMXG_BASE_HIGH] = "segment base bits 63:32 set (27.3.1.2)",
	[VMXG_CS_TYPE] = "CS type not an accessed code segment (27.3.1.2)",
	[VMXG_SS_TYPE] = "SS type not read/write accessed data (27.3.1.2)",
	[VMXG_DATA_TYPE] = "data segment type not accessed, or code not "
			   "readable (27.3.1.2)",
	[VMXG_S_BIT] = "segment descriptor type S clear (27.3.1.2)",
	[VMXG_CS_DPL] = "CS.DPL does not fit its type and SS.DPL "
			"(27.3.1.2)",
	[VMXG_SS_DPL] = "SS.DPL breaks its rules (27.3.1.2)",
	[VMXG_DATA_DPL] = "data segment DPL below its RPL (27.3.1.2)",
	[VMXG_PRESENT] = "segment not present (27.3.1.2)",
	[VMXG_AR_RESERVED] = "reserved access-rights bits set (27.3.1.2)",
	[VMXG_CS_L_D] = "CS with both L and D/B set in IA-32e mode "
			"(27.3.1.2)",
	[VMXG_GRANULARITY] = "segment G bit does not fit its limit "
			     "(27.3.1.2)",
	[VMXG_TR_TYPE] = "TR not a busy TSS of the right size (27.3.1.2)",
	[VMXG_TR_AR] = "TR access rights (S, P, unusable, reserved, G) "
		       "(27.3.1.2)",
	[VMXG_LDTR_AR] = "LDTR access rights (27.3.1.2)",
	[VMXG_DTR_BASE] = "GDTR/IDTR base not canonical (27.3.1.3)",
	[VMXG_DTR_LIMIT] = "GDTR/IDTR limit above 0xffff (27.3.1.3)",
	[VMXG_RIP] = "RIP too wide for the code segment (27.3.1.4)",
	[VMXG_RFLAGS_RESERVED] = "reserved RFLAGS bits (27.3.1.4)",
	[VMXG_RFLAGS_VM] = "RFLAGS.VM in IA-32e or real mode (27.3.1.4)",
	[VMXG_RFLAGS_IF] = "external interrupt injected with RFLAGS.IF "
			   "clear (27.3.1.4)",
	[VMXG_ACTIVITY] = "activity state unsupported or blocked "
			  "(27.3.1.5)",
	[VMXG_ACTIVITY_HLT_DPL] = "HLT activity state with SS.DPL != 0 "
				  "(27.3.1.5)",
	[VMXG_INTR_RESERVED] = "reserved interruptibility bits (27.3.1.5)",
	[VMXG_INTR_STI_MOVSS] = "blocking by STI and by MOV SS together "
				"(27.3.1.5)",
	[VMXG_INTR_STI_IF] = "blocking by STI with RFLAGS.IF clear "
			     "(27.3.1.5)",
	[VMXG_INTR_INJECT] = "event injected into a blocking shadow "
			     "(27.3.1.5)",
	[VMXG_PENDING_DBG] = "reserved pending-debug-exception bits "
			     "(27.3.1.5)",
	[VMXG_PENDING_BS] = "pending BS does not match RFLAGS.TF and "
			    "DEBUGCTL.BTF (27.3.1.5)",
	[VMXG_LINK_POINTER] = "VMCS link pointer not ~0 (27.3.1.5)",
	[VMXG_PDPTE] = "reserved bits in a present PDPTE (27.3.1.6)",
};

const char *vmx_guest_rule_name(int rule)
{
	if (rule < 0 || rule >= VMXG_RULE_COUNT || !names[rule])
		return "unknown rule";
	return names[rule];
}

const char *vmx_seg_name(int seg)
{
	static const char *const segs[WARDEN_VMX_SEG_COUNT] = {
		"ES", "CS", "SS", "DS", "FS", "GS", "LDTR", "TR"
	};

	return seg >= 0 && seg < WARDEN_VMX_SEG_COUNT ? segs[seg] : "";
}
