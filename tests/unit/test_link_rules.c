// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's plain-C rules (hypervisor/arch/x86/link_rules.c): the
 * bound on doorbells and state changes (latched over it, never lost),
 * and reading a remappable MSI through an Intel IOMMU's
 * interrupt-remapping entry.
 */
#include "cmocka_wrap.h"
#include "link/link_rules.h"

#define MS 1000000ull /* ticks per millisecond */

static void burst_then_dropped(void **state)
{
	struct link_bucket b;
	unsigned int i;

	(void)state;
	link_bucket_init(&b, 5, 64);
	for (i = 0; i < 64; i++)
		assert_true(link_bucket_take(&b, 5, MS, 100, 64));
	assert_false(link_bucket_take(&b, 5, MS, 100, 64));
	/* one token per 10 us at 100 per ms */
	assert_false(link_bucket_take(&b, 5 + MS / 100 - 1, MS, 100, 64));
	assert_true(link_bucket_take(&b, 5 + MS / 100, MS, 100, 64));
	assert_false(link_bucket_take(&b, 5 + MS / 100, MS, 100, 64));
}

static void rate_over_a_second(void **state)
{
	struct link_bucket b;
	unsigned long now, sent = 0;

	(void)state;
	link_bucket_init(&b, 0, 64);
	/* ring every microsecond for a second: 100 per ms get through,
	 * plus the first burst */
	for (now = 0; now < 1000 * MS; now += MS / 1000)
		sent += link_bucket_take(&b, now, MS, 100, 64);
	assert_in_range(sent, 100000, 100000 + 64);
}

static void refill_capped_and_time_going_back(void **state)
{
	struct link_bucket b;
	unsigned int i;

	(void)state;
	link_bucket_init(&b, 1000 * MS, 64);
	for (i = 0; i < 64; i++)
		assert_true(link_bucket_take(&b, 1000 * MS, MS, 100, 64));
	/* a TSC behind the last refill adds nothing */
	assert_false(link_bucket_take(&b, 999 * MS, MS, 100, 64));
	/* an hour later: the bucket holds one burst, no more */
	for (i = 0; i < 64; i++)
		assert_true(link_bucket_take(&b, 3600000 * MS, MS, 100, 64));
	assert_false(link_bucket_take(&b, 3600000 * MS, MS, 100, 64));
}

/* Peers 1 and 2 of a three-peer link, as seen by peer 0 changing. */
#define TO_OTHERS (1u << 1 | 1u << 2)

static void state_changes_take_the_bucket(void **state)
{
	struct link_bound b;
	unsigned int i;

	(void)state;
	link_bound_init(&b, 0, MS, 1, 64);
	/* 32 changes to two peers: the burst of 64, all sent */
	for (i = 0; i < 32; i++)
		assert_int_equal(link_bound_state(&b, TO_OTHERS, 0), TO_OTHERS);
	/* the bucket is empty: a doorbell is dropped now */
	assert_false(link_bound_doorbell(&b, 0));
	assert_int_equal(b.dropped, 1);
}

static void over_the_bound_latched_not_lost(void **state)
{
	struct link_bound b;
	unsigned int i;

	(void)state;
	link_bound_init(&b, 0, MS, 1, 64);
	for (i = 0; i < 64; i++)
		assert_true(link_bound_doorbell(&b, 0));
	assert_int_equal(b.dropped, 0);
	/* empty: the change is latched for both receivers, nothing sent */
	assert_int_equal(link_bound_state(&b, TO_OTHERS, 0), 0);
	assert_int_equal(b.latched, TO_OTHERS);
	/* 3000 more changes merge into the same latch: no token taken,
	 * DROPPED (doorbells only) unchanged */
	for (i = 0; i < 3000; i++)
		assert_int_equal(link_bound_state(&b, TO_OTHERS, MS / 2), 0);
	assert_int_equal(b.latched, TO_OTHERS);
	assert_int_equal(b.dropped, 0);
	/* not before the refill */
	assert_int_equal(link_bound_next(&b, MS / 2), MS);
	assert_int_equal(link_bound_refill(&b, MS - 1), 0);
	/* one token at 1 ms: the lowest receiver, once */
	assert_int_equal(link_bound_refill(&b, MS), 1u << 1);
	assert_int_equal(link_bound_refill(&b, MS), 0);
	assert_int_equal(b.latched, 1u << 2);
	/* the next token: the other one, once; then nothing is owed */
	assert_int_equal(link_bound_next(&b, MS), 2 * MS);
	assert_int_equal(link_bound_refill(&b, 2 * MS), 1u << 2);
	assert_int_equal(b.latched, 0);
	assert_int_equal(link_bound_refill(&b, 100 * MS), 0);
	assert_int_equal(b.dropped, 0);
}

static void latched_goes_before_doorbells(void **state)
{
	struct link_bound b;
	unsigned int i;

	(void)state;
	link_bound_init(&b, 0, MS, 1, 64);
	for (i = 0; i < 64; i++)
		assert_true(link_bound_doorbell(&b, 0));
	assert_int_equal(link_bound_state(&b, 1u << 1, 0), 0);
	/* a change with a token: what was latched goes with it */
	assert_int_equal(link_bound_state(&b, 1u << 1, MS), 1u << 1);
	assert_int_equal(b.latched, 0);
	/* over the bound again, then doorbells: dropped and counted, the
	 * latch kept */
	assert_int_equal(link_bound_state(&b, 1u << 1, MS), 0);
	assert_false(link_bound_doorbell(&b, MS));
	assert_int_equal(b.dropped, 1);
	assert_int_equal(b.latched, 1u << 1);
	assert_int_equal(link_bound_next(&b, MS), 2 * MS);
}

static void toggle_storm_within_the_bound(void **state)
{
	struct link_bound b;
	unsigned long now, sent = 0;
	u32 go;

	(void)state;
	/* toggle every 100 us for a second at 1 per ms: what goes, now or
	 * latched, stays within the bound, and the last change is not lost */
	link_bound_init(&b, 0, MS, 1, 64);
	for (now = 0; now < 1000 * MS; now += MS / 10) {
		go = link_bound_state(&b, 1u << 1, now);
		sent += go != 0;
	}
	assert_in_range(sent, 1000, 1000 + 64);
	assert_int_equal(b.dropped, 0);
	/* whatever is still owed goes at the next refill */
	if (b.latched) {
		now = link_bound_next(&b, now);
		assert_int_equal(link_bound_refill(&b, now), 1u << 1);
	}
	assert_int_equal(b.latched, 0);
}

static void remappable_index(void **state)
{
	(void)state;
	/* handle 0x1234 in bits 19:5, bit 15 of the handle in bit 2 */
	assert_int_equal(vtd_msi_index(0xfee00010u | 0x1234u << 5, 0), 0x1234);
	assert_int_equal(vtd_msi_index(0xfee00010u | 1u << 2 | 5u << 5, 0),
			 0x8005);
	/* SHV: the data's sub-handle is added */
	assert_int_equal(vtd_msi_index(0xfee00018u | 8u << 5, 3), 11);
	assert_int_equal(vtd_msi_index(0xfee00010u | 8u << 5, 3), 8);
}

#define IRTE(v, dlm, dst) (1ull | (u64)(dlm) << 5 | (u64)(v) << 16 | (dst))

static void irte_decoded(void **state)
{
	u32 low, dest;

	(void)state;
	assert_null(
		vtd_irte_decode(IRTE(0x41, 0, 5ull << 32), true, &low, &dest));
	assert_int_equal(low, 0x41);
	assert_int_equal(dest, 5);
	/* xAPIC mode: destination in bits 47:40; logical, lowest */
	assert_null(vtd_irte_decode(IRTE(0x42, 1, 3ull << 40) | 1u << 2, false,
				    &low, &dest));
	assert_int_equal(low, 0x42 | 1u << 8 | 1u << 11);
	assert_int_equal(dest, 3);
}

static void irte_refused(void **state)
{
	u32 low, dest;

	(void)state;
	assert_non_null(
		vtd_irte_decode(IRTE(0x41, 0, 0) & ~1ull, true, &low, &dest));
	assert_non_null(vtd_irte_decode(IRTE(0x41, 0, 0) | 1u << 15, true, &low,
					&dest)); /* posted */
	assert_non_null(vtd_irte_decode(IRTE(0x41, 0, 0) | 1u << 4, true, &low,
					&dest)); /* level */
	assert_non_null(vtd_irte_decode(IRTE(0x41, 4, 0), true, &low, &dest));
	assert_non_null(vtd_irte_decode(IRTE(0x0f, 0, 0), true, &low, &dest));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(burst_then_dropped),
		cmocka_unit_test(rate_over_a_second),
		cmocka_unit_test(refill_capped_and_time_going_back),
		cmocka_unit_test(state_changes_take_the_bucket),
		cmocka_unit_test(over_the_bound_latched_not_lost),
		cmocka_unit_test(latched_goes_before_doorbells),
		cmocka_unit_test(toggle_storm_within_the_bound),
		cmocka_unit_test(remappable_index),
		cmocka_unit_test(irte_decoded),
		cmocka_unit_test(irte_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
