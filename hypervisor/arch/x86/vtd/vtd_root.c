// SPDX-License-Identifier: GPL-2.0
/* Root's IOMMU, watched: a unit (contracts in asm/vtd_root.h). */
#include <asm/mmio_rw.h>
#include <asm/percpu.h>
#include <asm/root_page.h>
#include <asm/vtd_root.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/mmio.h>
#include <hv/paging.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* The hypervisor's mapping of the register page (after the HPET's). */
#define VTD_ROOT_HV_VIRT 0xffffff80c0001000ul

static struct {
	u64 page;	   /* root's page of the registers, 0: none */
	volatile u8 *regs; /* the hypervisor's mapping */
} vtd;

static u32 read32(u32 reg)
{
	return *(volatile u32 *)(vtd.regs + reg);
}

bool vtd_root_remaps_interrupts(void)
{
	return vtd.regs && (read32(VTD_GSTS) & VTD_GSTS_IRES);
}

/* Root's access to the register page: writes only (it reads its own
 * mapping).  A write that covers GCMD and leaves IRE clear while
 * remapping is on would turn it off: refused. */
static enum mmio_result vtd_mmio(void *ctx, struct per_cpu *pc,
				 struct mmio_access *a)
{
	u32 reg = (u32)a->offset;
	u64 ire;

	(void)ctx;
	if (!a->write) {
		a->value = mmio_read_sized(vtd.regs + reg, a->size);
		return MMIO_HANDLED;
	}
	/* where IRE (bit 25 of GCMD) lies in the written bytes, if at all */
	if (reg <= VTD_GCMD + 3 && VTD_GCMD + 3 < reg + a->size &&
	    vtd_root_remaps_interrupts()) {
		ire = (u64)VTD_GCMD_IRE << (8 * (VTD_GCMD - reg));
		if (!(a->value & ire)) {
			printk("CPU %u: root's write of 0x%llx to the IOMMU's "
			       "global command refused: it would turn "
			       "interrupt remapping off\n",
			       pc->cpu_id, (unsigned long long)a->value);
			return MMIO_HANDLED;
		}
	}
	mmio_write_sized(vtd.regs + reg, a->size, a->value);
	return MMIO_HANDLED;
}

static int vtd_root_init(struct per_cpu *pc)
{
	u64 base = hv.config->platform.iommu_base;

	if (!base)
		return 0;
	if (pt_map(&hv.hv_pt, VTD_ROOT_HV_VIRT, base & PAGE_MASK, PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC))
		return hv_no_memory(pc, 1);
	vtd.regs = (volatile u8 *)VTD_ROOT_HV_VIRT + (base & ~PAGE_MASK);
	if (read32(VTD_VER) == 0 || read32(VTD_VER) == 0xffffffff) {
		/* nothing answers there (no version 0.0 exists; an empty
		 * bus reads all ones, QEMU's zeros): the config names an
		 * IOMMU this machine does not have, remapping is off */
		printk("IOMMU at 0x%llx: not present, interrupt remapping "
		       "off\n",
		       (unsigned long long)base);
		vtd.regs = NULL;
		return 0;
	}
	vtd.page = base & PAGE_MASK;
	if (root_page_trap_writes(vtd.page, vtd_mmio, NULL))
		return hv_no_memory(pc, 1);
	printk("IOMMU at 0x%llx: root's interrupt remapping %s, kept on\n",
	       (unsigned long long)base,
	       vtd_root_remaps_interrupts() ? "on" : "off");
	return 0;
}

static unsigned int vtd_root_mmio_count(const struct cell *cell)
{
	return cell == &hv.root && hv.config->platform.iommu_base ? 1 : 0;
}

DEFINE_UNIT(vtd_root) = {
	.name = "root's IOMMU",
	.init = vtd_root_init,
	.mmio_count = vtd_root_mmio_count,
};
