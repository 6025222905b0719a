// SPDX-License-Identifier: GPL-2.0
/*
 * The root cell's x86 resources: its second-level tables (every memory
 * region of the
 * system config, identity-mapped with its rights and memory type, minus
 * the hypervisor's memory, of which only the console ring is visible,
 * read-only), its I/O bitmap (the ports the config gives root pass
 * through, the rest exit) and the vendor's MSR map of the MSR policy
 * (msr.c).
 */
#include <asm/apic.h>
#include <asm/pgformat.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <warden/hypercall.h>

static struct arch_cell root_arch;

static unsigned int map_flags(u32 flags)
{
	return ((flags & WARDEN_MEM_READ) ? MAP_READ : 0) |
	       ((flags & WARDEN_MEM_WRITE) ? MAP_WRITE : 0) |
	       ((flags & WARDEN_MEM_EXECUTE) ? MAP_EXECUTE : 0);
}

static void allow_ports(u8 *bitmap, u32 base, u32 length)
{
	u32 port;

	for (port = base; port < base + length && port < 0x10000; port++)
		bitmap[port / 8] &= ~(1u << (port % 8));
}

static int no_memory(struct per_cpu *pc)
{
	hv_set_error(pc, -WARDEN_ENOMEM, WARDEN_RULE_NO_MEMORY,
		     WARDEN_ITEM_NONE, 0, 1, hv.pool.pages - hv.pool.used);
	return -WARDEN_ENOMEM;
}

int arch_root_map_apic_page(void)
{
	struct arch_cell *a = hv.root.arch;

	return pt_map(&a->ept,
		      read_msr(MSR_IA32_APIC_BASE) & APIC_BASE_ADDR_MASK,
		      hv_virt_to_phys(a->apic_access_page), PAGE_SIZE,
		      MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC);
}

int arch_root_cell_init(struct per_cpu *pc, struct cell *root)
{
	const struct warden_cell_desc *cfg = root->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *a = &root_arch;
	u64 console = hv_virt_to_phys(hv.console);
	unsigned int i;
	int err;

	root->arch = a;
	if (pt_init(&a->ept, vendor_second_level_format(), &hv.pool))
		return no_memory(pc);
	for (i = 0; i < cfg->num_memory_regions; i++) {
		err = pt_map(&a->ept, mem[i].guest_start, mem[i].phys_start,
			     mem[i].size, map_flags(mem[i].flags),
			     mem[i].mem_type);
		if (err)
			return no_memory(pc);
	}
	/* The hypervisor's memory is never root's, whatever the config
	 * says; the console is readable. */
	if (pt_unmap(&a->ept, hv.header->hv_mem_phys, hv.header->hv_mem_size) ||
	    pt_map(&a->ept, console, console, WARDEN_CONSOLE_BYTES, MAP_READ,
		   WARDEN_MEMTYPE_WB))
		return no_memory(pc);

	/* Root's xAPIC page is backed by the APIC-access page: every access
	 * exits and is performed by apic.c (SDM Vol. 3, 29.4). */
	a->apic_access_page = page_alloc(&hv.pool, 1);
	if (!a->apic_access_page || arch_root_map_apic_page())
		return no_memory(pc);
	if (mmio_register(&root->mmio,
			  read_msr(MSR_IA32_APIC_BASE) & APIC_BASE_ADDR_MASK,
			  PAGE_SIZE, apic_root_mmio, NULL))
		return no_memory(pc);

	a->io_bitmap = page_alloc(&hv.pool, 2);
	if (!a->io_bitmap || vendor_cell_init(root, pc->arch.x2apic))
		return no_memory(pc);
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		a->io_bitmap[i] = 0xff;
	for (i = 0; i < cfg->num_pio_ranges; i++)
		allow_ports(a->io_bitmap, pio[i].base, pio[i].length);
	printk("Root cell: %u memory regions, %u port ranges ready\n",
	       cfg->num_memory_regions, cfg->num_pio_ranges);
	return 0;
}
