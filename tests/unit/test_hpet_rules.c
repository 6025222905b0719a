// SPDX-License-Identifier: GPL-2.0
/*
 * The HPET's interrupt routes (hypervisor/arch/x86/hpet_rules.c): what a
 * root write makes of the registers, and which timer of the result would
 * send an interrupt where root may not -- an IOAPIC input a cell owns, or
 * an FSB message the MSI rule refuses.
 */
#include "cmocka_wrap.h"
#include "hpet/hpet.h"
#include <string.h>

#define CELL_GSI 23	     /* the pin a cell owns in these tests */
#define BAD_ADDR 0xfee01000u /* an FSB message to APIC ID 1: a cell CPU */

static const char *gsi_check(void *ctx, u32 gsi)
{
	(void)ctx;
	return gsi == CELL_GSI || gsi == 8 ? "cell pin" : NULL;
}

static const char *msi_check(void *ctx, u32 addr, u32 data)
{
	(void)ctx, (void)data;
	return addr == BAD_ADDR ? "cell CPU" : NULL;
}

static const struct hpet_checks checks = { gsi_check, msi_check, NULL };

static void state(struct hpet_state *s)
{
	memset(s, 0, sizeof(*s));
	s->timers = 3;
}

static u64 route(unsigned int gsi)
{
	return HPET_TN_INT_ENB | (u64)gsi << HPET_TN_ROUTE_SHIFT;
}

/* A 32-bit write of the low half of timer 2's configuration routes it;
 * the upper half (the route capabilities, read-only) is kept. */
static void writes_merge(void **state_)
{
	struct hpet_state s;

	(void)state_;
	state(&s);
	s.conf[2] = 0x00f0000000000000ull;
	hpet_apply_write(&s, HPET_TIMER(2) + HPET_TN_CONF, 4, route(5));
	assert_true(s.conf[2] == (0x00f0000000000000ull | route(5)));
	/* one byte of the general configuration */
	hpet_apply_write(&s, HPET_GEN_CONF, 1, 0x3);
	assert_true(s.gen_conf == 3);
	/* the FSB route's upper half: the address */
	hpet_apply_write(&s, HPET_TIMER(1) + HPET_TN_FSB + 4, 4, BAD_ADDR);
	assert_true(s.fsb[1] == (u64)BAD_ADDR << 32);
	/* a timer the HPET does not have, the counter: nothing changes */
	hpet_apply_write(&s, HPET_TIMER(3) + HPET_TN_CONF, 4, route(1));
	hpet_apply_write(&s, 0xf0, 8, ~0ull);
	assert_true(s.conf[0] == 0 && s.conf[1] == 0);
}

static void routes(void **state_)
{
	struct hpet_state s;
	unsigned int timer = 99;

	(void)state_;
	state(&s);
	assert_null(hpet_state_refused(&s, &checks, &timer));
	/* root's pin: fine; a cell's pin: refused, naming the timer */
	s.conf[1] = route(20);
	assert_null(hpet_state_refused(&s, &checks, &timer));
	s.conf[2] = route(CELL_GSI);
	assert_string_equal(hpet_state_refused(&s, &checks, &timer), "cell "
								     "pin");
	assert_int_equal(timer, 2);
	/* disabled: drives nothing */
	s.conf[2] &= ~(u64)HPET_TN_INT_ENB;
	assert_null(hpet_state_refused(&s, &checks, &timer));
}

static void fsb(void **state_)
{
	struct hpet_state s;
	unsigned int timer;

	(void)state_;
	state(&s);
	/* FSB delivery: the route field does not count, the message does */
	s.conf[0] = route(CELL_GSI) | HPET_TN_FSB_EN;
	s.fsb[0] = (u64)0xfee00000u << 32 | 0x41;
	assert_null(hpet_state_refused(&s, &checks, &timer));
	s.fsb[0] = (u64)BAD_ADDR << 32 | 0x41;
	assert_string_equal(hpet_state_refused(&s, &checks, &timer), "cell "
								     "CPU");
	assert_int_equal(timer, 0);
}

/* Legacy replacement: timers 0 and 1 drive inputs 2 and 8, enabled or
 * not, whatever their routes say. */
static void legacy(void **state_)
{
	struct hpet_state s;
	unsigned int timer;

	(void)state_;
	state(&s);
	s.gen_conf = HPET_GEN_CONF_LEGACY;
	assert_string_equal(hpet_state_refused(&s, &checks, &timer), "cell "
								     "pin");
	assert_int_equal(timer, 1); /* input 8 */
	s.gen_conf = 0;
	s.conf[1] = route(8) & ~(u64)HPET_TN_INT_ENB;
	assert_null(hpet_state_refused(&s, &checks, &timer));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_merge),
		cmocka_unit_test(routes),
		cmocka_unit_test(fsb),
		cmocka_unit_test(legacy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
