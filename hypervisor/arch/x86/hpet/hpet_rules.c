// SPDX-License-Identifier: GPL-2.0
/* The HPET's interrupt routes (contracts in hpet.h). */
#include "hpet.h"

/* reg with the bytes [offset, offset + size) of the 8-byte register at
 * base replaced from value (the access lies inside it). */
static u64 merge(u64 reg, u32 base, u32 offset, unsigned int size, u64 value)
{
	unsigned int shift = 8 * (offset - base);
	u64 mask = size == 8 ? ~0ull : ((1ull << (8 * size)) - 1);

	return (reg & ~(mask << shift)) | ((value & mask) << shift);
}

static bool in(u32 offset, u32 base)
{
	return offset >= base && offset < base + 8;
}

void hpet_apply_write(struct hpet_state *s, u32 offset, unsigned int size,
		      u64 value)
{
	unsigned int n;
	u32 t;

	if (in(offset, HPET_GEN_CONF)) {
		s->gen_conf =
			merge(s->gen_conf, HPET_GEN_CONF, offset, size, value);
		return;
	}
	if (offset < HPET_TIMER(0))
		return;
	n = (offset - HPET_TIMER(0)) / 0x20;
	if (n >= s->timers)
		return;
	t = HPET_TIMER(n);
	if (in(offset, t + HPET_TN_CONF))
		s->conf[n] = merge(s->conf[n], t + HPET_TN_CONF, offset, size,
				   value);
	else if (in(offset, t + HPET_TN_FSB))
		s->fsb[n] =
			merge(s->fsb[n], t + HPET_TN_FSB, offset, size, value);
}

const char *hpet_state_refused(const struct hpet_state *s,
			       const struct hpet_checks *c, unsigned int *timer)
{
	bool legacy = s->gen_conf & HPET_GEN_CONF_LEGACY;
	const char *why;
	unsigned int n;
	u64 conf;

	for (n = 0; n < s->timers && n < HPET_MAX_TIMERS; n++) {
		conf = s->conf[n];
		*timer = n;
		if (legacy && n < 2) {
			why = c->gsi(c->ctx,
				     n ? HPET_LEGACY_GSI_1 : HPET_LEGACY_GSI_0);
		} else if (!(conf & HPET_TN_INT_ENB)) {
			continue;
		} else if (conf & HPET_TN_FSB_EN) {
			/* FSB_INT_ADDR in 63:32, FSB_INT_VAL in 31:0 */
			why = c->msi(c->ctx, (u32)(s->fsb[n] >> 32),
				     (u32)s->fsb[n]);
		} else {
			why = c->gsi(c->ctx,
				     (u32)(conf >> HPET_TN_ROUTE_SHIFT) &
					     HPET_TN_ROUTE_MASK);
		}
		if (why)
			return why;
	}
	return NULL;
}
