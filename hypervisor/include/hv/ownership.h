/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ownership path (core/ownership.c): the only writer of the cells'
 * second-level tables, root's included.  It maps what a cell owns, takes
 * it from root and gives it back, maps what units share (a link's
 * memory), and installs the units' traps.  Every change it makes is
 * announced to the units (hv/unit.h, map and unmap), so that a unit that
 * mirrors the tables (an IOMMU) sees exactly what the CPUs see.
 */
#ifndef WARDEN_HV_OWNERSHIP_H
#define WARDEN_HV_OWNERSHIP_H

#include "types.h"

struct cell;
struct per_cpu;
struct warden_error;

/*
 * A trap: a range of a cell's guest-physical space the hypervisor keeps
 * out of the cell's plain mapping, because a unit emulates or restricts
 * it.  Its kind says what the range is in the second-level tables:
 *  - ABSENT: not present; every access exits (a unit's MMIO region, or
 *    memory the cell may not touch at all, such as a link root is no
 *    peer of);
 *  - READ_ONLY: where the cell's config maps the range, mapped with
 *    flags (WARDEN_MEM_*, no write) and mem_type instead: reads go to
 *    the hardware, writes exit (root's HPET page, say);
 *  - REDIRECT: mapped to the page(s) at phys with flags and mem_type,
 *    whatever the config maps there (the APIC-access page behind a
 *    trapped xAPIC page).
 * A trap is installed when it is registered and again by every mapping
 * the path makes over it, in the same update: no mapping of the range
 * around it is ever visible without it.  Unmapping a range with a trap
 * leaves it not present.  A unit that mirrors the tables treats every
 * kind as a hole.  Traps last as long as their cell (root: until
 * disable).
 */
enum own_trap_kind {
	OWN_MAPPED = 0, /* not a trap: a plain mapping (announcements) */
	OWN_TRAP_ABSENT = 1,
	OWN_TRAP_READ_ONLY = 2,
	OWN_TRAP_REDIRECT = 3,
};

struct own_trap {
	u64 start, size; /* guest-physical, page-aligned */
	u64 phys;	 /* REDIRECT: what it maps to */
	u32 flags;	 /* READ_ONLY, REDIRECT: WARDEN_MEM_* */
	u32 mem_type;	 /* READ_ONLY, REDIRECT: WARDEN_MEMTYPE_* */
	u32 kind;	 /* OWN_TRAP_* */
};

/* A cell's traps, in storage the cell provides. */
struct own_traps {
	struct own_trap *trap;
	unsigned int count, capacity;
};

/* Traps a cell can have, and root (its xAPIC, IOAPICs, MMCONFIG, HPET,
 * IOMMU and chipset pages, up to 32 MSI-X tables, its links). */
#define HV_CELL_TRAPS 16
#define HV_ROOT_TRAPS 128

/* Empty the set; storage holds capacity traps. */
void ownership_traps_init(struct own_traps *t, struct own_trap *storage,
			  unsigned int capacity);

/*
 * Register a trap of cell (kind OWN_TRAP_*) and install it now.  0, or
 * -WARDEN_EINVAL (not page-aligned, empty, an unknown kind, over another
 * trap), -WARDEN_ENOSPC (no room), -WARDEN_ENOMEM (the pool is out of
 * table pages; the trap is kept, the tables may be partly changed).  No
 * flush: a unit registers traps while the cell's CPUs cannot run (a new
 * cell; root in enable's rendezvous).
 */
int ownership_trap(struct cell *cell, const struct own_trap *trap);

/*
 * Root's tables at enable (its CPUs in the rendezvous): every memory
 * region of the system config, identity-mapped with its rights and type,
 * minus the hypervisor's memory, and the console read-only.  0 or
 * -WARDEN_ENOMEM with the reason recorded.
 */
int ownership_root_init(struct per_cpu *pc);

/*
 * ownership_take: map the cell's memory (its communication page where
 * the config puts it) and ports into it and take them from root; 0, or
 * -WARDEN_ENOMEM with *err filled and root as before (the cell's own
 * tables are the caller's to free).  ownership_give_back: root gets the
 * cell's memory and ports back as the system config gives them.
 * ownership_lend_loadable: the cell's loadable regions into root
 * (to_root, "cell load") or out of it again (start).  Each runs with
 * root's other CPUs suspended and cannot fail but for ownership_take.
 */
int ownership_take(struct cell *cell, struct warden_error *err);
void ownership_give_back(struct cell *cell);
/* Zero the RAM cell took from root (device memory is left alone): what a
 * cell left is the cell's, and neither root nor the next cell there may
 * read it.  Called by destroy once the cell's CPUs have stopped and before
 * ownership_give_back, with root running (nothing but the hypervisor's
 * window maps that memory then). */
void ownership_clear(struct cell *cell);
void ownership_lend_loadable(struct cell *cell, bool to_root);

/*
 * Memory a unit shares outside the cells' configs (a link's): map
 * [guest, guest + size) of cell to phys with flags (WARDEN_MEM_*,
 * write-back), traps kept, or unmap it.  0 or -WARDEN_ENOMEM (the pool
 * is out of table pages; the change may be partial).  No flush: the
 * caller's context decides (a cell not yet running, root in enable's
 * rendezvous).
 */
int ownership_map_shared(struct cell *cell, u64 guest, u64 phys, u64 size,
			 u32 flags);
int ownership_unmap_shared(struct cell *cell, u64 guest, u64 size);

#endif /* WARDEN_HV_OWNERSHIP_H */
