// SPDX-License-Identifier: GPL-2.0
/* The arguments of a subcommand with flags and one operand (cli_args.h). */
#include <string.h>

#include "cli_args.h"

int args_flags(int argc, char **argv, const char *const flags[], bool set[],
	       const char **operand)
{
	int i, f;

	*operand = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help"))
			return ARGS_HELP;
		for (f = 0; flags[f] && strcmp(argv[i], flags[f]); f++)
			;
		if (flags[f])
			set[f] = true;
		else if (argv[i][0] == '-' || *operand)
			return ARGS_BAD;
		else
			*operand = argv[i];
	}
	return ARGS_OK;
}
