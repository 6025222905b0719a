// SPDX-License-Identifier: GPL-2.0
/*
 * The page pool and the page-table engine with both x86 formats.  EPT
 * entries are checked bit by bit: memory types are invisible in Bochs, so
 * this is where a wrong type would be caught.
 */
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include <asm/pgformat.h>
#include <vmx/ept.h>
#include <warden/config.h>
#include <warden/hypercall.h>

#define POOL_PAGES 256
#define FAKE_PHYS 0x30000000ull

static struct page_pool pool;
static void *area;

static int setup(void **state)
{
	(void)state;
	area = aligned_alloc(PAGE_SIZE, POOL_PAGES * PAGE_SIZE);
	assert_non_null(area);
	assert_int_equal(pool_init(&pool, (u64)area, FAKE_PHYS, POOL_PAGES), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(area);
	return 0;
}

static void pool_alloc_free(void **state)
{
	unsigned long base = pool.used;
	void *a, *b;

	(void)state;
	assert_int_equal(base, 1); /* the bitmap */
	a = page_alloc(&pool, 1);
	b = page_alloc(&pool, 3);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(pool.used, base + 4);
	assert_int_equal(pool_virt_to_phys(&pool, a), FAKE_PHYS + PAGE_SIZE);
	assert_ptr_equal(pool_phys_to_virt(&pool, FAKE_PHYS + PAGE_SIZE), a);
	page_free(&pool, a, 1);
	/* the hole is reused for one page, not for two */
	assert_ptr_equal(page_alloc(&pool, 1), a);
	page_free(&pool, a, 1);
	page_free(&pool, b, 3);
	assert_int_equal(pool.used, base);
	assert_null(page_alloc(&pool, POOL_PAGES));
}

static u64 entry_at(struct page_table *pt, u64 virt, unsigned int level)
{
	u64 *table = pt->root;
	unsigned int l = 3;

	for (;;) {
		u64 e = table[(virt >> (12 + 9 * l)) & 511];

		if (l == level)
			return e;
		table = pool_phys_to_virt(&pool, e & PHYS_ADDR_MASK);
		l--;
	}
}

static void ept_entries_and_types(void **state)
{
	struct page_table pt;
	unsigned long base = pool.used;
	unsigned int flags, type;
	u64 phys;

	(void)state;
	assert_int_equal(pt_init(&pt, &vmx_ept_format, &pool), 0);
	/* RAM from 1 MiB to 8 MiB: 4 KiB pages up to 2 MiB, then 2 MiB */
	assert_int_equal(pt_map(&pt, 0x100000, 0x100000, 0x700000,
				MAP_READ | MAP_WRITE | MAP_EXECUTE,
				WARDEN_MEMTYPE_WB),
			 0);
	/* the local APIC, uncached, read/write */
	assert_int_equal(pt_map(&pt, 0xfee00000, 0xfee00000, 0x1000,
				MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC),
			 0);

	assert_int_equal(entry_at(&pt, 0x100000, 0), 0x100000 | 7 | (6 << 3));
	assert_int_equal(entry_at(&pt, 0x200000, 1),
			 0x200000 | 7 | (6 << 3) | (1 << 7));
	assert_int_equal(entry_at(&pt, 0xfee00000, 0), 0xfee00000 | 3);
	/* intermediate entries: all rights, no memory type */
	assert_int_equal(entry_at(&pt, 0x100000, 3) & 0xfff, 7);

	assert_true(pt_lookup(&pt, 0x345678, &phys, &flags, &type));
	assert_int_equal(phys, 0x345678);
	assert_int_equal(type, WARDEN_MEMTYPE_WB);
	assert_int_equal(flags, MAP_READ | MAP_WRITE | MAP_EXECUTE);
	assert_true(pt_lookup(&pt, 0xfee00300, &phys, &flags, &type));
	assert_int_equal(type, WARDEN_MEMTYPE_UC);
	assert_int_equal(flags, MAP_READ | MAP_WRITE);
	assert_false(pt_lookup(&pt, 0x800000, NULL, NULL, NULL));
	assert_false(pt_lookup(&pt, 0xff000, NULL, NULL, NULL));

	pt_destroy(&pt);
	assert_int_equal(pool.used, base);
}

static void unmap_splits_large_pages(void **state)
{
	struct page_table pt;
	unsigned long base = pool.used;
	u64 phys;

	(void)state;
	assert_int_equal(pt_init(&pt, &vmx_ept_format, &pool), 0);
	assert_int_equal(pt_map(&pt, 0x30000000, 0x30000000, 0x400000,
				MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_WB),
			 0);
	/* carve one page out of the middle of the first 2 MiB page */
	assert_int_equal(pt_unmap(&pt, 0x30001000, 0x1000), 0);
	assert_false(pt_lookup(&pt, 0x30001000, NULL, NULL, NULL));
	assert_true(pt_lookup(&pt, 0x30000fff, &phys, NULL, NULL));
	assert_int_equal(phys, 0x30000fff);
	assert_true(pt_lookup(&pt, 0x30002000, &phys, NULL, NULL));
	assert_int_equal(phys, 0x30002000);
	/* the split page keeps its type and rights */
	assert_int_equal(entry_at(&pt, 0x30002000, 0),
			 0x30002000 | 3 | (6 << 3));
	/* the second 2 MiB page is untouched */
	assert_int_equal(entry_at(&pt, 0x30200000, 1),
			 0x30200000 | 3 | (6 << 3) | (1 << 7));
	/* unmap everything, including a range that was never mapped */
	assert_int_equal(pt_unmap(&pt, 0x30000000, 0x800000), 0);
	assert_false(pt_lookup(&pt, 0x30200000, NULL, NULL, NULL));
	pt_destroy(&pt);
	assert_int_equal(pool.used, base);
}

/* Unmapping part of a large page and mapping it back restores the large
 * page and gives the split table back to the pool (cell create/destroy
 * must leave root's EPT and the pool as they were). */
static void map_back_coalesces(void **state)
{
	struct page_table pt;
	unsigned long base = pool.used, mapped;

	(void)state;
	assert_int_equal(pt_init(&pt, &vmx_ept_format, &pool), 0);
	assert_int_equal(pt_map(&pt, 0x30000000, 0x30000000, 0x400000,
				MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_WB),
			 0);
	mapped = pool.used;
	assert_int_equal(pt_unmap(&pt, 0x30100000, 0x100000), 0);
	assert_int_equal(pool.used, mapped + 1);
	assert_int_equal(pt_map(&pt, 0x30100000, 0x30100000, 0x100000,
				MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_WB),
			 0);
	assert_int_equal(pool.used, mapped);
	assert_int_equal(entry_at(&pt, 0x30000000, 1),
			 0x30000000 | 3 | (6 << 3) | (1 << 7));
	/* mapped back with other rights: stays split */
	assert_int_equal(pt_unmap(&pt, 0x30100000, 0x100000), 0);
	assert_int_equal(pt_map(&pt, 0x30100000, 0x30100000, 0x100000, MAP_READ,
				WARDEN_MEMTYPE_WB),
			 0);
	assert_int_equal(pool.used, mapped + 1);
	assert_int_equal(entry_at(&pt, 0x30100000, 0),
			 0x30100000 | 1 | (6 << 3));
	/* elsewhere: physical addresses not contiguous never coalesce */
	assert_int_equal(pt_map(&pt, 0x40000000, 0x50001000, 0x200000, MAP_READ,
				WARDEN_MEMTYPE_WB),
			 0);
	assert_int_equal(entry_at(&pt, 0x40000000, 0),
			 0x50001000 | 1 | (6 << 3));
	pt_destroy(&pt);
	assert_int_equal(pool.used, base);
}

static void host_format_entries(void **state)
{
	struct page_table pt;
	unsigned int flags, type;

	(void)state;
	assert_int_equal(pt_init(&pt, &x86_host_format, &pool), 0);
	assert_int_equal(pt_map(&pt, 0xffffffff80000000ull, 0x30000000,
				0x200000, MAP_READ | MAP_WRITE | MAP_EXECUTE,
				WARDEN_MEMTYPE_WB),
			 0);
	assert_int_equal(pt_map(&pt, 0xffffffff80200000ull, 0xfee00000, 0x1000,
				MAP_READ | MAP_WRITE, WARDEN_MEMTYPE_UC),
			 0);
	assert_int_equal(entry_at(&pt, 0xffffffff80000000ull, 1),
			 0x30000000 | PTE_PRESENT | PTE_WRITE | PTE_LARGE);
	assert_int_equal(entry_at(&pt, 0xffffffff80200000ull, 0),
			 0xfee00000 | PTE_PRESENT | PTE_WRITE | PTE_PCD |
				 PTE_PWT | PTE_NX);
	assert_true(pt_lookup(&pt, 0xffffffff80200010ull, NULL, &flags, &type));
	assert_int_equal(type, WARDEN_MEMTYPE_UC);
	assert_int_equal(flags, MAP_READ | MAP_WRITE);
	/* remapping a range replaces the old mapping and frees its table */
	assert_int_equal(pt_map(&pt, 0xffffffff80200000ull, 0x30200000,
				0x200000, MAP_READ, WARDEN_MEMTYPE_WB),
			 0);
	assert_int_equal(entry_at(&pt, 0xffffffff80200000ull, 1),
			 0x30200000 | PTE_PRESENT | PTE_LARGE | PTE_NX);
	pt_destroy(&pt);
}

static void out_of_pages(void **state)
{
	struct page_pool small;
	struct page_table pt;
	void *mem = aligned_alloc(PAGE_SIZE, 4 * PAGE_SIZE);

	(void)state;
	assert_int_equal(pool_init(&small, (u64)mem, 0x1000000, 4), 0);
	assert_int_equal(pt_init(&pt, &vmx_ept_format, &small), 0);
	/* PML4 + PDPT + PD fit, the PT for a 4 KiB mapping does not */
	assert_int_equal(pt_map(&pt, 0x1000, 0x1000, 0x1000, MAP_READ,
				WARDEN_MEMTYPE_WB),
			 -WARDEN_ENOMEM);
	assert_int_equal(pool_init(&small, (u64)mem, 0x1000000, 1),
			 -WARDEN_ENOMEM);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pool_alloc_free),
		cmocka_unit_test(ept_entries_and_types),
		cmocka_unit_test(unmap_splits_large_pages),
		cmocka_unit_test(map_back_coalesces),
		cmocka_unit_test(host_format_entries),
		cmocka_unit_test(out_of_pages),
	};

	return cmocka_run_group_tests_name("paging", tests, setup, teardown);
}
