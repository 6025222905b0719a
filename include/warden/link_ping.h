/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ping message that `warden link ping` (tools/link_ping.c) and the
 * link-echo inmate's ping mode send on a link's MSG channel, and that an
 * echo sends back unchanged: 32-bit words magic ("PING"), sequence
 * number, length, checksum, then bytes (seq * 7 + i) & 0xff.  The
 * checksum is FNV-1a over the whole message with the checksum word taken
 * as 0.  Header-only, for user space and inmates alike (no library
 * calls).
 */
#ifndef WARDEN_LINK_PING_H
#define WARDEN_LINK_PING_H

#include "link.h"

#define WARDEN_PING_MAGIC 0x474e4950u
#define WARDEN_PING_HEADER 16u

static inline uint32_t warden_ping_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void warden_ping_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t warden_ping_checksum(const uint8_t *msg, uint32_t len)
{
	uint32_t h = 0x811c9dc5u, i;

	for (i = 0; i < len; i++) {
		/* the checksum word (bytes 12-15) counts as 0 */
		h ^= i >= 12 && i < 16 ? 0 : msg[i];
		h *= 0x01000193u;
	}
	return h;
}

/* msg[0..len) := the message seq (len from WARDEN_PING_HEADER). */
static inline void warden_ping_fill(uint8_t *msg, uint32_t seq, uint32_t len)
{
	uint32_t i;

	warden_ping_put32(msg, WARDEN_PING_MAGIC);
	warden_ping_put32(msg + 4, seq);
	warden_ping_put32(msg + 8, len);
	for (i = WARDEN_PING_HEADER; i < len; i++)
		msg[i] = (uint8_t)(seq * 7 + i);
	warden_ping_put32(msg + 12, warden_ping_checksum(msg, len));
}

/* The n bytes at msg, the echo awaited being seq of len bytes: 1 that
 * echo, intact; 0 an intact echo of an earlier one (late); -1
 * corrupted. */
static inline int warden_ping_check(const uint8_t *msg, int n, uint32_t seq,
				    uint32_t len)
{
	uint32_t i;

	if (n < (int)WARDEN_PING_HEADER ||
	    warden_ping_get32(msg) != WARDEN_PING_MAGIC ||
	    warden_ping_get32(msg + 8) != (uint32_t)n ||
	    warden_ping_get32(msg + 12) !=
		    warden_ping_checksum(msg, (uint32_t)n))
		return -1;
	if (warden_ping_get32(msg + 4) < seq)
		return 0;
	if (warden_ping_get32(msg + 4) != seq || (uint32_t)n != len)
		return -1;
	for (i = WARDEN_PING_HEADER; i < len; i++)
		if (msg[i] != (uint8_t)(seq * 7 + i))
			return -1;
	return 1;
}

/* The length of message seq: fixed, or (0) from the smallest to the
 * largest, many in between. */
static inline uint32_t warden_ping_size(uint32_t seq, uint32_t fixed)
{
	if (fixed)
		return fixed;
	return WARDEN_PING_HEADER + (seq * 251u) % (WARDEN_LINK_MAX_PAYLOAD -
						    WARDEN_PING_HEADER + 1);
}

#endif /* WARDEN_LINK_PING_H */
