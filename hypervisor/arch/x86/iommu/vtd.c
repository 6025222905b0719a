// SPDX-License-Identifier: GPL-2.0
/*
 * The Intel VT-d backend of the IOMMU unit (iommu_backend.h): the unit
 * the system config names (platform.iommu_base), taken over at enable
 * and given back at disable; context entries per function; fault
 * records.  Legacy (not scalable) mode, 4-level second-level tables.
 */
#include "iommu_backend.h"
#include "vtd_hw.h"

#include <hv/arch.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/wait.h>
#include <warden/config.h>
#include <warden/error.h>
#include <warden/hvheader.h>
#include <warden/hypercall.h>

/* The hypervisor's mapping of the unit's registers (after the HPET's
 * and the chipset's pages): up to VTD_REG_PAGES pages. */
#define VTD_HV_VIRT 0xffffff80c0100000ul
#define VTD_REG_PAGES 4
/* Root's invalidation queue, mapped for the hypervisor: up to 2^3
 * pages (Linux uses one). */
#define VTD_ROOT_QUEUE_VIRT 0xffffff80c0200000ul
#define VTD_ROOT_QS_MAX 3

#define VTD_WAIT_MS 100

struct vtd_unit vtd;

int vtd_command(u32 bit, bool set, u32 status, bool want)
{
	u32 gcmd = vtd_read32(VTD_GSTS) & VTD_GSTS_PERSISTENT;
	struct hv_wait w;

	vtd_write32(VTD_GCMD, set ? gcmd | bit : gcmd & ~bit);
	hv_wait_start(&w, VTD_WAIT_MS);
	while (!!(vtd_read32(VTD_GSTS) & status) != want)
		if (hv_wait_over(&w))
			return -WARDEN_ETIMEDOUT;
	return 0;
}

void vtd_sync(void)
{
	if (!vtd.coherent)
		asm volatile("wbinvd" ::: "memory");
}

static const struct paging_format *vtd_probe(void)
{
	u64 base = hv.config->platform.iommu_base;
	u32 ver;

	if (pt_map(&hv.hv_pt, VTD_HV_VIRT, base & PAGE_MASK, PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		return NULL;
	vtd.regs = (volatile u8 *)VTD_HV_VIRT + (base & ~PAGE_MASK);
	ver = vtd_read32(VTD_VER);
	if (ver == 0 || ver == 0xffffffff) {
		/* nothing answers there (no version 0.0 exists; an empty
		 * bus reads all ones, QEMU's zeros): the config names an
		 * IOMMU this machine does not have */
		printk("IOMMU at 0x%llx: not present\n",
		       (unsigned long long)base);
		vtd.regs = NULL;
		return NULL;
	}
	vtd.base = base;
	vtd.cap = vtd_read64(VTD_CAP);
	vtd.ecap = vtd_read64(VTD_ECAP);
	vtd.fro = VTD_CAP_FRO(vtd.cap);
	vtd.nfr = VTD_CAP_NFR(vtd.cap);
	vtd.coherent = vtd.ecap & VTD_ECAP_C;
	/* the fault records may lie beyond the first page */
	if ((base & ~PAGE_MASK) + vtd.fro + vtd.nfr * 16 >
	    VTD_REG_PAGES * PAGE_SIZE) {
		printk("IOMMU at 0x%llx: fault records at 0x%x, beyond what "
		       "the hypervisor maps\n",
		       (unsigned long long)base, vtd.fro);
		vtd.nfr = 0;
	} else if (pt_map(&hv.hv_pt, VTD_HV_VIRT, base & PAGE_MASK,
			  VTD_REG_PAGES * PAGE_SIZE, MAP_READ | MAP_WRITE,
			  WARDEN_MEMTYPE_UC)) {
		return NULL;
	}
	vtd_sl_format.max_leaf_level = vtd_sl_max_level(vtd.cap);
	printk("IOMMU at 0x%llx: VT-d %u.%u, cap 0x%llx ecap 0x%llx: %s%s%s"
	       "%u fault record(s), pages up to %s\n",
	       (unsigned long long)base, (ver >> 4) & 0xf, ver & 0xf,
	       (unsigned long long)vtd.cap, (unsigned long long)vtd.ecap,
	       (vtd.ecap & VTD_ECAP_QI) ? "queued invalidation, " : "",
	       (vtd.ecap & VTD_ECAP_IR) ? "interrupt remapping, " : "",
	       (vtd.cap & VTD_CAP_CM) ? "caching mode, " : "", vtd.nfr,
	       vtd_sl_format.max_leaf_level == 2   ? "1 GiB"
	       : vtd_sl_format.max_leaf_level == 1 ? "2 MiB"
						   : "4 KiB");
	return &vtd_sl_format;
}

/* Root's queue (2^qs pages at phys, root's RAM) mapped for the
 * hypervisor, or NULL (no pool page for the mapping). */
static struct vtd_desc *map_root_queue(u64 phys, unsigned int qs)
{
#ifdef WARDEN_VTD_MODEL
	(void)qs;
	return (struct vtd_desc *)(unsigned long)phys; /* the unit tests' */
#else
	if (pt_map(&hv.hv_pt, VTD_ROOT_QUEUE_VIRT, phys, PAGE_SIZE << qs,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_WB))
		return NULL;
	return (struct vtd_desc *)VTD_ROOT_QUEUE_VIRT;
#endif
}

static int refuse(struct per_cpu *pc, u32 what, u64 value)
{
	struct warden_error *e = &pc->entry->error;

	hv_set_error(pc, -WARDEN_EBUSY, WARDEN_RULE_IOMMU_TAKEOVER,
		     WARDEN_ITEM_SYSTEM, 0, vtd.base, what);
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

static int vtd_take_over(struct per_cpu *pc, const struct iommu_domain *root)
{
	u32 gsts = vtd_read32(VTD_GSTS);
	u64 iqa = vtd_read64(VTD_IQA);
	unsigned int qs = iqa & VTD_IQA_QS_MASK;
	int err;

	/* one unit: functions of another unit would keep DMA the
	 * hypervisor does not confine (docs/hypervisor.md, Limits) */
	if (hv.config->platform.num_iommus > 1)
		return refuse(pc, WARDEN_IOMMU_SEVERAL_UNITS,
			      hv.config->platform.num_iommus);
	if (gsts & VTD_GSTS_TES)
		return refuse(pc, WARDEN_IOMMU_DMA_REMAPPING_ON, gsts);
	if (!(VTD_CAP_SAGAW(vtd.cap) & VTD_CAP_SAGAW_4LEVEL))
		return refuse(pc, WARDEN_IOMMU_NO_4LEVEL,
			      VTD_CAP_SAGAW(vtd.cap));
	if (!(vtd.ecap & VTD_ECAP_QI))
		return refuse(pc, WARDEN_IOMMU_NO_QI, vtd.ecap);
	/* ND: 2^(4 + 2 ND) domain ids; ids up to HV_MAX_CELLS are used */
	if ((1u << (4 + 2 * VTD_CAP_ND(vtd.cap))) <= HV_MAX_CELLS)
		return refuse(pc, WARDEN_IOMMU_FEW_DOMAINS,
			      1u << (4 + 2 * VTD_CAP_ND(vtd.cap)));
	if ((gsts & VTD_GSTS_QIES) &&
	    (qs > VTD_ROOT_QS_MAX || (iqa & VTD_IQA_DW)))
		return refuse(pc, WARDEN_IOMMU_ROOT_QUEUE, iqa & 0xfff);

	/* the hypervisor's tables and queue, root's state */
	vtd.root_table = page_alloc(&hv.pool, 1);
	vtd.queue = page_alloc(&hv.pool, 1);
	vtd.status = page_alloc(&hv.pool, 1);
	if (!vtd.root_table || !vtd.queue || !vtd.status)
		return hv_no_memory(pc, 5);
	vtd.root.qi_on = gsts & VTD_GSTS_QIES;
	vtd.root.iqa = iqa;
	vtd.root.rtaddr = vtd_read64(VTD_RTADDR);
	vtd.root.rtps = gsts & VTD_GSTS_RTPS;
	if (vtd.root.qi_on) {
		vtd.root.entries = 256u << qs;
		vtd.root.saved = page_alloc(&hv.pool, 1ul << qs);
		vtd.root.queue = map_root_queue(iqa & PAGE_MASK, qs);
		if (!vtd.root.saved || !vtd.root.queue)
			return hv_no_memory(pc, 5);
	}
	if (gsts & VTD_GSTS_IRES) {
		vtd.irt = vtd_irt_alloc();
		if (!vtd.irt)
			return hv_no_memory(pc, 5);
	}
	if (root_functions(root))
		return hv_no_memory(pc, 5);
	/* root's accesses trap from here (its CPUs wait in the
	 * rendezvous): the page leaves root's domain too, before TE */
	if (vtd_root_regs_trap())
		return hv_no_memory(pc, 5);
	vtd_sync();

	/* the hardware: queued invalidation on the hypervisor's queue */
	err = vtd_qi_take();
	if (err)
		goto no_answer;
	/* root table (10.4.6, 10.4.4 SRTP), then the global context-cache
	 * and IOTLB invalidations SRTP requires (6.5.3.3; descriptors
	 * 6.5.2.1 and 6.5.2.3) */
	vtd_write64(VTD_RTADDR, pool_virt_to_phys(&hv.pool, vtd.root_table));
	err = vtd_command(VTD_GCMD_SRTP, true, VTD_GSTS_RTPS, true);
	if (!err) {
		struct vtd_desc d[2] = { vtd_desc_cc(-1, 0),
					 vtd_desc_iotlb(0, true) };

		spin_lock(&vtd.qi_lock);
		err = vtd_qi_run(d, 2);
		spin_unlock(&vtd.qi_lock);
	}
	/* interrupt remapping through the hypervisor's table */
	if (!err)
		err = vtd_irt_take(pc);
	if (!err)
		err = vtd_command(VTD_GCMD_TE, true, VTD_GSTS_TES, true);
	if (err)
		goto no_answer;
	vtd.taken = true;
	printk("IOMMU at 0x%llx: root's interrupt remapping %s, kept on; "
	       "its fault interrupt %s\n",
	       (unsigned long long)vtd.base,
	       (gsts & VTD_GSTS_IRES) ? "on" : "off",
	       (vtd_read32(VTD_FECTL) & VTD_FECTL_IM) ? "masked" : "on");
	return 0;

no_answer:
	printk("IOMMU at 0x%llx: no answer during the take-over\n",
	       (unsigned long long)vtd.base);
	/* the unit on root's interrupt remapping table again (if it took
	 * the hypervisor's): root goes on without the hypervisor */
	vtd_irt_give_back();
	return refuse(pc, WARDEN_IOMMU_NO_ANSWER, 0);
}

static void vtd_hand_back(void)
{
	if (!vtd.taken)
		return;
	vtd.taken = false;
	if (vtd_command(VTD_GCMD_TE, false, VTD_GSTS_TES, false))
		printk("IOMMU: translation did not stop at disable\n");
	vtd_irt_give_back();
	vtd_qi_give_back();
	vtd_write64(VTD_RTADDR, vtd.root.rtaddr);
	if (vtd.root.rtps &&
	    vtd_command(VTD_GCMD_SRTP, true, VTD_GSTS_RTPS, true))
		printk("IOMMU: root's root-table pointer not taken back\n");
	printk("IOMMU: DMA remapping handed back to root (off); its "
	       "queue's head and tail at 0x%x; root read the fault status "
	       "%llu times; %llu accesses to its registers (%llu "
	       "invalidation queue tail writes)\n",
	       vtd.root.head << VTD_IQT_SHIFT,
	       (unsigned long long)vtd.root.fsts_reads,
	       (unsigned long long)vtd.root.exits,
	       (unsigned long long)vtd.root.iqt_writes);
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
		err = vtd_qi_run(d, 2);
	}
	ctx_set_new(bdf, dom, quiet);
	vtd_sync();
	if (vtd.cap & VTD_CAP_CM) {
		d[0] = vtd_desc_cc(bdf, dom->id);
		err |= vtd_qi_run(d, 1);
	}
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
	if (vtd_qi_run(&d, 1))
		printk("IOMMU: IOTLB invalidation of domain %u not "
		       "confirmed\n",
		       dom->id);
	spin_unlock(&vtd.qi_lock);
}

/*
 * The fault records (7.3.1 "Primary fault logging", 10.4.14): from the
 * index FSTS.FRI names, each record with F set is read, reported and
 * cleared (F is write-1-to-clear), until one is clear; then the
 * overflow bit (FSTS.PFO: a fault found every record full and was
 * dropped) is read and cleared.
 */
static unsigned int vtd_poll(void (*report)(const struct iommu_fault *f))
{
	u32 fsts = vtd_read32(VTD_FSTS), i, n, off;
	struct vtd_fault vf;
	struct iommu_fault f;

	if (!vtd.taken)
		return 0;
	i = VTD_FSTS_FRI(fsts) % (vtd.nfr ? vtd.nfr : 1);
	for (n = 0; n < vtd.nfr && (fsts & VTD_FSTS_PPF); n++) {
		off = vtd.fro + i * 16;
		if (!vtd_fault_decode(vtd_read64(off), vtd_read64(off + 8),
				      &vf))
			break;
		vtd_write32(off + 12, 1u << 31);
		f.bdf = vf.sid;
		f.read = vf.read;
		f.reason = vf.reason;
		f.why = vtd_fault_reason(vf.reason);
		f.addr = vf.addr;
		f.irq = vf.irq;
		report(&f);
		i = (i + 1) % vtd.nfr;
	}
	if (fsts & VTD_FSTS_PFO) {
		vtd_write32(VTD_FSTS, VTD_FSTS_PFO);
		return 1;
	}
	return 0;
}

static bool vtd_covers(u16 bdf)
{
	/* the unit of platform.iommu_base covers every function (its
	 * DRHD has INCLUDE_PCI_ALL) */
	(void)bdf;
	return vtd.taken;
}

static void vtd_cpus_leave_root(const struct cell *cell)
{
	if (!vtd.taken)
		return;
	vtd_irt_cpus_leave_root(cell);
	/* the figure the docs give: what root's IR driver costs in exits */
	printk("IOMMU: root's accesses to its registers since enable: %llu "
	       "(%llu invalidation queue tail writes)\n",
	       (unsigned long long)vtd.root.exits,
	       (unsigned long long)vtd.root.iqt_writes);
}

static void vtd_cpus_back_to_root(struct per_cpu *pc)
{
	if (vtd.taken)
		vtd_irt_cpus_back_to_root(pc);
}

static const char *vtd_root_irte(u32 index, u64 *lo, bool *x2apic)
{
	return vtd_irt_root_entry(index, lo, x2apic);
}

static bool vtd_remaps_interrupts(void)
{
	return vtd.regs && (vtd_read32(VTD_GSTS) & VTD_GSTS_IRES);
}

static bool vtd_cell_irqs(void)
{
	/* the unit remaps through the hypervisor's table (vtd_irt_take) */
	return vtd.taken && vtd.irt;
}

const struct iommu_backend vtd_backend = {
	.name = "VT-d",
	.probe = vtd_probe,
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
