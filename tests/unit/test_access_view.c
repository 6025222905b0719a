// SPDX-License-Identifier: GPL-2.0
/*
 * The access log through the ABI (include/warden/access.h) and as "warden
 * cell stats" shows it (tools/access_view.c): an entry packed by the
 * hypervisor's key and the RIP's halves comes back whole in the driver's
 * unpacking, fields at their limits included; the text line uses the
 * console's words; the JSON keeps a kernel RIP exact (a string).
 */
#include "cmocka_wrap.h"

#include <stdlib.h>
#include <string.h>

#include <warden/access.h>

#include "access_view.h"

/* pack as the hypervisor does (exit/access_log.c), unpack as the driver
 * does (driver/hv_info.c) */
static struct warden_access_entry round_trip(uint32_t kind, uint32_t outcome,
					     uint32_t number, uint32_t sub,
					     uint32_t count, uint64_t rip)
{
	struct warden_access_entry e;
	uint64_t key = warden_access_key(kind, outcome, number, sub);

	memset(&e, 0xa5, sizeof(e));
	/* a hypercall's value is never negative: the key's top bits clear */
	assert_true((int64_t)key > 0);
	warden_access_unpack(key, count, (uint32_t)rip, rip >> 32, &e);
	return e;
}

static void test_round_trip(void **state)
{
	struct warden_access_entry e;

	(void)state;
	e = round_trip(WARDEN_ACCESS_MSR_READ, WARDEN_ACCESS_GP, 0xc0011029, 0,
		       2, 0xffffffff8107e783ull);
	assert_int_equal(e.kind, WARDEN_ACCESS_MSR_READ);
	assert_int_equal(e.outcome, WARDEN_ACCESS_GP);
	assert_int_equal(e.number, 0xc0011029);
	assert_int_equal(e.sub, 0);
	assert_int_equal(e.count, 2);
	assert_int_equal(e.reserved, 0);
	assert_true(e.first_rip == 0xffffffff8107e783ull);
	/* the limits: a 32-bit leaf, a subleaf in 16 bits, the last kind
	 * and outcome */
	e = round_trip(WARDEN_ACCESS_CPUID, WARDEN_ACCESS_CHANGED, 0xffffffff,
		       0xffff, 0xffffffff, 0x1000000ull);
	assert_int_equal(e.kind, WARDEN_ACCESS_CPUID);
	assert_int_equal(e.outcome, WARDEN_ACCESS_CHANGED);
	assert_true(e.number == 0xffffffffu && e.sub == 0xffff);
	assert_true(e.count == 0xffffffffu && e.first_rip == 0x1000000ull);
	/* a port: nothing leaks between the fields */
	e = round_trip(WARDEN_ACCESS_PORT_OUT, WARDEN_ACCESS_QUIET, 0x70, 0, 11,
		       0);
	assert_int_equal(e.kind, WARDEN_ACCESS_PORT_OUT);
	assert_int_equal(e.outcome, WARDEN_ACCESS_QUIET);
	assert_int_equal(e.number, 0x70);
	assert_int_equal(e.sub, 0);
	/* no entry: kind 0, the key 0 (where the driver stops) */
	assert_true(warden_access_key(0, 0, 0, 0) == 0);
	assert_true(warden_access_key(WARDEN_ACCESS_PORT_IN, 0, 0, 0) != 0);
}

static void test_text(void **state)
{
	struct warden_access_entry e = {
		.number = 0x70,
		.count = 11,
		.kind = WARDEN_ACCESS_PORT_OUT,
		.outcome = WARDEN_ACCESS_QUIET,
		.first_rip = 0xffffffff8103e757ull,
	};
	const char *name;
	char line[160];

	(void)state;
	access_entry_text(line, sizeof(line), &e);
	assert_string_equal(line, "port out 0x70 x11, first at RIP "
				  "0xffffffff8103e757 (quiet)");
	e.kind = WARDEN_ACCESS_MSR_READ;
	e.number = 0x179;
	e.count = 1;
	e.outcome = WARDEN_ACCESS_GP;
	access_entry_text(line, sizeof(line), &e);
	assert_string_equal(line, "rdmsr 0x179 x1, first at RIP "
				  "0xffffffff8103e757 (#GP)");
	e.kind = WARDEN_ACCESS_CPUID;
	e.number = 7;
	e.sub = 1;
	e.outcome = WARDEN_ACCESS_CHANGED;
	access_entry_text(line, sizeof(line), &e);
	assert_string_equal(line, "cpuid 0x7.1 x1, first at RIP "
				  "0xffffffff8103e757 (changed)");
	/* values a newer hypervisor may send: named "?", never out of a
	 * table */
	e.kind = 9;
	e.outcome = 200;
	access_entry_text(line, sizeof(line), &e);
	assert_string_equal(line, "? 0x7 x1, first at RIP 0xffffffff8103e757 "
				  "(?)");
	assert_string_equal(access_kind_name(0), "?");
	name = access_outcome_name(WARDEN_ACCESS_READ_0);
	assert_string_equal(name, "read 0");
	/* truncated, never overrun */
	memset(line, 'x', sizeof(line));
	access_entry_text(line, 10, &e);
	assert_int_equal(strlen(line), 9);
	assert_int_equal(line[10], 'x');
}

static void test_json(void **state)
{
	struct warden_access_entry e = {
		.number = 0xc0011029,
		.count = 2,
		.kind = WARDEN_ACCESS_MSR_READ,
		.outcome = WARDEN_ACCESS_GP,
		.first_rip = 0xffffffff8107e783ull,
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	access_entry_json(f, &e);
	fclose(f);
	assert_string_equal(buf, "{\"kind\": \"rdmsr\", \"number\": "
				 "3221295145, "
				 "\"sub\": 0, \"count\": 2, \"outcome\": "
				 "\"#GP\", \"first_rip\": "
				 "\"0xffffffff8107e783\"}");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests_name("access_view", tests, NULL, NULL);
}
