// SPDX-License-Identifier: GPL-2.0
/*
 * The VT-d backend (hypervisor/arch/x86/iommu/vtd*.c) against a register
 * model, for what QEMU's intel-iommu cannot show: several fault records
 * (QEMU has one) read from the index the status names, wrapping, with an
 * overflow counted; root's invalidation queue carried out (interrupt
 * entry cache invalidations forwarded, wait descriptors completed in
 * root's memory, context-cache invalidations refused, the queue's wrap);
 * and the IOTLB: the model caches translations as hardware does, so a
 * change of a domain's tables without the invalidation leaves a stale
 * translation the test sees, and the backend's flush removes it; moving
 * a function invalidates its old domain before the new entry is written;
 * the take-over and the hand-back, root's queue coming back with its head
 * and tail where Linux left them and a wait last (QEMU turns a queue off
 * only then, which the next enable does).
 * The formats themselves (descriptors, context entries, fault records,
 * second-level entries) are checked bit by bit against the spec.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "hv_stubs.h"
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/paging.h>
#include <iommu/iommu_backend.h>
#include <iommu/vtd_hw.h>
#include <warden/hypercall.h>

struct hypervisor hv;
static struct warden_hv_header header = { .tsc_khz = 1000000 };
static void *arena;

#define POOL_PAGES 512
#define NFR 4
#define FRO 0x200

/* ---- stubs of the hypervisor around the backend ---- */

void printk(const char *fmt, ...)
{
	(void)fmt;
}

int hv_no_memory(struct per_cpu *pc, unsigned int stage)
{
	(void)pc;
	(void)stage;
	return -WARDEN_ENOMEM;
}

static u64 now;
u64 arch_timestamp(void)
{
	return now += 1000;
}

static int guest_read(u64 gpa, void *buf, unsigned long len);

/* root's memory, for the status writes of its wait descriptors */
static u32 root_mem[64];
#define ROOT_MEM_GPA 0x5000ull
int arch_guest_copy(struct per_cpu *pc, u64 gpa, void *buf, unsigned long len,
		    bool write)
{
	(void)pc;
	if (!write)
		return guest_read(gpa, buf, len);
	if (gpa < ROOT_MEM_GPA || gpa + len > ROOT_MEM_GPA + sizeof(root_mem))
		return -WARDEN_EFAULT;
	memcpy((u8 *)root_mem + (gpa - ROOT_MEM_GPA), buf, len);
	return 0;
}

int vtd_root_regs_trap(struct vtd_unit *u)
{
	(void)u;
	return 0;
}

/* root's interrupt remapping table, in root's memory: 16 entries */
#define ROOT_IRT_GPA 0x80000ull
#define ROOT_IRT_S 3
static u64 root_irt[2 * (2 << ROOT_IRT_S)];

/* the second unit's table of root's (Linux: one per unit) */
#define ROOT_IRT2_GPA 0x90000ull
static u64 root_irt2[2 * (2 << ROOT_IRT_S)];

static int guest_read(u64 gpa, void *buf, unsigned long len)
{
	if (gpa >= ROOT_IRT2_GPA &&
	    gpa + len <= ROOT_IRT2_GPA + sizeof(root_irt2)) {
		memcpy(buf, (u8 *)root_irt2 + (gpa - ROOT_IRT2_GPA), len);
		return 0;
	}
	if (gpa < ROOT_IRT_GPA || gpa + len > ROOT_IRT_GPA + sizeof(root_irt))
		return -WARDEN_EFAULT;
	memcpy(buf, (u8 *)root_irt + (gpa - ROOT_IRT_GPA), len);
	return 0;
}

/* The destination rule (irq_dest.c), as the backend sees it: APIC 3 is
 * cell "cell-b"'s; a joining cell takes APIC 1; APIC 9 is no CPU. */
static const struct cell *joining_seen;
const char *irq_root_remapped_refused(bool x2apic, u32 low, u32 dest,
				      const struct cell *joining, u32 *apic_id,
				      const char **owner)
{
	(void)x2apic;
	(void)low;
	joining_seen = joining;
	*apic_id = dest;
	if (dest == 3 || (joining && dest == 1)) {
		*owner = dest == 3 ? "cell-b" : "joining";
		return "destination belongs to a cell";
	}
	if (dest == 9) {
		*owner = NULL;
		return "destination names no CPU";
	}
	return NULL;
}

/* ---- the register model ---- */

struct model {
	u32 fro, nfr; /* where its fault records are, how many */
	bool dead;    /* ignores its global commands (no answer) */
	u32 gsts, fectl, fri;
	bool pfo;
	u64 iqa, iqh, iqt, rtaddr, root; /* root: latched by SRTP */
	u64 irta, irt;			 /* irt: latched by SIRTP */
	unsigned int sirtp_at;		 /* nlog when SIRTP was last set */
	u64 qbase;     /* the queue: latched when QI goes on */
	u64 last_type; /* of the last descriptor carried out */
	u64 iec_saw;   /* the entry an index-selective invalidation named,
			* as the table held it then */
	u64 frcd[NFR][2];
	struct vtd_desc log[512]; /* descriptors carried out, in order */
	unsigned int nlog;
	/* the IOTLB: translations by domain and page */
	struct {
		bool valid;
		u16 did;
		u64 page, phys;
	} tlb[16];
};
/* two units: the first (unit[0]) as the single-unit tests knew it, the
 * second with its fault records beyond the first register page */
static struct model ms[2];
#define m (ms[0])
#define U0 (vtd.unit[0])
#define U1 (vtd.unit[1])
/* requesters the two units cover in the two-unit config: 00:03.0 is
 * the first's (INCLUDE_PCI_ALL), 00:1f.7 the second's (its scope) */
#define SID0 0x18
#define SID1 0xff

static struct model *model_of(const struct vtd_unit *u)
{
	assert_true(u == &U0 || u == &U1);
	return &ms[u - vtd.unit];
}

/* The model as root's Linux leaves it for a take-over: interrupt
 * remapping and queued invalidation on, its queue at rq with head and
 * tail at descriptor tail (the last carried out a wait), its remapping
 * table at irta (0: the model's as it is), no root table. */
static void model_root_ir_of(struct model *mm, struct vtd_desc *rq, u64 tail,
			     u64 irta)
{
	mm->iqa = mm->qbase = (u64)(uintptr_t)rq;
	mm->iqh = mm->iqt = tail << VTD_IQT_SHIFT;
	mm->last_type = VTD_DESC_WAIT;
	mm->gsts = VTD_GSTS_QIES | VTD_GSTS_IRES;
	if (irta)
		mm->irta = mm->irt = irta;
	mm->rtaddr = mm->root = 0;
}

static void model_root_ir(struct vtd_desc *rq, u64 tail, u64 irta)
{
	model_root_ir_of(&m, rq, tail, irta);
}

static bool any_fault(struct model *mm)
{
	unsigned int i;

	for (i = 0; i < mm->nfr; i++)
		if (mm->frcd[i][1] & VTD_FRCD_F)
			return true;
	return false;
}

u32 vtd_read32(struct vtd_unit *u, u32 reg)
{
	struct model *mm = model_of(u);

	if (reg >= mm->fro && reg < mm->fro + mm->nfr * 16)
		return (u32)(mm->frcd[(reg - mm->fro) / 16]
				     [(reg - mm->fro) % 16 / 8] >>
			     ((reg % 8) * 8));
	switch (reg) {
	case VTD_GSTS:
		return mm->gsts;
	case VTD_FSTS:
		return (mm->pfo ? VTD_FSTS_PFO : 0) |
		       (any_fault(mm) ? VTD_FSTS_PPF : 0) | mm->fri << 8;
	case VTD_FECTL:
		return mm->fectl;
	}
	fail_msg("read of register 0x%x", reg);
	return 0;
}

u64 vtd_read64(struct vtd_unit *u, u32 reg)
{
	struct model *mm = model_of(u);

	if (reg >= mm->fro && reg < mm->fro + mm->nfr * 16)
		return mm->frcd[(reg - mm->fro) / 16][(reg - mm->fro) % 16 / 8];
	switch (reg) {
	case VTD_IQH:
		return mm->iqh;
	case VTD_IQT:
		return mm->iqt;
	case VTD_IQA:
		return mm->iqa;
	case VTD_RTADDR:
		return mm->rtaddr;
	case VTD_IRTA:
		return mm->irta;
	}
	fail_msg("64-bit read of register 0x%x", reg);
	return 0;
}

static void carry_out(struct model *mm, const struct vtd_desc *d)
{
	unsigned int i;

	assert_true(mm->nlog < 512);
	mm->log[mm->nlog++] = *d;
	mm->last_type = VTD_DESC_TYPE(d->lo);
	switch (VTD_DESC_TYPE(d->lo)) {
	case VTD_DESC_IEC:
		if (VTD_IEC_INDEXED(d->lo) && vtd.unit[mm - ms].irt)
			mm->iec_saw =
				vtd.unit[mm - ms].irt[2 * VTD_IEC_IIDX(d->lo)];
		break;
	case VTD_DESC_WAIT:
		if (d->lo & VTD_WAIT_SW)
			*(volatile u32 *)(uintptr_t)d->hi = (u32)(d->lo >> 32);
		break;
	case VTD_DESC_IOTLB:
		for (i = 0; i < 16; i++)
			if (((d->lo >> 4) & 3) == 1 ||
			    mm->tlb[i].did == (u16)(d->lo >> 16))
				mm->tlb[i].valid = false;
		break;
	}
}

static void tail_written(struct model *mm)
{
	const struct vtd_desc *q =
		(const struct vtd_desc *)(uintptr_t)mm->qbase;

	if (!(mm->gsts & VTD_GSTS_QIES))
		return; /* fetched once QI is on */
	while (mm->iqh != mm->iqt) {
		carry_out(mm, &q[mm->iqh >> VTD_IQT_SHIFT]);
		mm->iqh = (mm->iqh + (1 << VTD_IQT_SHIFT)) % PAGE_SIZE;
	}
}

void vtd_write32(struct vtd_unit *u, u32 reg, u32 v)
{
	struct model *mm = model_of(u);

	if (reg >= mm->fro && reg < mm->fro + mm->nfr * 16) {
		/* F is write-1-to-clear, in the record's last dword */
		assert_int_equal((reg - mm->fro) % 16, 12);
		if (v & (1u << 31))
			mm->frcd[(reg - mm->fro) / 16][1] &= ~VTD_FRCD_F;
		return;
	}
	switch (reg) {
	case VTD_GCMD: {
		u32 g = mm->gsts & ~(VTD_GSTS_TES | VTD_GSTS_IRES);

		if (mm->dead)
			return;
		g |= v & (VTD_GCMD_TE | VTD_GCMD_IRE);
		if (v & VTD_GCMD_SRTP) {
			mm->root = mm->rtaddr;
			g |= VTD_GSTS_RTPS;
		}
		if (v & VTD_GCMD_SIRTP) {
			mm->irt = mm->irta;
			mm->sirtp_at = mm->nlog;
			g |= VTD_GSTS_IRTPS;
		}
		if ((v & VTD_GCMD_QIE) && !(mm->gsts & VTD_GSTS_QIES)) {
			assert_int_equal(mm->iqt, 0); /* the tail first */
			mm->qbase = mm->iqa & PAGE_MASK;
			g |= VTD_GSTS_QIES;
		}
		/* off only with the queue empty and a wait last (QEMU's
		 * check, hw/i386/intel_iommu.c); the head reset to 0
		 * (10.4.22) */
		if (!(v & VTD_GCMD_QIE) && (mm->gsts & VTD_GSTS_QIES) &&
		    mm->iqh == mm->iqt && mm->last_type == VTD_DESC_WAIT) {
			g &= ~VTD_GSTS_QIES;
			mm->iqh = 0;
		}
		mm->gsts = g;
		return;
	}
	case VTD_FSTS:
		if (v & VTD_FSTS_PFO)
			mm->pfo = false;
		return;
	case VTD_IQT:
		mm->iqt = v;
		tail_written(mm);
		return;
	}
	fail_msg("write of 0x%x to register 0x%x", v, reg);
}

void vtd_write64(struct vtd_unit *u, u32 reg, u64 v)
{
	struct model *mm = model_of(u);

	switch (reg) {
	case VTD_IQT:
		mm->iqt = v;
		tail_written(mm);
		return;
	case VTD_IQA:
		mm->iqa = v;
		return;
	case VTD_RTADDR:
		mm->rtaddr = v;
		return;
	case VTD_IRTA:
		mm->irta = v;
		return;
	}
	fail_msg("64-bit write to register 0x%x", reg);
}

/* The unit translating a request of sid at addr: through its IOTLB
 * first, as hardware does, else by a walk (root, context, 4 levels).
 * true with *phys, or false: a fault. */
static bool translate(u16 sid, u64 addr, u64 *phys)
{
	const u64 *re = (const u64 *)(uintptr_t)(m.root & PAGE_MASK);
	const u64 *ce, *t;
	unsigned int level, i, free = 16;
	u64 e;
	u16 did;

	if (!(re[2 * (sid >> 8)] & 1))
		return false;
	ce = (const u64 *)(uintptr_t)(re[2 * (sid >> 8)] & PAGE_MASK) +
	     2 * (sid & 0xff);
	if (!(ce[0] & VTD_CE_PRESENT))
		return false;
	did = VTD_CE_DID(ce[1]);
	for (i = 0; i < 16; i++) {
		if (m.tlb[i].valid && m.tlb[i].did == did &&
		    m.tlb[i].page == (addr & PAGE_MASK)) {
			*phys = m.tlb[i].phys | (addr & ~PAGE_MASK);
			return true;
		}
		if (!m.tlb[i].valid)
			free = i;
	}
	t = (const u64 *)(uintptr_t)(ce[0] & PAGE_MASK);
	for (level = 3;; level--) {
		e = t[(addr >> (12 + 9 * level)) & 511];
		if (!(e & (VTD_SL_READ | VTD_SL_WRITE)))
			return false;
		if (level == 0 || (e & VTD_SL_LARGE))
			break;
		t = (const u64 *)(uintptr_t)(e & 0x000ffffffffff000ull);
	}
	*phys = (e & 0x000ffffffffff000ull &
		 ~((PAGE_SIZE << (9 * level)) - 1)) |
		(addr & ((PAGE_SIZE << (9 * level)) - 1));
	if (free < 16) {
		m.tlb[free].valid = true;
		m.tlb[free].did = did;
		m.tlb[free].page = addr & PAGE_MASK;
		m.tlb[free].phys = *phys & PAGE_MASK;
	}
	return true;
}

/* ---- set-up: a unit taken over, queued invalidation on ---- */

static struct warden_system_desc one_unit;

static int setup(void **state)
{
	(void)state;
	memset(ms, 0, sizeof(ms));
	memset(&vtd, 0, sizeof(vtd));
	memset(&one_unit, 0, sizeof(one_unit));
	hv.config = &one_unit; /* platform.iommu_base alone: one unit */
	vtd.n = 1;
	vtd.coherent = true;
	m.fro = FRO;
	m.nfr = NFR;
	memset(root_mem, 0, sizeof(root_mem));
	memset(root_irt, 0, sizeof(root_irt));
	memset(root_irt2, 0, sizeof(root_irt2));
	arena = aligned_alloc(PAGE_SIZE, POOL_PAGES * PAGE_SIZE);
	assert_non_null(arena);
	hv.header = &header;
	assert_int_equal(pool_init(&hv.pool, (u64)(uintptr_t)arena,
				   (u64)(uintptr_t)arena, POOL_PAGES),
			 0);
	U0.regs = (volatile u8 *)1; /* the model answers */
	U0.cap = 2ull | 1ull << 34 | (VTD_CAP_SAGAW_4LEVEL << 8) |
		 (u64)(FRO / 16) << 24 | (u64)(NFR - 1) << 40;
	U0.ecap = VTD_ECAP_C | VTD_ECAP_QI | VTD_ECAP_IR;
	U0.fro = VTD_CAP_FRO(U0.cap);
	U0.nfr = VTD_CAP_NFR(U0.cap);
	U0.coherent = true;
	U0.taken = true;
	vtd.root_table = page_alloc(&hv.pool, 1);
	U0.queue = page_alloc(&hv.pool, 1);
	U0.status = page_alloc(&hv.pool, 1);
	m.rtaddr = m.root = (u64)(uintptr_t)vtd.root_table;
	m.iqa = m.qbase = (u64)(uintptr_t)U0.queue;
	m.gsts = VTD_GSTS_QIES | VTD_GSTS_TES | VTD_GSTS_IRES;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(arena);
	return 0;
}

/* ---- the formats ---- */

static void formats(void **state)
{
	struct vtd_desc d;
	struct vtd_ctx c;
	struct vtd_fault f;
	const char *why;

	(void)state;
	/* 6.5.2.1: device-selective (11b), DID 31:16, SID 47:32 */
	d = vtd_desc_cc(0x18, 3);
	assert_int_equal(d.lo, 0x1ull | 3ull << 4 | 3ull << 16 | 0x18ull << 32);
	assert_int_equal(vtd_desc_cc(-1, 0).lo, 0x11);
	/* 6.5.2.3: domain-selective (10b), drain reads and writes */
	d = vtd_desc_iotlb(2, false);
	assert_int_equal(d.lo, 0x2ull | 2ull << 4 | 1ull << 6 | 1ull << 7 |
				       2ull << 16);
	/* 6.5.2.8: status write, data 63:32 */
	d = vtd_desc_wait(0x1004, 7);
	assert_int_equal(d.lo, 0x25ull | 7ull << 32);
	assert_int_equal(d.hi, 0x1004);
	/* 9.3: P, TT 00b, SLPTPTR; AW 010b, DID 23:8; FPD bit 1 */
	c = vtd_ctx_make(0x123000, 5, false);
	assert_int_equal(c.lo, 0x123001);
	assert_int_equal(c.hi, 0x502);
	assert_int_equal(vtd_ctx_make(0x123000, 5, true).lo, 0x123003);
	/* 10.4.14: FI 63:12, SID 79:64, FR 103:96, T 126 (read), F 127 */
	assert_false(vtd_fault_decode(0x30000000, 0x18, &f));
	assert_true(vtd_fault_decode(
		0x30000123, VTD_FRCD_F | 1ull << 62 | 6ull << 32 | 0x18, &f));
	assert_int_equal(f.addr, 0x30000000);
	assert_int_equal(f.sid, 0x18);
	assert_int_equal(f.reason, 6);
	assert_true(f.read);
	assert_false(f.irq);
	/* an interrupt-remapping fault (0x22: entry not present): FI 63:48
	 * is the interrupt's index */
	assert_true(vtd_fault_decode(5ull << 48,
				     VTD_FRCD_F | 0x22ull << 32 | 0x18, &f));
	assert_true(f.irq);
	assert_int_equal(f.addr, 5);
	assert_non_null(strstr(vtd_fault_reason(0x22), "not present"));
	/* root's descriptors */
	d.lo = VTD_DESC_IEC | 1ull << 4 | 5ull << 32;
	d.hi = 0;
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_IEC);
	d.lo |= 1ull << 8; /* reserved */
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_REFUSED);
	d = vtd_desc_wait(0x5000, 1);
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_WAIT);
	d.lo |= VTD_WAIT_IF;
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_REFUSED);
	assert_non_null(strstr(why, "completion interrupt"));
	d = vtd_desc_cc(0x18, 1);
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_REFUSED);
	assert_non_null(strstr(why, "context-cache"));
	d = vtd_desc_iotlb(1, true);
	assert_int_equal(vtd_root_desc_check(&d, &why), VTD_ROOT_REFUSED);
	/* 9.8: R, W, PS; large pages as SLLPS allows */
	assert_int_equal(vtd_sl_format.leaf(0x200000, 1, MAP_READ, 6),
			 0x200000 | VTD_SL_READ | VTD_SL_LARGE);
	assert_int_equal(vtd_sl_max_level(1ull << 34), 1);
	assert_int_equal(vtd_sl_max_level(3ull << 34), 2);
	assert_int_equal(vtd_sl_max_level(0), 0);
}

/* ---- faults: several records, from FRI, wrapping, overflow ---- */

static struct iommu_fault got[8];
static unsigned int ngot;
static void collect(const struct iommu_fault *f)
{
	assert_true(ngot < 8);
	got[ngot++] = *f;
}

static void several_fault_records(void **state)
{
	(void)state;
	ngot = 0;
	/* records 2, 3 and 0 hold faults, FRI names 2; one was dropped */
	m.frcd[2][0] = 0x30000000;
	m.frcd[2][1] = VTD_FRCD_F | 1ull << 62 | 6ull << 32 | 0x18;
	m.frcd[3][0] = 0x30600000;
	m.frcd[3][1] = VTD_FRCD_F | 5ull << 32 | 0x18;
	m.frcd[0][0] = 0x1000000;
	m.frcd[0][1] = VTD_FRCD_F | 1ull << 62 | 6ull << 32 | 0x20;
	m.fri = 2;
	m.pfo = true;
	assert_int_equal(vtd_backend.poll(collect), 1);
	assert_int_equal(ngot, 3);
	assert_int_equal(got[0].addr, 0x30000000);
	assert_true(got[0].read);
	assert_int_equal(got[1].addr, 0x30600000);
	assert_false(got[1].read);
	assert_int_equal(got[1].reason, 5);
	assert_int_equal(got[2].bdf, 0x20);
	assert_false(any_fault(&m));
	assert_false(m.pfo);
	/* nothing left: nothing reported, no overflow */
	ngot = 0;
	assert_int_equal(vtd_backend.poll(collect), 0);
	assert_int_equal(ngot, 0);
}

/* ---- root's queue, carried out ---- */

static void root_queue(void **state)
{
	struct vtd_desc rq[256];
	struct per_cpu pc;
	unsigned int n0;

	(void)state;
	memset(rq, 0, sizeof(rq));
	memset(&pc, 0, sizeof(pc));
	U0.root.qi_on = true;
	U0.root.entries = 256;
	U0.root.queue = rq;
	U0.root.head = 254;
	/* from 254, wrapping to 0: an IEC (index 9), a wait, a context
	 * cache invalidation (refused), a global IEC, a wait */
	rq[254].lo = VTD_DESC_IEC | 1ull << 4 | 9ull << 32;
	rq[255] = vtd_desc_wait(ROOT_MEM_GPA, 0x11);
	rq[0] = vtd_desc_cc(0x18, 1);
	rq[1] = vtd_desc_iec_global();
	rq[2] = vtd_desc_wait(ROOT_MEM_GPA + 4, 0x22);
	n0 = m.nlog;
	vtd_qi_root_tail(&U0, &pc, 3 << VTD_IQT_SHIFT);
	assert_int_equal(U0.root.head, 3);
	assert_int_equal(root_mem[0], 0x11);
	assert_int_equal(root_mem[1], 0x22);
	/* on the hypervisor's queue: IEC, its wait; IEC, its wait */
	assert_int_equal(m.nlog - n0, 4);
	assert_int_equal(m.log[n0].lo, rq[254].lo);
	assert_int_equal(VTD_DESC_TYPE(m.log[n0 + 1].lo), VTD_DESC_WAIT);
	assert_int_equal(m.log[n0 + 2].lo, VTD_DESC_IEC);
	assert_int_equal(VTD_DESC_TYPE(m.log[n0 + 3].lo), VTD_DESC_WAIT);
	/* a tail beyond the queue: refused, nothing carried out */
	n0 = m.nlog;
	vtd_qi_root_tail(&U0, &pc, 256 << VTD_IQT_SHIFT);
	assert_int_equal(U0.root.head, 3);
	assert_int_equal(m.nlog, n0);
	/* a status outside root's memory: not written, the walk goes on */
	rq[3] = vtd_desc_wait(0x30000000, 0x33);
	vtd_qi_root_tail(&U0, &pc, 4 << VTD_IQT_SHIFT);
	assert_int_equal(U0.root.head, 4);
}

/* ---- the IOTLB: a skipped invalidation is seen, the flush works ---- */

static void iotlb_invalidation(void **state)
{
	struct iommu_domain a = { .id = 2 }, b = { .id = 3 };
	u64 phys, page = (u64)(uintptr_t)page_alloc(&hv.pool, 1);
	unsigned int n0, i;

	(void)state;
	vtd_sl_format.max_leaf_level = 1;
	assert_int_equal(pt_init(&a.pt, &vtd_sl_format, &hv.pool), 0);
	assert_int_equal(pt_init(&b.pt, &vtd_sl_format, &hv.pool), 0);
	assert_int_equal(pt_map(&a.pt, 0x10000, page, PAGE_SIZE,
				MAP_READ | MAP_WRITE, 6),
			 0);
	assert_int_equal(vtd_backend.assign(0x18, &a, false), 0);
	assert_true(translate(0x18, 0x10008, &phys));
	assert_int_equal(phys, page + 8);
	/* the mapping goes: without an invalidation the unit still
	 * translates from its IOTLB (what a skipped invalidation does) */
	assert_int_equal(pt_unmap(&a.pt, 0x10000, PAGE_SIZE), 0);
	assert_true(translate(0x18, 0x10008, &phys));
	/* the backend's flush of the domain (6.5.2.3, domain-selective):
	 * gone */
	vtd_backend.flush(&a);
	assert_false(translate(0x18, 0x10008, &phys));
	/* moving the function: its old domain's context cache entry and
	 * IOTLB invalidated (device-selective for DID 2, domain-selective
	 * for DID 2) before the entry names DID 3 */
	assert_int_equal(pt_map(&a.pt, 0x10000, page, PAGE_SIZE, MAP_READ, 6),
			 0);
	assert_true(translate(0x18, 0x10000, &phys));
	n0 = m.nlog;
	assert_int_equal(vtd_backend.assign(0x18, &b, false), 0);
	assert_true(m.nlog - n0 >= 3);
	assert_int_equal(m.log[n0].lo, vtd_desc_cc(0x18, 2).lo);
	assert_int_equal(m.log[n0 + 1].lo, vtd_desc_iotlb(2, false).lo);
	for (i = 0; i < 16; i++)
		assert_false(m.tlb[i].valid && m.tlb[i].did == 2);
	/* domain b maps nothing: the function's request faults */
	assert_false(translate(0x18, 0x10000, &phys));
	assert_int_equal(VTD_CE_DID(vtd.ctx[0][2 * 0x18 + 1]), 3);
	pt_destroy(&a.pt);
	pt_destroy(&b.pt);
}

/* ---- take-over and hand-back: root's queue where Linux left it ---- */

/* A CPU with an entry context, the system config, no take-over yet, and
 * root's second-level tables empty. */
static void fresh(struct per_cpu *pc, struct warden_entry_ctx *ctx,
		  const struct warden_system_desc *sys,
		  struct iommu_domain *root)
{
	memset(pc, 0, sizeof(*pc));
	memset(ctx, 0, sizeof(*ctx));
	pc->entry = ctx;
	hv.config = sys;
	U0.taken = false;
	assert_int_equal(pt_init(&root->pt, &vtd_sl_format, &hv.pool), 0);
}

static void take_over_hand_back(void **state)
{
	static struct warden_system_desc sys;
	struct vtd_desc *rq = page_alloc(&hv.pool, 1), saved[5];
	struct iommu_domain root = { .id = 1 };
	struct warden_entry_ctx ctx;
	struct per_cpu pc;
	unsigned int i, n0;

	(void)state;
	fresh(&pc, &ctx, &sys, &root);
	/* root's Linux: interrupt remapping and QI on its own queue, five
	 * descriptors done, the last a wait */
	for (i = 0; i < 5; i++) {
		rq[i].lo = VTD_DESC_IEC | 1ull << 4 | (u64)i << 32;
		rq[i].hi = 0;
	}
	rq[4] = vtd_desc_wait(ROOT_MEM_GPA, 1);
	memcpy(saved, rq, sizeof(saved));
	model_root_ir(rq, 5, 0);
	n0 = m.nlog;
	assert_int_equal(vtd_backend.take_over(&pc, &root), 0);
	assert_true(m.gsts & VTD_GSTS_TES);
	assert_true(m.gsts & VTD_GSTS_IRES);
	assert_int_equal(m.qbase, (u64)(uintptr_t)U0.queue);
	assert_int_equal(m.root, (u64)(uintptr_t)vtd.root_table);
	/* SRTP's global invalidations (6.5.3.3), then a wait */
	assert_int_equal(m.log[n0].lo, vtd_desc_cc(-1, 0).lo);
	assert_int_equal(m.log[n0 + 1].lo, vtd_desc_iotlb(0, true).lo);
	assert_int_equal(U0.root.head, 5);

	vtd_backend.hand_back();
	assert_false(m.gsts & VTD_GSTS_TES);
	assert_true(m.gsts & VTD_GSTS_QIES);
	assert_true(m.gsts & VTD_GSTS_IRES);
	/* root's queue at its address, head and tail where Linux left
	 * them, its entries as they were, RTADDR its own */
	assert_int_equal(m.qbase, (u64)(uintptr_t)rq);
	assert_int_equal(m.iqh, 5 << VTD_IQT_SHIFT);
	assert_int_equal(m.iqt, 5 << VTD_IQT_SHIFT);
	assert_memory_equal(rq, saved, sizeof(saved));
	assert_int_equal(m.rtaddr, 0);
	/* the next enable can turn root's queue off again (a wait last) */
	assert_int_equal(m.last_type, VTD_DESC_WAIT);
	assert_int_equal(vtd_backend.take_over(&pc, &root), 0);
	assert_true(m.gsts & VTD_GSTS_TES);
	vtd_backend.hand_back();

	pt_destroy(&root.pt);
}

/* ---- interrupt remapping: root's entries checked and copied ---- */

/* A remapped-format IRTE (9.10): present, vector, delivery mode, x2APIC
 * destination; physical, edge, no source-id check. */
static u64 irte(u32 dest, unsigned int vector, unsigned int dlm)
{
	return (u64)dest << 32 | (u64)vector << 16 | (u64)dlm << 5 | 1;
}

static void irte_checks(void **state)
{
	struct vtd_irte_dest d;
	const char *why;

	(void)state;
	/* accepted: Fixed, x2APIC destination 32 bits, logical flag */
	assert_null(vtd_irte_check(irte(0x10002, 0x41, 0) | 1ull << 2, 0x40018,
				   true, &d));
	assert_int_equal(d.low, 0x41 | 1u << 11);
	assert_int_equal(d.dest, 0x10002);
	assert_true(d.logical);
	/* xAPIC mode: destination bits 47:40 */
	assert_null(
		vtd_irte_check(3ull << 40 | 0x41ull << 16 | 1, 0, false, &d));
	assert_int_equal(d.dest, 3);
	assert_false(d.logical);
	/* NMI (100b): its vector is ignored, 0 allowed */
	assert_null(vtd_irte_check(irte(0, 0, 4), 0, true, &d));
	assert_int_equal(d.low, 4u << 8);
	/* each refusal */
	why = vtd_irte_check(irte(0, 0x41, 0) | 1ull << 15, 0, true, &d);
	assert_non_null(strstr(why, "posted"));
	why = vtd_irte_check(irte(0, 0x41, 0) | 1ull << 12, 0, true, &d);
	assert_non_null(strstr(why, "reserved"));
	why = vtd_irte_check(irte(0, 0x41, 0) | 1ull << 24, 0, true, &d);
	assert_non_null(strstr(why, "reserved"));
	/* 39:32 and 63:48 are reserved only in xAPIC mode */
	assert_null(vtd_irte_check(irte(1, 0x41, 0), 0, true, &d));
	why = vtd_irte_check(irte(1, 0x41, 0), 0, false, &d);
	assert_non_null(strstr(why, "reserved"));
	why = vtd_irte_check(irte(0, 0x41, 0), 1ull << 20, true, &d);
	assert_non_null(strstr(why, "reserved"));
	why = vtd_irte_check(irte(0, 0x41, 0), 3ull << 18, true, &d);
	assert_non_null(strstr(why, "reserved"));
	/* SMI 010b, INIT 101b, ExtINT 111b */
	why = vtd_irte_check(irte(0, 0x41, 2), 0, true, &d);
	assert_non_null(strstr(why, "delivery mode"));
	why = vtd_irte_check(irte(0, 0x41, 5), 0, true, &d);
	assert_non_null(strstr(why, "delivery mode"));
	why = vtd_irte_check(irte(0, 0x41, 7), 0, true, &d);
	assert_non_null(strstr(why, "delivery mode"));
	why = vtd_irte_check(irte(0, 0x0f, 1), 0, true, &d);
	assert_non_null(strstr(why, "vector below 0x10"));
}

static const u64 *hv_irte(unsigned int i)
{
	return &U0.irt[2 * i];
}

/* Take-over with root's table of 16 entries (x2APIC mode): the unit is
 * pointed at the hypervisor's, whose copies are root's checked entries;
 * an index+mask invalidation of root's takes those indexes again; the
 * hand-back points the unit at root's table again. */
static void irt_copy(void **state)
{
	static struct warden_system_desc sys;
	static struct cell joining;
	struct vtd_desc *rq = page_alloc(&hv.pool, 1);
	struct iommu_domain root = { .id = 1 };
	struct warden_entry_ctx ctx;
	struct per_cpu pc;
	u64 root_irta = ROOT_IRT_GPA | VTD_IRTA_EIME | ROOT_IRT_S;
	unsigned int n0;

	(void)state;
	fresh(&pc, &ctx, &sys, &root);
	/* root's entries: 0 to APIC 0 (with a source-id check), 1 to cell
	 * "cell-b"'s APIC 3, 2 posted, 3 to APIC 9 (no CPU), 4 and 5 to
	 * APIC 2, the rest not present */
	root_irt[0] = irte(0, 0x30, 0);
	root_irt[1] = 1ull << 18 | 0x18; /* SVT 01b, SID 00:03.0 */
	root_irt[2] = irte(3, 0x31, 0);
	root_irt[4] = irte(0, 0x32, 0) | 1ull << 15;
	root_irt[6] = irte(9, 0x33, 0);
	root_irt[8] = irte(2, 0x34, 1);
	root_irt[10] = irte(2, 0x35, 0);
	model_root_ir(rq, 0, root_irta);
	assert_int_equal(vtd_backend.take_over(&pc, &root), 0);
	assert_non_null(U0.irt);
	/* the unit's table is the hypervisor's, root's x2APIC mode, 8192
	 * entries; a global interrupt entry cache invalidation after SIRTP
	 * (6.5.2.7) */
	assert_int_equal(m.irt, pool_virt_to_phys(&hv.pool, U0.irt) |
					VTD_IRTA_EIME | VTD_IRT_S);
	assert_int_equal(VTD_IRTA_ENTRIES(m.irt), 8192);
	assert_true(m.nlog > m.sirtp_at);
	assert_int_equal(m.log[m.sirtp_at].lo, vtd_desc_iec_global().lo);
	/* the copies: 0, 4, 5 as root has them; 1, 2, 3 refused (not
	 * present), counted */
	assert_int_equal(hv_irte(0)[0], root_irt[0]);
	assert_int_equal(hv_irte(0)[1], root_irt[1]);
	assert_int_equal(hv_irte(1)[0], 0);
	assert_int_equal(hv_irte(2)[0], 0);
	assert_int_equal(hv_irte(3)[0], 0);
	assert_int_equal(hv_irte(4)[0], root_irt[8]);
	assert_int_equal(hv_irte(5)[0], root_irt[10]);
	assert_int_equal(U0.irt_refused, 3);

	/* root changes entries 4-7 and 8, then invalidates index 5 with
	 * mask 2 (6.5.2.7: 4 entries from 4): 4 goes to cell-b's APIC 3
	 * (refused), 6 is new, 7 stays free; 8 was not invalidated */
	root_irt[8] = irte(3, 0x34, 0);
	root_irt[12] = irte(0, 0x36, 0);
	root_irt[16] = irte(0, 0x37, 0);
	U0.root.qi_on = true;
	U0.root.entries = 256;
	U0.root.queue = rq;
	U0.root.head = 0;
	rq[0].lo = VTD_DESC_IEC | 1ull << 4 | 2ull << 27 | 5ull << 32;
	rq[0].hi = 0;
	n0 = m.nlog;
	vtd_qi_root_tail(&U0, &pc, 1 << VTD_IQT_SHIFT);
	assert_int_equal(hv_irte(4)[0], 0);
	assert_int_equal(hv_irte(5)[0], root_irt[10]);
	assert_int_equal(hv_irte(6)[0], root_irt[12]);
	assert_int_equal(hv_irte(7)[0], 0);
	assert_int_equal(hv_irte(8)[0], 0);
	assert_int_equal(U0.irt_refused, 4);
	/* root's descriptor then went to the unit, after the copies */
	assert_int_equal(m.log[n0].lo, rq[0].lo);
	/* a global invalidation takes 8 too */
	rq[1] = vtd_desc_iec_global();
	vtd_qi_root_tail(&U0, &pc, 2 << VTD_IQT_SHIFT);
	assert_int_equal(hv_irte(8)[0], root_irt[16]);

	/* a cell takes APIC 1's CPU: copies aimed at it go (the rule is
	 * asked with the joining cell), the unit's cache is invalidated */
	root_irt[18] = irte(1, 0x38, 0);
	rq[2] = vtd_desc_iec_global();
	vtd_qi_root_tail(&U0, &pc, 3 << VTD_IQT_SHIFT);
	assert_int_equal(hv_irte(9)[0], root_irt[18]);
	n0 = m.nlog;
	vtd_backend.cpus_leave_root(&joining);
	assert_ptr_equal(joining_seen, &joining);
	assert_int_equal(hv_irte(9)[0], 0);
	assert_int_equal(hv_irte(0)[0], root_irt[0]);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_global().lo);
	/* the CPUs come back (the cell destroyed): the copy comes back from
	 * root's table, the unit's cache invalidated */
	n0 = m.nlog;
	vtd_backend.cpus_back_to_root(&pc);
	assert_int_equal(hv_irte(9)[0], root_irt[18]);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_global().lo);

	/* root reads back its own IRTA, never the hypervisor's */
	assert_int_equal(U0.root.irta, root_irta);

	/* root's SIRTP: an IRTA that changes the x2APIC mode is refused
	 * (nothing copied again); its own table again (the IRTA it wrote)
	 * is taken: every copy made anew from it, the unit's cache
	 * invalidated, the hardware still on the hypervisor's table */
	root_irt[20] = irte(0, 0x39, 0); /* written, not invalidated */
	assert_int_equal(hv_irte(10)[0], 0);
	U0.root.irta_reg = root_irta & ~VTD_IRTA_EIME;
	vtd_irt_root_sirtp(&U0, &pc);
	assert_int_equal(U0.root.irta, root_irta);
	assert_int_equal(hv_irte(10)[0], 0);
	U0.root.irta_reg = root_irta;
	n0 = m.nlog;
	vtd_irt_root_sirtp(&U0, &pc);
	assert_int_equal(hv_irte(10)[0], root_irt[20]);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_global().lo);
	assert_int_equal(m.irt, pool_virt_to_phys(&hv.pool, U0.irt) |
					VTD_IRTA_EIME | VTD_IRT_S);

	/* hand-back: root's table latched again, then invalidated */
	vtd_backend.hand_back();
	assert_int_equal(m.irt, root_irta);
	assert_true(m.nlog > m.sirtp_at);
	assert_int_equal(m.log[m.sirtp_at].lo, vtd_desc_iec_global().lo);
	assert_true(m.gsts & VTD_GSTS_IRES);
	assert_null(U0.irt);
	pt_destroy(&root.pt);
}

/* A remappable MSI naming root's index (5.1.5.2: handle 19:5 and 2,
 * format 4, SHV 3). */
static u32 root_msi(u32 index, bool shv)
{
	return 0xfee00000u | (index & 0x7fff) << 5 | ((index >> 15) & 1) << 2 |
	       1u << 4 | (shv ? 1u << 3 : 0);
}

/* Root's indexes translated: a message naming root's index gets the
 * hypervisor's (from VTD_IRT_IDENT), whose entry is the checked copy
 * of root's; root's address comes back from it; a multiple-message MSI
 * keeps a run; an invalidation of root's takes the translated copy
 * again and frees it when root's entry is gone. */
static void irt_translated(void **state)
{
	static struct warden_system_desc sys;
	struct vtd_desc *rq = page_alloc(&hv.pool, 1);
	struct iommu_domain root = { .id = 1 };
	struct warden_entry_ctx ctx;
	struct per_cpu pc;
	u64 root_irta = ROOT_IRT_GPA | VTD_IRTA_EIME | ROOT_IRT_S;
	u32 out, h;
	unsigned int n0;

	(void)state;
	fresh(&pc, &ctx, &sys, &root);
	root_irt[2 * 9] = irte(0, 0x40, 0);
	root_irt[2 * 10] = irte(3, 0x41, 0); /* cell-b's APIC 3 */
	root_irt[2 * 12] = irte(0, 0x42, 0);
	root_irt[2 * 13] = irte(0, 0x43, 0);
	root_irt[2 * 14] = irte(2, 0x44, 0);
	root_irt[2 * 15] = irte(2, 0x45, 0);
	model_root_ir(rq, 0, root_irta);
	assert_int_equal(vtd_backend.take_over(&pc, &root), 0);

	/* compatibility format: as it is */
	assert_null(vtd_irt_root_msi(&pc, SID0, 0xfee01000u, 0x41, 1, &out));
	assert_int_equal(out, 0xfee01000u);
	/* root's 9: the hypervisor's first translated index, its copy
	 * root's entry, the unit's cache invalidated */
	n0 = m.nlog;
	assert_null(vtd_irt_root_msi(&pc, SID0, root_msi(9, true), 0, 1, &out));
	assert_int_equal(out, root_msi(VTD_IRT_IDENT, true));
	assert_int_equal(hv_irte(VTD_IRT_IDENT)[0], root_irt[2 * 9]);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_global().lo);
	assert_int_equal(vtd_irt_root_msi_back(SID0, out, 0),
			 root_msi(9, true));
	/* with a subhandle the device keeps root's data: handle + data
	 * names the same index */
	assert_null(vtd_irt_root_msi(&pc, SID0, root_msi(8, true), 1, 1, &out));
	assert_int_equal(out, root_msi(VTD_IRT_IDENT - 1, true));
	assert_int_equal(vtd_irt_root_msi_back(SID0, out, 1),
			 root_msi(8, true));
	/* links read the translated copy by root's index */
	{
		u64 lo = 0;
		bool x2 = false;

		assert_null(vtd_irt_root_entry(&U0, 9, &lo, &x2));
		assert_int_equal(lo, root_irt[2 * 9]);
	}
	/* root's 10 aims at a cell's CPU: translated, its copy refused */
	assert_null(
		vtd_irt_root_msi(&pc, SID0, root_msi(10, false), 0, 1, &out));
	assert_int_equal(out, root_msi(VTD_IRT_IDENT + 1, false));
	assert_int_equal(hv_irte(VTD_IRT_IDENT + 1)[0], 0);
	/* a run of 4 for 12-15: 12 and 14 mapped singly first, then
	 * moved to a run; their old slots made not present */
	assert_null(vtd_irt_root_index(&pc, SID0, 12, 1, &h));
	assert_int_equal(h, VTD_IRT_IDENT + 2);
	assert_null(vtd_irt_root_index(&pc, SID0, 14, 1, &h));
	assert_null(
		vtd_irt_root_msi(&pc, SID0, root_msi(12, true), 0, 4, &out));
	assert_int_equal(out, root_msi(VTD_IRT_IDENT + 4, true));
	assert_int_equal(hv_irte(VTD_IRT_IDENT + 2)[0], 0);
	assert_int_equal(hv_irte(VTD_IRT_IDENT + 3)[0], 0);
	assert_int_equal(hv_irte(VTD_IRT_IDENT + 4)[0], root_irt[2 * 12]);
	assert_int_equal(hv_irte(VTD_IRT_IDENT + 7)[0], root_irt[2 * 15]);
	assert_int_equal(vtd_irt_root_index_back(SID0, VTD_IRT_IDENT + 6), 14);

	/* root moves 9 to APIC 2 and invalidates it: the translated copy
	 * follows; then root frees it: not present, the index free */
	root_irt[2 * 9] = irte(2, 0x40, 0);
	U0.root.qi_on = true;
	U0.root.entries = 256;
	U0.root.queue = rq;
	U0.root.head = 0;
	rq[0].lo = VTD_DESC_IEC | 1ull << 4 | 9ull << 32;
	rq[0].hi = 0;
	n0 = m.nlog;
	vtd_qi_root_tail(&U0, &pc, 1 << VTD_IQT_SHIFT);
	assert_int_equal(hv_irte(VTD_IRT_IDENT)[0], root_irt[2 * 9]);
	/* root's descriptor names its index 9; the unit may cache the
	 * hypervisor's for it: what goes to the unit is global */
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_global().lo);
	root_irt[2 * 9] = 0;
	rq[1] = rq[0];
	vtd_qi_root_tail(&U0, &pc, 2 << VTD_IQT_SHIFT);
	assert_int_equal(hv_irte(VTD_IRT_IDENT)[0], 0);
	assert_int_equal(vtd_irt_root_index_back(SID0, VTD_IRT_IDENT),
			 VTD_IRT_IDENT);
	/* the next index of root's takes the freed slot */
	assert_null(vtd_irt_root_index(&pc, SID0, 13, 1, &h));
	assert_int_equal(h, VTD_IRT_IDENT + 5); /* 13 is in the run */
	assert_null(vtd_irt_root_index(&pc, SID0, 3, 1, &h));
	assert_int_equal(h, VTD_IRT_IDENT);

	vtd_backend.hand_back();
	pt_destroy(&root.pt);
}

/* ---- cells' entries: composed, invalidated, reserved and freed ---- */

/* The formats: a cell's entry (9.10) and the remappable message naming
 * it (5.1.5.2), and the index-selective invalidation (6.5.2.7). */
static void cell_entry_formats(void **state)
{
	struct vtd_irte_dest d;
	u32 addr, data;
	u64 lo, hi;

	(void)state;
	/* x2APIC mode: present, Fixed, physical, edge, vector 23:16, the
	 * 32-bit destination 63:32; SID 15:0, SQ 00b, SVT 01b (19:18) */
	vtd_irte_cell(0x41, 0x10003, true, 0x20, false, &lo, &hi);
	assert_int_equal(lo, 1ull | 0x41ull << 16 | 0x10003ull << 32);
	assert_int_equal(hi, 0x20ull | 1ull << 18);
	/* what root's entries must pass passes: Fixed, not logical */
	assert_null(vtd_irte_check(lo, hi, true, &d));
	assert_int_equal(d.low, 0x41);
	assert_int_equal(d.dest, 0x10003);
	assert_false(d.logical);
	/* xAPIC mode: 8 bits in 47:40, nothing in the reserved 39:32 */
	vtd_irte_cell(0x52, 3, false, 0x18, false, &lo, &hi);
	assert_int_equal(lo, 1ull | 0x52ull << 16 | 3ull << 40);
	assert_null(vtd_irte_check(lo, hi, false, &d));
	assert_int_equal(d.dest, 3);
	/* an IOAPIC pin's, level-triggered: TM (4) set, checks as root's
	 * would (its vector delivered level, an EOI reaches the IOAPIC) */
	vtd_irte_cell(0x51, 1, true, 0xff00, true, &lo, &hi);
	assert_int_equal(lo, 1ull | 1ull << 4 | 0x51ull << 16 | 1ull << 32);
	assert_int_equal(hi, 0xff00ull | 1ull << 18);
	assert_null(vtd_irte_check(lo, hi, true, &d));
	/* the IOAPIC's entry in remappable format (5.1.5.1): vector,
	 * polarity (13), trigger (15), mask (16) kept; delivery mode,
	 * logical mode (11 is the handle's bit 15 now) and the destination
	 * dropped; format 48, handle[14:0] in 63:49 */
	assert_int_equal(vtd_ioapic_remappable(4102, 0xff0000000001ab51ull),
			 0x51ull | 1ull << 13 | 1ull << 15 | 1ull << 16 |
				 1ull << 48 | 4102ull << 49);
	assert_int_equal(vtd_ioapic_remappable(0x8001, 0x31ull),
			 0x31ull | 1ull << 11 | 1ull << 48 | 1ull << 49);
	/* the message: 0xFEE, handle 14:0 in 19:5, format bit 4, SHV bit
	 * 3, handle bit 15 in bit 2; subhandle 0 */
	vtd_msi_remappable(4097, &addr, &data);
	assert_int_equal(addr, 0xfee00000u | 4097u << 5 | 0x18);
	assert_int_equal(data, 0);
	vtd_msi_remappable(0x8001, &addr, &data);
	assert_int_equal(addr, 0xfee00000u | 1u << 5 | 0x18 | 0x4);
	/* one index: granularity bit 4 set, IM 0, IIDX 47:32 */
	assert_int_equal(vtd_desc_iec_index(4100).lo,
			 0x4ull | 1ull << 4 | 4100ull << 32);
	assert_int_equal(vtd_desc_iec_index(4100).hi, 0);
}

/* The cells' range: reserved in runs from VTD_IRT_CELL_FIRST, not present
 * until set, each change followed by the invalidation of its index, a
 * run that does not fit refused with nothing reserved, everything freed
 * with its cell. */
static void cell_entries(void **state)
{
	const u32 range = VTD_IRT_ENTRIES - VTD_IRT_CELL_FIRST;
	u32 a, b, c;
	unsigned int n0;

	(void)state;
	assert_int_equal(vtd_irt_alloc(&U0), 0);
	U0.root.irta = VTD_IRTA_EIME;
	/* cell 1: MSI 1 + MSI-X 1; cell 2: 5 entries, right after */
	assert_int_equal(vtd_irt_cell_alloc(1, 2, &a), 0);
	assert_int_equal(a, VTD_IRT_CELL_FIRST);
	assert_int_equal(vtd_irt_cell_alloc(2, 5, &b), 0);
	assert_int_equal(b, VTD_IRT_CELL_FIRST + 2);
	assert_int_equal(vtd_irt_cell_used(), 7);
	assert_int_equal(hv_irte(a)[0], 0);
	assert_int_equal(hv_irte(b + 1)[0], 0);
	/* set: the entry, then its index invalidated (and waited for) */
	n0 = m.nlog;
	assert_int_equal(
		vtd_irt_cell_set(b + 1, true, 0x41, 0x10003, 0x20, false), 0);
	assert_int_equal(hv_irte(b + 1)[0],
			 1ull | 0x41ull << 16 | 0x10003ull << 32);
	assert_int_equal(hv_irte(b + 1)[1], 0x20ull | 1ull << 18);
	assert_int_equal(m.nlog, n0 + 2);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_index(b + 1).lo);
	assert_int_equal(VTD_DESC_TYPE(m.log[n0 + 1].lo), VTD_DESC_WAIT);
	/* the unit was told after the entry was written, not before */
	assert_int_equal(m.iec_saw, hv_irte(b + 1)[0]);
	/* the same entry again: nothing to invalidate */
	assert_int_equal(
		vtd_irt_cell_set(b + 1, true, 0x41, 0x10003, 0x20, false), 0);
	assert_int_equal(m.nlog, n0 + 2);
	/* the table's xAPIC mode: 8-bit destination */
	U0.root.irta = 0;
	assert_int_equal(vtd_irt_cell_set(a, true, 0x52, 3, 0x18, false), 0);
	assert_int_equal(hv_irte(a)[0], 1ull | 0x52ull << 16 | 3ull << 40);
	U0.root.irta = VTD_IRTA_EIME;
	/* not reserved, root's range, past the table: refused, unwritten */
	n0 = m.nlog;
	assert_int_equal(vtd_irt_cell_set(b + 5, true, 0x41, 1, 0x20, false),
			 -WARDEN_EINVAL);
	assert_int_equal(vtd_irt_cell_set(5, true, 0x41, 1, 0x20, false),
			 -WARDEN_EINVAL);
	assert_int_equal(vtd_irt_cell_set(VTD_IRT_ENTRIES, true, 0x41, 1, 0x20,
					  false),
			 -WARDEN_EINVAL);
	assert_int_equal(hv_irte(b + 5)[0], 0);
	assert_int_equal(hv_irte(5)[0], 0);
	assert_int_equal(m.nlog, n0);
	/* not present again: written, invalidated */
	assert_int_equal(vtd_irt_cell_set(a, false, 0, 0, 0, false), 0);
	assert_int_equal(hv_irte(a)[0], 0);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_index(a).lo);

	/* exhaustion: one more than is left is refused, nothing reserved;
	 * exactly what is left fits, then nothing does */
	assert_int_equal(vtd_irt_cell_alloc(3, range - 6, &c), -WARDEN_ENOSPC);
	assert_int_equal(vtd_irt_cell_used(), 7);
	assert_int_equal(vtd_irt_cell_alloc(3, range - 7, &c), 0);
	assert_int_equal(c, VTD_IRT_CELL_FIRST + 7);
	assert_int_equal(vtd_irt_cell_alloc(4, 1, &c), -WARDEN_ENOSPC);
	assert_int_equal(vtd_irt_cell_alloc(0, 1, &c), -WARDEN_EINVAL);
	vtd_irt_cell_free_all(3);
	assert_int_equal(vtd_irt_cell_used(), 7);

	/* a range given back (a function released): not present, its
	 * present entries invalidated */
	n0 = m.nlog;
	vtd_irt_cell_free(b, 5);
	assert_int_equal(hv_irte(b + 1)[0], 0);
	assert_int_equal(hv_irte(b + 1)[1], 0);
	assert_int_equal(m.log[n0].lo, vtd_desc_iec_index(b + 1).lo);
	assert_int_equal(vtd_irt_cell_used(), 2);
	assert_int_equal(vtd_irt_cell_set(b + 1, true, 0x41, 1, 0x20, false),
			 -WARDEN_EINVAL);
	/* a cell destroyed: what it still had goes; the room is reused */
	assert_int_equal(vtd_irt_cell_set(a + 1, true, 0x43, 2, 0x18, false),
			 0);
	vtd_irt_cell_free_all(1);
	assert_int_equal(hv_irte(a + 1)[0], 0);
	assert_int_equal(vtd_irt_cell_used(), 0);
	assert_int_equal(vtd_irt_cell_alloc(5, 3, &c), 0);
	assert_int_equal(c, VTD_IRT_CELL_FIRST);
	vtd_irt_cell_free_all(5);
	assert_int_equal(vtd_irt_cell_used(), 0);
}

/* ---- several units ---- */

/* The system config of the two-unit tests: the first unit covers every
 * function (INCLUDE_PCI_ALL), the second 00:1f.7 alone (its scope). */
static struct {
	struct warden_system_desc sys;
	struct warden_iommu_unit unit[2];
} two;

#define FRO1 0x1200 /* the second unit's records: its second page */
#define NFR1 2

/* Two units probed (as vtd_probe leaves them), neither taken; root's
 * Linux on both with its own queue and table each. */
static void two_units(struct per_cpu *pc, struct warden_entry_ctx *ctx,
		      struct iommu_domain *root, struct vtd_desc *rq0,
		      struct vtd_desc *rq1)
{
	memset(&two, 0, sizeof(two));
	two.sys.platform.num_iommus = 2;
	two.sys.platform.iommu_base = 0xfed90000;
	two.unit[0].base = 0xfed90000;
	two.unit[0].flags = WARDEN_IOMMU_INCLUDE_PCI_ALL;
	two.unit[1].base = 0xfed91000;
	two.unit[1].num_scopes = 1;
	two.unit[1].scopes[0].bdf = SID1;
	two.unit[1].scopes[0].type = WARDEN_IOMMU_SCOPE_FUNCTION;
	assert_ptr_equal(warden_system_iommus(&two.sys), two.unit);
	fresh(pc, ctx, &two.sys, root);
	U0.base = 0xfed90000;
	U1 = U0;
	U1.base = 0xfed91000;
	U1.cap = (U0.cap & ~(0x3ffull << 24 | 0xffull << 40)) |
		 (u64)(FRO1 / 16) << 24 | (u64)(NFR1 - 1) << 40;
	U1.fro = VTD_CAP_FRO(U1.cap);
	U1.nfr = VTD_CAP_NFR(U1.cap);
	U1.pages = vtd_reg_pages(0, U1.cap, U1.ecap);
	vtd.n = 2;
	ms[1].fro = FRO1;
	ms[1].nfr = NFR1;
	model_root_ir_of(&ms[0], rq0, 3,
			 ROOT_IRT_GPA | VTD_IRTA_EIME | ROOT_IRT_S);
	model_root_ir_of(&ms[1], rq1, 7,
			 ROOT_IRT2_GPA | VTD_IRTA_EIME | ROOT_IRT_S);
	rq0[2] = vtd_desc_wait(ROOT_MEM_GPA, 1);
	rq1[6] = vtd_desc_wait(ROOT_MEM_GPA, 2);
}

static void register_pages(void **state)
{
	(void)state;
	/* QEMU's: records at 0x220, IOTLB at 0xf0 (ecap 0xf00f5a) */
	assert_int_equal(vtd_reg_pages(0, 0xd2008c222f0606ull, 0xf00f5a), 1);
	/* 8 records from 0x1000: the second page */
	assert_int_equal(vtd_reg_pages(0, (0x100ull << 24) | 7ull << 40, 0), 2);
	/* the IOTLB registers at 0x3ff0 (IRO 0x3ff): the fourth */
	assert_int_equal(vtd_reg_pages(0, 0x22ull << 24, 0x3ffull << 8), 4);
	/* 256 records from 0x3100: past the fourth, refused by the probe */
	assert_int_equal(vtd_reg_pages(0, (0x310ull << 24) | 255ull << 40, 0),
			 4 + 1);
}

static void several_units(void **state)
{
	struct vtd_desc *rq0 = page_alloc(&hv.pool, 1);
	struct vtd_desc *rq1 = page_alloc(&hv.pool, 1);
	struct iommu_domain root = { .id = 1 }, cell;
	struct warden_entry_ctx ctx;
	struct per_cpu pc;
	unsigned int n0, n1;
	u64 lo;
	bool x2;
	u32 h0, h1;

	(void)state;
	two_units(&pc, &ctx, &root, rq0, rq1);
	assert_int_equal(U1.pages, 2);
	/* the units' scopes: the second's function, everything else the
	 * first's */
	assert_ptr_equal(vtd_unit_of(SID1), &U1);
	assert_ptr_equal(vtd_unit_of(SID0), &U0);
	/* root's entry 9 differs in its two tables */
	root_irt[18] = irte(0, 0x41, 0);
	root_irt2[18] = irte(2, 0x42, 0);

	/* both taken: each on the hypervisor's queue of its own and its
	 * own remapping table, one root table for both */
	assert_int_equal(vtd_backend.take_over(&pc, &root), 0);
	assert_true(ms[0].gsts & VTD_GSTS_TES);
	assert_true(ms[1].gsts & VTD_GSTS_TES);
	assert_int_equal(ms[0].qbase, (u64)(uintptr_t)U0.queue);
	assert_int_equal(ms[1].qbase, (u64)(uintptr_t)U1.queue);
	assert_true(U0.queue != U1.queue);
	assert_int_equal(ms[0].root, (u64)(uintptr_t)vtd.root_table);
	assert_int_equal(ms[1].root, (u64)(uintptr_t)vtd.root_table);
	assert_int_equal(ms[0].irt & PAGE_MASK,
			 pool_virt_to_phys(&hv.pool, U0.irt));
	assert_int_equal(ms[1].irt & PAGE_MASK,
			 pool_virt_to_phys(&hv.pool, U1.irt));
	assert_int_equal(U0.root.head, 3);
	assert_int_equal(U1.root.head, 7);
	assert_true(vtd_backend.covers(SID1));
	assert_true(vtd_backend.cell_irqs());

	/* root's index 9 of each unit: a translated entry of each unit's
	 * table, each the copy of that unit's root entry */
	n1 = ms[1].nlog;
	assert_null(vtd_irt_root_index(&pc, SID0, 9, 1, &h0));
	assert_null(vtd_irt_root_index(&pc, SID1, 9, 1, &h1));
	assert_true(h0 >= VTD_IRT_IDENT && h1 >= VTD_IRT_IDENT);
	assert_int_equal(U0.irt[2 * h0], root_irt[18]);
	assert_int_equal(U1.irt[2 * h1], root_irt2[18]);
	assert_int_equal((U1.irt[2 * h1] >> 16) & 0xff, 0x42);
	assert_int_equal(vtd_irt_root_index_back(SID1, h1), 9);
	assert_int_equal(vtd_irt_root_index_back(SID0, h0), 9);
	/* the second unit's cache invalidated for its new entry */
	assert_true(ms[1].nlog > n1);
	assert_int_equal(ms[1].log[n1].lo, vtd_desc_iec_global().lo);
	/* a link's delivery follows the function's unit too */
	assert_null(vtd_backend.root_irte(SID1, 9, &lo, &x2));
	assert_int_equal(lo, root_irt2[18]);

	/* a cell's entry goes to the table of the unit of its function */
	assert_int_equal(vtd_irt_cell_alloc(1, 1, &h0), 0);
	assert_int_equal(vtd_irt_cell_set(h0, true, 0x51, 3, SID1, false), 0);
	assert_true(U1.irt[2 * h0] & 1);
	assert_false(U0.irt[2 * h0] & 1);
	vtd_irt_cell_free_all(1);
	assert_false(U1.irt[2 * h0] & 1);

	/* moving a function: both units invalidate */
	assert_int_equal(pt_init(&cell.pt, &vtd_sl_format, &hv.pool), 0);
	cell.id = 2;
	assert_int_equal(vtd_backend.assign(SID1, &root, false), 0);
	n0 = ms[0].nlog;
	n1 = ms[1].nlog;
	assert_int_equal(vtd_backend.assign(SID1, &cell, false), 0);
	assert_int_equal(ms[0].log[n0].lo, vtd_desc_cc(SID1, 1).lo);
	assert_int_equal(ms[1].log[n1].lo, vtd_desc_cc(SID1, 1).lo);
	assert_int_equal(ms[1].log[n1 + 1].lo, vtd_desc_iotlb(1, false).lo);

	/* faults of both units, the second's records on its second page,
	 * each named with its unit */
	ngot = 0;
	m.frcd[0][0] = 0x30000000;
	m.frcd[0][1] = VTD_FRCD_F | 1ull << 62 | 6ull << 32 | SID0;
	ms[1].frcd[1][0] = 0x40000000;
	ms[1].frcd[1][1] = VTD_FRCD_F | 5ull << 32 | SID1;
	ms[1].fri = 1;
	ms[1].pfo = true;
	assert_int_equal(vtd_backend.poll(collect), 1);
	assert_int_equal(ngot, 2);
	assert_int_equal(got[0].unit, 0xfed90000);
	assert_int_equal(got[0].bdf, SID0);
	assert_int_equal(got[1].unit, 0xfed91000);
	assert_int_equal(got[1].bdf, SID1);
	assert_int_equal(got[1].addr, 0x40000000);
	assert_false(got[1].read);
	assert_false(any_fault(&ms[1]));

	/* both given back: each on root's queue, head and tail where its
	 * Linux left them, on root's own remapping table */
	vtd_backend.hand_back();
	assert_false(ms[0].gsts & VTD_GSTS_TES);
	assert_false(ms[1].gsts & VTD_GSTS_TES);
	assert_int_equal(ms[0].qbase, (u64)(uintptr_t)rq0);
	assert_int_equal(ms[1].qbase, (u64)(uintptr_t)rq1);
	assert_int_equal(ms[0].iqh, 3 << VTD_IQT_SHIFT);
	assert_int_equal(ms[1].iqh, 7 << VTD_IQT_SHIFT);
	assert_int_equal(ms[1].iqt, 7 << VTD_IQT_SHIFT);
	assert_int_equal(ms[0].irt, ROOT_IRT_GPA | VTD_IRTA_EIME | ROOT_IRT_S);
	assert_int_equal(ms[1].irt, ROOT_IRT2_GPA | VTD_IRTA_EIME | ROOT_IRT_S);
	pt_destroy(&cell.pt);
	pt_destroy(&root.pt);
}

static void second_unit_refuses(void **state)
{
	struct vtd_desc *rq0 = page_alloc(&hv.pool, 1);
	struct vtd_desc *rq1 = page_alloc(&hv.pool, 1);
	struct iommu_domain root = { .id = 1 };
	struct warden_entry_ctx ctx;
	struct per_cpu pc;
	unsigned int n0, n1;

	(void)state;
	two_units(&pc, &ctx, &root, rq0, rq1);
	/* root's Linux translates DMA on the second: refused before
	 * either unit is touched */
	ms[1].gsts |= VTD_GSTS_TES;
	n0 = ms[0].nlog;
	n1 = ms[1].nlog;
	assert_int_equal(vtd_backend.take_over(&pc, &root), -WARDEN_EBUSY);
	assert_int_equal(ms[0].gsts, VTD_GSTS_QIES | VTD_GSTS_IRES);
	assert_int_equal(ms[0].qbase, (u64)(uintptr_t)rq0);
	assert_int_equal(ms[0].nlog, n0);
	assert_int_equal(ms[1].nlog, n1);
	assert_false(U0.taken || U1.taken);

	/* the second does not answer (its commands are lost) after the
	 * first was taken: the first is given back, as root had it */
	ms[1].gsts &= ~VTD_GSTS_TES;
	ms[1].dead = true;
	assert_int_equal(vtd_backend.take_over(&pc, &root), -WARDEN_EBUSY);
	assert_false(U0.taken || U1.taken);
	assert_false(ms[0].gsts & VTD_GSTS_TES);
	assert_true(ms[0].gsts & VTD_GSTS_QIES);
	assert_int_equal(ms[0].qbase, (u64)(uintptr_t)rq0);
	assert_int_equal(ms[0].iqh, 3 << VTD_IQT_SHIFT);
	assert_int_equal(ms[0].iqt, 3 << VTD_IQT_SHIFT);
	assert_int_equal(ms[0].irt, ROOT_IRT_GPA | VTD_IRTA_EIME | ROOT_IRT_S);
	assert_int_equal(ms[1].qbase, (u64)(uintptr_t)rq1);
	pt_destroy(&root.pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formats),
		cmocka_unit_test_setup_teardown(several_fault_records, setup,
						teardown),
		cmocka_unit_test_setup_teardown(root_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(iotlb_invalidation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(take_over_hand_back, setup,
						teardown),
		cmocka_unit_test(irte_checks),
		cmocka_unit_test_setup_teardown(irt_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(irt_translated, setup,
						teardown),
		cmocka_unit_test(cell_entry_formats),
		cmocka_unit_test_setup_teardown(cell_entries, setup, teardown),
		cmocka_unit_test(register_pages),
		cmocka_unit_test_setup_teardown(several_units, setup, teardown),
		cmocka_unit_test_setup_teardown(second_unit_refuses, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
