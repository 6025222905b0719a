// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the config validator (common/config_check/).
 *
 * An input is checked
 *  - whole, as a system config and as a cell config (against the valid
 *    system and cell B of tests/unit/config_builder.h);
 *  - split into blobs, each as long as its header's total_size says (the
 *    rest of the input when that does not fit): system, cell, others.  The
 *    cell is checked against the fuzzed system and others and against the
 *    valid system, and the valid cell A against the fuzzed others.
 * Every blob is copied into a heap buffer of exactly its size, so that
 * AddressSanitizer catches a read past its end.  The sink aborts on a
 * malformed record or a count that disagrees with the records.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config_builder.h"
#include <config_check.h>

#define MAX_PARTS 5

static void sink(void *ctx, const struct warden_error *err)
{
	unsigned int *n = ctx;

	if (err->cpu != WARDEN_NO_CPU || err->rule == WARDEN_RULE_NONE ||
	    err->item_kind == WARDEN_ITEM_NONE || err->code >= 0 ||
	    err->text[0] || err->reserved)
		abort();
	(*n)++;
}

static uint8_t *copy(const uint8_t *p, size_t n)
{
	uint8_t *q = malloc(n ? n : 1);

	if (!q)
		abort();
	if (n)
		memcpy(q, p, n);
	return q;
}

static size_t next_len(const uint8_t *p, size_t left)
{
	uint32_t total;

	if (left < sizeof(struct warden_config_header))
		return left;
	total = (uint32_t)p[12] | (uint32_t)p[13] << 8 | (uint32_t)p[14] << 16 |
		(uint32_t)p[15] << 24;
	if (total >= sizeof(struct warden_config_header) && total <= left)
		return total;
	return left;
}

static void check_system(const void *blob, size_t size)
{
	unsigned int n = 0;

	if (config_check_system(blob, size, sink, &n) != n)
		abort();
}

static void check_cell(const void *blob, size_t size, const void *sys,
		       size_t sys_size, const void *const *others,
		       const size_t *sizes, size_t n_others)
{
	unsigned int n = 0;

	if (config_check_cell(blob, size, sys, sys_size, others, sizes,
			      n_others, sink, &n) != n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cb_blob sys, a, b;
	static int ready;
	const void *parts[MAX_PARTS];
	const void *valid_b[1];
	size_t lens[MAX_PARTS], valid_b_size[1];
	size_t off = 0, k = 0, i;
	uint8_t *whole;

	if (!ready) {
		cb_system(&sys);
		cb_cell(&a, 0);
		cb_cell(&b, 1);
		ready = 1;
	}
	valid_b[0] = b.u.bytes;
	valid_b_size[0] = b.size;

	whole = copy(data, size);
	check_system(whole, size);
	check_cell(whole, size, sys.u.bytes, sys.size, valid_b, valid_b_size,
		   1);
	free(whole);

	while (off < size && k < MAX_PARTS) {
		lens[k] = next_len(data + off, size - off);
		parts[k] = copy(data + off, lens[k]);
		off += lens[k];
		k++;
	}
	if (k >= 2) {
		check_system(parts[0], lens[0]);
		check_cell(parts[1], lens[1], parts[0], lens[0], parts + 2,
			   lens + 2, k - 2);
		check_cell(parts[1], lens[1], sys.u.bytes, sys.size, parts + 2,
			   lens + 2, k - 2);
		check_cell(a.u.bytes, a.size, sys.u.bytes, sys.size, parts + 1,
			   lens + 1, k - 1);
	}
	for (i = 0; i < k; i++)
		free((void *)parts[i]);
	return 0;
}
