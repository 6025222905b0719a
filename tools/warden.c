// SPDX-License-Identifier: GPL-2.0
/* The warden command line tool: a thin front end to /dev/warden. */
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
	const char *summary;
} commands[] = {
	{ "enable", cmd_enable,
	  "enable <config>   load the hypervisor; Linux becomes the root "
	  "cell" },
	{ "disable", cmd_disable,
	  "disable           return Linux to bare metal" },
	{ "status", cmd_status,
	  "status [--json]   state, memory pool, VM exits per CPU" },
	{ "console", cmd_console,
	  "console [-f]      print the hypervisor console" },
	{ "hardware", cmd_hardware,
	  "hardware check    check that this machine can run Warden\n"
	  "  hardware dump     print the raw CPU facts the check judges" },
	{ "cell", cmd_cell,
	  "cell create [--check] <config>\n"
	  "                    create a cell (or only check its config)\n"
	  "  cell list         the cells, their state and CPUs\n"
	  "  cell destroy <cell>  give a cell's resources back to Linux" },
	{ "link", cmd_link,
	  "link list         the links, their peers and states" },
	{ "up", cmd_up,
	  "up [--etc DIR]    enable and start the cells of /etc/warden" },
	{ "down", cmd_down, "down              take down what up brought up" },
	{ "config", cmd_config,
	  "config compile    YAML config to the binary the driver takes\n"
	  "  config check      validate configs, alone and together\n"
	  "  config show       print a config as YAML\n"
	  "  config create     write a system config for this machine" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: warden [--help | --version] <command> [args]\n"
		     "\nCommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %s\n", commands[i].summary);
	fprintf(out, "\n'warden <command> --help' describes a command.\n"
		     "Exit status: 0 success, 1 a check failed, 2 error.\n");
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
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "warden: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_ERROR;
}
