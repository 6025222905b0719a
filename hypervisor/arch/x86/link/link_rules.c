// SPDX-License-Identifier: GPL-2.0
/* The link unit's plain-C rules (contracts in link_rules.h). */
#include "link_rules.h"

void link_bucket_init(struct link_bucket *b, u64 now, u32 burst)
{
	b->last = now;
	b->tokens = burst;
}

static u64 token_ticks(u64 ms_ticks, u32 rate)
{
	u64 t = ms_ticks / (rate ? rate : 1);

	return t ? t : 1;
}

bool link_bucket_take(struct link_bucket *b, u64 now, u64 ms_ticks, u32 rate,
		      u32 burst)
{
	u64 ticks_per_token = token_ticks(ms_ticks, rate), add;

	/* a TSC that went back (another CPU's, slightly behind) adds
	 * nothing */
	if (now > b->last) {
		add = (now - b->last) / ticks_per_token;
		if (add) {
			b->tokens = add >= burst || b->tokens + add >= burst
					    ? burst
					    : b->tokens + (u32)add;
			/* keep the remainder: refills stay exact */
			b->last += add * ticks_per_token;
			if (b->tokens == burst)
				b->last = now;
		}
	}
	if (!b->tokens)
		return false;
	b->tokens--;
	return true;
}

u64 link_bucket_next(const struct link_bucket *b, u64 now, u64 ms_ticks,
		     u32 rate)
{
	u64 next = b->last + token_ticks(ms_ticks, rate);

	return b->tokens || next < now ? now : next;
}

void link_bound_init(struct link_bound *b, u64 now, u64 ms_ticks, u32 rate,
		     u32 burst)
{
	link_bucket_init(&b->bucket, now, burst);
	b->ms_ticks = ms_ticks;
	b->rate = rate;
	b->burst = burst;
	b->latched = 0;
	b->dropped = 0;
}

static bool take(struct link_bound *b, u64 now)
{
	return link_bucket_take(&b->bucket, now, b->ms_ticks, b->rate,
				b->burst);
}

bool link_bound_doorbell(struct link_bound *b, u64 now)
{
	if (take(b, now))
		return true;
	b->dropped++;
	return false;
}

u32 link_bound_refill(struct link_bound *b, u64 now)
{
	u32 go = 0, bit;

	while (b->latched) {
		bit = b->latched & (~b->latched + 1); /* the lowest first */
		if (!take(b, now))
			break;
		b->latched &= ~bit;
		go |= bit;
	}
	return go;
}

u32 link_bound_state(struct link_bound *b, u32 to, u64 now)
{
	b->latched |= to;
	return link_bound_refill(b, now);
}

u64 link_bound_next(const struct link_bound *b, u64 now)
{
	return link_bucket_next(&b->bucket, now, b->ms_ticks, b->rate);
}

u32 vtd_msi_index(u32 addr, u32 data)
{
	u32 handle = ((addr >> 5) & 0x7fff) | ((addr >> 2) & 1) << 15;

	if (addr & (1u << 3))
		handle += data & 0xffff;
	return handle & 0xffff;
}

const char *vtd_irte_decode(u64 lo, bool eime, u32 *low, u32 *dest)
{
	u32 vector = (lo >> 16) & 0xff, dlm = (lo >> 5) & 7;

	if (!(lo & 1))
		return "its remapping entry is not present";
	if (lo & (1ull << 15))
		return "its remapping entry is posted";
	if (lo & (1ull << 4))
		return "its remapping entry is level-triggered";
	if (dlm != 0 && dlm != 1)
		return "its remapping entry's delivery mode is not Fixed or "
		       "Lowest Priority";
	if (vector < 0x10)
		return "its remapping entry's vector is below 0x10";
	*low = vector | dlm << 8 | ((lo & (1ull << 2)) ? 1u << 11 : 0);
	*dest = eime ? (u32)(lo >> 32) : (u32)(lo >> 40) & 0xff;
	return NULL;
}
