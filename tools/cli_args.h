/* SPDX-License-Identifier: GPL-2.0 */
/* The arguments of a subcommand that takes flags and one operand
 * (cell create, cell stats, console): one parser, one set of rules. */
#ifndef WARDEN_TOOLS_CLI_ARGS_H
#define WARDEN_TOOLS_CLI_ARGS_H

#include <stdbool.h>

enum { ARGS_OK, ARGS_HELP, ARGS_BAD };

/*
 * argv[1..argc-1]: each of flags (a NULL-terminated list) sets its set[]
 * entry; one word not starting with '-' is the operand (*operand, NULL
 * when none).  ARGS_HELP for --help anywhere, ARGS_BAD for another
 * option or a second operand.
 */
int args_flags(int argc, char **argv, const char *const flags[], bool set[],
	       const char **operand);

#endif /* WARDEN_TOOLS_CLI_ARGS_H */
