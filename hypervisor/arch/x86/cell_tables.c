// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's x86 structures (hooks in hv/arch.h): its second-level tables,
 * its I/O bitmap and the vendor's structures (vendor_cell_init), and the
 * primitives the generic ownership path (core/ownership.c) moves memory
 * and ports with.  Moving CPUs between cells is events.c's.
 */
#include <asm/arch_cell.h>
#include <asm/processor.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/printk.h>
#include <hv/string.h>
#include <warden/cell.h>
#include <warden/hypercall.h>

static unsigned int map_flags(u32 flags)
{
	return ((flags & WARDEN_MEM_READ) ? MAP_READ : 0) |
	       ((flags & WARDEN_MEM_WRITE) ? MAP_WRITE : 0) |
	       ((flags & WARDEN_MEM_EXECUTE) ? MAP_EXECUTE : 0);
}

/* A change of live tables: under their lock, with the generation odd
 * while it runs (lock-free readers, asm/insn_cache.h). */
static void tables_change_begin(struct arch_cell *a)
{
	spin_lock(&a->tables_lock);
	__atomic_add_fetch(&a->tables_gen, 1, __ATOMIC_SEQ_CST);
}

static void tables_change_end(struct arch_cell *a)
{
	__atomic_add_fetch(&a->tables_gen, 1, __ATOMIC_SEQ_CST);
	spin_unlock(&a->tables_lock);
}

int arch_map_memory(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
		    u32 mem_type)
{
	struct arch_cell *a = cell->arch;
	int err;

	tables_change_begin(a);
	err = pt_map(&a->tables, guest, phys, size, map_flags(flags), mem_type);
	tables_change_end(a);
	return err;
}

int arch_unmap_memory(struct cell *cell, u64 guest, u64 size)
{
	struct arch_cell *a = cell->arch;
	int err;

	tables_change_begin(a);
	err = pt_unmap(&a->tables, guest, size);
	tables_change_end(a);
	return err;
}

void arch_set_ports(struct cell *cell, u32 base, u32 length, bool allow)
{
	u8 *bitmap = cell->arch->io_bitmap;
	u32 port;

	for (port = base; port < base + length && port < 0x10000; port++) {
		if (allow)
			bitmap[port / 8] &= ~(1u << (port % 8));
		else
			bitmap[port / 8] |= 1u << (port % 8);
	}
}

/* This CPU drops its cached translations; root's other CPUs are suspended
 * meanwhile and drop theirs before they run Linux again (events.c). */
void arch_flush_memory(void)
{
	vcpu_flush_second_level();
}

static void free_cell_arch(struct arch_cell *a)
{
	pt_destroy(&a->tables);
	if (a->io_bitmap)
		page_free(&hv.pool, a->io_bitmap, X86_IO_BITMAP_PAGES);
	page_free(&hv.pool, a, 1);
}

int arch_cell_create(struct per_cpu *pc, struct cell *cell,
		     struct warden_error *err)
{
	struct arch_cell *a;

	_Static_assert(sizeof(struct arch_cell) <= PAGE_SIZE, "arch_cell");
	a = page_alloc(&hv.pool, 1);
	if (!a)
		goto nomem;
	a->io_bitmap = page_alloc(&hv.pool, X86_IO_BITMAP_PAGES);
	if (!a->io_bitmap ||
	    pt_init(&a->tables, vendor_second_level_format(), &hv.pool)) {
		free_cell_arch(a);
		goto nomem;
	}
	/* every port exits until the ownership path gives the cell its own */
	memset(a->io_bitmap, 0xff, X86_IO_BITMAP_PAGES * PAGE_SIZE);
	cell->arch = a;
	/* Only the MSRs of its own CPU (msr.c); x2APIC ICR writes exit and
	 * are checked (apic_cell.c).  Every CPU has root's APIC mode. */
	if (vendor_cell_init(cell, pc->arch.x2apic)) {
		cell->arch = NULL;
		free_cell_arch(a);
		goto nomem;
	}
	return 0;

nomem:
	return cell_error_no_memory(err);
}

void arch_cell_destroy(struct cell *cell)
{
	vendor_cell_exit(cell);
	free_cell_arch(cell->arch);
	cell->arch = NULL;
}

u64 arch_timestamp(void)
{
	return read_tsc();
}
