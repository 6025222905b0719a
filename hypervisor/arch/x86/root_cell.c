// SPDX-License-Identifier: GPL-2.0
/*
 * The root cell's x86 resources: its second-level tables (empty here: the
 * ownership path fills them, hv/ownership.h), its I/O bitmap (the ports the config gives root
 * pass through, the rest exit), the vendor's MSR map of the MSR policy
 * (msr.c), and the page that backs every trapped xAPIC page (apic_unit.c).
 */
#include <asm/apic.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/hypercall.h>

static struct arch_cell root_arch;

int arch_root_cell_init(struct per_cpu *pc, struct cell *root)
{
	const struct warden_cell_desc *cfg = root->config;
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *a = &root_arch;
	unsigned int i;

	root->arch = a;
	if (pt_init(&a->tables, vendor_second_level_format(), &hv.pool))
		return hv_no_memory(pc, 1);
	/* one page backs every trapped xAPIC page: no access reaches it */
	a->apic_access_page = page_alloc(&hv.pool, 1);
	a->io_bitmap = page_alloc(&hv.pool, X86_IO_BITMAP_PAGES);
	if (!a->apic_access_page || !a->io_bitmap ||
	    vendor_cell_init(root, pc->arch.x2apic))
		return hv_no_memory(pc, 1);
	memset(a->io_bitmap, 0xff, X86_IO_BITMAP_PAGES * PAGE_SIZE);
	for (i = 0; i < cfg->num_pio_ranges; i++)
		arch_set_ports(root, pio[i].base, pio[i].length, true);
	printk("Root cell: %u port ranges ready\n", cfg->num_pio_ranges);
	return 0;
}
