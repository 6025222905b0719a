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

/* The timer whose configuration or FSB route (spec 2.3.8, 2.3.12) the
 * write at offset touches (*fsb: the route), or -1. */
static int touched(const struct hpet_state *s, u32 offset, bool *fsb)
{
	unsigned int n;
	u32 t;

	if (offset < HPET_TIMER(0))
		return -1;
	n = (offset - HPET_TIMER(0)) / 0x20;
	if (n >= s->timers || n >= HPET_MAX_TIMERS)
		return -1;
	t = HPET_TIMER(n);
	*fsb = in(offset, t + HPET_TN_FSB);
	return *fsb || in(offset, t + HPET_TN_CONF) ? (int)n : -1;
}

const char *hpet_write_plan(struct hpet_state *s, u32 offset, unsigned int size,
			    u64 value, const struct hpet_checks *c,
			    struct hpet_write *w, unsigned int *timer)
{
	u32 a, dev;
	const char *why;
	bool fsb = false;
	int n;

	hpet_apply_write(s, offset, size, value);
	w->timer = -1;
	w->addr_first = false;
	w->value = value;
	why = hpet_state_refused(s, c, timer);
	n = touched(s, offset, &fsb);
	if (why || n < 0 || (!fsb && !(s->conf[n] & HPET_TN_FSB_EN)))
		return why;
	*timer = (unsigned int)n;
	/* FSB_INT_ADDR in 63:32, FSB_INT_VAL in 31:0 */
	why = c->translate(c->ctx, (u32)(s->fsb[n] >> 32), (u32)s->fsb[n],
			   &dev);
	if (why)
		return why;
	w->timer = n;
	w->addr = dev;
	/* the route's bytes from the offset on, the address the device's
	 * (the device takes the low size bytes) */
	a = HPET_TIMER(n) + HPET_TN_FSB;
	if (fsb)
		w->value = ((u64)dev << 32 | (u32)s->fsb[n]) >>
			   8 * (offset - a);
	a += 4;
	w->addr_first = offset > a || offset + size < a + 4;
	return NULL;
}
