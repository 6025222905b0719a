/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plain-C rules of the link unit (link_rules.c), also compiled into
 * the unit tests: the bound on doorbells and state changes, and reading an MSI through an
 * Intel IOMMU's interrupt-remapping table (Intel VT-d specification,
 * 5.1 "Interrupt Remapping": the remappable MSI format, 5.1.2.4, and the
 * remapping table entry, 9.10).
 */
#ifndef WARDEN_ASM_LINK_RULES_H
#define WARDEN_ASM_LINK_RULES_H

#include <hv/types.h>

/*
 * A token bucket: at most burst doorbells at once, rate per millisecond
 * on average.  tokens: doorbells that may go now; last: the time up to
 * which refills are counted.  link_bucket_take: may one more doorbell go
 * at time now (ms_ticks timestamp ticks per millisecond)?  True takes a
 * token.
 */
struct link_bucket {
	u64 last;
	u32 tokens;
};

void link_bucket_init(struct link_bucket *b, u64 now, u32 burst);
bool link_bucket_take(struct link_bucket *b, u64 now, u64 ms_ticks, u32 rate,
		      u32 burst);
/* When the bucket holds a token again: now if it holds one, else the
 * time of its next refill (one token's time, ms_ticks / rate, after its
 * last). */
u64 link_bucket_next(const struct link_bucket *b, u64 now, u64 ms_ticks,
		     u32 rate);

/*
 * A peer's bound: every delivery it causes to another peer, doorbell or
 * state change, takes a token of its bucket, so that a peer that toggles
 * its state in a loop is bounded like one that rings.
 *
 * A doorbell over the bound is dropped and counted (dropped: the DROPPED
 * register); the consumer drains its whole ring at the next one.  A state
 * change may not be lost (the restart protocol rests on vector 0:
 * include/warden/link.h, "Start"), so over the bound it is latched:
 * latched holds one bit per receiver owed a vector 0.  One latched
 * vector 0 stands for every change since, as the receiver reads the
 * current states (PEER_STATES) when it takes it: changes merge, and a
 * receiver already owed one takes no token.  State changes never count
 * in dropped.
 *
 * link_bound_init: a full bucket at now; rate per ms_ticks (timestamp
 * ticks of a millisecond), burst at once.
 * link_bound_doorbell: may a doorbell go at now?  False: dropped, counted.
 * link_bound_state: the peer's state changed towards the receivers in
 * mask to: they are latched, then link_bound_refill.
 * link_bound_refill: the latched receivers whose vector 0 goes now, a
 * token each, lowest index first; they leave latched.
 * link_bound_next: when a latched vector 0 can go (link_bucket_next).
 */
struct link_bound {
	struct link_bucket bucket;
	u64 ms_ticks;
	u32 rate, burst;
	u32 latched; /* bit i: peer i is owed a vector 0 */
	u32 dropped; /* doorbells over the bound */
};

void link_bound_init(struct link_bound *b, u64 now, u64 ms_ticks, u32 rate,
		     u32 burst);
bool link_bound_doorbell(struct link_bound *b, u64 now);
u32 link_bound_state(struct link_bound *b, u32 to, u64 now);
u32 link_bound_refill(struct link_bound *b, u64 now);
u64 link_bound_next(const struct link_bound *b, u64 now);

/*
 * The remapping-table index of a remappable MSI (address bit 4 set):
 * handle in address bits 19:5 and 2, plus the data's sub-handle when
 * address bit 3 (SHV) is set.
 */
u32 vtd_msi_index(u32 addr, u32 data);

/*
 * An interrupt-remapping table entry's low 64 bits (lo) as an interrupt
 * in ICR form: NULL with *low (vector, delivery mode, destination mode)
 * and *dest, or why it cannot be sent as a fixed interrupt: not present,
 * posted (IM), level-triggered, a delivery mode other than Fixed or
 * Lowest Priority, or a vector below 0x10.  eime: the table is in x2APIC
 * mode (destination bits 63:32), else xAPIC (bits 47:40).
 */
const char *vtd_irte_decode(u64 lo, bool eime, u32 *low, u32 *dest);

#endif /* WARDEN_ASM_LINK_RULES_H */
