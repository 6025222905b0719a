// SPDX-License-Identifier: GPL-2.0
/*
 * The decoded-instruction cache (hypervisor/arch/x86/insn_cache.c): a hit
 * only while the key, the EPT generation, every paging-structure entry of
 * the walk and every instruction byte are what they were at the fill.
 * Host arrays stand for the hypervisor's windows onto guest memory.
 */
#include "cmocka_wrap.h"
#include <asm/insn_cache.h>
#include <string.h>

/* "Guest memory": a 4-level walk and the instruction
 * mov 0xffffffffff5fd0f0,%eax (native_apic_mem_read). */
static u64 tables[4];
static u8 code[16];
static const u8 insn_bytes[] = { 0x8b, 0x04, 0x25, 0xf0, 0xd0, 0x5f, 0xff };
static u64 gen;
static struct insn_cache cache;
static const struct insn_cache_key key = {
	.linear = 0xffffffff81041234ull,
	.cr3 = 0x1000,
	.mode = 0x80000401ull,
	.cell = &cache,
};

static int setup(void **state)
{
	const volatile u64 *where[4];
	struct mmio_insn insn;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		tables[i] = 0x2000 + i * 0x1000 + 0x23; /* P, RW, A */
		where[i] = &tables[i];
	}
	memset(code, 0x90, sizeof(code));
	memcpy(code, insn_bytes, sizeof(insn_bytes));
	gen = 4;
	memset(&cache, 0, sizeof(cache));
	assert_int_equal(insn_decode_mmio(code, sizeof(code), true, &insn),
			 INSN_OK);
	assert_true(insn_cache_store(insn_cache_victim(&cache), &key, gen, 4,
				     where, tables, code, code, &insn));
	return 0;
}

static void hit_while_unchanged(void **state)
{
	const struct mmio_insn *in;

	(void)state;
	in = insn_cache_lookup(&cache, &key, &gen);
	assert_non_null(in);
	assert_int_equal(in->length, 7);
	assert_false(in->write);
	assert_int_equal(in->reg, 0);
	assert_non_null(insn_cache_lookup(&cache, &key, &gen));
	assert_int_equal(cache.hits, 2);
	assert_int_equal(cache.misses, 0);
}

static void miss_on_other_key(void **state)
{
	struct insn_cache_key k = key;

	(void)state;
	k.linear++;
	assert_null(insn_cache_lookup(&cache, &k, &gen));
	k = key;
	k.cr3 = 0x5000; /* another address space */
	assert_null(insn_cache_lookup(&cache, &k, &gen));
	k = key;
	k.mode ^= 1; /* not 64-bit code any more */
	assert_null(insn_cache_lookup(&cache, &k, &gen));
	k = key;
	k.cell = &gen; /* the CPU is in another cell */
	assert_null(insn_cache_lookup(&cache, &k, &gen));
	assert_int_equal(cache.misses, 4);
	assert_non_null(insn_cache_lookup(&cache, &key, &gen));
}

static void miss_when_code_patched(void **state)
{
	(void)state;
	/* Linux rewrites the instruction: mov %eax -> mov %ecx */
	code[1] = 0x0c;
	assert_null(insn_cache_lookup(&cache, &key, &gen));
	code[1] = 0x04;
	assert_non_null(insn_cache_lookup(&cache, &key, &gen));
	/* a byte after the instruction does not matter */
	code[7] = 0xcc;
	assert_non_null(insn_cache_lookup(&cache, &key, &gen));
}

/* Every byte of an instruction of every length 1-15 is compared (the
 * compare uses overlapping word loads), and no byte after it. */
static void every_byte_checked(void **state)
{
	struct insn_cache_slot slot;
	struct mmio_insn insn = { 0 };
	u8 bytes[INSN_MAX_LEN + 1], live[INSN_MAX_LEN + 1];
	const volatile u64 *none[1] = { NULL };
	unsigned int len, i;

	(void)state;
	for (len = 1; len <= INSN_MAX_LEN; len++) {
		for (i = 0; i < sizeof(bytes); i++)
			bytes[i] = live[i] = (u8)(0x40 + i);
		insn.length = len;
		assert_true(insn_cache_store(&slot, &key, 4, 0, none, NULL,
					     live, bytes, &insn));
		for (i = 0; i < len; i++) {
			live[i] ^= 0x01;
			assert_false(insn_cache_store(&slot, &key, 4, 0, none,
						      NULL, live, bytes,
						      &insn));
			live[i] ^= 0x01;
		}
		live[len] ^= 0xff; /* after the instruction */
		assert_true(insn_cache_store(&slot, &key, 4, 0, none, NULL,
					     live, bytes, &insn));
	}
}

static void miss_when_translation_changes(void **state)
{
	unsigned int level;

	(void)state;
	/* any level of the walk: another table or page behind it */
	for (level = 0; level < 4; level++) {
		tables[level] += 0x1000;
		assert_null(insn_cache_lookup(&cache, &key, &gen));
		tables[level] -= 0x1000;
		assert_non_null(insn_cache_lookup(&cache, &key, &gen));
	}
	/* a dirty bit set by the CPU counts too: the entry changed */
	tables[3] |= 0x40;
	assert_null(insn_cache_lookup(&cache, &key, &gen));
}

static void miss_when_ept_changes(void **state)
{
	(void)state;
	gen++; /* a change is running */
	assert_null(insn_cache_lookup(&cache, &key, &gen));
	gen++; /* and done: the fill's translation may be gone */
	assert_null(insn_cache_lookup(&cache, &key, &gen));
}

static void store_refusals(void **state)
{
	const volatile u64 *where[INSN_CACHE_ENTRIES + 1] = { 0 };
	u64 values[INSN_CACHE_ENTRIES + 1] = { 0 };
	struct insn_cache_slot *s;
	struct mmio_insn insn;

	(void)state;
	assert_int_equal(insn_decode_mmio(code, sizeof(code), true, &insn),
			 INSN_OK);
	s = insn_cache_victim(&cache);
	/* odd generation: an EPT change was running during the walk */
	assert_false(insn_cache_store(s, &key, 5, 0, where, values, code, code,
				      &insn));
	/* more entries than a walk has */
	assert_false(insn_cache_store(s, &key, 4, INSN_CACHE_ENTRIES + 1, where,
				      values, code, code, &insn));
	/* the bytes mapped are not those decoded */
	code[0] = 0x89;
	assert_false(insn_cache_store(s, &key, 4, 0, where, values, code,
				      insn_bytes, &insn));
	assert_false(s->valid);
}

static void slots_replaced_round_robin(void **state)
{
	const volatile u64 *where[1] = { &tables[0] };
	struct insn_cache_key k = key;
	struct mmio_insn insn;
	unsigned int i;

	(void)state;
	assert_int_equal(insn_decode_mmio(code, sizeof(code), true, &insn),
			 INSN_OK);
	/* the first fill (setup) plus as many more as there are slots: the
	 * oldest goes */
	for (i = 1; i <= INSN_CACHE_SLOTS; i++) {
		k.linear = key.linear + i * 0x100;
		assert_true(insn_cache_store(insn_cache_victim(&cache), &k, gen,
					     1, where, tables, code, code,
					     &insn));
	}
	assert_null(insn_cache_lookup(&cache, &key, &gen));
	for (i = 1; i <= INSN_CACHE_SLOTS; i++) {
		k.linear = key.linear + i * 0x100;
		assert_non_null(insn_cache_lookup(&cache, &k, &gen));
	}
	insn_cache_flush(&cache);
	assert_null(insn_cache_lookup(&cache, &k, &gen));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(hit_while_unchanged, setup),
		cmocka_unit_test_setup(miss_on_other_key, setup),
		cmocka_unit_test_setup(miss_when_code_patched, setup),
		cmocka_unit_test_setup(every_byte_checked, setup),
		cmocka_unit_test_setup(miss_when_translation_changes, setup),
		cmocka_unit_test_setup(miss_when_ept_changes, setup),
		cmocka_unit_test_setup(store_refusals, setup),
		cmocka_unit_test_setup(slots_replaced_round_robin, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
