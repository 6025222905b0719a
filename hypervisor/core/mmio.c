// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated MMIO regions (contract in hv/mmio.h).  A few regions per cell:
 * a linear scan, ranges kept as first and last byte so that nothing
 * overflows at the top of the address space.
 */
#include <hv/mmio.h>
#include <warden/hypercall.h>

/* Low size bytes of v (size 1, 2, 4 or 8). */

void mmio_registry_init(struct mmio_registry *r, struct mmio_region *storage,
			unsigned int capacity)
{
	r->regions = storage;
	r->count = 0;
	r->capacity = storage ? capacity : 0;
}

int mmio_register(struct mmio_registry *r, u64 start, u64 size,
		  mmio_handler_t handler, void *ctx)
{
	u64 last = start + (size - 1);
	struct mmio_region *m;
	unsigned int i;

	if (!size || !handler || last < start)
		return -WARDEN_EINVAL;
	for (i = 0; i < r->count; i++) {
		m = &r->regions[i];
		if (start <= mmio_last_byte(m) && m->start <= last)
			return -WARDEN_EBUSY;
	}
	if (r->count >= r->capacity)
		return -WARDEN_ENOSPC;
	m = &r->regions[r->count];
	m->start = start;
	m->size = size;
	m->handler = handler;
	m->ctx = ctx;
	r->count++;
	return 0;
}

/* Drop regions[i], keeping the others in registration order. */
static void remove_at(struct mmio_registry *r, unsigned int i)
{
	for (; i + 1 < r->count; i++)
		r->regions[i] = r->regions[i + 1];
	r->count--;
}

int mmio_unregister(struct mmio_registry *r, u64 start)
{
	unsigned int i;

	for (i = 0; i < r->count; i++)
		if (r->regions[i].start == start) {
			remove_at(r, i);
			return 0;
		}
	return -WARDEN_ENOENT;
}

unsigned int mmio_unregister_ctx(struct mmio_registry *r, const void *ctx)
{
	unsigned int i = 0, n = 0;

	while (i < r->count)
		if (r->regions[i].ctx == ctx) {
			remove_at(r, i);
			n++;
		} else {
			i++;
		}
	return n;
}
