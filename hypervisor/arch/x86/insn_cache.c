// SPDX-License-Identifier: GPL-2.0
/* Decoded-instruction cache (contract and rules in asm/insn_cache.h). */
#include <asm/insn_cache.h>

static bool same_key(const struct insn_cache_key *a,
		     const struct insn_cache_key *b)
{
	return a->linear == b->linear && a->cr3 == b->cr3 &&
	       a->mode == b->mode && a->cell == b->cell;
}

/* Every entry and byte the slot depends on reads as at the fill. */
/* Loads of 8, 4 and 2 bytes at any alignment (x86 allows them). */
#define LOAD(type, p) (*(const type __attribute__((aligned(1))) *)(p))

/*
 * Do the n bytes (1 to INSN_MAX_LEN) at a and b agree?  Two loads that
 * may overlap, of the largest width n allows, instead of a byte loop: a
 * hit is the hot path of every trapped access.  Only bytes within
 * [a, a + n) and [b, b + n) are read.
 */
static bool same_bytes(const volatile u8 *va, const u8 *b, unsigned int n)
{
	const u8 *a = (const u8 *)va;

	if (n >= 8)
		return LOAD(u64, a) == LOAD(u64, b) &&
		       LOAD(u64, a + n - 8) == LOAD(u64, b + n - 8);
	if (n >= 4)
		return LOAD(u32, a) == LOAD(u32, b) &&
		       LOAD(u32, a + n - 4) == LOAD(u32, b + n - 4);
	if (n >= 2)
		return LOAD(u16, a) == LOAD(u16, b) &&
		       LOAD(u16, a + n - 2) == LOAD(u16, b + n - 2);
	return n == 0 || a[0] == b[0];
}

static bool still_true(const struct insn_cache_slot *s)
{
	unsigned int i;

	for (i = 0; i < s->entries; i++)
		if (*s->entry[i] != s->value[i])
			return false;
	return same_bytes(s->code, s->bytes, s->insn.length);
}

const struct mmio_insn *insn_cache_lookup(struct insn_cache *c,
					  const struct insn_cache_key *key,
					  const volatile u64 *gen)
{
	const struct insn_cache_slot *s;
	unsigned int i;
	u64 g = __atomic_load_n(gen, __ATOMIC_ACQUIRE);

	for (i = 0; i < INSN_CACHE_SLOTS; i++) {
		s = &c->slot[i];
		if (!s->valid || !same_key(&s->key, key))
			continue;
		/* seqcount read side: the second-level tables did not change
		 * before, during or after the compares */
		if (s->gen != g || (g & 1) || !still_true(s) ||
		    __atomic_load_n(gen, __ATOMIC_ACQUIRE) != g)
			break;
		c->hits++;
		return &s->insn;
	}
	c->misses++;
	return NULL;
}

struct insn_cache_slot *insn_cache_victim(struct insn_cache *c)
{
	struct insn_cache_slot *s = NULL;
	unsigned int i;

	for (i = 0; i < INSN_CACHE_SLOTS && !s; i++)
		if (!c->slot[i].valid)
			s = &c->slot[i];
	if (!s) {
		s = &c->slot[c->next];
		c->next = (c->next + 1) % INSN_CACHE_SLOTS;
	}
	s->valid = false;
	return s;
}

bool insn_cache_store(struct insn_cache_slot *s,
		      const struct insn_cache_key *key, u64 gen, unsigned int n,
		      const volatile u64 *const *where, const u64 *values,
		      const volatile u8 *code, const u8 *bytes,
		      const struct mmio_insn *insn)
{
	unsigned int i;

	s->valid = false;
	if (n > INSN_CACHE_ENTRIES || (gen & 1) || !insn->length ||
	    insn->length > INSN_MAX_LEN)
		return false;
	s->key = *key;
	s->gen = gen;
	s->entries = n;
	for (i = 0; i < n; i++) {
		s->entry[i] = where[i];
		s->value[i] = values[i];
	}
	s->code = code;
	for (i = 0; i < insn->length; i++)
		s->bytes[i] = bytes[i];
	s->insn = *insn;
	/* what the mappings show must be what was decoded */
	if (!still_true(s))
		return false;
	s->valid = true;
	return true;
}

void insn_cache_flush(struct insn_cache *c)
{
	unsigned int i;

	for (i = 0; i < INSN_CACHE_SLOTS; i++)
		c->slot[i].valid = false;
}
