/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recorded "warden hardware dump" files of tests/unit/fixtures, loaded for
 * the capability evaluator's tests (test_hwcaps.c, test_hwcaps_host.c).
 */
#ifndef WARDEN_TESTS_DUMP_FIXTURE_H
#define WARDEN_TESTS_DUMP_FIXTURE_H

#include <stdio.h>

#include "cmocka_wrap.h"
#include "hwcaps.h"

/* Loads fixture name into probes[0..max-1]: the number of CPUs. */
static inline size_t load(const char *name, struct warden_hw_probe *probes,
			  size_t max)
{
	char path[512];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", WARDEN_FIXTURES, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open fixture %s", path);
	assert_int_equal(hwcaps_read_dump(f, probes, max, &n), 0);
	fclose(f);
	return n;
}

#endif /* WARDEN_TESTS_DUMP_FIXTURE_H */
