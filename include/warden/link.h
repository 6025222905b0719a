/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Inter-cell links: shared memory between two to four peers (root and/or
 * cells) with doorbell interrupts, each peer seeing the link as a virtual
 * PCI function that the hypervisor emulates.  This header holds all of
 * the link's ABI:
 *
 *  1. the config (struct warden_link, in the system config);
 *  2. the virtual PCI function: IDs, BAR 0 registers, MSI-X;
 *  3. the ring protocol in the shared memory (messages and Ethernet
 *     frames), used by warden.ko, libinmate and the CLI alike;
 *  4. the character device's ioctls (/dev/warden-link-NAME).
 *
 * docs/abi.md describes it in prose.
 */
#ifndef WARDEN_LINK_H
#define WARDEN_LINK_H

#include "abi.h"

/* ---- 1. config ---- */

#define WARDEN_LINK_MAX_PEERS 4
#define WARDEN_LINK_MAX_VECTORS 4
/* Links of a system at most. */
#define WARDEN_MAX_LINKS 16

/* Link flags.  DIRECTIONAL: the memory is cut into num_peers sections
 * (warden_link_section_size); peer i may write its own section only and
 * reads the others ("one writer per direction").  Without it every peer
 * may write all of it. */
#define WARDEN_LINK_DIRECTIONAL (1u << 0)
#define WARDEN_LINK_FLAGS_ALL 0x1u

/* The smallest link memory: a section needs a header page and rings. */
#define WARDEN_LINK_MIN_SIZE 0x10000u

struct warden_link_peer {
	/* the cell's name (the root cell's name for root) */
	char cell[WARDEN_NAME_LEN];
	/* guest-physical address where the peer sees the shared memory
	 * (BAR 2); root's is phys_start (root is identity-mapped) */
	uint64_t shmem_address;
	/* guest-physical address of BAR 0 (WARDEN_LINK_REGS_SIZE bytes:
	 * registers and MSI-X table), page-aligned, below 4 GiB; root's
	 * must lie in its device memory, clear of every PCI BAR */
	uint64_t regs_address;
	uint16_t bdf;	     /* virtual PCI address: bus << 8 | dev << 3 | fn */
	uint8_t vectors;     /* MSI-X vectors, 1 .. WARDEN_LINK_MAX_VECTORS */
	uint8_t reserved[5]; /* must be 0 */
};
WARDEN_CHECK_SIZE(struct warden_link_peer, 56);
WARDEN_CHECK_OFFSET(struct warden_link_peer, bdf, 48);

/*
 * A link.  Its memory (phys_start, size) comes from the boot-time
 * reservation (memmap=), never from Linux's RAM: it lies inside one of
 * root's RAM regions (read/write, not io), outside the hypervisor's
 * memory, every other link and every cell's memory; enable checks that
 * Linux does not use it.  It belongs to its peers only: where root is
 * not a peer, the hypervisor cuts it from root from enable to disable.  size is a power of 2, at least
 * WARDEN_LINK_MIN_SIZE, and phys_start is aligned to it (it is BAR 2).
 */
struct warden_link {
	char name[WARDEN_NAME_LEN]; /* printable, unique among links */
	uint64_t phys_start;
	uint64_t size;
	uint32_t flags;	    /* WARDEN_LINK_* */
	uint16_t num_peers; /* 2 .. WARDEN_LINK_MAX_PEERS */
	/* doorbells per millisecond each peer may ring on average (the
	 * bound below); 0: WARDEN_LINK_RATE */
	uint16_t doorbell_rate;
	struct warden_link_peer peers[WARDEN_LINK_MAX_PEERS];
};
WARDEN_CHECK_SIZE(struct warden_link, 280);
WARDEN_CHECK_OFFSET(struct warden_link, peers, 56);

/* The bytes of a peer's section: size / num_peers, rounded down to 4 KiB
 * (the rest of the memory, if any, is unused). */
static inline uint64_t warden_link_section_size(uint64_t size,
						uint32_t num_peers)
{
	return num_peers ? (size / num_peers) & ~(uint64_t)0xfff : 0;
}

/* ---- 2. the virtual PCI function ---- */

/* IDs of the project's choosing (not a PCI-SIG assignment: Warden's
 * virtual functions exist only under Warden). */
#define WARDEN_LINK_VENDOR_ID 0x5744 /* "WD" */
#define WARDEN_LINK_DEVICE_ID 0x4c4b /* "LK" */
#define WARDEN_LINK_CLASS 0xff0000   /* class ff: unassigned */

/* BAR 0: 4 KiB, 32-bit memory: registers, then the MSI-X table and PBA.
 * BAR 2: the shared memory, 64-bit prefetchable, size = link size. */
#define WARDEN_LINK_REGS_SIZE 0x1000u
#define WARDEN_LINK_MSIX_TABLE 0x800u /* in BAR 0 */
#define WARDEN_LINK_MSIX_PBA 0xc00u   /* in BAR 0 */
/* Offset of the MSI-X capability in configuration space. */
#define WARDEN_LINK_MSIX_CAP 0x40u

/* BAR 0 registers, 32 bits each (64-bit ones are two, low first);
 * accesses of 4 bytes (8 for the 64-bit ones), others are refused. */
#define WARDEN_LINK_REG_ID 0x00		  /* RO: this peer's index */
#define WARDEN_LINK_REG_NUM_PEERS 0x04	  /* RO */
#define WARDEN_LINK_REG_FLAGS 0x08	  /* RO: WARDEN_LINK_* */
#define WARDEN_LINK_REG_VECTORS 0x0c	  /* RO: this peer's vectors */
#define WARDEN_LINK_REG_STATE 0x10	  /* RW: own state, 0: down */
#define WARDEN_LINK_REG_PEER_STATES 0x14  /* RO: bit i: peer i up */
#define WARDEN_LINK_REG_DOORBELL 0x18	  /* WO: peer << 16 | vector */
#define WARDEN_LINK_REG_DROPPED 0x1c	  /* RO: doorbells dropped (bound) */
#define WARDEN_LINK_REG_SHMEM 0x20	  /* RO 64: BAR 2's address */
#define WARDEN_LINK_REG_SHMEM_SIZE 0x28	  /* RO 64: link size */
#define WARDEN_LINK_REG_SECTION_SIZE 0x30 /* RO 64 */
/* RO: state of peer i (what it wrote to STATE; 0 while its cell does
 * not exist) */
#define WARDEN_LINK_REG_PEER_STATE(i) (0x40 + 4 * (i))
/* RO: MSI-X vectors of peer i (0 while its cell does not exist) */
#define WARDEN_LINK_REG_PEER_VECTORS(i) (0x60 + 4 * (i))

/*
 * The function describes itself (ABI revision 9), so that a driver binds
 * it from BAR 0 alone, without the system config: in root and in a Linux
 * cell alike.  Besides ID, NUM_PEERS, FLAGS, VECTORS and the geometry
 * (SHMEM, SHMEM_SIZE, SECTION_SIZE) above:
 *  REVISION    RO: WARDEN_LINK_REGS_REVISION (0 from a hypervisor of ABI
 *              revision 8 or older, which has none of these three);
 *  LINK_INDEX  RO: the link's index in the system config (its MAC
 *              addresses, WARDEN_LINK_MAC, and its sysfs directory);
 *  NAME        RO: the link's name, WARDEN_NAME_LEN bytes NUL-padded, in
 *              4-byte words, byte 0 the lowest of the first word.
 */
#define WARDEN_LINK_REG_REVISION 0x38
#define WARDEN_LINK_REG_LINK_INDEX 0x3c
#define WARDEN_LINK_REG_NAME 0x80
#define WARDEN_LINK_REGS_REVISION 1
_Static_assert(WARDEN_LINK_REG_PEER_VECTORS(WARDEN_LINK_MAX_PEERS) <=
		       WARDEN_LINK_REG_NAME,
	       "link registers overlap");
_Static_assert(WARDEN_LINK_REG_NAME + WARDEN_NAME_LEN <= WARDEN_LINK_MSIX_TABLE,
	       "link name overlaps the MSI-X table");

#define WARDEN_LINK_DOORBELL(peer, vector)                                     \
	((uint32_t)(peer) << 16 | (uint32_t)(vector))

/*
 * Interrupts.  Vector 0 of every other peer fires when a peer's state
 * changes (its write to STATE, or its cell stopped).  A doorbell
 * raises the vector it names on the peer it names: a fixed IPI to the
 * CPU the peer's MSI-X entry names, sent by the hypervisor on the ringing
 * CPU, so the receiver takes no VM exit.  A masked vector (or MSI-X off)
 * keeps it pending in the PBA until unmasked.
 *
 * The bound: each peer may cause at most WARDEN_LINK_BURST deliveries,
 * doorbells and state changes alike, at once and the link's
 * doorbell_rate (WARDEN_LINK_RATE if 0) per millisecond on average (a
 * token bucket per peer, refilled from the TSC).  A doorbell over the
 * bound is dropped and counted in DROPPED.  A state change over it is
 * latched, not lost: the other peers' vector 0 goes at the bucket's next
 * refill (the STATE write returns after it), one for all changes since,
 * so a receiver reads PEER_STATES then; DROPPED counts doorbells only.
 * So one peer can make another take at most that many interrupts per
 * millisecond (plus one burst).
 */
#define WARDEN_LINK_BURST 64
#define WARDEN_LINK_RATE 100

/* ---- 3. the ring protocol ---- */

/*
 * Each peer's section (of section_size bytes, at i * section_size)
 * starts with a header page, then the rings it produces: the ring of
 * messages on channel c to peer j is ring number j * WARDEN_LINK_CHANNELS
 * + c, at WARDEN_LINK_RING_OFFSET + number * ring bytes, where ring
 * bytes = (section_size - 4096) / (MAX_PEERS * CHANNELS) rounded down to
 * a power-of-2 number of slots (warden_link_ring_slots: a power of 2, so
 * that k % slots stays in step when the free-running index k wraps at
 * 2^32).  A producer writes its slots and
 * its producer index (its own header); the consumer writes its consumer
 * index (in its own header): so every word has one writer, and a
 * DIRECTIONAL link's rights suffice.
 *
 * Indexes run freely (32 bits, wrapping); a ring is empty when prod ==
 * cons and full when prod - cons == slots; slot k is k % slots.
 * A producer fills the slot, then (release order) advances prod, then
 * rings the consumer's doorbell (vector warden_link_vector(channel, the
 * consumer's vectors)); a consumer reads prod (acquire), the slot, then
 * advances cons.  A doorbell dropped by the bound is made up by the
 * next one: consumers always drain the whole ring.
 *
 * Start: a peer zeroes its header page, writes magic/version/slot
 * geometry, then sets STATE to WARDEN_LINK_STATE_UP.  When it sees peer
 * j go from down to up (vector 0), it zeroes prod[j][*] and cons[j][*]
 * of its own header: both sides then start at 0.  Nothing is sent to a
 * peer that is down.
 */
#define WARDEN_LINK_STATE_DOWN 0
#define WARDEN_LINK_STATE_UP 1

#define WARDEN_LINK_RING_MAGIC 0x4b4e4c57u /* "WLNK" */
#define WARDEN_LINK_RING_VERSION 1
#define WARDEN_LINK_CHANNELS 2
#define WARDEN_LINK_CHANNEL_MSG 0 /* messages: the char device, link-echo */
#define WARDEN_LINK_CHANNEL_NET 1 /* Ethernet frames: the net interface */
#define WARDEN_LINK_SLOT_SIZE 2048u
#define WARDEN_LINK_RING_OFFSET 4096u

/* A free-running index alone on its cache line. */
struct warden_link_index {
	uint32_t value;
	uint32_t pad[15];
};
WARDEN_CHECK_SIZE(struct warden_link_index, 64);

struct warden_link_section_header {
	uint32_t magic;	    /* WARDEN_LINK_RING_MAGIC once initialised */
	uint32_t version;   /* WARDEN_LINK_RING_VERSION */
	uint32_t slot_size; /* WARDEN_LINK_SLOT_SIZE */
	uint32_t slots;	    /* per ring */
	uint32_t reserved[12];
	/* producer index of this peer's ring to peer j, channel c */
	struct warden_link_index prod[WARDEN_LINK_MAX_PEERS]
				     [WARDEN_LINK_CHANNELS];
	/* consumer index of peer j's ring to this peer, channel c */
	struct warden_link_index cons[WARDEN_LINK_MAX_PEERS]
				     [WARDEN_LINK_CHANNELS];
};
WARDEN_CHECK_SIZE(struct warden_link_section_header, 64 + 2 * 8 * 64);

/* A slot: length of the payload (1 .. WARDEN_LINK_SLOT_SIZE - 8), then
 * the payload (a message, or an Ethernet frame without FCS). */
struct warden_link_slot {
	uint32_t len;
	uint32_t flags; /* none defined: 0 */
	uint8_t data[WARDEN_LINK_SLOT_SIZE - 8];
};
WARDEN_CHECK_SIZE(struct warden_link_slot, WARDEN_LINK_SLOT_SIZE);
#define WARDEN_LINK_MAX_PAYLOAD (WARDEN_LINK_SLOT_SIZE - 8)

/* Slots per ring in a section of section_size bytes: as many as fit,
 * rounded down to a power of 2 (0 if none fits). */
static inline uint32_t warden_link_ring_slots(uint64_t section_size)
{
	uint64_t bytes, fit;
	uint32_t slots = 1;

	if (section_size <= WARDEN_LINK_RING_OFFSET)
		return 0;
	bytes = (section_size - WARDEN_LINK_RING_OFFSET) /
		(WARDEN_LINK_MAX_PEERS * WARDEN_LINK_CHANNELS);
	fit = bytes / WARDEN_LINK_SLOT_SIZE;
	if (!fit)
		return 0;
	while ((uint64_t)slots * 2 <= fit && slots < 0x80000000u)
		slots *= 2;
	return slots;
}

/* Byte offset, in the link memory, of slot 0 of producer i's ring to
 * peer j on channel c. */
static inline uint64_t warden_link_ring_offset(uint64_t section_size,
					       uint32_t i, uint32_t j,
					       uint32_t c)
{
	return (uint64_t)i * section_size + WARDEN_LINK_RING_OFFSET +
	       (uint64_t)(j * WARDEN_LINK_CHANNELS + c) *
		       warden_link_ring_slots(section_size) *
		       WARDEN_LINK_SLOT_SIZE;
}

/* The vector a doorbell for channel c uses on a peer with vectors
 * vectors: 1 + c, or the last one it has (vector 0 is for state
 * changes, but a peer with one vector takes everything there). */
static inline uint32_t warden_link_vector(uint32_t c, uint32_t vectors)
{
	return 1 + c < vectors ? 1 + c : (vectors ? vectors - 1 : 0);
}

/* The net interface's MAC address of peer i on link number l (its index
 * in the system config): locally administered, unicast. */
#define WARDEN_LINK_MAC(l, i)                                                  \
	{                                                                      \
		0x02, 0x57, 0x4c, 0x4b, (uint8_t)(l), (uint8_t)(i)             \
	}

/* ---- 4. the character device /dev/warden-link-NAME (warden.ko) ---- */

#define WARDEN_LINK_IOCTL_MAGIC 0xb8

struct warden_link_info {
	char name[WARDEN_NAME_LEN];
	uint32_t id;	    /* this peer's index */
	uint32_t num_peers; /* of the link */
	uint32_t flags;	    /* WARDEN_LINK_* */
	uint32_t vectors;   /* this peer's */
	uint64_t shmem_size;
	uint64_t section_size;
	uint32_t peer_states; /* bit i: peer i up */
	uint32_t dropped;     /* DROPPED register */
	uint32_t peer_vectors[WARDEN_LINK_MAX_PEERS];
};
WARDEN_CHECK_SIZE(struct warden_link_info, 88);

struct warden_link_ring {
	uint32_t peer;
	uint32_t vector;
};
WARDEN_CHECK_SIZE(struct warden_link_ring, 8);

/*
 * read(): blocks (unless O_NONBLOCK: -EAGAIN) until a doorbell has come
 * on a vector other than the net channel's, or a peer's state changed,
 * since the last read; returns one struct warden_link_event (the reader's
 * buffer must hold it).  poll(): readable then.  mmap(): the shared
 * memory from offset 0; a writable mapping of a DIRECTIONAL link must lie
 * inside the caller's own section (-EACCES otherwise).
 */
struct warden_link_event {
	uint32_t doorbells;   /* counted since the last read */
	uint32_t peer_states; /* bit i: peer i up, now */
	uint32_t state_changes;
	uint32_t reserved;
};
WARDEN_CHECK_SIZE(struct warden_link_event, 16);

#define WARDEN_LINK_IOCTL_INFO                                                 \
	_IOR(WARDEN_LINK_IOCTL_MAGIC, 0x00, struct warden_link_info)
/* Ring peer's doorbell (vector < its vectors): -EINVAL for a bad peer or
 * vector, -ENOTCONN if the peer is down. */
#define WARDEN_LINK_IOCTL_RING                                                 \
	_IOW(WARDEN_LINK_IOCTL_MAGIC, 0x01, struct warden_link_ring)

#endif /* WARDEN_LINK_H */
