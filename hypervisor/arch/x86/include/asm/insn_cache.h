/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-CPU cache of decoded MMIO instructions (insn_cache.c), so that a
 * trapped xAPIC access at an instruction seen before costs a few compares
 * instead of a guest page walk, second-level walks and a decode.
 *
 * An APIC-access exit reports only the page offset and the access type
 * (SDM Vol. 3, 28.2.1, Table 28-6), so the instruction must be known.
 * What was decoded for a linear address stays true only while
 *  - the guest's translation of that address is the same: same CR3, same
 *    paging mode, same value in every paging-structure entry the walk read
 *    (a walk is determined by CR3 and those entries, SDM Vol. 3, 4.5);
 *  - the second-level tables that turned those guest-physical addresses
 *    into host ones have not changed (the cell's tables generation, even
 *    while no change runs);
 *  - the instruction's bytes are the same (Linux patches its own text and
 *    reuses module addresses).
 * A hit re-reads every one of those entries and bytes through mappings the
 * fill left in place, and compares: no lock, no page walk.  Whoever fills
 * a slot provides those mappings; this file only compares.
 *
 * Plain C without hardware access, also compiled into the unit tests.
 */
#ifndef WARDEN_ASM_INSN_CACHE_H
#define WARDEN_ASM_INSN_CACHE_H

#include <asm/insn.h>
#include <hv/types.h>

#define INSN_CACHE_SLOTS 4
/* paging-structure entries of one walk: PML5E .. PTE */
#define INSN_CACHE_ENTRIES 5

/* What must match for a slot to apply. */
struct insn_cache_key {
	u64 linear; /* CS base + RIP */
	u64 cr3;
	u64 mode;	  /* paging mode and CS.L, as the caller packs them */
	const void *cell; /* whose second-level tables translated the walk */
};

struct insn_cache_slot {
	bool valid;
	struct insn_cache_key key;
	u64 gen;	      /* the tables generation at the fill (even) */
	unsigned int entries; /* paging-structure entries the walk read */
	const volatile u64 *entry[INSN_CACHE_ENTRIES]; /* where, mapped */
	u64 value[INSN_CACHE_ENTRIES];		       /* what they held */
	const volatile u8 *code; /* the instruction's bytes, mapped */
	u8 bytes[INSN_MAX_LEN];
	struct mmio_insn insn;
};

struct insn_cache {
	struct insn_cache_slot slot[INSN_CACHE_SLOTS];
	unsigned int next; /* round-robin victim */
	u64 hits, misses;
};

/*
 * The decoded instruction for key, if a slot holds it and every entry and
 * byte it depends on still reads the same, with *gen (the cell's tables
 * generation, odd while a change runs) even and equal to the fill's before
 * and after the compares; NULL otherwise.  Counts a hit or a miss.
 */
const struct mmio_insn *insn_cache_lookup(struct insn_cache *c,
					  const struct insn_cache_key *key,
					  const volatile u64 *gen);

/*
 * The slot to fill for key next (an invalid one, or round robin); it is
 * marked invalid until insn_cache_store() fills it, so that the caller may
 * change its mappings first.
 */
struct insn_cache_slot *insn_cache_victim(struct insn_cache *c);

/*
 * Fill slot s: the walk read entries[0..n) (mapped at where[]) holding
 * values[], the instruction's insn->length bytes are bytes[] and mapped at
 * code, all at tables generation gen.  Refused (false, slot left invalid) if
 * n is too large, gen is odd, or the bytes are not those at code now.
 */
bool insn_cache_store(struct insn_cache_slot *s,
		      const struct insn_cache_key *key, u64 gen, unsigned int n,
		      const volatile u64 *const *where, const u64 *values,
		      const volatile u8 *code, const u8 *bytes,
		      const struct mmio_insn *insn);

/* Forget every slot (a CPU's mappings are about to change). */
void insn_cache_flush(struct insn_cache *c);

#endif /* WARDEN_ASM_INSN_CACHE_H */
