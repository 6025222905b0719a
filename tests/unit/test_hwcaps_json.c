// SPDX-License-Identifier: GPL-2.0
/* tools/hwcaps_json.c: "warden hardware check --json" on recorded dumps
 * (tests/unit/fixtures): a machine that can run Warden, one that cannot,
 * and a verdict left open by an offline CPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "hwcaps_json.h"

static struct warden_hw_probe probes[4];

static char *report(const char *fixture, unsigned int skipped)
{
	struct hwcap_report rep;
	char path[512], *out = NULL;
	size_t n = 0, len = 0;
	FILE *f;
	int missing;

	snprintf(path, sizeof(path), "%s/%s", WARDEN_FIXTURES, fixture);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(hwcaps_read_dump(f, probes, 4, &n), 0);
	fclose(f);
	missing = hwcaps_evaluate(probes, n, &rep);
	f = open_memstream(&out, &len);
	hwcaps_print_json(f, &rep, n, skipped, missing);
	fclose(f);
	assert_non_null(out);
	return out;
}

static void can_run(void **state)
{
	char *out = report("bochs-skylake-x-2cpu.dump", 0);

	(void)state;
	assert_non_null(strstr(out, "{\"cpus\": 2, \"offline_cpus\": 0, "
				    "\"table\": \"vmx\", \"can_run\": true, "
				    "\"missing\": 0, \"features\": "
				    "[{\"name\": "));
	assert_null(strstr(out, "\"status\": \"MISSING\""));
	assert_non_null(strstr(out, "\"status\": \"ok\", \"cpu\": 0, "));
	assert_string_equal(out + strlen(out) - 4, "}]}\n");
	free(out);
}

static void cannot_run(void **state)
{
	char *out = report("qemu-novirt-2cpu.dump", 0);

	(void)state;
	assert_non_null(strstr(out, "\"can_run\": false"));
	assert_non_null(strstr(out, "\"status\": \"MISSING\""));
	assert_null(strstr(out, "\"missing\": 0,"));
	free(out);
}

static void offline_leaves_it_open(void **state)
{
	char *out = report("qemu-svm-2cpu.dump", 1);

	(void)state;
	assert_non_null(strstr(out, "\"offline_cpus\": 1, \"table\": \"svm\", "
				    "\"can_run\": false, \"missing\": 0"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(can_run),
		cmocka_unit_test(cannot_run),
		cmocka_unit_test(offline_leaves_it_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
