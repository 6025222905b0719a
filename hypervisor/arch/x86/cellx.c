// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 part of non-root cells (hooks in hv/arch.h): a cell's
 * second-level tables and I/O bitmap (the MSR map is the vendor's); taking its memory and ports from root and giving them
 * back exactly as the system config gives them to root; flushing root's
 * EPT translations; the communication region.  Moving CPUs between
 * cells is events.c's.
 */
#include <asm/apic.h>
#include <asm/pgformat.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/cell.h>
#include <warden/comm.h>
#include <warden/hypercall.h>

static unsigned int map_flags(u32 flags)
{
	return ((flags & WARDEN_MEM_READ) ? MAP_READ : 0) |
	       ((flags & WARDEN_MEM_WRITE) ? MAP_WRITE : 0) |
	       ((flags & WARDEN_MEM_EXECUTE) ? MAP_EXECUTE : 0);
}

/* Regions that leave root while the cell exists. */
static bool taken_from_root(const struct warden_mem_region *r)
{
	return !(r->flags & (WARDEN_MEM_COMM_REGION | WARDEN_MEM_ROOT_SHARED));
}

static void set_ports(u8 *bitmap, u32 base, u32 length, bool allow)
{
	u32 port;

	for (port = base; port < base + length && port < 0x10000; port++) {
		if (allow)
			bitmap[port / 8] &= ~(1u << (port % 8));
		else
			bitmap[port / 8] |= 1u << (port % 8);
	}
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

/* A change of a live EPT: under its lock, with the generation odd while
 * it runs (lock-free readers, asm/insn_cache.h). */
static void ept_change_begin(struct arch_cell *a)
{
	spin_lock(&a->ept_lock);
	__atomic_add_fetch(&a->ept_gen, 1, __ATOMIC_SEQ_CST);
}

static void ept_change_end(struct arch_cell *a)
{
	__atomic_add_fetch(&a->ept_gen, 1, __ATOMIC_SEQ_CST);
	spin_unlock(&a->ept_lock);
}

/* Map [start, start + size) into root again as the system config gives
 * it to root (identity, the config's rights and types). */
static int root_restore_range(u64 start, u64 size)
{
	const struct warden_cell_desc *root = hv.root.config;
	const struct warden_mem_region *r = warden_cell_mem_regions(root);
	struct arch_cell *a = hv.root.arch;
	u64 end = start + size, s, e;
	unsigned int i;
	int err = 0;

	ept_change_begin(a);
	for (i = 0; i < root->num_memory_regions; i++) {
		s = r[i].phys_start > start ? r[i].phys_start : start;
		e = r[i].phys_start + r[i].size < end
			    ? r[i].phys_start + r[i].size
			    : end;
		if (s < e)
			err |= pt_map(&a->ept, s, s, e - s,
				      map_flags(r[i].flags), r[i].mem_type);
	}
	err |= arch_root_map_apic_page();
	ept_change_end(a);
	return err;
}

/* Root's translations after a change of its EPT: this CPU drops its own;
 * root's other CPUs are suspended meanwhile and drop theirs before they
 * run Linux again (events.c). */
static void flush_root(void)
{
	vcpu_flush_second_level();
}

static void free_cell_arch(struct arch_cell *a)
{
	pt_destroy(&a->ept);
	if (a->comm_page)
		page_free(&hv.pool, a->comm_page, 1);
	if (a->io_bitmap)
		page_free(&hv.pool, a->io_bitmap, 2);
	page_free(&hv.pool, a, 1);
}

static int no_memory(struct warden_error *err)
{
	err->code = -WARDEN_ENOMEM;
	err->rule = WARDEN_RULE_NO_MEMORY;
	err->values[0] = 1;
	err->values[1] = hv.pool.pages - hv.pool.used;
	return err->code;
}

int arch_cell_create(struct per_cpu *pc, struct cell *cell,
		     struct warden_error *err)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *a, *root = hv.root.arch;
	unsigned int i;
	u64 phys;
	int ret = 0;

	_Static_assert(sizeof(struct arch_cell) <= PAGE_SIZE, "arch_cell");
	a = page_alloc(&hv.pool, 1);
	if (!a)
		return no_memory(err);
	a->io_bitmap = page_alloc(&hv.pool, 2);
	if (!a->io_bitmap ||
	    pt_init(&a->ept, vendor_second_level_format(), &hv.pool))
		goto nomem;
	for (i = 0; i < cfg->num_memory_regions; i++) {
		phys = mem[i].phys_start;
		if (mem[i].flags & WARDEN_MEM_COMM_REGION) {
			a->comm_page = page_alloc(&hv.pool, 1);
			if (!a->comm_page)
				goto nomem;
			phys = hv_virt_to_phys(a->comm_page);
		}
		if (pt_map(&a->ept, mem[i].guest_start, phys, mem[i].size,
			   map_flags(mem[i].flags), mem[i].mem_type))
			goto nomem;
	}
	/* The xAPIC page traps: its accesses are carried out on the
	 * cell CPU's own APIC (apic_cell.c). */
	if (pt_map(&a->ept, APIC_DEFAULT_BASE,
		   hv_virt_to_phys(root->apic_access_page), PAGE_SIZE,
		   MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC) ||
	    mmio_register(&cell->mmio, APIC_DEFAULT_BASE, PAGE_SIZE,
			  apic_cell_mmio, NULL))
		goto nomem;
	for (i = 0; i < 2 * PAGE_SIZE; i++)
		a->io_bitmap[i] = 0xff;
	for (i = 0; i < cfg->num_pio_ranges; i++)
		set_ports(a->io_bitmap, pio[i].base, pio[i].length, true);
	/* Only the MSRs of its own CPU (msr.c); x2APIC ICR writes exit and
	 * are checked (apic_cell.c).  Every CPU has root's APIC mode. */
	cell->arch = a;
	if (vendor_cell_init(cell, pc->arch.x2apic)) {
		cell->arch = NULL;
		goto nomem;
	}

	/* Shrink root.  Unmapping may split a large page and need a page;
	 * if that fails, what was taken is given back. */
	for (i = 0; i < cfg->num_memory_regions && !ret; i++)
		if (taken_from_root(&mem[i])) {
			ept_change_begin(root);
			ret = pt_unmap(&root->ept, mem[i].phys_start,
				       mem[i].size);
			ept_change_end(root);
		}
	if (ret) {
		while (i--)
			if (taken_from_root(&mem[i]))
				root_restore_range(mem[i].phys_start,
						   mem[i].size);
		flush_root();
		vendor_cell_exit(cell);
		cell->arch = NULL;
		goto nomem;
	}
	for (i = 0; i < cfg->num_pio_ranges; i++)
		set_ports(root->io_bitmap, pio[i].base, pio[i].length, false);
	flush_root();
	return 0;

nomem:
	free_cell_arch(a);
	return no_memory(err);
}

void arch_cell_destroy(struct cell *cell)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	const struct warden_pio_range *pio = warden_cell_pio_ranges(cfg);
	struct arch_cell *root = hv.root.arch;
	unsigned int i;
	u32 port;

	for (i = 0; i < cfg->num_memory_regions; i++)
		if (taken_from_root(&mem[i]) &&
		    root_restore_range(mem[i].phys_start, mem[i].size))
			printk("Cell %u: giving memory 0x%llx back to root "
			       "ran out of pool pages\n",
			       cell->id, (unsigned long long)mem[i].phys_start);
	for (i = 0; i < cfg->num_pio_ranges; i++)
		for (port = pio[i].base;
		     port < pio[i].base + pio[i].length && port < 0x10000;
		     port++)
			set_ports(root->io_bitmap, port, 1,
				  root_owns_port(port));
	flush_root();
	vendor_cell_exit(cell);
	free_cell_arch(cell->arch);
	cell->arch = NULL;
}

void arch_cell_set_loadable(struct cell *cell, bool loadable)
{
	const struct warden_cell_desc *cfg = cell->config;
	const struct warden_mem_region *mem = warden_cell_mem_regions(cfg);
	struct arch_cell *root = hv.root.arch;
	unsigned int i;

	for (i = 0; i < cfg->num_memory_regions; i++) {
		if (!(mem[i].flags & WARDEN_MEM_LOADABLE) ||
		    !taken_from_root(&mem[i]))
			continue;
		if (loadable)
			root_restore_range(mem[i].phys_start, mem[i].size);
		else {
			ept_change_begin(root);
			pt_unmap(&root->ept, mem[i].phys_start, mem[i].size);
			ept_change_end(root);
		}
	}
	flush_root();
}

void arch_cell_reset_comm(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;
	unsigned int cpu, n = 0;

	if (!c)
		return;
	memset(c, 0, PAGE_SIZE);
	memcpy(c->signature, WARDEN_COMM_SIGNATURE, sizeof(c->signature));
	c->revision = WARDEN_ABI_REVISION;
	c->cell_state = WARDEN_CELL_RUNNING;
	for (cpu = 0; cpu < hv.num_cpus; cpu++)
		if (cpu_in_set(&cell->cpus, cpu)) {
			unsigned int id = per_cpu(cpu)->apic_id;

			n++;
			if (id < 256)
				c->apic_ids[id / 64] |= 1ull << (id % 64);
		}
	c->num_cpus = n;
	c->tsc_khz = hv.header->tsc_khz;
	c->console = cell->config->console;
}

u32 arch_cell_reported_state(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	return c ? __atomic_load_n(&c->cell_state, __ATOMIC_SEQ_CST)
		 : WARDEN_CELL_RUNNING;
}

void arch_cell_message(struct cell *cell, u32 msg)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	if (!c)
		return;
	__atomic_store_n(&c->reply_from_cell, WARDEN_REPLY_NONE,
			 __ATOMIC_SEQ_CST);
	__atomic_store_n(&c->msg_to_cell, msg, __ATOMIC_SEQ_CST);
}

u32 arch_cell_reply(struct cell *cell)
{
	struct warden_comm_region *c = cell->arch->comm_page;

	return c ? __atomic_load_n(&c->reply_from_cell, __ATOMIC_SEQ_CST)
		 : WARDEN_REPLY_APPROVED;
}

u64 arch_timestamp(void)
{
	return read_tsc();
}
