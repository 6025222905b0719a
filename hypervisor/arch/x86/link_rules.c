// SPDX-License-Identifier: GPL-2.0
/* The link unit's plain-C rules (contracts in asm/link_rules.h). */
#include <asm/link_rules.h>

void link_bucket_init(struct link_bucket *b, u64 now, u32 burst)
{
	b->last = now;
	b->tokens = burst;
}

bool link_bucket_take(struct link_bucket *b, u64 now, u64 ms_ticks, u32 rate,
		      u32 burst)
{
	u64 ticks_per_token = ms_ticks / (rate ? rate : 1), add;

	if (!ticks_per_token)
		ticks_per_token = 1;
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
