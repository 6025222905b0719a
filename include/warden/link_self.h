/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What a link function says of itself in BAR 0 (link.h section 2, ABI
 * revision 9), as a driver reads it, and the one check of it that
 * warden.ko makes before it binds a function, in root and in a Linux cell
 * alike (docs/driver.md "Links"): header-only, fixed-size types, no
 * library calls, so that it builds in the kernel and in the host's unit
 * tests (tests/unit/test_link_self.c).
 */
#ifndef WARDEN_LINK_SELF_H
#define WARDEN_LINK_SELF_H

#include "link.h"

/* The registers, read once (the caller fills every field). */
struct warden_link_self {
	char name[WARDEN_NAME_LEN]; /* NAME: bytes as read, maybe no NUL */
	uint32_t revision;	    /* REVISION */
	uint32_t index;		    /* LINK_INDEX */
	uint32_t id;		    /* ID */
	uint32_t num_peers;	    /* NUM_PEERS */
	uint32_t flags;		    /* FLAGS */
	uint32_t vectors;	    /* VECTORS */
	uint64_t shmem;		    /* SHMEM */
	uint64_t size;		    /* SHMEM_SIZE */
	uint64_t section_size;	    /* SECTION_SIZE */
};
WARDEN_CHECK_SIZE(struct warden_link_self, 80);

/* The NAME register's word at byte off (0, 4, .. 28) of the name: byte
 * off the lowest (the hypervisor's side; a reader puts the words back
 * little-endian). */
static inline uint32_t warden_link_name_word(const char name[WARDEN_NAME_LEN],
					     uint32_t off)
{
	uint32_t w = 0, i;

	for (i = 0; i < 4 && off + i < WARDEN_NAME_LEN; i++)
		w |= (uint32_t)(unsigned char)name[off + i] << (8 * i);
	return w;
}

/* The name as the config validator allows it (rule LINK_FIELDS): 1-31
 * bytes of 0x20-0x7e, then a NUL. */
static inline int warden_link_self_name_ok(const char name[WARDEN_NAME_LEN])
{
	unsigned int i;

	for (i = 0; i < WARDEN_NAME_LEN; i++) {
		if (!name[i])
			return i > 0;
		if ((unsigned char)name[i] < 0x20 ||
		    (unsigned char)name[i] > 0x7e)
			return 0;
	}
	return 0; /* no NUL */
}

/*
 * NULL when the registers hold together and describe the BAR 2 the PCI
 * scan found at bar2_start (bar2_len bytes); else the register at fault,
 * for the message.  A hypervisor of an older ABI answers 0 for REVISION,
 * LINK_INDEX and NAME: "REVISION".
 */
static inline const char *
warden_link_self_fault(const struct warden_link_self *s, uint64_t bar2_start,
		       uint64_t bar2_len)
{
	if (s->revision != WARDEN_LINK_REGS_REVISION)
		return "REVISION";
	if (!warden_link_self_name_ok(s->name))
		return "NAME";
	if (s->index >= WARDEN_MAX_LINKS)
		return "LINK_INDEX";
	if (s->num_peers < 2 || s->num_peers > WARDEN_LINK_MAX_PEERS)
		return "NUM_PEERS";
	if (s->id >= s->num_peers)
		return "ID";
	if (s->flags & ~WARDEN_LINK_FLAGS_ALL)
		return "FLAGS";
	if (!s->vectors || s->vectors > WARDEN_LINK_MAX_VECTORS)
		return "VECTORS";
	if (s->size < WARDEN_LINK_MIN_SIZE || (s->size & (s->size - 1)) ||
	    (s->shmem & (s->size - 1)))
		return "SHMEM_SIZE";
	if (s->shmem != bar2_start || s->size != bar2_len)
		return "SHMEM (not BAR 2)";
	if (s->section_size != warden_link_section_size(s->size, s->num_peers))
		return "SECTION_SIZE";
	return 0;
}

#endif /* WARDEN_LINK_SELF_H */
