// SPDX-License-Identifier: GPL-2.0
/*
 * The unit hooks (hypervisor/core/units.c): every unit defined with
 * DEFINE_UNIT is called, in link order; a failing cell_init undoes the
 * units before it in reverse order and leaves the ones after it alone;
 * map notifications and MMIO counts reach every unit.
 */
#include "cmocka_wrap.h"
#include "hv_stubs.h"
#include <hv/hypervisor.h>
#include <hv/unit.h>
#include <string.h>
#include <warden/hypercall.h>

static char trace[64];
static int fail_at; /* 1 or 2: that unit's cell_init fails */
static unsigned int mapped;

static void note(char c)
{
	size_t n = strlen(trace);

	trace[n] = c;
	trace[n + 1] = 0;
}

static int init_a(struct cell *cell, struct warden_error *err)
{
	(void)cell;
	(void)err;
	note('a');
	return fail_at == 1 ? -12 : 0;
}

static void exit_a(struct cell *cell)
{
	(void)cell;
	note('A');
}

static int init_b(struct cell *cell, struct warden_error *err)
{
	(void)cell;
	(void)err;
	note('b');
	return fail_at == 2 ? -12 : 0;
}

static void exit_b(struct cell *cell)
{
	(void)cell;
	note('B');
}

static void map_any(struct cell *cell, u64 guest, u64 phys, u64 size, u32 flags,
		    u32 kind)
{
	(void)cell;
	(void)guest;
	(void)phys;
	(void)flags;
	(void)kind;
	mapped += (unsigned int)size;
}

static void unmap_any(struct cell *cell, u64 start, u64 size)
{
	(void)cell;
	(void)start;
	mapped += (unsigned int)size;
}

static unsigned int one(const struct cell *cell)
{
	(void)cell;
	return 1;
}

static unsigned int two(const struct cell *cell)
{
	(void)cell;
	return 2;
}

static long call_a(struct per_cpu *pc, unsigned long code, unsigned long arg1,
		   unsigned long arg2)
{
	(void)pc;
	(void)arg2;
	return code == 100 ? (long)arg1 + 1 : -WARDEN_ENOSYS;
}

static const char *reason_b(const struct cell *cell, u64 gpa, bool write)
{
	(void)cell;
	return gpa == 0x5000 && write ? "b's memory" : NULL;
}

DEFINE_UNIT(a) = { .name = "a",
		   .cell_init = init_a,
		   .cell_exit = exit_a,
		   .map = map_any,
		   .mmio_count = one,
		   .hypercall = call_a,
		   .cell_state_size = 12 };
/* a unit with no hooks but one: the others must be skipped */
DEFINE_UNIT(quiet) = { .name = "quiet", .mmio_count = two };
DEFINE_UNIT(b) = { .name = "b",
		   .cell_init = init_b,
		   .cell_exit = exit_b,
		   .map = map_any,
		   .unmap = unmap_any,
		   .fault_reason = reason_b,
		   .cell_state_size = 4 };

static int reset(void **state)
{
	(void)state;
	trace[0] = 0;
	fail_at = 0;
	mapped = 0;
	return 0;
}

static void all_in_order(void **state)
{
	(void)state;
	assert_int_equal(units_cell_init(NULL, NULL), 0);
	units_cell_exit(NULL);
	/* link order may differ from definition order; either way exits
	 * run in the reverse order of inits */
	assert_true(!strcmp(trace, "abBA") || !strcmp(trace, "baAB"));
}

static void failure_unwinds(void **state)
{
	const struct unit *first = &unit_a < &unit_b ? &unit_a : &unit_b;

	(void)state;
	fail_at = first == &unit_a ? 2 : 1; /* the second one fails */
	assert_int_equal(units_cell_init(NULL, NULL), -12);
	assert_true(!strcmp(trace, "abA") || !strcmp(trace, "baB"));
	trace[0] = 0;
	fail_at = first == &unit_a ? 1 : 2; /* the first one fails */
	assert_int_equal(units_cell_init(NULL, NULL), -12);
	/* nothing to undo, and the second is never called */
	assert_true(!strcmp(trace, "a") || !strcmp(trace, "b"));
}

static void notifications_and_counts(void **state)
{
	(void)state;
	units_map(NULL, 0x1000, 0x1000, 4, 0, 0);
	assert_int_equal(mapped, 8); /* a and b */
	units_unmap(NULL, 0x1000, 4);
	assert_int_equal(mapped, 12); /* b only */
	assert_int_equal(units_mmio_count(NULL), 3);
	assert_int_equal(units_init(NULL), 0); /* no unit has init */
	units_shutdown();
}

/* A unit's own hypercall and fault reason reach the core through the
 * table; its per-cell state is its own, 8-aligned, inside the cell. */
static void doors(void **state)
{
	static struct cell cell;
	u8 *sa, *sb;

	(void)state;
	assert_int_equal(units_hypercall(NULL, 100, 41, 0), 42);
	assert_int_equal(units_hypercall(NULL, 101, 41, 0), -WARDEN_ENOSYS);
	assert_string_equal(units_fault_reason(NULL, 0x5000, true), "b's "
								    "memory");
	assert_null(units_fault_reason(NULL, 0x5000, false));
	assert_int_equal(units_init(NULL), 0); /* places the states */
	sa = UNIT_STATE(&cell, a);
	sb = UNIT_STATE(&cell, b);
	assert_true(sa >= cell.unit_state && sb >= cell.unit_state);
	assert_true(sa + 12 <= cell.unit_state + HV_UNIT_STATE_BYTES);
	assert_true(sb + 4 <= cell.unit_state + HV_UNIT_STATE_BYTES);
	assert_true(sa + 12 <= sb || sb + 4 <= sa); /* apart */
	assert_int_equal(((unsigned long)sa | (unsigned long)sb) & 7, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(all_in_order, reset),
		cmocka_unit_test_setup(failure_unwinds, reset),
		cmocka_unit_test_setup(notifications_and_counts, reset),
		cmocka_unit_test_setup(doors, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
