/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtual machine control block (VMCB): one 4 KiB page, the control
 * area at offset 0 and the state save area at 0x400 (AMD APM Vol. 2,
 * Appendix B, Tables B-1 and B-2), the exit codes (Appendix C) and the
 * SVM instructions.  Nothing outside hypervisor/arch/x86/svm/ includes it.
 */
#ifndef WARDEN_SVM_VMCB_H
#define WARDEN_SVM_VMCB_H

#include <hv/types.h>

/* A segment in the save area: selector, attributes (descriptor bits
 * 47:40 and 55:52 packed into 11:0), limit, base (APM Table B-2). */
struct vmcb_seg {
	u16 selector;
	u16 attrib;
	u32 limit;
	u64 base;
} __attribute__((packed));
_Static_assert(sizeof(struct vmcb_seg) == 16, "VMCB segment");

/* vmcb_seg.attrib */
#define SEG_ATTR_TYPE_MASK 0x00f
#define SEG_ATTR_S (1u << 4)
#define SEG_ATTR_DPL_SHIFT 5
#define SEG_ATTR_P (1u << 7)
#define SEG_ATTR_L (1u << 9)
#define SEG_ATTR_DB (1u << 10)
#define SEG_ATTR_G (1u << 11)

/* The control area (APM Table B-1). */
struct vmcb_control {
	u16 intercept_cr_read;	  /* 0x000 */
	u16 intercept_cr_write;	  /* 0x002 */
	u16 intercept_dr_read;	  /* 0x004 */
	u16 intercept_dr_write;	  /* 0x006 */
	u32 intercept_exceptions; /* 0x008 */
	u32 intercept_misc1;	  /* 0x00c: vector 3 */
	u32 intercept_misc2;	  /* 0x010: vector 4 */
	u32 intercept_misc3;	  /* 0x014: vector 5 */
	u8 reserved_018[0x03c - 0x018];
	u16 pause_filter_threshold; /* 0x03c */
	u16 pause_filter_count;	    /* 0x03e */
	u64 iopm_base_pa;	    /* 0x040 */
	u64 msrpm_base_pa;	    /* 0x048 */
	u64 tsc_offset;		    /* 0x050 */
	u32 guest_asid;		    /* 0x058 */
	u8 tlb_control;		    /* 0x05c */
	u8 reserved_05d[3];
	u64 vintr;	      /* 0x060: V_TPR, V_IRQ, ... */
	u64 interrupt_shadow; /* 0x068 */
	u64 exit_code;	      /* 0x070 */
	u64 exit_info_1;      /* 0x078 */
	u64 exit_info_2;      /* 0x080 */
	u64 exit_int_info;    /* 0x088 */
	u64 np_enable;	      /* 0x090 */
	u64 avic_apic_bar;    /* 0x098 */
	u64 ghcb_pa;	      /* 0x0a0 */
	u64 event_inj;	      /* 0x0a8 */
	u64 n_cr3;	      /* 0x0b0 */
	u64 virt_ext;	      /* 0x0b8: LBR virtualization, ... */
	u32 clean_bits;	      /* 0x0c0 */
	u32 reserved_0c4;
	u64 next_rip;	   /* 0x0c8 */
	u8 insn_len;	   /* 0x0d0 */
	u8 insn_bytes[15]; /* 0x0d1 */
	u8 reserved_0e0[0x400 - 0x0e0];
} __attribute__((packed));

/* The state save area (APM Table B-2), at VMCB offset 0x400. */
struct vmcb_save {
	struct vmcb_seg es, cs, ss, ds, fs, gs; /* 0x000 - 0x05f */
	struct vmcb_seg gdtr, ldtr, idtr, tr;	/* 0x060 - 0x09f */
	u8 reserved_0a0[0x0cb - 0x0a0];
	u8 cpl; /* 0x0cb */
	u32 reserved_0cc;
	u64 efer; /* 0x0d0 */
	u8 reserved_0d8[0x148 - 0x0d8];
	u64 cr4;    /* 0x148 */
	u64 cr3;    /* 0x150 */
	u64 cr0;    /* 0x158 */
	u64 dr7;    /* 0x160 */
	u64 dr6;    /* 0x168 */
	u64 rflags; /* 0x170 */
	u64 rip;    /* 0x178 */
	u8 reserved_180[0x1d8 - 0x180];
	u64 rsp; /* 0x1d8 */
	u8 reserved_1e0[0x1f8 - 0x1e0];
	u64 rax;	    /* 0x1f8 */
	u64 star;	    /* 0x200 */
	u64 lstar;	    /* 0x208 */
	u64 cstar;	    /* 0x210 */
	u64 sfmask;	    /* 0x218 */
	u64 kernel_gs_base; /* 0x220 */
	u64 sysenter_cs;    /* 0x228 */
	u64 sysenter_esp;   /* 0x230 */
	u64 sysenter_eip;   /* 0x238 */
	u64 cr2;	    /* 0x240 */
	u8 reserved_248[0x268 - 0x248];
	u64 g_pat;	    /* 0x268 */
	u64 dbgctl;	    /* 0x270 */
	u64 br_from;	    /* 0x278 */
	u64 br_to;	    /* 0x280 */
	u64 last_excp_from; /* 0x288 */
	u64 last_excp_to;   /* 0x290 */
} __attribute__((packed));

struct vmcb {
	struct vmcb_control control;
	struct vmcb_save save;
} __attribute__((packed));

#define VMCB_CHECK(type, field, offset)                                        \
	_Static_assert(__builtin_offsetof(type, field) == (offset), #type      \
		       "." #field " at " #offset " (APM Vol. 2, App. B)")
VMCB_CHECK(struct vmcb_control, intercept_exceptions, 0x008);
VMCB_CHECK(struct vmcb_control, intercept_misc1, 0x00c);
VMCB_CHECK(struct vmcb_control, intercept_misc2, 0x010);
VMCB_CHECK(struct vmcb_control, pause_filter_count, 0x03e);
VMCB_CHECK(struct vmcb_control, iopm_base_pa, 0x040);
VMCB_CHECK(struct vmcb_control, msrpm_base_pa, 0x048);
VMCB_CHECK(struct vmcb_control, guest_asid, 0x058);
VMCB_CHECK(struct vmcb_control, tlb_control, 0x05c);
VMCB_CHECK(struct vmcb_control, vintr, 0x060);
VMCB_CHECK(struct vmcb_control, interrupt_shadow, 0x068);
VMCB_CHECK(struct vmcb_control, exit_code, 0x070);
VMCB_CHECK(struct vmcb_control, exit_info_1, 0x078);
VMCB_CHECK(struct vmcb_control, exit_info_2, 0x080);
VMCB_CHECK(struct vmcb_control, exit_int_info, 0x088);
VMCB_CHECK(struct vmcb_control, np_enable, 0x090);
VMCB_CHECK(struct vmcb_control, event_inj, 0x0a8);
VMCB_CHECK(struct vmcb_control, n_cr3, 0x0b0);
VMCB_CHECK(struct vmcb_control, clean_bits, 0x0c0);
VMCB_CHECK(struct vmcb_control, next_rip, 0x0c8);
VMCB_CHECK(struct vmcb_control, insn_len, 0x0d0);
VMCB_CHECK(struct vmcb_save, cs, 0x010);
VMCB_CHECK(struct vmcb_save, gdtr, 0x060);
VMCB_CHECK(struct vmcb_save, tr, 0x090);
VMCB_CHECK(struct vmcb_save, cpl, 0x0cb);
VMCB_CHECK(struct vmcb_save, efer, 0x0d0);
VMCB_CHECK(struct vmcb_save, cr4, 0x148);
VMCB_CHECK(struct vmcb_save, cr0, 0x158);
VMCB_CHECK(struct vmcb_save, rflags, 0x170);
VMCB_CHECK(struct vmcb_save, rip, 0x178);
VMCB_CHECK(struct vmcb_save, rsp, 0x1d8);
VMCB_CHECK(struct vmcb_save, rax, 0x1f8);
VMCB_CHECK(struct vmcb_save, star, 0x200);
VMCB_CHECK(struct vmcb_save, kernel_gs_base, 0x220);
VMCB_CHECK(struct vmcb_save, sysenter_eip, 0x238);
VMCB_CHECK(struct vmcb_save, cr2, 0x240);
VMCB_CHECK(struct vmcb_save, g_pat, 0x268);
VMCB_CHECK(struct vmcb_save, last_excp_to, 0x290);
VMCB_CHECK(struct vmcb, save, 0x400);
_Static_assert(sizeof(struct vmcb) <= 4096, "the VMCB is one page");

/* intercept_misc1 (vector 3, APM Table B-1 offset 0x0c) */
#define INTERCEPT_INTR (1u << 0)
#define INTERCEPT_NMI (1u << 1)
#define INTERCEPT_INIT (1u << 3)
#define INTERCEPT_VINTR (1u << 4)
#define INTERCEPT_CR0_SEL_WRITE (1u << 5) /* bits other than TS, MP */
#define INTERCEPT_CPUID (1u << 18)
#define INTERCEPT_IRET (1u << 20)
#define INTERCEPT_INVD (1u << 22)
#define INTERCEPT_INVLPGA (1u << 26)
#define INTERCEPT_IOIO_PROT (1u << 27)
#define INTERCEPT_MSR_PROT (1u << 28)
#define INTERCEPT_SHUTDOWN (1u << 31)
/* intercept_misc2 (vector 4, offset 0x10) */
#define INTERCEPT_VMRUN (1u << 0)
#define INTERCEPT_VMMCALL (1u << 1)
#define INTERCEPT_VMLOAD (1u << 2)
#define INTERCEPT_VMSAVE (1u << 3)
#define INTERCEPT_STGI (1u << 4)
#define INTERCEPT_CLGI (1u << 5)
#define INTERCEPT_SKINIT (1u << 6)
#define INTERCEPT_XSETBV (1u << 13)

/* tlb_control (APM 15.16.1) */
#define TLB_CONTROL_NONE 0
#define TLB_CONTROL_FLUSH_ALL 1
#define TLB_CONTROL_FLUSH_ASID 3

/* vintr (offset 0x60, APM 15.21) */
#define VINTR_V_IRQ (1ull << 8)
#define VINTR_PRIO_SHIFT 16
#define VINTR_IGN_TPR (1ull << 20)

/* interrupt_shadow: bit 0, the guest is in an STI/MOV SS shadow */
#define INTERRUPT_SHADOW_ACTIVE (1ull << 0)

/* np_enable (offset 0x90) */
#define NP_ENABLE (1ull << 0)

/* event_inj and exit_int_info (APM 15.20, 15.7.2) */
#define EVENT_VECTOR_MASK 0xffu
#define EVENT_TYPE_SHIFT 8
#define EVENT_TYPE_MASK (7u << EVENT_TYPE_SHIFT)
#define EVENT_TYPE_INTR (0u << EVENT_TYPE_SHIFT)
#define EVENT_TYPE_NMI (2u << EVENT_TYPE_SHIFT)
#define EVENT_TYPE_EXCEPTION (3u << EVENT_TYPE_SHIFT)
#define EVENT_TYPE_SOFT_INT (4u << EVENT_TYPE_SHIFT)
#define EVENT_ERROR_VALID (1u << 11)
#define EVENT_VALID (1u << 31)

/* Exit codes (APM Appendix C) */
#define SVM_EXIT_CR0_WRITE 0x010
#define SVM_EXIT_CR4_WRITE 0x014
#define SVM_EXIT_EXCP_BASE 0x040
#define SVM_EXIT_INTR 0x060
#define SVM_EXIT_NMI 0x061
#define SVM_EXIT_SMI 0x062
#define SVM_EXIT_INIT 0x063
#define SVM_EXIT_VINTR 0x064
#define SVM_EXIT_CR0_SEL_WRITE 0x065
#define SVM_EXIT_CPUID 0x072
#define SVM_EXIT_IRET 0x074
#define SVM_EXIT_INVD 0x076
#define SVM_EXIT_INVLPGA 0x07a
#define SVM_EXIT_IOIO 0x07b
#define SVM_EXIT_MSR 0x07c
#define SVM_EXIT_SHUTDOWN 0x07f
#define SVM_EXIT_VMRUN 0x080
#define SVM_EXIT_VMMCALL 0x081
#define SVM_EXIT_VMLOAD 0x082
#define SVM_EXIT_VMSAVE 0x083
#define SVM_EXIT_STGI 0x084
#define SVM_EXIT_CLGI 0x085
#define SVM_EXIT_SKINIT 0x086
#define SVM_EXIT_XSETBV 0x08d
#define SVM_EXIT_NPF 0x400
#define SVM_EXIT_INVALID 0xffffffffffffffffull

/* EXITINFO1 of an IOIO intercept (APM 15.10.2, Figure 15-2) */
#define IOIO_TYPE_IN (1u << 0)
#define IOIO_STR (1u << 2)
#define IOIO_REP (1u << 3)
#define IOIO_SZ8 (1u << 4)
#define IOIO_SZ16 (1u << 5)
#define IOIO_SZ32 (1u << 6)
#define IOIO_PORT_SHIFT 16

/* EXITINFO1 of a nested page fault (APM 15.25.6): a #PF error code */
#define NPF_PRESENT (1ull << 0)
#define NPF_WRITE (1ull << 1)
#define NPF_FETCH (1ull << 4)
#define NPF_FINAL_GPA (1ull << 32) /* the access itself, not a table walk */

/* The SVM instructions (APM Vol. 3); rAX holds the VMCB's physical
 * address. */
static inline void svm_vmload(u64 pa)
{
	asm volatile("vmload %%rax" : : "a"(pa) : "memory");
}

static inline void svm_vmsave(u64 pa)
{
	asm volatile("vmsave %%rax" : : "a"(pa) : "memory");
}

static inline void svm_stgi(void)
{
	asm volatile("stgi" : : : "memory");
}

static inline void svm_clgi(void)
{
	asm volatile("clgi" : : : "memory");
}

#endif /* WARDEN_SVM_VMCB_H */
