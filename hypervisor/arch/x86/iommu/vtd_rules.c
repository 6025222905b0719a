// SPDX-License-Identifier: GPL-2.0
/*
 * The VT-d formats the backend writes and reads, and what root may put in
 * its invalidation queue (contracts in vtd.h).  Plain C, no hardware
 * access, also compiled into the unit tests.
 */
#include "vtd.h"

#include <warden/config.h>

#define ADDR_MASK 0x000ffffffffff000ull /* bits 51:12 */

/* ---- descriptors (6.5.2) ---- */

struct vtd_desc vtd_desc_cc(int sid, u16 did)
{
	struct vtd_desc d = { VTD_DESC_CC, 0 };

	/* 6.5.2.1: granularity bits 5:4, 01b global, 11b device-selective
	 * (DID bits 31:16, SID bits 47:32, function mask 49:48 = 0) */
	if (sid < 0)
		d.lo |= 1ull << 4;
	else
		d.lo |= 3ull << 4 | (u64)did << 16 | (u64)(u16)sid << 32;
	return d;
}

struct vtd_desc vtd_desc_iotlb(u16 did, bool global)
{
	/* 6.5.2.3: granularity bits 5:4, 01b global, 10b domain-selective;
	 * drain reads (bit 7) and writes (bit 6) before completing */
	struct vtd_desc d = { VTD_DESC_IOTLB | 1ull << 7 | 1ull << 6, 0 };

	if (global)
		d.lo |= 1ull << 4;
	else
		d.lo |= 2ull << 4 | (u64)did << 16;
	return d;
}

struct vtd_desc vtd_desc_wait(u64 phys, u32 data)
{
	/* 6.5.2.8: status data bits 63:32, address bits 127:66 (4-byte
	 * aligned) */
	struct vtd_desc d = { VTD_DESC_WAIT | VTD_WAIT_SW | (u64)data << 32,
			      phys & ~3ull };

	return d;
}

struct vtd_desc vtd_desc_iec_global(void)
{
	/* 6.5.2.7: granularity bit 4 clear: every entry */
	struct vtd_desc d = { VTD_DESC_IEC, 0 };

	return d;
}

struct vtd_desc vtd_desc_iec_index(u32 index)
{
	/* 6.5.2.7: granularity bit 4 set (index-selective), IM 31:27 = 0
	 * (one entry), IIDX 47:32 */
	struct vtd_desc d = { VTD_DESC_IEC | 1ull << 4 | (u64)index << 32, 0 };

	return d;
}

/* Bits of an interrupt entry cache descriptor that may be set: type 3:0,
 * granularity 4, index mask 31:27, index 47:32 (6.5.2.7). */
#define IEC_ALLOWED (0xfull | 1ull << 4 | 0x1full << 27 | 0xffffull << 32)
/* Of a wait descriptor: type, IF, SW, FN, PD (7:4), data 63:32. */
#define WAIT_ALLOWED (0xffull | 0xffffffffull << 32)

enum vtd_root_desc vtd_root_desc_check(const struct vtd_desc *d,
				       const char **why)
{
	*why = NULL;
	if (VTD_DESC_TYPE_HI(d->lo)) {
		*why = "a descriptor type beyond the 128-bit ones";
		return VTD_ROOT_REFUSED;
	}
	switch (VTD_DESC_TYPE(d->lo)) {
	case VTD_DESC_IEC:
		if ((d->lo & ~IEC_ALLOWED) || d->hi) {
			*why = "an interrupt entry cache invalidation with "
			       "reserved bits set";
			return VTD_ROOT_REFUSED;
		}
		return VTD_ROOT_IEC;
	case VTD_DESC_WAIT:
		if ((d->lo & ~WAIT_ALLOWED) || (d->hi & 3)) {
			*why = "a wait descriptor with reserved bits set";
			return VTD_ROOT_REFUSED;
		}
		if (d->lo & VTD_WAIT_IF) {
			*why = "a wait descriptor asking for a completion "
			       "interrupt (not emulated)";
			return VTD_ROOT_REFUSED;
		}
		return VTD_ROOT_WAIT;
	case VTD_DESC_CC:
		*why = "a context-cache invalidation (DMA remapping is the "
		       "hypervisor's)";
		return VTD_ROOT_REFUSED;
	case VTD_DESC_IOTLB:
		*why = "an IOTLB invalidation (DMA remapping is the "
		       "hypervisor's)";
		return VTD_ROOT_REFUSED;
	case VTD_DESC_DEVTLB:
		*why = "a device-TLB invalidation (DMA remapping is the "
		       "hypervisor's)";
		return VTD_ROOT_REFUSED;
	default:
		*why = "a descriptor of a type the hypervisor does not carry "
		       "out";
		return VTD_ROOT_REFUSED;
	}
}

/* ---- interrupt remapping table entries (9.10) ---- */

#define IRTE_P (1ull << 0)
#define IRTE_DM (1ull << 2)
#define IRTE_TM (1ull << 4)
#define IRTE_DLM(lo) ((unsigned int)((lo) >> 5) & 7)
#define IRTE_IM (1ull << 15) /* 1: posted format (9.11) */
#define IRTE_VECTOR(lo) ((unsigned int)((lo) >> 16) & 0xff)
/* reserved in either mode: lo 14:12 and 31:24; hi 63:20 */
#define IRTE_LO_RSVD (0x7ull << 12 | 0xffull << 24)
#define IRTE_LO_RSVD_XAPIC (0xffull << 32 | 0xffffull << 48)
#define IRTE_HI_RSVD (~0ull << 20)
#define IRTE_SVT(hi) ((unsigned int)((hi) >> 18) & 3)

const char *vtd_irte_check(u64 lo, u64 hi, bool eime, struct vtd_irte_dest *d)
{
	unsigned int dlm = IRTE_DLM(lo);

	if (lo & IRTE_IM)
		return "posted format (the hypervisor posts no interrupts)";
	if ((lo & IRTE_LO_RSVD) || (!eime && (lo & IRTE_LO_RSVD_XAPIC)) ||
	    (hi & IRTE_HI_RSVD) || IRTE_SVT(hi) == 3)
		return "reserved bits set";
	/* delivery modes (9.10, DLM): 000b Fixed, 001b Lowest Priority,
	 * 100b NMI; SMI, INIT and ExtINT are not a device's to send */
	if (dlm != 0 && dlm != 1 && dlm != 4)
		return "delivery mode other than Fixed, Lowest Priority or "
		       "NMI";
	if (dlm != 4 && IRTE_VECTOR(lo) < 0x10)
		return "vector below 0x10";
	d->logical = lo & IRTE_DM;
	d->low = IRTE_VECTOR(lo) | dlm << 8 | (d->logical ? 1u << 11 : 0);
	d->dest = eime ? (u32)(lo >> 32) : (u32)(lo >> 40) & 0xff;
	return NULL;
}

void vtd_irte_cell(u32 vector, u32 dest, bool eime, u16 sid, bool level,
		   u64 *lo, u64 *hi)
{
	/* lo: P 0, FPD 1 = 0 (faults recorded), DM 2 = 0 (physical), RH 3
	 * = 0, TM 4 (0 edge, 1 level), DLM 7:5 = 000b (Fixed), IM 15 = 0
	 * (remapped format), vector 23:16, destination 63:32 (x2APIC
	 * mode) or 47:40 (xAPIC mode, 8 bits); hi: SID 15:0, SQ 17:16 =
	 * 00b (all 16 bits compared), SVT 19:18 = 01b (verify the
	 * requester id against SID and SQ) -- 9.10, table "SVT/SQ" */
	*lo = IRTE_P | (level ? IRTE_TM : 0) | (u64)(vector & 0xff) << 16 |
	      (eime ? (u64)dest << 32 : (u64)(dest & 0xff) << 40);
	*hi = (u64)sid | VTD_IRTE_SVT_SID;
}

void vtd_msi_remappable(u32 handle, u32 *addr, u32 *data)
{
	/* 5.1.5.2: address 31:20 0xFEE, handle[14:0] 19:5, interrupt
	 * format 4 = 1 (remappable), SHV 3 = 1 (the data's subhandle is
	 * added to the handle: a multiple-message MSI's vector number picks
	 * the entry), handle[15] 2; data 15:0 the subhandle, 0 */
	*addr = 0xfee00000u | (handle & 0x7fff) << 5 | VTD_MSI_REMAPPABLE |
		VTD_MSI_SHV | ((handle >> 15) & 1) << 2;
	*data = 0;
}

/* 5.1.5.1: the bits of a compatibility-format entry a remappable one
 * keeps -- vector 7:0, polarity 13, trigger mode 15, mask 16 */
#define RTE_KEPT (0xffull | 1ull << 13 | 1ull << 15 | 1ull << 16)

u64 vtd_ioapic_remappable(u32 handle, u64 entry)
{
	return (entry & RTE_KEPT) | VTD_RTE_REMAPPABLE |
	       (u64)(handle & 0x7fff) << 49 | (u64)((handle >> 15) & 1) << 11;
}

/* ---- context entries (9.3) ---- */

struct vtd_ctx vtd_ctx_make(u64 slpt, u16 did, bool fpd)
{
	/* lo: P (0), FPD (1), TT 3:2 = 00b (untranslated requests through
	 * the second-level table), SLPTPTR 63:12; hi: AW 2:0, DID 23:8 */
	struct vtd_ctx c = {
		(slpt & ADDR_MASK) | VTD_CE_PRESENT | (fpd ? VTD_CE_FPD : 0),
		VTD_CE_AW_4LEVEL | (u64)did << 8,
	};

	return c;
}

/* ---- fault records (10.4.14) ---- */

bool vtd_fault_decode(u64 lo, u64 hi, struct vtd_fault *f)
{
	if (!(hi & VTD_FRCD_F))
		return false;
	/* FI bits 63:12; SID bits 79:64, FR 103:96, T 126 (1: a read) */
	f->addr = lo & ~0xfffull;
	f->sid = (u16)hi;
	f->reason = (u8)(hi >> 32);
	f->read = (hi >> 62) & 1;
	/* an interrupt-remapping fault: FI 63:48 is the interrupt's
	 * index, 47:12 clear (10.4.14) */
	f->irq = f->reason >= 0x20 && f->reason <= 0x27;
	if (f->irq)
		f->addr = lo >> 48;
	return true;
}

const char *vtd_fault_reason(u8 reason)
{
	/* 7.1.3, the non-recoverable faults of legacy-mode translation */
	switch (reason) {
	case 0x1:
		return "root entry not present";
	case 0x2:
		return "context entry not present: a function no cell owns";
	case 0x3:
		return "invalid context entry";
	case 0x4:
		return "address beyond the domain's width";
	case 0x5:
		return "write to memory not mapped writable for its owner";
	case 0x6:
		return "read of memory not mapped for its owner";
	case 0x7:
		return "invalid paging entry address";
	case 0x8:
		return "invalid root table address";
	case 0x9:
		return "invalid context table address";
	case 0xa:
	case 0xb:
	case 0xc:
		return "reserved bit set in a translation entry";
	case 0xd:
		return "translation type blocked";
	/* 7.1.3, interrupt remapping faults (the record holds the
	 * interrupt's index, 10.4.14) */
	case 0x20:
		return "an interrupt request with reserved bits set";
	case 0x21:
		return "an interrupt index beyond the remapping table";
	case 0x22:
		return "an interrupt whose remapping entry is not present "
		       "(never set, or root's refused by the hypervisor)";
	case 0x23:
		return "the remapping table could not be read";
	case 0x24:
		return "an interrupt whose remapping entry has reserved bits "
		       "set";
	case 0x25:
		return "a compatibility-format interrupt blocked";
	case 0x26:
		return "an interrupt that failed source-id verification";
	default:
		return "reason not known to the hypervisor";
	}
}

/* ---- second-level paging entries (9.8) ---- */

static bool sl_present(u64 e)
{
	return e & (VTD_SL_READ | VTD_SL_WRITE);
}

static bool sl_is_leaf(u64 e, unsigned int level)
{
	return level == 0 || (e & VTD_SL_LARGE);
}

static u64 sl_table(u64 phys)
{
	/* access rights are the AND over the walk: a table grants all */
	return (phys & ADDR_MASK) | VTD_SL_READ | VTD_SL_WRITE;
}

static u64 sl_leaf(u64 phys, unsigned int level, unsigned int flags,
		   unsigned int mem_type)
{
	u64 e = phys & ADDR_MASK;

	(void)mem_type; /* snooped, the memory type is the CPU's (9.8) */
	if (flags & MAP_READ)
		e |= VTD_SL_READ;
	if (flags & MAP_WRITE)
		e |= VTD_SL_WRITE;
	if (level)
		e |= VTD_SL_LARGE;
	return e;
}

static u64 sl_phys(u64 e, unsigned int level)
{
	u64 size = PAGE_SIZE << (9 * level);

	return e & ADDR_MASK & (sl_is_leaf(e, level) ? ~(size - 1) : ~0ull);
}

static unsigned int sl_flags(u64 e)
{
	return ((e & VTD_SL_READ) ? MAP_READ : 0) |
	       ((e & VTD_SL_WRITE) ? MAP_WRITE : 0);
}

static unsigned int sl_mem_type(u64 e)
{
	(void)e;
	return WARDEN_MEMTYPE_WB;
}

struct paging_format vtd_sl_format = {
	.present = sl_present,
	.is_leaf = sl_is_leaf,
	.table = sl_table,
	.leaf = sl_leaf,
	.phys = sl_phys,
	.flags = sl_flags,
	.mem_type = sl_mem_type,
	.max_leaf_level = 0,
};

unsigned int vtd_sl_max_level(u64 cap)
{
	/* SLLPS bit 0: 2 MiB pages, bit 1: 1 GiB pages (10.4.2) */
	unsigned int s = VTD_CAP_SLLPS(cap);

	return (s & 2) && (s & 1) ? 2 : (s & 1) ? 1 : 0;
}

unsigned int vtd_reg_pages(u32 off, u64 cap, u64 ecap)
{
	u32 end = off + VTD_CAP_FRO(cap) + VTD_CAP_NFR(cap) * 16;

	if (end < off + VTD_ECAP_IRO(ecap) + 16)
		end = off + VTD_ECAP_IRO(ecap) + 16;
	return (end + PAGE_SIZE - 1) / PAGE_SIZE;
}
