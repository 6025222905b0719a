/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Units: optional subsystems (the xAPIC pages, the communication region,
 * the IOAPIC, PCI devices, inter-cell links, root's HPET and root's IOMMU
 * registers watched) plug into
 * the cell lifecycle through one table each, so that cell create and
 * destroy never name them.  A unit is defined with DEFINE_UNIT in its own
 * file; the linker collects every definition (section warden_units), and
 * core/units.c calls the hooks of all of them, in link order (unwinding
 * in reverse).  Every hook is optional (NULL).
 */
#ifndef WARDEN_HV_UNIT_H
#define WARDEN_HV_UNIT_H

#include "types.h"

struct cell;
struct per_cpu;
struct warden_error;

struct unit {
	const char *name;
	/* Once, on the first CPU, after the root cell exists: 0, or a
	 * negative errno with the reason recorded (hv_set_error). */
	int (*init)(struct per_cpu *pc);
	/* Disable, on the last CPU to leave: undo init.  Cannot fail. */
	void (*shutdown)(void);
	/* A new cell (not root), before its resources are taken from root:
	 * 0, or a negative errno with *err filled and nothing kept. */
	int (*cell_init)(struct cell *cell, struct warden_error *err);
	/* The cell is destroyed (its resources are root's again): free
	 * what cell_init took.  Cannot fail. */
	void (*cell_exit)(struct cell *cell);
	/* Guest-physical [start, start + size) was mapped into / unmapped
	 * from cell's second-level tables (core/ownership.c). */
	void (*map)(struct cell *cell, u64 start, u64 size);
	void (*unmap)(struct cell *cell, u64 start, u64 size);
	/* How many MMIO regions (hv/mmio.h) the unit registers for cell:
	 * checked against the registry's room before cell_init runs. */
	unsigned int (*mmio_count)(const struct cell *cell);
	/* The cell's CPUs have stopped running its guest: shut down, stopped
	 * for "cell load", failed (called on the failing CPU, possibly once
	 * per CPU), or (destroy true) about to leave the cell, before they
	 * go back to root: from here on nothing may send them the cell's
	 * interrupts.  Cannot fail, takes no lock a caller may hold but the
	 * PCI unit's. */
	void (*cell_stop)(struct cell *cell, bool destroy);
	/* up to the alignment, for hooks to come */
	void *unused[7];
};

/* Define a unit: DEFINE_UNIT(apic) = { .name = "xAPIC", ... }; */
#define DEFINE_UNIT(id)                                                        \
	const struct unit unit_##id                                            \
		__attribute__((used, section("warden_units"), aligned(64)))

_Static_assert(sizeof(struct unit) == 128, "struct unit: a multiple of its "
					   "alignment (64: what GCC may give "
					   "a large object anyway), so that "
					   "the section is an array");

/* The hooks of every unit (core/units.c).  units_init and
 * units_cell_init stop at the first failure and undo the units before it
 * (shutdown, cell_exit), in reverse order. */
int units_init(struct per_cpu *pc);
void units_shutdown(void);
int units_cell_init(struct cell *cell, struct warden_error *err);
void units_cell_exit(struct cell *cell);
void units_map(struct cell *cell, u64 start, u64 size);
void units_unmap(struct cell *cell, u64 start, u64 size);
unsigned int units_mmio_count(const struct cell *cell);
void units_cell_stop(struct cell *cell, bool destroy);

#endif /* WARDEN_HV_UNIT_H */
