// SPDX-License-Identifier: GPL-2.0
/*
 * The trapped xAPIC pages, a unit (hv/unit.h).  Root's page (at its APIC
 * base) and each cell's (at the default base, where a cell starts in
 * xAPIC mode) are mapped to the one APIC-access page, so that every
 * access exits, and are regions of the cell's MMIO registry, performed on
 * the CPU's own APIC (apic.c, apic_cell.c).
 */
#include <asm/apic.h>
#include <asm/arch_cell.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/mmio.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

static int map_page(struct cell *cell)
{
	return arch_map_memory(cell, apic_xapic_page(cell),
			       hv_virt_to_phys(hv.root.arch->apic_access_page),
			       PAGE_SIZE, WARDEN_MEM_READ | WARDEN_MEM_WRITE,
			       WARDEN_MEMTYPE_UC);
}

static int setup(struct cell *cell)
{
	return map_page(cell) ||
	       mmio_register(&cell->mmio, apic_xapic_page(cell), PAGE_SIZE,
			     cell == &hv.root ? apic_root_mmio : apic_cell_mmio,
			     NULL);
}

static int apic_unit_init(struct per_cpu *pc)
{
	if (!setup(&hv.root))
		return 0;
	return hv_no_memory(pc, 1);
}

static int apic_cell_init(struct cell *cell, struct warden_error *err)
{
	if (!setup(cell))
		return 0;
	return cell_error_no_memory(err);
}

/* Root's memory given back may cover its APIC page: trap it again. */
static void apic_map(struct cell *cell, u64 start, u64 size)
{
	u64 page = apic_xapic_page(cell);

	if (cell == &hv.root && start < page + PAGE_SIZE &&
	    page < start + size && map_page(cell))
		printk("WARNING: root's xAPIC page could not be trapped "
		       "again: the pool is empty\n");
}

static unsigned int apic_mmio_count(const struct cell *cell)
{
	(void)cell;
	return 1;
}

DEFINE_UNIT(apic) = {
	.name = "xAPIC pages",
	.init = apic_unit_init,
	.cell_init = apic_cell_init,
	.map = apic_map,
	.mmio_count = apic_mmio_count,
};
