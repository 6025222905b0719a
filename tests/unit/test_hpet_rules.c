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

static const struct hpet_checks checks = { gsi_check, msi_check, NULL, NULL };

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

/* Root's remappable FSB messages translated (hpet_write_plan): a fake
 * of iommu_root_msi that moves a remappable message's handle (VT-d
 * 5.1.5.2: bits 19:5, format bit 4) up by 2048, has no room for root's
 * index 7777, and leaves compatibility-format messages as they are. */
#define REMAP(index) (0xfee00018u | (u32)(index) << 5)
static unsigned int translations;

static const char *fake_translate(void *ctx, u32 addr, u32 data, u32 *out)
{
	u32 handle = (addr >> 5) & 0x7fff;

	(void)ctx, (void)data;
	translations++;
	*out = addr;
	if (!(addr & 0x10))
		return NULL;
	if (handle == 7777)
		return "no room";
	*out = (addr & ~(0x7fffu << 5)) | (handle + 2048) << 5;
	return NULL;
}

static const struct hpet_checks xlate = { gsi_check, msi_check, NULL,
					  fake_translate };

#define FSB(n) (HPET_TIMER(n) + HPET_TN_FSB)
#define CONF(n) (HPET_TIMER(n) + HPET_TN_CONF)

/* Linux's hpet_msi_write: FSB_INT_VAL, then FSB_INT_ADDR, 32 bits each;
 * then the enable (Tn_CONF with FSB_EN and Tn_INT_ENB). */
static void fsb_rewritten(void **state_)
{
	struct hpet_state s;
	struct hpet_write w;
	unsigned int timer = 99;

	(void)state_;
	state(&s);
	translations = 0;
	/* the data: the address as it is (0) goes first, unchanged */
	assert_null(hpet_write_plan(&s, FSB(2), 4, 0, &xlate, &w, &timer));
	assert_int_equal(w.timer, 2);
	assert_true(w.addr_first && w.addr == 0 && (u32)w.value == 0);
	/* the address: root's index 5 becomes the hypervisor's 2053 in
	 * what the device gets; the state (root's view) keeps root's */
	assert_null(hpet_write_plan(&s, FSB(2) + 4, 4, REMAP(5), &xlate, &w,
				    &timer));
	assert_int_equal(w.timer, 2);
	assert_false(w.addr_first);
	assert_true(w.addr == REMAP(2053) && (u32)w.value == REMAP(2053));
	assert_true(s.fsb[2] >> 32 == REMAP(5));
	/* the enable: translated again (the same), the address first */
	assert_null(hpet_write_plan(&s, CONF(2), 4,
				    HPET_TN_FSB_EN | HPET_TN_INT_ENB, &xlate,
				    &w, &timer));
	assert_true(w.timer == 2 && w.addr_first && w.addr == REMAP(2053));
	assert_true(w.value == (HPET_TN_FSB_EN | HPET_TN_INT_ENB));
	assert_int_equal(translations, 3);
	/* a comparator, or a configuration without FSB_EN: no message */
	assert_null(hpet_write_plan(&s, HPET_TIMER(2) + 8, 8, 1000, &xlate, &w,
				    &timer));
	assert_true(w.timer == -1 && w.value == 1000);
	assert_null(
		hpet_write_plan(&s, CONF(1), 4, route(20), &xlate, &w, &timer));
	assert_int_equal(w.timer, -1);
	assert_int_equal(translations, 3);
}

/* A 64-bit write of the route, and a byte of the address alone. */
static void fsb_rewritten_merged(void **state_)
{
	struct hpet_state s;
	struct hpet_write w;
	unsigned int timer;

	(void)state_;
	state(&s);
	assert_null(hpet_write_plan(&s, FSB(0), 8, (u64)REMAP(3) << 32 | 0x41,
				    &xlate, &w, &timer));
	assert_false(w.addr_first);
	assert_true(w.value == ((u64)REMAP(2051) << 32 | 0x41));
	/* byte 1 of the address: handle bits 10:3, index 3 -> 0x803 */
	assert_null(hpet_write_plan(&s, FSB(0) + 5, 1, (REMAP(3) >> 8) & 0xff,
				    &xlate, &w, &timer));
	assert_true(w.addr_first && w.addr == REMAP(2051));
	assert_true((w.value & 0xff) == ((REMAP(2051) >> 8) & 0xff));
}

/* Refused: a message that cannot be translated, named with its timer,
 * and a compatibility-format one enabled towards a cell's CPU. */
static void fsb_refused(void **state_)
{
	struct hpet_state s;
	struct hpet_write w;
	unsigned int timer = 99;

	(void)state_;
	state(&s);
	assert_string_equal(hpet_write_plan(&s, FSB(1) + 4, 4, REMAP(7777),
					    &xlate, &w, &timer),
			    "no room");
	assert_int_equal(timer, 1);
	assert_int_equal(w.timer, -1);
	/* root's view holds BAD_ADDR while FSB_EN is off: allowed; the
	 * enable is refused */
	state(&s);
	assert_null(hpet_write_plan(&s, FSB(2) + 4, 4, BAD_ADDR, &xlate, &w,
				    &timer));
	assert_string_equal(hpet_write_plan(&s, CONF(2), 4,
					    HPET_TN_FSB_EN | HPET_TN_INT_ENB,
					    &xlate, &w, &timer),
			    "cell CPU");
	assert_int_equal(timer, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_merge),
		cmocka_unit_test(routes),
		cmocka_unit_test(fsb),
		cmocka_unit_test(legacy),
		cmocka_unit_test(fsb_rewritten),
		cmocka_unit_test(fsb_rewritten_merged),
		cmocka_unit_test(fsb_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
