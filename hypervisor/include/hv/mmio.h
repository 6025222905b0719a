/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Emulated MMIO regions of a cell (core/mmio.c): a registry of
 * guest-physical ranges, each with a handler that performs the accesses
 * the cell makes there.  The exit path decodes a trapped access into a
 * struct mmio_access and calls mmio_dispatch(); what happens to an access
 * no region takes (fail a cell, refuse root) is the caller's policy.
 *
 * The hypervisor has no allocator: the caller provides the region array
 * (one per cell, as many entries as the cell's config has MMIO regions).
 * Regions never overlap, and none extends past 2^64 - 1.
 *
 * Locking: none here.  Changes (register, unregister) must not run
 * concurrently with each other or with a lookup or dispatch on the same
 * registry; the caller serialises them (e.g. changes only while none of
 * the cell's CPUs runs, or under the cell's lock).  Lookups and
 * dispatches may run concurrently with each other.
 *
 * The same registry serves emulated port I/O (struct cell's pio): the
 * addresses are then port numbers and accesses 1, 2 or 4 bytes.
 *
 * Plain C without hardware access, also compiled into the unit tests.
 */
#ifndef WARDEN_HV_MMIO_H
#define WARDEN_HV_MMIO_H

#include "types.h"

struct per_cpu;

/* One access: what the handler is given. */
struct mmio_access {
	u64 addr;	   /* guest-physical address of the first byte */
	u64 offset;	   /* addr - region start (set by mmio_dispatch) */
	unsigned int size; /* bytes: 1, 2, 4 or 8 */
	bool write;	   /* a store (else a load) */
	/*
	 * Write: the value stored, its low size bytes (mmio_dispatch clears
	 * the bits above).  Read: the handler puts the value read here;
	 * mmio_dispatch starts it at 0 and keeps only the low size bytes.
	 */
	u64 value;
};

enum mmio_result {
	MMIO_HANDLED = 0, /* the handler performed the access */
	MMIO_NO_REGION,	  /* no region contains the whole access */
	MMIO_REFUSED,	  /* the handler refused it (or size not 1/2/4/8) */
	MMIO_CELL_FAILED, /* the handler failed the guest's cell (cell_fail) */
};

typedef enum mmio_result (*mmio_handler_t)(void *ctx, struct per_cpu *pc,
					   struct mmio_access *a);

struct mmio_region {
	u64 start; /* guest-physical */
	u64 size;  /* bytes, > 0 */
	mmio_handler_t handler;
	void *ctx; /* handed to handler */
};

struct mmio_registry {
	struct mmio_region *regions; /* caller's storage: capacity entries */
	unsigned int count;	     /* regions[0..count) are in use */
	unsigned int capacity;
};

/* An empty registry over storage[0..capacity) (storage may be NULL if
 * capacity is 0: every registration is then refused). */
void mmio_registry_init(struct mmio_registry *r, struct mmio_region *storage,
			unsigned int capacity);

/*
 * Add region [start, start + size) with its handler and ctx.  Returns 0,
 * or, checked in this order:
 *  -WARDEN_EINVAL  size is 0, handler is NULL, or the region wraps around
 *                  (its last byte would lie beyond 2^64 - 1);
 *  -WARDEN_EBUSY   it overlaps a region already registered (by one byte
 *                  or more; regions that only touch are accepted);
 *  -WARDEN_ENOSPC  the registry holds capacity regions already.
 * The registry is unchanged on failure.
 */
int mmio_register(struct mmio_registry *r, u64 start, u64 size,
		  mmio_handler_t handler, void *ctx);

/* Remove the region that starts at start: 0, or -WARDEN_ENOENT if none
 * does (an address inside a region is not its start). */
int mmio_unregister(struct mmio_registry *r, u64 start);

/* Remove every region registered with ctx: how many were (0 if none). */
unsigned int mmio_unregister_ctx(struct mmio_registry *r, const void *ctx);

static inline u64 mmio_last_byte(const struct mmio_region *m)
{
	return m->start + (m->size - 1);
}

/* The region that contains all of [addr, addr + size), or NULL (size 0,
 * or no region, or the range straddles a region's end).  Inline, as
 * mmio_dispatch: every emulated access takes them. */
static inline const struct mmio_region *
mmio_lookup(const struct mmio_registry *r, u64 addr, unsigned int size)
{
	u64 last = addr + (size - 1);
	const struct mmio_region *m;
	unsigned int i;

	if (!size || last < addr)
		return NULL;
	for (i = 0; i < r->count; i++) {
		m = &r->regions[i];
		if (m->start <= addr && last <= mmio_last_byte(m))
			return m;
	}
	return NULL;
}

static inline u64 mmio_low_bytes(u64 v, unsigned int size)
{
	return size >= 8 ? v : v & ((1ULL << (size * 8)) - 1);
}

/*
 * Perform access a: find the region that contains all of it, set
 * a->offset, and return what its handler returns.  MMIO_NO_REGION (no
 * handler called) if no region contains the whole access: an address no
 * region covers, and also an access that straddles a region's end, even
 * into an adjacent region (each region sees only accesses within it).
 * MMIO_REFUSED (no handler called) if a->size is not 1, 2, 4 or 8.
 * Writes: the handler sees a->value with only the low size bytes kept.
 * Reads: a->value is 0 when the handler is called, and afterwards holds
 * the low size bytes of what the handler put there (whatever it
 * returned).
 */
static inline enum mmio_result mmio_dispatch(const struct mmio_registry *r,
					     struct per_cpu *pc,
					     struct mmio_access *a)
{
	const struct mmio_region *m;
	enum mmio_result res;

	if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8)
		return MMIO_REFUSED;
	m = mmio_lookup(r, a->addr, a->size);
	if (!m)
		return MMIO_NO_REGION;
	a->offset = a->addr - m->start;
	a->value = a->write ? mmio_low_bytes(a->value, a->size) : 0;
	res = m->handler(m->ctx, pc, a);
	if (!a->write)
		a->value = mmio_low_bytes(a->value, a->size);
	return res;
}

#endif /* WARDEN_HV_MMIO_H */
