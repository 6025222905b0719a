// SPDX-License-Identifier: GPL-2.0
/* tools/yaml_json.c: the YAML of "config show" as JSON ("config show
 * --json"): types, nesting, escapes and what it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmocka_wrap.h"
#include "yaml_json.h"

/* yaml as JSON, or NULL with *why set */
static char *convert(const char *yaml, const char **why)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int ret;

	assert_non_null(f);
	ret = yaml_to_json(f, yaml, strlen(yaml), why);
	fclose(f);
	if (ret) {
		free(out);
		return NULL;
	}
	return out;
}

static void numbers_in_bytes(void **state)
{
	const char *why = NULL;
	char *j = convert("# a comment\n"
			  "cell:\n"
			  "  name: \"12\"\n"
			  "  size: 64M\n"
			  "  phys: 0x30600000\n"
			  "  baud: 115200\n"
			  "  type: wb\n"
			  "  msi: true\n"
			  "  msix: false\n",
			  &why);

	(void)state;
	assert_non_null(j);
	assert_string_equal(j, "{\n"
			       "  \"cell\": {\n"
			       "    \"name\": \"12\",\n"
			       "    \"size\": 67108864,\n"
			       "    \"phys\": 811597824,\n"
			       "    \"baud\": 115200,\n"
			       "    \"type\": \"wb\",\n"
			       "    \"msi\": true,\n"
			       "    \"msix\": false\n"
			       "  }\n"
			       "}\n");
	free(j);
}

/* CPU lists and port ranges are strings even when they hold one item,
 * so that a program reads one type; a quoted scalar is always one. */
static void lists_stay_strings(void **state)
{
	const char *why = NULL;
	char *j = convert("cpus: 1\n"
			  "ports:\n  - 0x60\n  - 0x3f8-0x3ff\n"
			  "irq_pins: [23, 4]\n"
			  "flags: []\n"
			  "bars:\n  - {bar: 0, size: 4K}\n",
			  &why);

	(void)state;
	assert_non_null(j);
	assert_string_equal(j, "{\n"
			       "  \"cpus\": \"1\",\n"
			       "  \"ports\": [\n"
			       "    \"0x60\",\n"
			       "    \"0x3f8-0x3ff\"\n"
			       "  ],\n"
			       "  \"irq_pins\": [\n"
			       "    23,\n"
			       "    4\n"
			       "  ],\n"
			       "  \"flags\": [],\n"
			       "  \"bars\": [\n"
			       "    {\n"
			       "      \"bar\": 0,\n"
			       "      \"size\": 4096\n"
			       "    }\n"
			       "  ]\n"
			       "}\n");
	free(j);
}

static void strings_escaped(void **state)
{
	const char *why = NULL;
	char *j = convert("name: \"a\\\"b\\\\c\\td\"\n", &why);

	(void)state;
	assert_non_null(j);
	assert_string_equal(j, "{\n  \"name\": \"a\\\"b\\\\c\\u0009d\"\n}\n");
	free(j);
}

static void refused(void **state)
{
	const char *why = NULL;

	(void)state;
	assert_null(convert("a: &x 1\nb: *x\n", &why));
	assert_non_null(why);
	why = NULL;
	assert_null(convert("a: [1, 2\n", &why));
	assert_string_equal(why, "is not YAML");
	why = NULL;
	assert_null(convert("? [1]\n: 2\n", &why));
	assert_string_equal(why, "has a key that is not a scalar");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_in_bytes),
		cmocka_unit_test(lists_stay_strings),
		cmocka_unit_test(strings_escaped),
		cmocka_unit_test(refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
