// SPDX-License-Identifier: GPL-2.0
/*
 * Root's view of the unit's registers while the hypervisor owns it
 * (contract in vtd_hw.h).  Root's Linux keeps interrupt remapping and
 * touches, at run time, the invalidation queue tail, the fault status
 * and records, and the fault event registers; it must see the unit as
 * it left it: DMA remapping off, its own queue.  Every register page of
 * every unit traps for reads and writes (VT-d 10.4 for the layout; the
 * fault records and the IOTLB registers may lie beyond the first page,
 * CAP.FRO and ECAP.IRO), each unit with root's state of its own:
 *  - GSTS reads: the hardware's, with TES clear and QIES as root set it;
 *  - RTADDR, IQA, IQH, IQT: root's values (its queue, its head and tail);
 *    a tail write carries out root's new descriptors (vtd_qi.c);
 *  - FSTS: root's shadow (0: the hypervisor reads and clears the fault
 *    records, and each read of FSTS by root -- its fault interrupt
 *    handler's -- makes the hypervisor poll them); writes clear shadow
 *    bits; the fault records read 0 to root;
 *  - FECTL, FEDATA, FEADDR, FEUADDR: written through (root's fault
 *    interrupt, which the unit raises on a fault and whose handler's
 *    FSTS read gets the hypervisor to poll), FEDATA/FEADDR only as an
 *    MSI root may send (irq_root_msi_refused);
 *  - IRTA: root's (the hardware's names the hypervisor's table,
 *    vtd_irt.c); a write is kept as root's register;
 *  - GCMD: SIRTP makes root's IRTA its table (every copy taken again
 *    from it, vtd_irt.c); otherwise a write that restates root's view
 *    changes nothing; any other (turning remapping off, a new root
 *    table, queued invalidation off) is refused and named on the
 *    console;
 *  - every other register (the IOTLB registers at ECAP.IRO included:
 *    they show the hypervisor's invalidations, which root may see) reads
 *    the hardware's value; writes are refused and named.
 */
#include "iommu_backend.h"
#include "vtd_hw.h"

#include <asm/irq_dest.h>
#include <asm/percpu.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/ownership.h>
#include <hv/printk.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* Root's GSTS: translation off, queued invalidation as root had it. */
static u32 root_gsts(struct vtd_unit *u)
{
	u32 g = vtd_read32(u, VTD_GSTS) & ~(VTD_GSTS_TES | VTD_GSTS_QIES);

	if (u->root.qi_on)
		g |= VTD_GSTS_QIES;
	if (!u->root.rtps)
		g &= ~VTD_GSTS_RTPS;
	return g;
}

static bool in_records(const struct vtd_unit *u, u32 reg)
{
	return reg >= u->fro && reg < u->fro + u->nfr * 16;
}

/* The dword at reg (4-aligned) as root sees it. */
static u32 root_read32(struct vtd_unit *u, u32 reg)
{
	switch (reg) {
	case VTD_GSTS:
		return root_gsts(u);
	case VTD_RTADDR:
		return (u32)u->root.rtaddr;
	case VTD_RTADDR + 4:
		return (u32)(u->root.rtaddr >> 32);
	case VTD_FSTS:
		u->root.fsts_reads++;
		iommu_poll();
		return u->root.fsts;
	case VTD_IQH:
		return u->root.head << VTD_IQT_SHIFT;
	case VTD_IQT:
		/* root's tail equals its head: each write is carried out
		 * before it returns */
		return u->root.head << VTD_IQT_SHIFT;
	case VTD_IQH + 4:
	case VTD_IQT + 4:
		return 0;
	case VTD_IQA:
		return (u32)u->root.iqa;
	case VTD_IQA + 4:
		return (u32)(u->root.iqa >> 32);
	case VTD_ICS:
		return 0;
	case VTD_IRTA:
		return (u32)u->root.irta_reg;
	case VTD_IRTA + 4:
		return (u32)(u->root.irta_reg >> 32);
	}
	if (in_records(u, reg))
		return 0;
	return vtd_read32(u, reg);
}

static void refused(struct per_cpu *pc, u32 reg, u64 value, const char *why)
{
	if (reg == VTD_GCMD)
		printk("CPU %u: root's write of 0x%llx to the IOMMU's global "
		       "command refused: %s\n",
		       pc->cpu_id, (unsigned long long)value, why);
	else
		printk("CPU %u: root's write of 0x%llx to the IOMMU's "
		       "register 0x%x refused: %s\n",
		       pc->cpu_id, (unsigned long long)value, reg, why);
}

static void fe_message(struct vtd_unit *u, struct per_cpu *pc, u32 reg,
		       u32 value)
{
	u32 data = reg == VTD_FEDATA ? value : u->root.fe_data;
	u32 addr = reg == VTD_FEADDR ? value : u->root.fe_addr;
	u32 uaddr = reg == VTD_FEUADDR ? value : u->root.fe_uaddr;
	const char *why =
		addr ? irq_root_msi_refused(pc->arch.x2apic, addr, uaddr, data)
		     : NULL;

	if (why) {
		refused(pc, reg, value, why);
		return;
	}
	u->root.fe_data = data;
	u->root.fe_addr = addr;
	u->root.fe_uaddr = uaddr;
	vtd_write32(u, reg, value);
}

static void root_write32(struct vtd_unit *u, struct per_cpu *pc, u32 reg,
			 u32 value)
{
	switch (reg) {
	case VTD_IQT:
		vtd_qi_root_tail(u, pc, value);
		return;
	case VTD_IQT + 4:
		if (value)
			refused(pc, reg, value, "reserved bits");
		return;
	case VTD_FSTS:
		u->root.fsts &= ~value;
		return;
	case VTD_FECTL:
		vtd_write32(u, reg, value & VTD_FECTL_IM);
		return;
	case VTD_FEDATA:
	case VTD_FEADDR:
	case VTD_FEUADDR:
		fe_message(u, pc, reg, value);
		return;
	case VTD_IRTA:
		u->root.irta_reg = (u->root.irta_reg & ~0xffffffffull) | value;
		return;
	case VTD_IRTA + 4:
		u->root.irta_reg = (u->root.irta_reg & 0xffffffffull) |
				   (u64)value << 32;
		return;
	case VTD_GCMD:
		if (value & VTD_GCMD_SIRTP) {
			vtd_irt_root_sirtp(u, pc);
			value &= ~VTD_GCMD_SIRTP;
		}
		if ((root_gsts(u) & VTD_GSTS_IRES) && !(value & VTD_GCMD_IRE))
			refused(pc, reg, value,
				"it would turn interrupt remapping off");
		else if (value != (root_gsts(u) & VTD_GSTS_PERSISTENT))
			refused(pc, reg, value,
				"it would change the unit's state, which the "
				"hypervisor keeps (its own tables and queue)");
		return;
	}
	if (in_records(u, reg))
		return; /* clearing a record root never saw */
	refused(pc, reg, value,
		"the IOMMU is the hypervisor's: root may write the "
		"invalidation queue tail and the fault registers only");
}

static enum mmio_result vtd_root_mmio(void *ctx, struct per_cpu *pc,
				      struct mmio_access *a)
{
	struct vtd_unit *u = ctx;
	u32 reg = (u32)a->offset - (u32)(u->base & ~PAGE_MASK);
	u64 v;

	u->root.exits++;
	if (a->write && reg == VTD_IQT)
		u->root.iqt_writes++;
	if (a->offset < (u->base & ~PAGE_MASK) || (reg & 3) ||
	    (a->size != 4 && a->size != 8)) {
		if (a->write)
			refused(pc, reg, a->value,
				"not a 4- or 8-byte aligned access");
		else
			a->value = ~0ull >> (64 - 8 * a->size);
		return MMIO_HANDLED;
	}
	if (!a->write) {
		v = root_read32(u, reg);
		if (a->size == 8)
			v |= (u64)root_read32(u, reg + 4) << 32;
		a->value = v;
		return MMIO_HANDLED;
	}
	root_write32(u, pc, reg, (u32)a->value);
	if (a->size == 8)
		root_write32(u, pc, reg + 4, (u32)(a->value >> 32));
	return MMIO_HANDLED;
}

int vtd_root_regs_trap(struct vtd_unit *u)
{
	const struct own_trap trap = {
		.start = u->base & PAGE_MASK,
		.size = (u64)u->pages * PAGE_SIZE,
		.kind = OWN_TRAP_ABSENT,
	};

	u->root.fe_data = vtd_read32(u, VTD_FEDATA);
	u->root.fe_addr = vtd_read32(u, VTD_FEADDR);
	u->root.fe_uaddr = vtd_read32(u, VTD_FEUADDR);
	if (ownership_trap(&hv.root, &trap) ||
	    mmio_register(&hv.root.mmio, trap.start, trap.size, vtd_root_mmio,
			  u))
		return -WARDEN_ENOMEM;
	return 0;
}
