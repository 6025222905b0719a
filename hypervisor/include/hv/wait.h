/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounded waits for another CPU.  A wait counts the time its own CPU saw
 * pass while it polled, at most WAIT_STEP_MS between two polls: if the
 * waiting CPU stopped running for longer (an emulator's host or a
 * hypervisor below descheduled it, or the whole machine), the gap counts
 * as one step.  Otherwise the first poll after such a pause could find
 * the time up before the awaited CPU had run at all.  On a machine whose
 * CPUs run, the count is the elapsed time.
 */
#ifndef WARDEN_HV_WAIT_H
#define WARDEN_HV_WAIT_H

#include "arch.h"
#include "hypervisor.h"
#include "types.h"

#define WAIT_STEP_MS 1

struct hv_wait {
	u64 last;   /* TSC at the previous poll */
	u64 waited; /* TSC ticks counted so far */
	u64 limit;  /* TSC ticks the wait may take */
};

static inline void hv_wait_start(struct hv_wait *w, u64 ms)
{
	w->last = arch_timestamp();
	w->waited = 0;
	w->limit = hv_ms_ticks(ms);
}

/* At each poll: true once the wait has taken its time. */
static inline bool hv_wait_over(struct hv_wait *w)
{
	u64 now = arch_timestamp(), step = now - w->last;
	u64 max = hv_ms_ticks(WAIT_STEP_MS);

	w->last = now;
	w->waited += step < max ? step : max;
	return w->waited > w->limit;
}

#endif /* WARDEN_HV_WAIT_H */
