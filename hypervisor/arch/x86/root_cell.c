// SPDX-License-Identifier: GPL-2.0
/*
 * The root cell's x86 resources: its second-level tables (every memory
 * region of the system config, identity-mapped with its rights and memory
 * type, minus the hypervisor's memory, of which only the console ring is
 * visible, read-only), its I/O bitmap (the ports the config gives root
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
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *a = &root_arch;
	u64 console = hv_virt_to_phys(hv.console);
	unsigned int i;

	root->arch = a;
	if (pt_init(&a->tables, vendor_second_level_format(), &hv.pool))
		return hv_no_memory(pc, 1);
	for (i = 0; i < cfg->num_memory_regions; i++)
		if (arch_map_memory(root, mem[i].guest_start, mem[i].phys_start,
				    mem[i].size, mem[i].flags, mem[i].mem_type))
			return hv_no_memory(pc, 1);
	/* The hypervisor's memory is never root's, whatever the config
	 * says; the console is readable. */
	if (arch_unmap_memory(root, hv.header->hv_mem_phys,
			      hv.header->hv_mem_size) ||
	    arch_map_memory(root, console, console, WARDEN_CONSOLE_BYTES,
			    WARDEN_MEM_READ, WARDEN_MEMTYPE_WB))
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
	printk("Root cell: %u memory regions, %u port ranges ready\n",
	       cfg->num_memory_regions, cfg->num_pio_ranges);
	return 0;
}
