// SPDX-License-Identifier: GPL-2.0
/* tools/cli_args.c: flags and one operand, as cell create, cell stats and
 * console take them. */
#include <string.h>

#include "cli_args.h"
#include "cmocka_wrap.h"

static const char *const flags[] = { "--json", "--watch", NULL };

static int parse(const char *line, bool set[2], const char **operand)
{
	static char buf[256];
	char *argv[16];
	int argc = 0;

	strcpy(buf, line);
	for (char *w = strtok(buf, " "); w && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	set[0] = set[1] = false;
	return args_flags(argc, argv, flags, set, operand);
}

static void flags_anywhere(void **state)
{
	const char *op;
	bool set[2];

	(void)state;
	assert_int_equal(parse("stats --watch apic-demo", set, &op), ARGS_OK);
	assert_string_equal(op, "apic-demo");
	assert_false(set[0]);
	assert_true(set[1]);
	assert_int_equal(parse("stats apic-demo --json --watch", set, &op),
			 ARGS_OK);
	assert_true(set[0] && set[1]);
	assert_int_equal(parse("stats", set, &op), ARGS_OK);
	assert_null(op);
}

static void refusals(void **state)
{
	const char *op;
	bool set[2];

	(void)state;
	assert_int_equal(parse("stats apic-demo --frob", set, &op), ARGS_BAD);
	assert_int_equal(parse("stats one two", set, &op), ARGS_BAD);
	assert_int_equal(parse("stats one --help --frob", set, &op), ARGS_HELP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flags_anywhere),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
