// SPDX-License-Identifier: GPL-2.0
/* The warden command line tool: a thin front end to /dev/warden. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/ioctl.h>

#include <warden/config.h>
#include <warden/ioctl.h>

#include "cmd_link.h"
#include "warden.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "enable", cmd_enable },
	{ "disable", cmd_disable },
	{ "status", cmd_status },
	{ "console", cmd_console },
	{ "hardware", cmd_hardware },
	{ "cell", cmd_cell },
	{ "link", cmd_link },
	{ "config", cmd_config },
	{ "up", cmd_up },
	{ "down", cmd_down },
};

/*
 * Every command and subcommand with its options: what --help lists, and
 * what --list-commands gives the bash completion and the test that holds
 * the man page and the completion to it (tests/cli/cli_test.py).  A new
 * command or option is one row here.
 */
static const struct command_row {
	const char *command, *sub; /* sub "" for a command without */
	const char *options;	   /* every option, space-separated */
	const char *summary;
} rows[] = {
	{ "enable", "", "",
	  "load the hypervisor; Linux becomes the root cell" },
	{ "disable", "", "", "return Linux to bare metal" },
	{ "status", "", "--json", "state, memory pool, VM exits per CPU" },
	{ "console", "", "-f --json",
	  "the hypervisor console, or one cell's output" },
	{ "hardware", "check", "--from --json",
	  "check that this machine can run Warden" },
	{ "hardware", "dump", "--json",
	  "print the raw CPU facts the check judges" },
	{ "cell", "create", "--check",
	  "create a cell (or only check its config)" },
	{ "cell", "load", "-a -s --cmdline",
	  "copy ELF or flat images (and a command line) into a cell" },
	{ "cell", "run", "-a -s --cmdline",
	  "create, load and start a cell in one step" },
	{ "cell", "linux", "--initrd --cmdline",
	  "create a cell and boot a stock Linux kernel in it" },
	{ "cell", "start", "", "start a cell's CPUs at its reset address" },
	{ "cell", "shutdown", "", "ask a cell to stop" },
	{ "cell", "list", "--json", "the cells, their state and CPUs" },
	{ "cell", "stats", "--json --watch",
	  "a cell's VM exits, total and per second" },
	{ "cell", "destroy", "", "give a cell's resources back to Linux" },
	{ "link", "list", "--json", "the links, their peers and states" },
	{ "link", "ping", "-c -p -s -q",
	  "round trips to a link peer's echo, timed" },
	{ "config", "compile", "-o --no-check",
	  "YAML config to the binary the driver takes" },
	{ "config", "check", "", "validate configs, alone and together" },
	{ "config", "show", "--json", "print a config as YAML or JSON" },
	{ "config", "create",
	  "-o --root --hv-size --probe-intx --suggest-reservation",
	  "write a system config for this machine" },
	{ "up", "", "--etc", "enable and start the cells of /etc/warden" },
	{ "down", "", "", "take down what up brought up" },
};

#define N_ROWS (sizeof(rows) / sizeof(rows[0]))
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	char head[64];
	size_t i;

	fprintf(out, "Usage: warden [--help | --version] <command> [args]\n"
		     "\nCommands:\n");
	for (i = 0; i < N_ROWS; i++) {
		snprintf(head, sizeof(head), "%s%s%s", rows[i].command,
			 *rows[i].sub ? " " : "", rows[i].sub);
		fprintf(out, "  %-16s %s\n", head, rows[i].summary);
	}
	fprintf(out, "\n'warden <command> --help' describes a command and its "
		     "options.\n"
		     "Exit status: 0 success, 1 a check failed (an invalid "
		     "config, a missing\nfeature), 2 error (usage, a file, a "
		     "refused request).\n");
}

/* For the completion and the tests: "command subcommand options...", one
 * row a line ("-" for no subcommand). */
static int list_commands(void)
{
	size_t i;

	for (i = 0; i < N_ROWS; i++)
		printf("%s %s%s%s\n", rows[i].command,
		       *rows[i].sub ? rows[i].sub : "-",
		       *rows[i].options ? " " : "", rows[i].options);
	return EXIT_OK;
}

/* Whether command takes subcommands and word is none of them (nor a
 * request for help): then it is named before anything runs. */
static bool unknown_sub(const char *command, const char *word)
{
	bool has_subs = false;
	size_t i;

	for (i = 0; i < N_ROWS; i++) {
		if (strcmp(rows[i].command, command) || !*rows[i].sub)
			continue;
		has_subs = true;
		if (!strcmp(rows[i].sub, word))
			return false;
	}
	return has_subs && strcmp(word, "--help") && strcmp(word, "-h") &&
	       strcmp(word, "help");
}

static int version(void)
{
	struct warden_version v;
	int fd;

	printf("warden %s (ABI revision %d, config revision %d)\n",
	       WARDEN_VERSION, WARDEN_ABI_REVISION, WARDEN_CONFIG_REVISION);
	fd = open(WARDEN_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("driver: not loaded\n");
		return EXIT_OK;
	}
	memset(&v, 0, sizeof(v));
	if (ioctl(fd, WARDEN_IOCTL_GET_VERSION, &v) == 0) {
		printf("driver: %.*s (ABI revision %u)%s\n",
		       (int)sizeof(v.driver_version), v.driver_version,
		       v.abi_revision,
		       v.abi_revision == WARDEN_ABI_REVISION ? ""
							     : " -- MISMATCH: "
							       "use a CLI "
							       "built for this "
							       "driver");
	} else {
		printf("driver: loaded, but does not answer GET_VERSION\n");
	}
	close(fd);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		return version();
	if (!strcmp(argv[1], "--list-commands"))
		return list_commands();
	for (i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (argc >= 3 && unknown_sub(argv[1], argv[2])) {
			fprintf(stderr,
				"warden: unknown %s command '%s' (see "
				"'warden %s --help')\n",
				argv[1], argv[2], argv[1]);
			return EXIT_ERROR;
		}
		return commands[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr, "warden: unknown command '%s' (see 'warden --help')\n",
		argv[1]);
	return EXIT_ERROR;
}
