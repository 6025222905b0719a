// SPDX-License-Identifier: GPL-2.0
/*
 * The trapped xAPIC pages, a unit (hv/unit.h).  Root's page (at its APIC
 * base) and each cell's (at the default base, where a cell starts in
 * xAPIC mode) are traps mapped to the one APIC-access page (REDIRECT,
 * hv/ownership.h), so that every access exits, and are regions of the
 * cell's MMIO registry, performed on the CPU's own APIC (apic.c,
 * apic_cell.c).
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

static int setup(struct cell *cell)
{
	const struct own_trap trap = {
		.start = apic_xapic_page(cell),
		.size = PAGE_SIZE,
		.phys = hv_virt_to_phys(hv.root.arch->apic_access_page),
		.flags = WARDEN_MEM_READ | WARDEN_MEM_WRITE,
		.mem_type = WARDEN_MEMTYPE_UC,
		.kind = OWN_TRAP_REDIRECT,
	};

	return ownership_trap(cell, &trap) ||
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

static unsigned int apic_mmio_count(const struct cell *cell)
{
	(void)cell;
	return 1;
}

DEFINE_UNIT(apic) = {
	.name = "xAPIC pages",
	.init = apic_unit_init,
	.cell_init = apic_cell_init,
	.mmio_count = apic_mmio_count,
};
