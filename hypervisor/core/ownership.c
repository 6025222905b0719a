// SPDX-License-Identifier: GPL-2.0
/*
 * The one path on which memory and ports change hands between root and a
 * cell (contracts in hv/cell.h), used by create, destroy, load and start.
 * Root gets back exactly what the system config gives it; every mapping
 * change is announced to the units (hv/unit.h), so that an IOMMU, say,
 * can mirror it.  The architecture only maps, unmaps and flushes
 * (hv/arch.h).
 */
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/hypercall.h>

/* Regions that leave root while the cell exists. */
static bool taken_from_root(const struct warden_mem_region *r)
{
	return !(r->flags & (WARDEN_MEM_COMM_REGION | WARDEN_MEM_ROOT_SHARED));
}

static int map(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
	       u32 mem_type)
{
	int err = arch_map_memory(cell, guest, phys, size, flags, mem_type);

	units_map(cell, guest, size);
	return err;
}

static int unmap(struct cell *cell, u64 guest, u64 size)
{
	int err = arch_unmap_memory(cell, guest, size);

	units_unmap(cell, guest, size);
	return err;
}

/* Map [start, start + size) into root again as the system config gives
 * it to root (identity, the config's rights and types). */
static int root_restore(u64 start, u64 size)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_mem_region *r = warden_cell_mem_regions(root);
	u64 end = start + size, s, e;
	unsigned int i;
	int err = 0;

	for (i = 0; i < root->num_memory_regions; i++) {
		s = r[i].phys_start > start ? r[i].phys_start : start;
		e = r[i].phys_start + r[i].size < end
			    ? r[i].phys_start + r[i].size
			    : end;
		if (s < e)
			err |= map(&hv.root, s, s, e - s, r[i].flags,
				   r[i].mem_type);
	}
	return err;
}

static bool root_owns_port(u32 port)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_pio_range *pio = warden_cell_pio_ranges(root);
	unsigned int i;

	for (i = 0; i < root->num_pio_ranges; i++)
		if (port >= pio[i].base && port < pio[i].base + pio[i].length)
			return true;
	return false;
}

int ownership_take(struct cell *cell, struct warden_error *err)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	unsigned int i;
	u64 phys;
	int ret = 0;

	/* the cell's own view: its memory, its communication page */
	for (i = 0; i < cfg->num_memory_regions; i++) {
		phys = (mem[i].flags & WARDEN_MEM_COMM_REGION)
			       ? hv_virt_to_phys(cell->comm)
			       : mem[i].phys_start;
		if (map(cell, mem[i].guest_start, phys, mem[i].size,
			mem[i].flags, mem[i].mem_type))
			goto nomem;
	}
	for (i = 0; i < cfg->num_pio_ranges; i++)
		arch_set_ports(cell, pio[i].base, pio[i].length, true);

	/* Shrink root.  Unmapping may split a large page and need a page;
	 * if that fails, what was taken is given back. */
	for (i = 0; i < cfg->num_memory_regions && !ret; i++)
		if (taken_from_root(&mem[i]))
			ret = unmap(&hv.root, mem[i].phys_start, mem[i].size);
	if (ret) {
		while (i--)
			if (taken_from_root(&mem[i]))
				root_restore(mem[i].phys_start, mem[i].size);
		arch_flush_memory();
		goto nomem;
	}
	for (i = 0; i < cfg->num_pio_ranges; i++)
		arch_set_ports(&hv.root, pio[i].base, pio[i].length, false);
	arch_flush_memory();
	return 0;

nomem:
	return cell_error_no_memory(err);
}

void ownership_give_back(struct cell *cell)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	unsigned int i;
	u32 port;

	for (i = 0; i < cfg->num_memory_regions; i++)
		if (taken_from_root(&mem[i]) &&
		    root_restore(mem[i].phys_start, mem[i].size))
			printk("Cell %u: giving memory 0x%llx back to root "
			       "ran out of pool pages\n",
			       cell->id, (unsigned long long)mem[i].phys_start);
	for (i = 0; i < cfg->num_pio_ranges; i++)
		for (port = pio[i].base;
		     port < pio[i].base + pio[i].length && port < 0x10000;
		     port++)
			arch_set_ports(&hv.root, port, 1, root_owns_port(port));
	arch_flush_memory();
}

int ownership_map_shared(struct cell *cell, u64 guest, u64 phys, u64 size,
			 u32 flags)
{
	return map(cell, guest, phys, size, flags, WARDEN_MEMTYPE_WB);
}

int ownership_unmap_shared(struct cell *cell, u64 guest, u64 size)
{
	return unmap(cell, guest, size);
}

void ownership_lend_loadable(struct cell *cell, bool to_root)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	unsigned int i;

	for (i = 0; i < cfg->num_memory_regions; i++) {
		if (!(mem[i].flags & WARDEN_MEM_LOADABLE) ||
		    !taken_from_root(&mem[i]))
			continue;
		if (to_root)
			root_restore(mem[i].phys_start, mem[i].size);
		else
			unmap(&hv.root, mem[i].phys_start, mem[i].size);
	}
	arch_flush_memory();
}
