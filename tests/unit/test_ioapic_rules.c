// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's IOAPIC redirection entries (hypervisor/arch/x86/ioapic_rules.c
 * and ioapic/ioapic.h): which deliveries a cell may program, and how an
 * entry is rewritten to physical mode for the CPU it reaches.
 */
#include "cmocka_wrap.h"
#include "ioapic/ioapic.h"

#define FIXED(v) ((u64)(v))
#define DM(m) ((u64)(m) << IOAPIC_DM_SHIFT)

static void fixed_and_lowest_taken(void **state)
{
	(void)state;
	assert_null(ioapic_cell_entry_refused(FIXED(0x10)));
	assert_null(ioapic_cell_entry_refused(FIXED(0xfe) | IOAPIC_LEVEL));
	assert_null(ioapic_cell_entry_refused(FIXED(0x40) | DM(1) |
					      IOAPIC_DEST_LOGICAL |
					      (0x3ull << IOAPIC_DEST_SHIFT)));
}

static void other_modes_refused(void **state)
{
	unsigned int m;

	(void)state;
	/* SMI, reserved, NMI, INIT, reserved, ExtINT */
	for (m = 2; m < 8; m++)
		assert_non_null(ioapic_cell_entry_refused(FIXED(0x40) | DM(m)));
}

static void reserved_vectors_refused(void **state)
{
	(void)state;
	assert_non_null(ioapic_cell_entry_refused(FIXED(0x0f)));
	assert_non_null(ioapic_cell_entry_refused(FIXED(0x00)));
	assert_non_null(ioapic_cell_entry_refused(FIXED(0xff)));
}

static void remappable_refused(void **state)
{
	(void)state;
	assert_non_null(
		ioapic_cell_entry_refused(FIXED(0x40) | IOAPIC_REMAPPABLE));
}

static void masked_passes(void **state)
{
	(void)state;
	/* masked: delivers nothing, whatever it holds (an OS parks pins
	 * as masked ExtINT or with vector 0) */
	assert_null(ioapic_cell_entry_refused(IOAPIC_MASKED | DM(7)));
	assert_null(ioapic_cell_entry_refused(IOAPIC_MASKED));
}

static void physical_rewrite(void **state)
{
	u64 e = FIXED(0x41) | DM(1) | IOAPIC_DEST_LOGICAL | IOAPIC_LEVEL |
		IOAPIC_REMOTE_IRR | IOAPIC_DELIVS |
		(0x0cull << IOAPIC_DEST_SHIFT);
	u64 p = ioapic_entry_physical(e, 3);

	(void)state;
	assert_int_equal(p & IOAPIC_VECTOR_MASK, 0x41);
	assert_int_equal((p >> IOAPIC_DM_SHIFT) & 7, 1);
	assert_true(p & IOAPIC_LEVEL);
	assert_false(p & IOAPIC_DEST_LOGICAL);
	assert_false(p & IOAPIC_READ_ONLY);
	assert_int_equal(ioapic_entry_dest(p), 3);
	/* the ICR view keeps vector, mode and destination mode only */
	assert_int_equal(ioapic_entry_as_icr(e), 0x941);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_and_lowest_taken),
		cmocka_unit_test(other_modes_refused),
		cmocka_unit_test(reserved_vectors_refused),
		cmocka_unit_test(remappable_refused),
		cmocka_unit_test(masked_passes),
		cmocka_unit_test(physical_rewrite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
