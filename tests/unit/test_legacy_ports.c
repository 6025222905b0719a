// SPDX-License-Identifier: GPL-2.0
/*
 * What a Linux cell's legacy ports and platform registers answer
 * (hypervisor/arch/x86/exit/legacy_ports.c): the quiet ports with the
 * values a stock kernel needs to go on quickly (PIT and CMOS 0, absent
 * devices all ones), nothing else quiet; the FADT's sleep control register
 * powers off only for SLP_EN with the \_S5 type, the reset register only
 * for its value.
 */
#include "cmocka_wrap.h"

#include <asm/exit.h>
#include <warden/config.h>

static u64 quiet(u16 port)
{
	u64 v = 0x1234;

	assert_true(legacy_port_quiet(port, &v));
	return v;
}

static void test_quiet_values(void **state)
{
	(void)state;
	/* the PIT and port B read 0: the PIT calibration gives up at once */
	assert_int_equal(quiet(0x40), 0);
	assert_int_equal(quiet(0x42), 0);
	assert_int_equal(quiet(0x43), 0);
	assert_int_equal(quiet(0x61), 0);
	/* CMOS 0: update-in-progress clear; ELCR 0 */
	assert_int_equal(quiet(0x70), 0);
	assert_int_equal(quiet(0x71), 0);
	assert_int_equal(quiet(0x4d0), 0);
	assert_int_equal(quiet(0x4d1), 0);
	/* absent devices: all ones in every byte of a wide read */
	assert_int_equal(quiet(0x87), 0xffffffff); /* up to 4 bytes */
	assert_int_equal(quiet(0x80) & 0xff, 0xff);
	assert_int_equal(quiet(0x2e) & 0xff, 0xff);
	assert_int_equal(quiet(0x4f) & 0xff, 0xff);
	assert_int_equal(quiet(0x3f9) & 0xff, 0xff);
	assert_int_equal(quiet(0x2e8) & 0xff, 0xff);
	assert_int_equal(quiet(0xcfc) & 0xffffffff, 0xffffffff);
}

static void test_not_quiet(void **state)
{
	static const u16 ports[] = { 0x3f,  0x44,  0x60 - 1, 0x90,  0x3f7,
				     0x400, 0x4d2, 0x504,    0xcf7, 0xd00 };
	unsigned int i;
	u64 v;

	(void)state;
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (legacy_port_quiet(ports[i], &v))
			fail_msg("port 0x%x is quiet", ports[i]);
}

static void test_power(void **state)
{
	const char *off;
	u64 v;

	(void)state;
	/* S5 with SLP_EN: off */
	assert_true(linux_platform_port(WARDEN_LINUX_SLEEP_CONTROL_PORT, false,
					(5 << 2) | 0x20, &v, &off));
	assert_non_null(off);
	/* S5 without SLP_EN, or another type with it: dropped */
	assert_true(linux_platform_port(WARDEN_LINUX_SLEEP_CONTROL_PORT, false,
					5 << 2, &v, &off));
	assert_null(off);
	assert_true(linux_platform_port(WARDEN_LINUX_SLEEP_CONTROL_PORT, false,
					(3 << 2) | 0x20, &v, &off));
	assert_null(off);
	/* the status register: awake (WAK_STS) */
	assert_true(linux_platform_port(WARDEN_LINUX_SLEEP_STATUS_PORT, true, 0,
					&v, &off));
	assert_int_equal(v, 0x80);
	assert_null(off);
	/* reset: only its value */
	assert_true(linux_platform_port(WARDEN_LINUX_RESET_PORT, false,
					WARDEN_LINUX_RESET_VALUE, &v, &off));
	assert_non_null(off);
	assert_true(linux_platform_port(WARDEN_LINUX_RESET_PORT, false, 2, &v,
					&off));
	assert_null(off);
	/* reads of 0xcf9 and other ports are not these registers */
	assert_false(linux_platform_port(WARDEN_LINUX_RESET_PORT, true, 0, &v,
					 &off));
	assert_false(linux_platform_port(0x506, false, 0x34, &v, &off));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_values),
		cmocka_unit_test(test_not_quiet),
		cmocka_unit_test(test_power),
	};

	return cmocka_run_group_tests_name("legacy_ports", tests, NULL, NULL);
}
