// SPDX-License-Identifier: GPL-2.0
/*
 * "warden cell ...": the cell commands, as thin calls of the driver's
 * ioctls.  So far "cell create --check": the running hypervisor checks a
 * cell config against the system and the cells that exist, and nothing
 * changes (the cells issue adds creating, loading, starting and destroying
 * cells).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <warden/ioctl.h>

#include "config_report.h"
#include "config_yaml.h"
#include "warden.h"

static int usage(FILE *out)
{
	fprintf(out, "Usage: warden cell create --check <cell config>\n\n"
		     "create --check: the running hypervisor checks the cell "
		     "config "
		     "(YAML or\n  compiled) against the system config and the "
		     "cells that exist, exactly as\n  it will before creating "
		     "the "
		     "cell; nothing changes. A refusal says why,\n  with the "
		     "file "
		     "and line for a YAML config. (Creating cells is not "
		     "available\n  yet.)\n\n"
		     "Exit status: 0 valid, 1 refused by the hypervisor, 2 "
		     "error.\n");
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

static int cell_create(int argc, char **argv)
{
	struct warden_cell_create arg;
	struct cy_config c;
	const char *file = NULL;
	bool check = false;
	int i, fd, ret;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			check = true;
		else if (!strcmp(argv[i], "--help"))
			return usage(stdout);
		else if (argv[i][0] == '-' || file)
			return usage(stderr);
		else
			file = argv[i];
	}
	if (!file)
		return usage(stderr);
	if (cy_load_file(&c, file)) {
		config_print_diags(stderr, "warden: cell create: ", &c);
		cy_free(&c);
		return EXIT_ERROR;
	}
	fd = warden_open_device();
	if (fd < 0) {
		cy_free(&c);
		return EXIT_ERROR;
	}
	memset(&arg, 0, sizeof(arg));
	arg.config_ptr = (uintptr_t)c.blob;
	arg.config_size = (uint32_t)c.size;
	arg.flags = check ? WARDEN_CREATE_VALIDATE_ONLY : 0;
	ret = warden_ioctl_describe(fd, WARDEN_IOCTL_CELL_CREATE, &arg,
				    "cell create", describe_config_refusal, &c);
	close(fd);
	cy_free(&c);
	if (ret < 0)
		return arg.error.rule &&
				       arg.error.rule < WARDEN_RULE_CPU_OFFLINE
			       ? EXIT_CHECK_FAILED
			       : EXIT_ERROR;
	printf("%s: valid for the running system\n", file);
	return EXIT_OK;
}

int cmd_cell(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return cell_create(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout);
	return usage(stderr);
}
