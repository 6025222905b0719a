// SPDX-License-Identifier: GPL-2.0
/*
 * Root's remapping indexes translated to the hypervisor's
 * (hypervisor/arch/x86/iommu/irt_map.c): the map from root's index to a
 * slot of the translated part of the hypervisor's table, runs for
 * multiple-message MSIs, freeing, the bound, and the remappable MSI
 * handle (VT-d 5.1.5.2).
 */
#include "cmocka_wrap.h"
#include "iommu/irt_map.h"

#define BASE 2048u

static struct irt_map map;

static int setup(void **state)
{
	(void)state;
	irt_map_reset(&map, BASE);
	return 0;
}

static void one_index_mapped_and_found_both_ways(void **state)
{
	u32 h, r, freed[IRT_MAP_RUN_MAX];
	unsigned int nfreed;
	bool made;

	(void)state;
	assert_false(irt_map_find(&map, 7, &h));
	assert_int_equal(irt_map_run(&map, 7, 1, &h, freed, &nfreed, &made), 0);
	assert_true(made);
	assert_int_equal(nfreed, 0);
	assert_int_equal(h, BASE);
	assert_true(irt_map_find(&map, 7, &h));
	assert_int_equal(h, BASE);
	assert_true(irt_map_root_of(&map, BASE, &r));
	assert_int_equal(r, 7);
	/* asked again: the same index, nothing made */
	assert_int_equal(irt_map_run(&map, 7, 1, &h, freed, &nfreed, &made), 0);
	assert_false(made);
	assert_int_equal(h, BASE);
	/* a root index above the hypervisor's whole table is fine */
	assert_int_equal(irt_map_run(&map, 60000, 1, &h, freed, &nfreed, &made),
			 0);
	assert_int_equal(h, BASE + 1);
	assert_true(irt_map_root_of(&map, BASE + 1, &r));
	assert_int_equal(r, 60000);
	/* outside the translated part, or free: no root index */
	assert_false(irt_map_root_of(&map, BASE - 1, &r));
	assert_false(irt_map_root_of(&map, BASE + 2, &r));
	assert_false(irt_map_root_of(&map, BASE + IRT_MAP_SLOTS, &r));
}

static void freed_index_reused(void **state)
{
	u32 h, h2, r, freed[IRT_MAP_RUN_MAX];
	unsigned int nfreed;
	bool made;

	(void)state;
	irt_map_run(&map, 1, 1, &h, freed, &nfreed, &made);
	irt_map_run(&map, 2, 1, &h2, freed, &nfreed, &made);
	irt_map_free(&map, h);
	assert_false(irt_map_find(&map, 1, &r));
	assert_false(irt_map_root_of(&map, h, &r));
	assert_int_equal(map.used, 1);
	/* a free twice changes nothing */
	irt_map_free(&map, h);
	assert_int_equal(map.used, 1);
	assert_int_equal(irt_map_run(&map, 9, 1, &r, freed, &nfreed, &made), 0);
	assert_int_equal(r, h);
}

static void msi_run_moves_single_entries(void **state)
{
	u32 h, h0, h1, x, r, freed[IRT_MAP_RUN_MAX];
	unsigned int nfreed, i;
	bool made;

	(void)state;
	/* Linux invalidates a multiple-message MSI's entries one by one;
	 * mapped singly with another in between, they are no run */
	irt_map_run(&map, 40, 1, &h0, freed, &nfreed, &made);
	irt_map_run(&map, 99, 1, &x, freed, &nfreed, &made);
	irt_map_run(&map, 41, 1, &h1, freed, &nfreed, &made);
	assert_int_equal(h1, h0 + 2);
	assert_int_equal(irt_map_run(&map, 40, 4, &h, freed, &nfreed, &made),
			 0);
	assert_true(made);
	assert_int_equal(nfreed, 2);
	assert_int_equal(freed[0], h0);
	assert_int_equal(freed[1], h1);
	for (i = 0; i < 4; i++) {
		assert_true(irt_map_root_of(&map, h + i, &r));
		assert_int_equal(r, 40 + i);
	}
	/* the run does not overlap the entry in between */
	assert_true(h > x || h + 4 <= x);
	assert_true(irt_map_root_of(&map, x, &r));
	assert_int_equal(r, 99);
	assert_int_equal(map.used, 5);
	/* asked again: kept */
	assert_int_equal(irt_map_run(&map, 40, 4, &h1, freed, &nfreed, &made),
			 0);
	assert_false(made);
	assert_int_equal(h1, h);
}

static void bounded_and_nothing_changed_when_full(void **state)
{
	u32 h, i, freed[IRT_MAP_RUN_MAX];
	unsigned int nfreed;
	bool made;

	(void)state;
	for (i = 0; i < IRT_MAP_SLOTS; i++)
		assert_int_equal(irt_map_run(&map, 2 * i, 1, &h, freed, &nfreed,
					     &made),
				 0);
	assert_int_equal(map.used, IRT_MAP_SLOTS);
	assert_int_equal(irt_map_run(&map, 1, 1, &h, freed, &nfreed, &made),
			 -1);
	/* free two apart: still no run of two, and 2 keeps its slot */
	irt_map_free(&map, BASE + 10);
	irt_map_free(&map, BASE + 12);
	assert_int_equal(irt_map_run(&map, 2, 2, &h, freed, &nfreed, &made),
			 -1);
	assert_true(irt_map_find(&map, 2, &h));
	assert_int_equal(h, BASE + 1);
	assert_int_equal(map.used, IRT_MAP_SLOTS - 2);
	/* out of range */
	assert_int_equal(irt_map_run(&map, 0, 0, &h, freed, &nfreed, &made),
			 -1);
	assert_int_equal(irt_map_run(&map, 0, IRT_MAP_RUN_MAX + 1, &h, freed,
				     &nfreed, &made),
			 -1);
	assert_int_equal(irt_map_run(&map, 65535, 2, &h, freed, &nfreed, &made),
			 -1);
	assert_int_equal(irt_map_run(&map, 65536, 1, &h, freed, &nfreed, &made),
			 -1);
}

static void msi_handle_encoded(void **state)
{
	/* Linux's remappable MSI: 0xfee00000, format, SHV, index 5 */
	u32 addr = 0xfee00000u | 5u << 5 | 1u << 4 | 1u << 3, a2;

	(void)state;
	assert_true(irt_msi_remappable(addr));
	assert_false(irt_msi_remappable(0xfee01000u));
	assert_int_equal(irt_msi_handle(addr), 5);
	assert_int_equal(irt_msi_subhandle(addr, 0x3), 3);
	/* without SHV the data names no subhandle */
	assert_int_equal(irt_msi_subhandle(addr & ~(1u << 3), 0x3), 0);
	/* handle bit 15 goes to address bit 2 */
	a2 = irt_msi_with_handle(addr, 0x8000u | 2049);
	assert_int_equal(irt_msi_handle(a2), 0x8000u | 2049);
	assert_int_equal(a2 & 0xfff0001bu, addr & 0xfff0001bu);
	assert_true(a2 & 4u);
	assert_int_equal(irt_msi_with_handle(a2, 5), addr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(one_index_mapped_and_found_both_ways,
				       setup),
		cmocka_unit_test_setup(freed_index_reused, setup),
		cmocka_unit_test_setup(msi_run_moves_single_entries, setup),
		cmocka_unit_test_setup(bounded_and_nothing_changed_when_full,
				       setup),
		cmocka_unit_test(msi_handle_encoded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
