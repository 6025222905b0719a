/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ring protocol of a link (link.h section 3), the one implementation
 * that warden.ko, libinmate and the CLI all include: header-only, static
 * inline, fixed-size integer types only, no library calls, so that it
 * builds in the Linux kernel, in freestanding inmates and in user space.
 *
 * The includer maps the link memory and describes it in a struct
 * warden_link_rings; every access to the shared memory goes through
 * volatile pointers, since the other peers change it under our feet and a
 * peer may write anything there: a value read from another peer's section
 * is read once and checked before it is used.
 *
 * Barriers: WARDEN_LINK_RMB() must order earlier loads before later loads
 * (acquire); WARDEN_LINK_WMB() must order earlier loads and stores before
 * later stores (release).  The defaults are compiler fences of C11
 * semantics, which on x86 cost nothing but forbid the compiler to
 * reorder; define them before including this header to override.
 *
 * None of these functions sleeps or takes a lock: each ring has one
 * producer and one consumer, and a caller with several threads producing
 * on one ring (or consuming from one) serialises them itself.
 */
#ifndef WARDEN_LINK_RING_H
#define WARDEN_LINK_RING_H

#include "link.h"

#if !defined(__KERNEL__)
#include <stddef.h> /* size_t; the kernel's comes with linux/types.h */
#endif

#ifndef WARDEN_LINK_RMB
#define WARDEN_LINK_RMB() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif
#ifndef WARDEN_LINK_WMB
#define WARDEN_LINK_WMB() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif

/* An unaligned 64-bit word of the caller's buffer: lets the copies move
 * eight bytes at a time whatever the buffer's alignment. */
typedef uint64_t __attribute__((aligned(1), may_alias)) warden_link_u64u;

/*
 * One peer's view of a link's rings.
 *
 * mem: the whole link memory as this peer maps it (read access to every
 *      section is enough);
 * own: this peer's section, writable: mem + self * section_size, or a
 *      separate writable mapping of it (user space on a DIRECTIONAL link);
 * section_size: warden_link_section_size() of the link;
 * slots: warden_link_ring_slots(section_size);
 * self, num_peers: this peer's index and the link's peers.
 *
 * Fill it with warden_link_rings_setup().
 */
struct warden_link_rings {
	volatile uint8_t *mem;
	volatile uint8_t *own;
	uint64_t section_size;
	uint32_t slots;
	uint32_t self;
	uint32_t num_peers;
};

/*
 * Describe a link to the ring functions.  own may be NULL (then it is
 * inside mem).  Returns 0, or -1 if the geometry cannot hold rings
 * (num_peers not 2 .. WARDEN_LINK_MAX_PEERS, self not below it, a
 * section too small for one slot per ring).
 */
static inline int warden_link_rings_setup(struct warden_link_rings *r,
					  volatile void *mem,
					  volatile void *own,
					  uint64_t section_size, uint32_t self,
					  uint32_t num_peers)
{
	r->mem = (volatile uint8_t *)mem;
	r->section_size = section_size;
	r->self = self;
	r->num_peers = num_peers;
	r->slots = warden_link_ring_slots(section_size);
	r->own = own ? (volatile uint8_t *)own
		     : r->mem + (uint64_t)self * section_size;
	if (num_peers < 2 || num_peers > WARDEN_LINK_MAX_PEERS ||
	    self >= num_peers || !r->slots)
		return -1;
	return 0;
}

/* The header of peer i's section (our own through the writable view). */
static inline volatile struct warden_link_section_header *
warden_link_header(const struct warden_link_rings *r, uint32_t i)
{
	if (i == r->self)
		return (volatile struct warden_link_section_header *)r->own;
	return (volatile struct warden_link_section_header
			*)(r->mem + (uint64_t)i * r->section_size);
}

/* Slot k (already reduced modulo slots) of producer i's ring to peer j on
 * channel c; the producer's own slots through the writable view. */
static inline volatile struct warden_link_slot *
warden_link_slot(const struct warden_link_rings *r, uint32_t i, uint32_t j,
		 uint32_t c, uint32_t k)
{
	uint64_t off = warden_link_ring_offset(r->section_size, i, j, c) +
		       (uint64_t)k * WARDEN_LINK_SLOT_SIZE;
	volatile uint8_t *base = r->mem;

	if (i == r->self) {
		/* the offset inside our own section */
		off -= (uint64_t)i * r->section_size;
		base = r->own;
	}
	return (volatile struct warden_link_slot *)(base + off);
}

/*
 * Start of this peer's part (link.h "Start"): zero its header page, then
 * write the geometry and, last, the magic, so that a peer that sees the
 * magic sees zeroed indexes.  The caller then sets STATE up.
 */
static inline void warden_link_ring_init(const struct warden_link_rings *r)
{
	volatile uint64_t *w = (volatile uint64_t *)r->own;
	volatile struct warden_link_section_header *h =
		warden_link_header(r, r->self);
	uint32_t i;

	for (i = 0; i < WARDEN_LINK_RING_OFFSET / 8; i++)
		w[i] = 0;
	h->version = WARDEN_LINK_RING_VERSION;
	h->slot_size = WARDEN_LINK_SLOT_SIZE;
	h->slots = r->slots;
	WARDEN_LINK_WMB();
	h->magic = WARDEN_LINK_RING_MAGIC;
	WARDEN_LINK_WMB();
}

/* Stop: clear the magic, so that peers stop sending to us before our
 * STATE goes down.  warden_link_ring_init() starts again. */
static inline void warden_link_ring_fini(const struct warden_link_rings *r)
{
	warden_link_header(r, r->self)->magic = 0;
	WARDEN_LINK_WMB();
}

/*
 * Peer j came up (its state went from down to up): zero our producer
 * indexes towards it and our consumer indexes of its rings on every
 * channel, so that both sides start at 0 (its own header is zeroed by
 * its start).  Nothing may be sent to j, or received from it, while this
 * runs.
 */
static inline void
warden_link_ring_reset_peer(const struct warden_link_rings *r, uint32_t j)
{
	volatile struct warden_link_section_header *h =
		warden_link_header(r, r->self);
	uint32_t c;

	if (j >= r->num_peers || j == r->self)
		return;
	for (c = 0; c < WARDEN_LINK_CHANNELS; c++) {
		h->prod[j][c].value = 0;
		h->cons[j][c].value = 0;
	}
	WARDEN_LINK_WMB();
}

/* 1 if peer j's section header is initialised with our geometry (its
 * rings may be used), else 0. */
static inline int warden_link_ring_peer_valid(const struct warden_link_rings *r,
					      uint32_t j)
{
	volatile struct warden_link_section_header *h;

	if (j >= r->num_peers || j == r->self)
		return 0;
	h = warden_link_header(r, j);
	if (h->magic != WARDEN_LINK_RING_MAGIC)
		return 0;
	WARDEN_LINK_RMB();
	return h->version == WARDEN_LINK_RING_VERSION &&
	       h->slot_size == WARDEN_LINK_SLOT_SIZE && h->slots == r->slots;
}

/* Free slots in our ring to peer j on channel c: 0 if it is full, j is
 * not valid (warden_link_ring_peer_valid), or the indexes disagree (the
 * peer restarted and we have not reset it yet). */
static inline uint32_t warden_link_ring_space(const struct warden_link_rings *r,
					      uint32_t j, uint32_t c)
{
	uint32_t prod, cons;

	if (c >= WARDEN_LINK_CHANNELS || !warden_link_ring_peer_valid(r, j))
		return 0;
	prod = warden_link_header(r, r->self)->prod[j][c].value;
	cons = warden_link_header(r, j)->cons[r->self][c].value;
	if (prod - cons >= r->slots)
		return 0;
	return r->slots - (prod - cons);
}

/* Messages waiting in peer j's ring to us on channel c (0 also when j is
 * not valid or the indexes disagree). */
static inline uint32_t
warden_link_ring_pending(const struct warden_link_rings *r, uint32_t j,
			 uint32_t c)
{
	uint32_t prod, cons;

	if (c >= WARDEN_LINK_CHANNELS || !warden_link_ring_peer_valid(r, j))
		return 0;
	prod = warden_link_header(r, j)->prod[r->self][c].value;
	cons = warden_link_header(r, r->self)->cons[j][c].value;
	if (prod - cons > r->slots)
		return 0;
	return prod - cons;
}

/* Copy len bytes from buf into the shared memory at dst (8-aligned). */
static inline void warden_link_copy_to(volatile uint8_t *dst, const void *buf,
				       uint32_t len)
{
	volatile uint64_t *d = (volatile uint64_t *)dst;
	const uint8_t *s = (const uint8_t *)buf;
	uint32_t i;

	for (i = 0; i + 8 <= len; i += 8)
		*d++ = *(const warden_link_u64u *)(s + i);
	for (; i < len; i++)
		dst[i] = s[i];
}

/* Copy len bytes out of the shared memory at src (8-aligned) into buf. */
static inline void warden_link_copy_from(void *buf, volatile uint8_t *src,
					 uint32_t len)
{
	volatile uint64_t *s = (volatile uint64_t *)src;
	uint8_t *d = (uint8_t *)buf;
	uint32_t i;

	for (i = 0; i + 8 <= len; i += 8)
		*(warden_link_u64u *)(d + i) = *s++;
	for (; i < len; i++)
		d[i] = src[i];
}

/*
 * Send: copy len bytes of buf into the next slot of our ring to peer j on
 * channel c and advance our producer index.  Returns 0, or -1 if j or c is
 * out of range, len is not 1 .. WARDEN_LINK_MAX_PAYLOAD, j's header is
 * not valid, or the ring is full.  The caller then rings j's doorbell
 * (vector warden_link_vector(c, j's vectors)); it decides whether j is up.
 */
static inline int warden_link_ring_send(const struct warden_link_rings *r,
					uint32_t j, uint32_t c, const void *buf,
					size_t len)
{
	volatile struct warden_link_section_header *h =
		warden_link_header(r, r->self);
	volatile struct warden_link_slot *slot;
	uint32_t prod;

	if (len < 1 || len > WARDEN_LINK_MAX_PAYLOAD ||
	    !warden_link_ring_space(r, j, c))
		return -1;
	prod = h->prod[j][c].value;
	slot = warden_link_slot(r, r->self, j, c, prod % r->slots);
	slot->len = (uint32_t)len;
	slot->flags = 0;
	warden_link_copy_to(slot->data, buf, (uint32_t)len);
	/* the slot before the index that publishes it */
	WARDEN_LINK_WMB();
	h->prod[j][c].value = prod + 1;
	return 0;
}

/*
 * Length of the next message in peer j's ring to us on channel c without
 * taking it: 0 if the ring is empty (or j not valid, or the indexes
 * disagree), -1 if the message's length is out of range (recv drops it).
 */
static inline int warden_link_ring_peek(const struct warden_link_rings *r,
					uint32_t j, uint32_t c)
{
	uint32_t cons, len;

	if (!warden_link_ring_pending(r, j, c))
		return 0;
	/* the index before the slot it published */
	WARDEN_LINK_RMB();
	cons = warden_link_header(r, r->self)->cons[j][c].value;
	len = warden_link_slot(r, j, r->self, c, cons % r->slots)->len;
	if (len < 1 || len > WARDEN_LINK_MAX_PAYLOAD)
		return -1;
	return (int)len;
}

/*
 * Receive: copy the next message of peer j's ring to us on channel c into
 * buf (size bytes) and advance our consumer index.  Returns its length; 0
 * if the ring is empty, j or c is out of range, j is not valid, or the
 * indexes disagree (the peer restarted: its state change resets them);
 * -1 if the message's length is out of range or over size: the message
 * is dropped (taken, not copied), so a loop "while (recv() != 0)" drains
 * the ring and ends.
 */
static inline int warden_link_ring_recv(const struct warden_link_rings *r,
					uint32_t j, uint32_t c, void *buf,
					size_t size)
{
	volatile struct warden_link_section_header *h =
		warden_link_header(r, r->self);
	volatile struct warden_link_slot *slot;
	uint32_t cons, len;
	int ret;

	if (!warden_link_ring_pending(r, j, c))
		return 0;
	/* the index before the slot it published */
	WARDEN_LINK_RMB();
	cons = h->cons[j][c].value;
	slot = warden_link_slot(r, j, r->self, c, cons % r->slots);
	/* read once: the producer may change it while we copy */
	len = slot->len;
	if (len < 1 || len > WARDEN_LINK_MAX_PAYLOAD || len > size) {
		ret = -1;
	} else {
		warden_link_copy_from(buf, slot->data, len);
		ret = (int)len;
	}
	/* the slot read before the index that lets the producer reuse it */
	WARDEN_LINK_WMB();
	h->cons[j][c].value = cons + 1;
	return ret;
}

#endif /* WARDEN_LINK_RING_H */
