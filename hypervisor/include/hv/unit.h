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
	/* Every change of a cell's second-level tables, announced by the
	 * ownership path, their only writer (hv/ownership.h), once it is
	 * made.  map: guest-physical [guest, guest + size) now maps phys
	 * with flags (WARDEN_MEM_*), kind OWN_MAPPED, or is a trap of that
	 * kind (OWN_TRAP_*; ABSENT with phys and flags 0): a unit that
	 * mirrors the tables (an IOMMU) treats every trap kind as a hole.
	 * unmap: [start, start + size) maps nothing now. */
	void (*map)(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
		    u32 kind);
	void (*unmap)(struct cell *cell, u64 start, u64 size);
	/* How many MMIO regions (hv/mmio.h) the unit registers for cell:
	 * checked against the registry's room before cell_init runs. */
	unsigned int (*mmio_count)(const struct cell *cell);
	/* The cell's CPUs have stopped running its guest: shut down, stopped
	 * for "cell load", failed (called on the failing CPU, possibly once
	 * per CPU), or (destroy true) about to leave the cell, before they
	 * go back to root: from here on nothing may send them the cell's
	 * interrupts.  Cannot fail; takes only the unit's own locks, and
	 * no unit calls cell_fail while it holds one of its locks. */
	void (*cell_stop)(struct cell *cell, bool destroy);
	/* A hypercall of root's the core does not know (code, arg1, arg2:
	 * include/warden/hypercall.h): its result, or -WARDEN_ENOSYS when
	 * the code is not the unit's. */
	long (*hypercall)(struct per_cpu *pc, unsigned long code,
			  unsigned long arg1, unsigned long arg2);
	/* Why cell's access to gpa (a write if write), which reached no
	 * memory and no MMIO region, was refused, when the unit knows
	 * (memory it keeps from the cell): a phrase for the console, or
	 * NULL. */
	const char *(*fault_reason)(const struct cell *cell, u64 gpa,
				    bool write);
	/* Bytes of private state the unit keeps in every cell, root
	 * included, zeroed when the cell is made (unit_cell_state); all
	 * units together HV_UNIT_STATE_BYTES at most. */
	unsigned int cell_state_size;
	/* Root made a hypercall (on its CPU pc, before the call is
	 * handled): a unit that polls its hardware does so (the IOMMU's
	 * fault records).  Takes only the unit's own locks. */
	void (*root_call)(struct per_cpu *pc);
	/* up to the alignment, for hooks to come: let it grow */
	void *unused[3];
};

/* Define a unit: DEFINE_UNIT(apic) = { .name = "xAPIC", ... }; code
 * above the definition names it after DECLARE_UNIT(apic). */
#define DEFINE_UNIT(id)                                                        \
	const struct unit unit_##id                                            \
		__attribute__((used, section("warden_units"), aligned(64)))
#define DECLARE_UNIT(id) extern const struct unit unit_##id

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
void units_map(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
	       u32 kind);
void units_unmap(struct cell *cell, u64 start, u64 size);
unsigned int units_mmio_count(const struct cell *cell);
void units_cell_stop(struct cell *cell, bool destroy);
/* The first unit's answer that is not -WARDEN_ENOSYS, else that. */
long units_hypercall(struct per_cpu *pc, unsigned long code, unsigned long arg1,
		     unsigned long arg2);
/* Every unit's root_call. */
void units_root_call(struct per_cpu *pc);
/* The first unit's reason, or NULL. */
const char *units_fault_reason(const struct cell *cell, u64 gpa, bool write);
/* Unit u's private state in cell (cell_state_size bytes, 8-aligned;
 * placed by units_init, which fails with -WARDEN_ENOSPC when the units
 * together want more than HV_UNIT_STATE_BYTES). */
void *unit_cell_state(struct cell *cell, const struct unit *u);
#define UNIT_STATE(cell, id) unit_cell_state(cell, &unit_##id)

#endif /* WARDEN_HV_UNIT_H */
