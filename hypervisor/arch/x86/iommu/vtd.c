// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel VT-d backend of the IOMMU unit (iommu_backend.h): every
 * unit the system config lists (vtd_hw.h), taken over at enable and
 * given back at disable; context entries per function (one set of
 * tables for all units); fault records of every unit.  Legacy (not
 * scalable) mode, 4-level second-level tables.
 *
 * Invalidations of context entries and IOTLBs go to every unit taken:
 * a unit that does not translate the function has nothing cached for
 * it, so the extra descriptors are harmless; the cost is one queue
 * round trip per extra unit and change, against a scope lookup that
 * must be right for every bus a bridge may forward (6.5.3.3 asks the
 * invalidation of the unit that may cache the entry).
 */
#include "iommu_backend.h"
#include "vtd_hw.h"

#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/wait.h>
#include <config_check.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>

/* The hypervisor's mapping of the units' registers (after the HPET's
 * and the chipset's pages): VTD_REG_PAGES pages per unit. */
#define VTD_HV_VIRT 0xffffff80c0100000ul
/* Root's invalidation queues, mapped for the hypervisor: up to 2^3
 * pages per unit (Linux uses one). */
#define VTD_ROOT_QUEUE_VIRT 0xffffff80c0200000ul
#define VTD_ROOT_QS_MAX 3

#define VTD_WAIT_MS 100

struct vtd vtd;

_Static_assert(VTD_UNITS_MAX >= CONFIG_CHECK_MAX_IOMMUS, "every unit a valid "
							 "config lists is "
							 "driven");

int vtd_command(struct vtd_unit *u, u32 bit, bool set, u32 status, bool want)
{
	u32 gcmd = vtd_read32(u, VTD_GSTS) & VTD_GSTS_PERSISTENT;
	struct hv_wait w;

	vtd_write32(u, VTD_GCMD, set ? gcmd | bit : gcmd & ~bit);
	hv_wait_start(&w, VTD_WAIT_MS);
	while (!!(vtd_read32(u, VTD_GSTS) & status) != want)
		if (hv_wait_over(&w))
			return -WARDEN_ETIMEDOUT;
	return 0;
}

void vtd_sync(void)
{
	if (!vtd.coherent)
		asm volatile("wbinvd" ::: "memory");
}

/* The units the config lists: their bases, or platform.iommu_base. */
static unsigned int listed(u64 *base)
{
	const struct warden_iommu_unit *l = warden_system_iommus(hv.config);
	unsigned int i, n = hv.config->platform.num_iommus;

	if (!n) {
		base[0] = hv.config->platform.iommu_base;
		return 1;
	}
	for (i = 0; i < n && i < VTD_UNITS_MAX; i++)
		base[i] = l[i].base;
	return n;
}

struct vtd_unit *vtd_unit_of(u16 bdf)
{
	const struct warden_iommu_unit *l = warden_system_iommus(hv.config);
	unsigned int i, k, all = vtd.n;

	if (!hv.config->platform.num_iommus)
		return vtd.n ? &vtd.unit[0] : NULL;
	for (i = 0; i < vtd.n; i++) {
		if (l[i].flags & WARDEN_IOMMU_INCLUDE_PCI_ALL)
			all = i;
		for (k = 0; k < l[i].num_scopes; k++) {
			const struct warden_iommu_scope *sc = &l[i].scopes[k];

			if (sc->type == WARDEN_IOMMU_SCOPE_FUNCTION
				    ? sc->bdf == bdf
				    : bdf >> 8 >= sc->bdf >> 8 &&
					      bdf >> 8 <= sc->end_bus)
				return &vtd.unit[i];
		}
	}
	return all < vtd.n ? &vtd.unit[all] : NULL;
}

/*
 * Unit u at base: its registers mapped (every page up to the fault
 * records and the IOTLB registers, 10.4.2 FRO/NFR, 10.4.3 IRO), read.
 * 0, or why it cannot be used (named on the console): not present,
 * registers beyond VTD_REG_PAGES pages, no page for the mapping.
 */
static int probe_unit(struct vtd_unit *u, u64 base)
{
	unsigned long virt = VTD_HV_VIRT + (unsigned long)(u - vtd.unit) *
						   VTD_REG_PAGES * PAGE_SIZE;
	u32 ver, off = base & ~PAGE_MASK;

	if (pt_map(&hv.hv_pt, virt, base & PAGE_MASK, PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		return -WARDEN_ENOMEM;
	u->regs = (volatile u8 *)virt + off;
	ver = vtd_read32(u, VTD_VER);
	if (ver == 0 || ver == 0xffffffff) {
		/* nothing answers there (no version 0.0 exists; an empty
		 * bus reads all ones, QEMU's zeros): the config names an
		 * IOMMU this machine does not have */
		printk("IOMMU at 0x%llx: not present\n",
		       (unsigned long long)base);
		u->regs = NULL;
		return -WARDEN_ENODEV;
	}
	u->base = base;
	u->cap = vtd_read64(u, VTD_CAP);
	u->ecap = vtd_read64(u, VTD_ECAP);
	u->fro = VTD_CAP_FRO(u->cap);
	u->nfr = VTD_CAP_NFR(u->cap);
	u->coherent = u->ecap & VTD_ECAP_C;
	/* the fault records and the IOTLB registers may lie beyond the
	 * first page: every page up to them is mapped, or the unit is
	 * refused (its faults would never be read) */
	u->pages = vtd_reg_pages(off, u->cap, u->ecap);
	if (u->pages > VTD_REG_PAGES) {
		printk("IOMMU at 0x%llx: registers span %u pages, over %u\n",
		       (unsigned long long)base, u->pages, VTD_REG_PAGES);
		u->regs = NULL;
		return -WARDEN_E2BIG;
	}
	if (u->pages > 1 &&
	    pt_map(&hv.hv_pt, virt, base & PAGE_MASK, u->pages * PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC)) {
		u->regs = NULL;
		return -WARDEN_ENOMEM;
	}
	printk("IOMMU at 0x%llx: VT-d %u.%u, cap 0x%llx ecap 0x%llx: %s%s%s"
	       "%u fault record(s), %u register page(s)\n",
	       (unsigned long long)base, (ver >> 4) & 0xf, ver & 0xf,
	       (unsigned long long)u->cap, (unsigned long long)u->ecap,
	       (u->ecap & VTD_ECAP_QI) ? "queued invalidation, " : "",
	       (u->ecap & VTD_ECAP_IR) ? "interrupt remapping, " : "",
	       (u->cap & VTD_CAP_CM) ? "caching mode, " : "", u->nfr, u->pages);
	return 0;
}

/* Every listed unit probed; the format when all can be used, else
 * NULL with vtd.absent naming the first that cannot. */
static const struct paging_format *vtd_probe(void)
{
	u64 base[VTD_UNITS_MAX];
	unsigned int i, n = listed(base), level = 2;

	/* the validator refuses more units (CONFIG_TOO_MANY) */
	if (n > VTD_UNITS_MAX)
		n = VTD_UNITS_MAX;
	vtd.coherent = true;
	for (i = 0; i < n; i++) {
		struct vtd_unit *u = &vtd.unit[i];

		if (probe_unit(u, base[i])) {
			vtd.absent = base[i];
			return NULL;
		}
		vtd.n = i + 1;
		vtd.coherent &= u->coherent;
		/* the domains' tables serve every unit: the smallest
		 * large-page support of them */
		if (vtd_sl_max_level(u->cap) < level)
			level = vtd_sl_max_level(u->cap);
	}
	vtd_sl_format.max_leaf_level = level;
	return &vtd_sl_format;
}

static u64 vtd_absent(void)
{
	return vtd.absent;
}

/* Root's queue of unit u (2^qs pages at phys, root's RAM) mapped for
 * the hypervisor, or NULL (no pool page for the mapping). */
static struct vtd_desc *map_root_queue(struct vtd_unit *u, u64 phys,
				       unsigned int qs)
{
#ifdef WARDEN_VTD_MODEL
	(void)u;
	(void)qs;
	return (struct vtd_desc *)(unsigned long)phys; /* the unit tests' */
#else
	unsigned long virt =
		VTD_ROOT_QUEUE_VIRT +
		(unsigned long)(u - vtd.unit) * (PAGE_SIZE << VTD_ROOT_QS_MAX);

	if (pt_map(&hv.hv_pt, virt, phys, PAGE_SIZE << qs, MAP_READ | MAP_WRITE,
		   WARDEN_MEMTYPE_WB))
		return NULL;
	return (struct vtd_desc *)virt;
#endif
}

static int refuse(struct per_cpu *pc, struct vtd_unit *u, u32 what, u64 value)
{
	struct warden_error *e = &pc->entry->error;

	hv_set_error(pc, -WARDEN_EBUSY, WARDEN_RULE_IOMMU_TAKEOVER,
		     WARDEN_ITEM_SYSTEM, 0, u->base, what);
	if (e->rule == WARDEN_RULE_IOMMU_TAKEOVER)
		e->values[2] = value;
	return -WARDEN_EBUSY;
}

/* The context table of bus, made present in the root table if it was
 * not (9.1: root entry bit 0, context-table pointer 63:12); NULL when
 * the pool is out of pages. */
static u64 *ctx_table(unsigned int bus)
{
	if (!vtd.ctx[bus]) {
		vtd.ctx[bus] = page_alloc(&hv.pool, 1);
		if (!vtd.ctx[bus])
			return NULL;
		vtd.root_table[2 * bus] =
			pool_virt_to_phys(&hv.pool, vtd.ctx[bus]) |
			VTD_RE_PRESENT;
	}
	return vtd.ctx[bus];
}

/* Point bdf's context entry at dom, the entry not present before. */
static int ctx_set_new(u16 bdf, const struct iommu_domain *dom, bool quiet)
{
	u64 *t = ctx_table(bdf >> 8);
	struct vtd_ctx c;

	if (!t)
		return -WARDEN_ENOMEM;
	c = vtd_ctx_make(pool_virt_to_phys(&hv.pool, dom->pt.root), dom->id,
			 quiet);
	t[2 * (bdf & 0xff) + 1] = c.hi;
	__atomic_store_n(&t[2 * (bdf & 0xff)], c.lo, __ATOMIC_RELEASE);
	return 0;
}

/* Every function Linux had at enable, and every function of the system
 * config, into root's domain: every device and function number of their
 * buses (a requester a bus has and Linux did not enumerate is root's
 * too).  Nothing is cached yet: TE is off. */
static int root_functions(const struct iommu_domain *root)
{
	const struct warden_hv_header *h = hv.header;
	const struct warden_cell_desc *rc = &hv.config->root_cell;
	const struct warden_pci_device *pd = warden_cell_pci_devices(rc);
	bool bus[256] = { false };
	unsigned int i, b;

	for (i = 0; i < h->root_pci_count; i++)
		bus[((const struct warden_root_function
			      *)(WARDEN_HV_BASE + h->root_pci_offset +
				 (u64)i * h->root_pci_entry_size))
			    ->bdf >>
		    8] = true;
	for (i = 0; i < rc->num_pci_devices; i++)
		bus[pd[i].bdf >> 8] = true;
	for (b = 0; b < 256; b++)
		for (i = 0; bus[b] && i < 256; i++)
			if (ctx_set_new((u16)(b << 8 | i), root, false))
				return -WARDEN_ENOMEM;
	return 0;
}

/* Why unit u cannot be taken (refused on pc), checked before anything
 * changes: 0 or the refusal. */
static int check_unit(struct per_cpu *pc, struct vtd_unit *u)
{
	u32 gsts = vtd_read32(u, VTD_GSTS);
	u64 iqa = vtd_read64(u, VTD_IQA);

	if (gsts & VTD_GSTS_TES)
		return refuse(pc, u, WARDEN_IOMMU_DMA_REMAPPING_ON, gsts);
	if (!(VTD_CAP_SAGAW(u->cap) & VTD_CAP_SAGAW_4LEVEL))
		return refuse(pc, u, WARDEN_IOMMU_NO_4LEVEL,
			      VTD_CAP_SAGAW(u->cap));
	if (!(u->ecap & VTD_ECAP_QI))
		return refuse(pc, u, WARDEN_IOMMU_NO_QI, u->ecap);
	/* ND: 2^(4 + 2 ND) domain ids; ids up to HV_MAX_CELLS are used */
	if ((1u << (4 + 2 * VTD_CAP_ND(u->cap))) <= HV_MAX_CELLS)
		return refuse(pc, u, WARDEN_IOMMU_FEW_DOMAINS,
			      1u << (4 + 2 * VTD_CAP_ND(u->cap)));
	if ((gsts & VTD_GSTS_QIES) &&
	    ((iqa & VTD_IQA_QS_MASK) > VTD_ROOT_QS_MAX || (iqa & VTD_IQA_DW)))
		return refuse(pc, u, WARDEN_IOMMU_ROOT_QUEUE, iqa & 0xfff);
	return 0;
}

/* Unit u's pages from the pool and root's state read; 0 or
 * -WARDEN_ENOMEM.  The hardware is not touched. */
static int prepare_unit(struct vtd_unit *u)
{
	u32 gsts = vtd_read32(u, VTD_GSTS);
	u64 iqa = vtd_read64(u, VTD_IQA);
	unsigned int qs = iqa & VTD_IQA_QS_MASK;

	u->queue = page_alloc(&hv.pool, 1);
	u->status = page_alloc(&hv.pool, 1);
	if (!u->queue || !u->status)
		return -WARDEN_ENOMEM;
	u->root.qi_on = gsts & VTD_GSTS_QIES;
	u->root.iqa = iqa;
	u->root.rtaddr = vtd_read64(u, VTD_RTADDR);
	u->root.rtps = gsts & VTD_GSTS_RTPS;
	if (u->root.qi_on) {
		u->root.entries = 256u << qs;
		u->root.saved = page_alloc(&hv.pool, 1ul << qs);
		u->root.queue = map_root_queue(u, iqa & PAGE_MASK, qs);
		if (!u->root.saved || !u->root.queue)
			return -WARDEN_ENOMEM;
	}
	if ((gsts & VTD_GSTS_IRES) && vtd_irt_alloc(u))
		return -WARDEN_ENOMEM;
	return vtd_root_regs_trap(u);
}

/* Unit u on the hypervisor's queue, root table and interrupt remapping
 * table, translation on.  0, or the unit did not answer (its interrupt
 * remapping back on root's table). */
static int take_unit(struct per_cpu *pc, struct vtd_unit *u)
{
	u32 gsts = vtd_read32(u, VTD_GSTS);
	int err;

	/* the hardware: queued invalidation on the hypervisor's queue */
	err = vtd_qi_take(u);
	if (err)
		goto no_answer;
	/* root table (10.4.6, 10.4.4 SRTP), then the global context-cache
	 * and IOTLB invalidations SRTP requires (6.5.3.3; descriptors
	 * 6.5.2.1 and 6.5.2.3) */
	vtd_write64(u, VTD_RTADDR, pool_virt_to_phys(&hv.pool, vtd.root_table));
	err = vtd_command(u, VTD_GCMD_SRTP, true, VTD_GSTS_RTPS, true);
	if (!err) {
		struct vtd_desc d[2] = { vtd_desc_cc(-1, 0),
					 vtd_desc_iotlb(0, true) };

		spin_lock(&vtd.qi_lock);
		err = vtd_qi_run(u, d, 2);
		spin_unlock(&vtd.qi_lock);
	}
	/* interrupt remapping through the hypervisor's table */
	if (!err)
		err = vtd_irt_take(u, pc);
	if (!err)
		err = vtd_command(u, VTD_GCMD_TE, true, VTD_GSTS_TES, true);
	if (err)
		goto no_answer;
	u->taken = true;
	printk("IOMMU at 0x%llx: root's interrupt remapping %s, kept on; "
	       "its fault interrupt %s\n",
	       (unsigned long long)u->base,
	       (gsts & VTD_GSTS_IRES) ? "on" : "off",
	       (vtd_read32(u, VTD_FECTL) & VTD_FECTL_IM) ? "masked" : "on");
	return 0;

no_answer:
	printk("IOMMU at 0x%llx: no answer during the take-over\n",
	       (unsigned long long)u->base);
	/* the unit on root's interrupt remapping table again (if it took
	 * the hypervisor's): root goes on without the hypervisor */
	vtd_irt_give_back(u);
	return refuse(pc, u, WARDEN_IOMMU_NO_ANSWER, 0);
}

static void hand_back_unit(struct vtd_unit *u)
{
	if (!u->taken)
		return;
	u->taken = false;
	if (vtd_command(u, VTD_GCMD_TE, false, VTD_GSTS_TES, false))
		printk("IOMMU at 0x%llx: translation did not stop\n",
		       (unsigned long long)u->base);
	vtd_irt_give_back(u);
	vtd_qi_give_back(u);
	vtd_write64(u, VTD_RTADDR, u->root.rtaddr);
	if (u->root.rtps &&
	    vtd_command(u, VTD_GCMD_SRTP, true, VTD_GSTS_RTPS, true))
		printk("IOMMU at 0x%llx: root's root-table pointer not taken "
		       "back\n",
		       (unsigned long long)u->base);
	printk("IOMMU at 0x%llx: DMA remapping handed back to root (off); "
	       "its queue's head and tail at 0x%x; root read the fault "
	       "status %llu times; %llu accesses to its registers (%llu "
	       "invalidation queue tail writes)\n",
	       (unsigned long long)u->base, u->root.head << VTD_IQT_SHIFT,
	       (unsigned long long)u->root.fsts_reads,
	       (unsigned long long)u->root.exits,
	       (unsigned long long)u->root.iqt_writes);
}

/*
 * Every unit, in order: all checked first (a refusal changes nothing),
 * then their pages, then each taken; a unit that does not answer gives
 * back the ones already taken (in reverse), so that root goes on as it
 * was.  The pool pages go with the failed enable.
 */
static int vtd_take_over(struct per_cpu *pc, const struct iommu_domain *root)
{
	struct vtd_unit *u, *t;
	int err;

	for_each_unit (u) {
		err = check_unit(pc, u);
		if (err)
			return err;
	}
	vtd.root_table = page_alloc(&hv.pool, 1);
	if (!vtd.root_table || root_functions(root))
		return hv_no_memory(pc, 5);
	for_each_unit (u)
		if (prepare_unit(u))
			return hv_no_memory(pc, 5);
	/* root's accesses trap from here (its CPUs wait in the
	 * rendezvous): the pages leave root's domain too, before TE */
	vtd_irt_cell_reset();
	vtd_sync();
	for_each_unit (u) {
		err = take_unit(pc, u);
		if (!err)
			continue;
		for (t = u; t-- > vtd.unit;)
			hand_back_unit(t);
		return err;
	}
	return 0;
}

static void vtd_hand_back(void)
{
	struct vtd_unit *u;

	for_each_unit (u)
		hand_back_unit(u);
}

/* Run d[0 .. n-1] on every unit taken (qi_lock held): 0, or the first
 * error. */
static int run_all(const struct vtd_desc *d, unsigned int n)
{
	struct vtd_unit *u;
	int err = 0;

	for_each_unit (u)
		if (u->taken)
			err |= vtd_qi_run(u, d, n);
	return err;
}

/*
 * Changing a present context entry (6.5.3.3, "Guidance to software for
 * invalidations"): clear it (P), invalidate the context cache for the
 * function (device-selective, 6.5.2.1) and the IOTLB of its old domain
 * (domain-selective, 6.5.2.3), and only then write the new entry (high
 * half first, P last).  With caching mode on, a not-present entry made
 * present needs a context-cache invalidation too (6.1).
 */
static int vtd_assign(u16 bdf, const struct iommu_domain *dom, bool quiet)
{
	u64 *t = ctx_table(bdf >> 8);
	u64 *e = t ? &t[2 * (bdf & 0xff)] : NULL;
	struct vtd_unit *u;
	struct vtd_desc d[2];
	int err = 0;

	if (!t)
		return -WARDEN_ENOMEM;
	spin_lock(&vtd.qi_lock);
	if (e[0] & VTD_CE_PRESENT) {
		d[0] = vtd_desc_cc(bdf, VTD_CE_DID(e[1]));
		d[1] = vtd_desc_iotlb(VTD_CE_DID(e[1]), false);
		__atomic_store_n(&e[0], 0, __ATOMIC_RELEASE);
		vtd_sync();
		err = run_all(d, 2);
	}
	ctx_set_new(bdf, dom, quiet);
	vtd_sync();
	d[0] = vtd_desc_cc(bdf, dom->id);
	for_each_unit (u)
		if (u->taken && (u->cap & VTD_CAP_CM))
			err |= vtd_qi_run(u, d, 1);
	spin_unlock(&vtd.qi_lock);
	if (err)
		printk("IOMMU: invalidation for %02x:%02x.%x not confirmed\n",
		       bdf >> 8, (bdf >> 3) & 0x1f, bdf & 7);
	return 0;
}

static void vtd_flush(const struct iommu_domain *dom)
{
	struct vtd_desc d = vtd_desc_iotlb(dom->id, false);

	vtd_sync();
	spin_lock(&vtd.qi_lock);
	if (run_all(&d, 1))
		printk("IOMMU: IOTLB invalidation of domain %u not "
		       "confirmed\n",
		       dom->id);
	spin_unlock(&vtd.qi_lock);
}

/*
 * The fault records of unit u (7.3.1 "Primary fault logging", 10.4.14):
 * from the index FSTS.FRI names, each record with F set is read,
 * reported and cleared (F is write-1-to-clear), until one is clear; then
 * the overflow bit (FSTS.PFO: a fault found every record full and was
 * dropped) is read and cleared.
 */
static unsigned int poll_unit(struct vtd_unit *u,
			      void (*report)(const struct iommu_fault *f))
{
	u32 fsts = vtd_read32(u, VTD_FSTS), i, n, off;
	struct vtd_fault vf;
	struct iommu_fault f;

	if (!u->taken)
		return 0;
	i = VTD_FSTS_FRI(fsts) % u->nfr;
	for (n = 0; n < u->nfr && (fsts & VTD_FSTS_PPF); n++) {
		off = u->fro + i * 16;
		if (!vtd_fault_decode(vtd_read64(u, off),
				      vtd_read64(u, off + 8), &vf))
			break;
		vtd_write32(u, off + 12, 1u << 31);
		f.unit = u->base;
		f.bdf = vf.sid;
		f.read = vf.read;
		f.reason = vf.reason;
		f.why = vtd_fault_reason(vf.reason);
		f.addr = vf.addr;
		f.irq = vf.irq;
		report(&f);
		i = (i + 1) % u->nfr;
	}
	if (fsts & VTD_FSTS_PFO) {
		vtd_write32(u, VTD_FSTS, VTD_FSTS_PFO);
		return 1;
	}
	return 0;
}

static unsigned int vtd_poll(void (*report)(const struct iommu_fault *f))
{
	struct vtd_unit *u;
	unsigned int lost = 0;

	for_each_unit (u)
		lost += poll_unit(u, report);
	return lost;
}

static bool vtd_covers(u16 bdf)
{
	/* the unit whose scope holds bdf (every listed unit is taken) */
	const struct vtd_unit *u = vtd_unit_of(bdf);

	return u && u->taken;
}

static void vtd_cpus_leave_root(const struct cell *cell)
{
	struct vtd_unit *u;

	for_each_unit (u) {
		if (!u->taken)
			continue;
		vtd_irt_cpus_leave_root(u, cell);
		/* the figure the docs give: what root's IR driver costs */
		printk("IOMMU: root's accesses to its registers since "
		       "enable: %llu (%llu invalidation queue tail writes), "
		       "unit 0x%llx\n",
		       (unsigned long long)u->root.exits,
		       (unsigned long long)u->root.iqt_writes,
		       (unsigned long long)u->base);
	}
}

static void vtd_cpus_back_to_root(struct per_cpu *pc)
{
	struct vtd_unit *u;

	for_each_unit (u)
		if (u->taken)
			vtd_irt_cpus_back_to_root(u, pc);
}

static const char *vtd_root_irte(u16 bdf, u32 index, u64 *lo, bool *x2apic)
{
	struct vtd_unit *u = vtd_unit_of(bdf);

	if (!u)
		return "no IOMMU unit covers the function";
	return vtd_irt_root_entry(u, index, lo, x2apic);
}

static bool vtd_remaps_interrupts(void)
{
	/* root's Linux turns remapping on in every unit or none */
	return vtd.n && vtd.unit[0].regs &&
	       (vtd_read32(&vtd.unit[0], VTD_GSTS) & VTD_GSTS_IRES);
}

static bool vtd_cell_irqs(void)
{
	/* every unit remaps through the hypervisor's tables
	 * (vtd_irt_take) */
	struct vtd_unit *u;

	for_each_unit (u)
		if (!u->taken || !u->irt)
			return false;
	return vtd.n > 0;
}

const struct iommu_backend vtd_backend = {
	.name = "VT-d",
	.probe = vtd_probe,
	.absent = vtd_absent,
	.take_over = vtd_take_over,
	.hand_back = vtd_hand_back,
	.assign = vtd_assign,
	.flush = vtd_flush,
	.poll = vtd_poll,
	.covers = vtd_covers,
	.remaps_interrupts = vtd_remaps_interrupts,
	.cpus_leave_root = vtd_cpus_leave_root,
	.cpus_back_to_root = vtd_cpus_back_to_root,
	.root_irte = vtd_root_irte,
	.root_msi = vtd_irt_root_msi,
	.root_msi_back = vtd_irt_root_msi_back,
	.root_index = vtd_irt_root_index,
	.root_index_back = vtd_irt_root_index_back,
	.cell_irqs = vtd_cell_irqs,
	.cell_irq_alloc = vtd_irt_cell_alloc,
	.cell_irq_free = vtd_irt_cell_free,
	.cell_irq_free_all = vtd_irt_cell_free_all,
	.cell_irq_set = vtd_irt_cell_set,
	.cell_irq_used = vtd_irt_cell_used,
	.cell_irq_held = vtd_irt_cell_held,
	.msi_remappable = vtd_msi_remappable,
	.ioapic_remappable = vtd_ioapic_remappable,
};
