// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded waits (hypervisor/include/hv/wait.h): the time counted is the
 * time the waiting CPU saw pass while it polled; a pause of the waiting
 * CPU itself counts as one step (WAIT_STEP_MS), so that a machine paused
 * by its host does not time out a CPU that never got to run.
 */
#include "cmocka_wrap.h"
#include <hv/wait.h>

struct hypervisor hv;
static struct warden_hv_header header;
static u64 now; /* the TSC the stub returns */

u64 arch_timestamp(void)
{
	return now;
}

/* 1000 TSC ticks per ms: 1 tick per microsecond */
static int setup(void **state)
{
	(void)state;
	header.tsc_khz = 1000;
	hv.header = &header;
	now = 5000000;
	return 0;
}

static void polls_count_elapsed_time(void **state)
{
	struct hv_wait w;
	unsigned int polls = 0;

	(void)state;
	hv_wait_start(&w, 10);
	/* a poll every 100 us: over after 10 ms, not before */
	for (;;) {
		now += 100;
		if (hv_wait_over(&w))
			break;
		polls++;
	}
	assert_int_equal(polls, 100);
}

static void a_pause_counts_one_step(void **state)
{
	struct hv_wait w;
	unsigned int polls = 0;

	(void)state;
	hv_wait_start(&w, 10);
	now += 5 * 1000 * 1000; /* the waiting CPU paused for 5 s: 1 ms */
	assert_false(hv_wait_over(&w));
	/* then polls every 100 us: 9 ms more are needed */
	for (;;) {
		now += 100;
		if (hv_wait_over(&w))
			break;
		polls++;
	}
	assert_int_equal(polls, 90);
}

static void many_pauses_still_end(void **state)
{
	struct hv_wait w;
	unsigned int polls = 0;

	(void)state;
	hv_wait_start(&w, 10);
	/* paused between every two polls: each counts 1 ms */
	for (;;) {
		now += 2 * 1000 * 1000;
		if (hv_wait_over(&w))
			break;
		polls++;
	}
	assert_int_equal(polls, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(polls_count_elapsed_time, setup),
		cmocka_unit_test_setup(a_pause_counts_one_step, setup),
		cmocka_unit_test_setup(many_pauses_still_end, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
