/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The VT-d backend of the IOMMU unit, private to hypervisor/arch/x86/iommu/.
 * Citations are to the Intel Virtualization Technology for Directed I/O
 * Architecture Specification (rev. 4.x): registers 10.4, root and
 * context entries 9.1-9.3, second-level paging entries 9.8,
 * invalidation descriptors 6.5.2, fault recording 7.2 and 10.4.14.
 *
 * The pure parts (the second-level entry format, descriptors, context
 * entries, fault records, the check of root's queue descriptors) are
 * plain C in vtd_rules.c, also compiled into the unit tests.
 */
#ifndef WARDEN_IOMMU_VTD_H
#define WARDEN_IOMMU_VTD_H

#include <hv/paging.h>
#include <hv/types.h>

/* ---- registers (10.4) ---- */
#define VTD_VER 0x00
#define VTD_CAP 0x08
#define VTD_ECAP 0x10
#define VTD_GCMD 0x18
#define VTD_GSTS 0x1c
#define VTD_RTADDR 0x20
#define VTD_CCMD 0x28
#define VTD_FSTS 0x34
#define VTD_FECTL 0x38
#define VTD_FEDATA 0x3c
#define VTD_FEADDR 0x40
#define VTD_FEUADDR 0x44
#define VTD_IQH 0x80
#define VTD_IQT 0x88
#define VTD_IQA 0x90
#define VTD_ICS 0x9c
#define VTD_IRTA 0xb8

/* Global command and status (10.4.4, 10.4.5): the same bit positions. */
#define VTD_GCMD_TE (1u << 31)
#define VTD_GCMD_SRTP (1u << 30)
#define VTD_GCMD_QIE (1u << 26)
#define VTD_GCMD_IRE (1u << 25)
#define VTD_GCMD_SIRTP (1u << 24) /* one-shot: latch IRTA (10.4.4) */
#define VTD_GSTS_TES VTD_GCMD_TE
#define VTD_GSTS_RTPS VTD_GCMD_SRTP
#define VTD_GSTS_QIES VTD_GCMD_QIE
#define VTD_GSTS_IRES VTD_GCMD_IRE
#define VTD_GSTS_IRTPS VTD_GCMD_SIRTP
/* The status bits a command write must restate (10.4.4: "software reads
 * GSTS, keeps TE, EAFL, QIE, IRE and CFI, and sets the one to change";
 * the one-shot bits SRTP, SFL, WBF, SIRTP read 0 there). */
#define VTD_GSTS_PERSISTENT 0x96ffffffu

/* Capability (10.4.2) and extended capability (10.4.3) fields. */
#define VTD_CAP_ND(c) ((unsigned int)((c)&7))		     /* domains */
#define VTD_CAP_CM (1ull << 7)				     /* caching mode */
#define VTD_CAP_SAGAW(c) ((unsigned int)(((c) >> 8) & 0x1f)) /* widths */
#define VTD_CAP_SAGAW_4LEVEL (1u << 2)			     /* 48-bit */
#define VTD_CAP_FRO(c) ((unsigned int)(((c) >> 24) & 0x3ff) * 16u)
#define VTD_CAP_SLLPS(c) ((unsigned int)(((c) >> 34) & 0xf))
#define VTD_CAP_NFR(c) ((unsigned int)(((c) >> 40) & 0xff) + 1u)
#define VTD_ECAP_C (1ull << 0)	/* page-walk coherency */
#define VTD_ECAP_QI (1ull << 1) /* queued invalidation */
#define VTD_ECAP_DT (1ull << 2) /* device-TLB (ATS) */
#define VTD_ECAP_IR (1ull << 3)
/* the IOTLB registers (IVA, then IOTLB): their offset, 10.4.3 */
#define VTD_ECAP_IRO(e) ((unsigned int)(((e) >> 8) & 0x3ff) * 16u)

/* Fault status (10.4.9). */
#define VTD_FSTS_PFO (1u << 0) /* primary fault overflow, RW1C */
#define VTD_FSTS_PPF (1u << 1) /* primary pending fault, RO */
#define VTD_FSTS_IQE (1u << 4) /* invalidation queue error, RW1C */
#define VTD_FSTS_ICE (1u << 5)
#define VTD_FSTS_ITE (1u << 6)
#define VTD_FSTS_FRI(s) (((s) >> 8) & 0xff)
#define VTD_FECTL_IM (1u << 31) /* interrupt mask */

/* Invalidation queue address (10.4.25): base, descriptor width, size. */
#define VTD_IQA_QS_MASK 0x7ull /* 2^QS pages of 256 128-bit entries */
#define VTD_IQA_DW (1ull << 11)
#define VTD_IQT_SHIFT 4 /* 128-bit descriptors: QT is bits 18:4 */

/* The register pages of a unit whose registers start at page offset
 * off: up to the last fault record (CAP.FRO, CAP.NFR records of 16
 * bytes, 10.4.2, 10.4.14) and the IOTLB registers (ECAP.IRO, 16 bytes,
 * 10.4.3, 10.4.8), at least the first. */
unsigned int vtd_reg_pages(u32 off, u64 cap, u64 ecap);

/* ---- invalidation descriptors, 128-bit (6.5.2) ---- */
struct vtd_desc {
	u64 lo, hi;
};
#define VTD_DESC_CC 0x1ull    /* context-cache invalidate (6.5.2.1) */
#define VTD_DESC_IOTLB 0x2ull /* IOTLB invalidate (6.5.2.3) */
#define VTD_DESC_DEVTLB 0x3ull
#define VTD_DESC_IEC 0x4ull  /* interrupt entry cache (6.5.2.7) */
#define VTD_DESC_WAIT 0x5ull /* invalidation wait (6.5.2.8) */
#define VTD_DESC_TYPE(lo) ((lo)&0xf)
#define VTD_DESC_TYPE_HI(lo) (((lo) >> 9) & 0x7) /* bits 11:9, 0 here */
#define VTD_WAIT_IF (1ull << 4)
#define VTD_WAIT_SW (1ull << 5)
#define VTD_WAIT_FN (1ull << 6)

/* A context-cache invalidation, device-selective (granularity 11b) for
 * source id sid in domain did, or global (did ignored, sid < 0). */
struct vtd_desc vtd_desc_cc(int sid, u16 did);
/* An IOTLB invalidation, domain-selective (granularity 10b) for did, or
 * global (did 0 ignored, global true); reads and writes drained. */
struct vtd_desc vtd_desc_iotlb(u16 did, bool global);
/* An invalidation wait writing data to the 4-byte status at phys. */
struct vtd_desc vtd_desc_wait(u64 phys, u32 data);
/* An interrupt entry cache invalidation, global. */
struct vtd_desc vtd_desc_iec_global(void);

/* An interrupt entry cache invalidation of one index (6.5.2.7). */
struct vtd_desc vtd_desc_iec_index(u32 index);

/* What root may put in its own queue (the hypervisor carries it out). */
enum vtd_root_desc {
	VTD_ROOT_IEC,	  /* forwarded as it is */
	VTD_ROOT_WAIT,	  /* completed by the hypervisor: status write */
	VTD_ROOT_REFUSED, /* anything else: skipped, reported */
};
/* Classify root's descriptor d; *why is set for VTD_ROOT_REFUSED. */
enum vtd_root_desc vtd_root_desc_check(const struct vtd_desc *d,
				       const char **why);

/* ---- interrupt remapping (5.1, 9.10, 10.4.29) ---- */

/* IRTA: table base 63:12, EIME 11 (x2APIC mode: 32-bit destination ids),
 * S 3:0 (2^(S + 1) entries of 16 bytes). */
#define VTD_IRTA_EIME (1ull << 11)
#define VTD_IRTA_S_MASK 0xfull
#define VTD_IRTA_ENTRIES(irta) (2u << ((irta)&VTD_IRTA_S_MASK))
/* An interrupt entry cache invalidation (6.5.2.7): granularity bit 4
 * (1: index-selective), index mask 31:27 (2^IM entries), index 47:32. */
#define VTD_IEC_INDEXED(lo) (((lo) >> 4) & 1)
#define VTD_IEC_IM(lo) ((unsigned int)(((lo) >> 27) & 0x1f))
#define VTD_IEC_IIDX(lo) ((u32)(((lo) >> 32) & 0xffff))

/* An IRTE (9.10, remapped format) as root's CPUs would see it sent:
 * the interrupt in ICR form (vector, delivery mode 10:8, destination mode
 * 11) and its destination id (x2APIC mode: 32 bits, else 8). */
struct vtd_irte_dest {
	u32 low;
	u32 dest;
	bool logical;
};

/*
 * The format half of the check of one of root's IRTEs (lo, hi) before the
 * hypervisor's table takes a copy (9.10): NULL with *d filled, or why it
 * is refused: posted (IM, no posted interrupts here), a reserved bit set
 * (lo 14:12, 31:24, in xAPIC mode (eime false) 39:32 and 63:48; hi 63:20;
 * SVT 11b), a delivery mode other than Fixed, Lowest Priority or NMI, a
 * Fixed or Lowest Priority vector below 0x10.  The caller has checked P
 * (a not-present entry is copied as it is) and checks the destination.
 */
const char *vtd_irte_check(u64 lo, u64 hi, bool eime, struct vtd_irte_dest *d);

/*
 * A cell's entry (9.10, remapped format): present, Fixed, physical,
 * edge (level: level-triggered, TM 4, for an IOAPIC pin whose entry
 * says so), vector, destination dest (eime: the 32-bit x2APIC id, else the
 * 8-bit xAPIC id in 47:40), and source-id verification: SVT 01b, SQ 00b,
 * SID sid -- the unit delivers it only for a request of sid (anything
 * else faults, reason 0x26).  The caller has checked vector and dest.
 */
#define VTD_IRTE_SVT_SID (1ull << 18)
void vtd_irte_cell(u32 vector, u32 dest, bool eime, u16 sid, bool level,
		   u64 *lo, u64 *hi);

/* An MSI message in remappable format (5.1.5.2) naming entry handle,
 * with SHV set and subhandle 0 in data (a multiple-message MSI's
 * message n then names handle + n). */
#define VTD_MSI_REMAPPABLE (1u << 4)
#define VTD_MSI_SHV (1u << 3)
void vtd_msi_remappable(u32 handle, u32 *addr, u32 *data);

/*
 * An IOAPIC redirection entry in remappable format (5.1.5.1) naming
 * entry handle, from a compatibility-format entry: its vector (7:0, the
 * same as the remapping entry's, so that an EOI by vector finds the pin,
 * 5.1.5.1), polarity (13), trigger mode (15, the same as the entry's
 * TM), mask (16); interrupt format 48 = 1, handle[14:0] in 63:49,
 * handle[15] in 11; delivery mode 10:8 and everything else 0.
 */
#define VTD_RTE_REMAPPABLE (1ull << 48)
u64 vtd_ioapic_remappable(u32 handle, u64 entry);

/* ---- root and context entries (9.1, 9.3), legacy mode ---- */
#define VTD_RE_PRESENT 1ull
#define VTD_CE_PRESENT (1ull << 0)
#define VTD_CE_FPD (1ull << 1) /* fault processing disable */
#define VTD_CE_AW_4LEVEL 2ull  /* hi bits 2:0: 48-bit, 4-level table */
#define VTD_CE_DID(hi) ((u16)((hi) >> 8))
struct vtd_ctx {
	u64 lo, hi;
};
/* A present context entry: untranslated requests through the
 * second-level table at slpt (TT 00b), 4-level, domain did. */
struct vtd_ctx vtd_ctx_make(u64 slpt, u16 did, bool fpd);

/* ---- fault records (10.4.14) ---- */
struct vtd_fault {
	u16 sid;   /* requester: bus << 8 | devfn */
	u8 reason; /* fault reason (7.2, table "fault reasons") */
	bool read; /* else a write */
	u64 addr;  /* page of the faulting request */
	bool irq;  /* an interrupt request (reason 0x20 on): addr is its
		    * remapping index (FI 63:48) */
};
#define VTD_FRCD_F (1ull << 63) /* in the high quadword; RW1C */
/* Decode the record (lo, hi); false if its F bit is clear. */
bool vtd_fault_decode(u64 lo, u64 hi, struct vtd_fault *f);
/* The reason in words (7.2, table 7-x: the codes legacy mode reports). */
const char *vtd_fault_reason(u8 reason);

/* ---- second-level paging entries (9.8) ---- */
#define VTD_SL_READ (1ull << 0)
#define VTD_SL_WRITE (1ull << 1)
#define VTD_SL_LARGE (1ull << 7)
/* The paging engine's format; max_leaf_level set from CAP.SLLPS. */
extern struct paging_format vtd_sl_format;
/* The largest leaf level CAP.SLLPS allows (0: 4 KiB only). */
unsigned int vtd_sl_max_level(u64 cap);

#endif /* WARDEN_IOMMU_VTD_H */
