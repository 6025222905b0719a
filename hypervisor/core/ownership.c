// SPDX-License-Identifier: GPL-2.0
/*
 * The one path on which the cells' second-level tables change (contracts
 * in hv/ownership.h): root's at enable, memory and ports changing hands
 * between root and a cell (create, destroy, load, start), what units
 * share, and the units' traps.  Root gets back exactly what the system
 * config gives it, minus the hypervisor's memory.  Every change is
 * announced to the units (hv/unit.h), each piece as what it is: a plain
 * mapping, a trap of its kind, or nothing.  The architecture only maps,
 * unmaps and flushes (hv/arch.h).
 */
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <hv/unit.h>
#include <warden/cell.h>
#include <warden/config.h>
#include <warden/hypercall.h>

void ownership_traps_init(struct own_traps *t, struct own_trap *storage,
			  unsigned int capacity)
{
	t->trap = storage;
	t->count = 0;
	t->capacity = storage ? capacity : 0;
}

/* Regions that leave root while the cell exists. */
static bool taken_from_root(const struct warden_mem_region *r)
{
	return !(r->flags & (WARDEN_MEM_COMM_REGION | WARDEN_MEM_ROOT_SHARED));
}

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

/* The trap of cell that starts first among those overlapping
 * [start, end), or NULL. */
static const struct own_trap *first_trap(const struct cell *cell, u64 start,
					 u64 end)
{
	const struct own_trap *t, *best = NULL;
	unsigned int i;

	for (i = 0; i < cell->traps.count; i++) {
		t = &cell->traps.trap[i];
		if (t->start < end && start < t->start + t->size &&
		    (!best || t->start < best->start))
			best = t;
	}
	return best;
}

/* The arch calls, each announced. */
static int plain_map(struct cell *cell, u64 guest, u64 phys, u64 size,
		     u32 flags, u32 mem_type, u32 kind)
{
	int err = arch_map_memory(cell, guest, phys, size, flags, mem_type);

	units_map(cell, guest, phys, size, flags, kind);
	return err;
}

static int plain_unmap(struct cell *cell, u64 guest, u64 size, u32 kind)
{
	int err = arch_unmap_memory(cell, guest, size);

	if (kind == OWN_MAPPED)
		units_unmap(cell, guest, size);
	else
		units_map(cell, guest, 0, size, 0, kind);
	return err;
}

/*
 * [start, end) of trap t, where a mapping to phys (of start) with flags
 * and mem_type would go: what the trap's kind makes of it.
 */
static int install_piece(struct cell *cell, const struct own_trap *t, u64 start,
			 u64 end, u64 phys)
{
	switch (t->kind) {
	case OWN_TRAP_READ_ONLY:
		return plain_map(cell, start, phys, end - start, t->flags,
				 t->mem_type, t->kind);
	case OWN_TRAP_REDIRECT:
		return plain_map(cell, start, t->phys + (start - t->start),
				 end - start, t->flags, t->mem_type, t->kind);
	default:
		return plain_unmap(cell, start, end - start, t->kind);
	}
}

/* Map [guest, guest + size) of cell to phys, the traps in it as their
 * kind, in one update (the caller flushes). */
static int map(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
	       u32 mem_type)
{
	u64 cur = guest, end = guest + size, next, stop;
	const struct own_trap *t;
	int err = 0;

	while (cur < end) {
		t = first_trap(cell, cur, end);
		next = t ? max_u64(t->start, cur) : end;
		if (next > cur)
			err |= plain_map(cell, cur, phys + (cur - guest),
					 next - cur, flags, mem_type,
					 OWN_MAPPED);
		if (!t)
			break;
		stop = min_u64(t->start + t->size, end);
		err |= install_piece(cell, t, next, stop,
				     phys + (next - guest));
		cur = stop;
	}
	return err;
}

/*
 * The part of [start, start + size) that root owns by the system config:
 * for each of root's regions over it, fn(region, s, e) on the overlap,
 * minus the hypervisor's memory (never root's, whatever the config says).
 */
static int for_root_owned(u64 start, u64 size,
			  int (*fn)(const struct warden_mem_region *r, u64 s,
				    u64 e, const void *arg),
			  const void *arg)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_mem_region *r = warden_cell_mem_regions(root);
	u64 hv_s = hv.header->hv_mem_phys, hv_e = hv_s + hv.header->hv_mem_size;
	u64 end = start + size, s, e;
	unsigned int i;
	int err = 0;

	for (i = 0; i < root->num_memory_regions; i++) {
		s = max_u64(r[i].phys_start, start);
		e = min_u64(r[i].phys_start + r[i].size, end);
		if (s >= e)
			continue;
		if (s < hv_s)
			err |= fn(&r[i], s, min_u64(e, hv_s), arg);
		if (e > hv_e)
			err |= fn(&r[i], max_u64(s, hv_e), e, arg);
	}
	return err;
}

static int root_map_piece(const struct warden_mem_region *r, u64 s, u64 e,
			  const void *arg)
{
	(void)arg;
	return map(&hv.root, s, s, e - s, r->flags, r->mem_type);
}

/* Map [start, start + size) into root again as the system config gives
 * it to root (identity, the config's rights and types). */
static int root_restore(u64 start, u64 size)
{
	return for_root_owned(start, size, root_map_piece, NULL);
}

/* A READ_ONLY trap, where root's config maps it. */
static int root_read_only_piece(const struct warden_mem_region *r, u64 s, u64 e,
				const void *arg)
{
	(void)r;
	return install_piece(&hv.root, arg, s, e, s);
}

/* A READ_ONLY trap of a cell, where its config maps it. */
static int cell_read_only(struct cell *cell, const struct own_trap *t)
{
	const struct warden_mem_region *mem =
		warden_cell_mem_regions(cell->config);
	u64 s, e, end = t->start + t->size;
	unsigned int i;
	int err = 0;

	for (i = 0; i < cell->config->num_memory_regions; i++) {
		if (mem[i].flags & WARDEN_MEM_COMM_REGION)
			continue;
		s = max_u64(mem[i].guest_start, t->start);
		e = min_u64(mem[i].guest_start + mem[i].size, end);
		if (s < e)
			err |= install_piece(cell, t, s, e,
					     mem[i].phys_start +
						     (s - mem[i].guest_start));
	}
	return err;
}

int ownership_trap(struct cell *cell, const struct own_trap *trap)
{
	struct own_traps *set = &cell->traps;
	struct own_trap *t;

	if (!trap->size || ((trap->start | trap->size) & ~PAGE_MASK) ||
	    trap->start + trap->size < trap->start ||
	    trap->kind < OWN_TRAP_ABSENT || trap->kind > OWN_TRAP_REDIRECT ||
	    first_trap(cell, trap->start, trap->start + trap->size))
		return -WARDEN_EINVAL;
	if (set->count >= set->capacity)
		return -WARDEN_ENOSPC;
	t = &set->trap[set->count++];
	*t = *trap;
	switch (t->kind) {
	case OWN_TRAP_READ_ONLY:
		if (cell == &hv.root)
			return for_root_owned(t->start, t->size,
					      root_read_only_piece, t)
				       ? -WARDEN_ENOMEM
				       : 0;
		return cell_read_only(cell, t) ? -WARDEN_ENOMEM : 0;
	default:
		return install_piece(cell, t, t->start, t->start + t->size,
				     t->phys)
			       ? -WARDEN_ENOMEM
			       : 0;
	}
}

int ownership_root_init(struct per_cpu *pc)
{
	const struct warden_cell_desc *root = hv.root.config;
	u64 console = hv_virt_to_phys(hv.console);

	/* the console: the only hypervisor memory root may read */
	if (root_restore(0, ~0ull) ||
	    map(&hv.root, console, console, WARDEN_CONSOLE_BYTES,
		WARDEN_MEM_READ, WARDEN_MEMTYPE_WB))
		return hv_no_memory(pc, 1);
	printk("Root cell: %u memory regions mapped\n",
	       root->num_memory_regions);
	return 0;
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
			ret = plain_unmap(&hv.root, mem[i].phys_start,
					  mem[i].size, OWN_MAPPED);
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

void ownership_clear(struct cell *cell)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	unsigned int i;

	for (i = 0; i < cfg->num_memory_regions; i++)
		if (taken_from_root(&mem[i]) && !(mem[i].flags & WARDEN_MEM_IO))
			arch_clear_memory(mem[i].phys_start, mem[i].size);
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
	return plain_unmap(cell, guest, size, OWN_MAPPED);
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
			plain_unmap(&hv.root, mem[i].phys_start, mem[i].size,
				    OWN_MAPPED);
	}
	arch_flush_memory();
}
