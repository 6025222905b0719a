// SPDX-License-Identifier: GPL-2.0
/*
 * "warden cell ...": the cell commands, as thin calls of the driver's
 * ioctls: create (or only check) a cell, list and destroy cells.  Loading
 * and starting inmates come next (the cells issue).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <string.h>
#include <unistd.h>

#include <warden/cell.h>
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
	if (check)
		printf("%s: valid for the running system\n", file);
	else
		printf("Cell %u created\n", arg.cell_id);
	return EXIT_OK;
}

static const char *cell_state(uint32_t state)
{
	switch (state) {
	case WARDEN_CELL_RUNNING:
		return "running";
	case WARDEN_CELL_RUNNING_LOCKED:
		return "running/locked";
	case WARDEN_CELL_SHUT_DOWN:
		return "shut down";
	case WARDEN_CELL_FAILED:
		return "failed";
	case WARDEN_CELL_CREATED:
		return "created";
	case WARDEN_CELL_LOADING:
		return "loading";
	}
	return "unknown";
}

/* CPU set as a list with ranges: "1", "2-3,5". */
static void print_cpus(const struct warden_cpu_set *set)
{
	unsigned int cpu, first;
	bool any = false;

	for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++) {
		if (!(set->bits[cpu / 64] & (1ull << (cpu % 64))))
			continue;
		first = cpu;
		while (cpu + 1 < WARDEN_MAX_CPUS &&
		       (set->bits[(cpu + 1) / 64] & (1ull << ((cpu + 1) % 64))))
			cpu++;
		printf(first == cpu ? "%s%u" : "%s%u-%u", any ? "," : "", first,
		       cpu);
		any = true;
	}
	if (!any)
		printf("-");
}

/* Fill info for the cell at index; false when there is none. */
static bool cell_at(int fd, uint32_t index, struct warden_cell_info *info)
{
	memset(info, 0, sizeof(*info));
	info->index = index;
	return ioctl(fd, WARDEN_IOCTL_CELL_INFO, info) == 0;
}

static int cell_list(int argc, char **argv)
{
	struct warden_cell_info info;
	uint32_t i;
	int fd;

	if (argc != 1)
		return usage(strcmp(argv[1], "--help") ? stderr : stdout);
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	printf("%-4s %-24s %-10s %s\n", "id", "name", "state", "cpus");
	for (i = 0; cell_at(fd, i, &info); i++) {
		printf("%-4u %-24.*s %-10s ", info.cell_id,
		       (int)sizeof(info.name), info.name,
		       cell_state(info.state));
		print_cpus(&info.cpus);
		printf("\n");
	}
	close(fd);
	return EXIT_OK;
}

static int cell_destroy(int argc, char **argv)
{
	struct warden_cell_info info;
	struct warden_cell_ref arg;
	char *end;
	unsigned long id;
	uint32_t i;
	int fd, ret;

	if (argc != 2 || !strcmp(argv[1], "--help"))
		return usage(argc == 2 ? stdout : stderr);
	fd = warden_open_device();
	if (fd < 0)
		return EXIT_ERROR;
	id = strtoul(argv[1], &end, 0);
	if (*end || end == argv[1]) { /* a name */
		id = 0;
		for (i = 0; cell_at(fd, i, &info); i++)
			if (!strncmp(info.name, argv[1], sizeof(info.name)))
				id = info.cell_id;
		if (!id) {
			fprintf(stderr,
				"warden: cell destroy: no cell named "
				"'%s' (see 'warden cell list')\n",
				argv[1]);
			close(fd);
			return EXIT_ERROR;
		}
	}
	memset(&arg, 0, sizeof(arg));
	arg.cell_id = (uint32_t)id;
	ret = warden_ioctl(fd, WARDEN_IOCTL_CELL_DESTROY, &arg, "cell destroy");
	close(fd);
	if (ret < 0)
		return EXIT_ERROR;
	printf("Cell %lu destroyed\n", id);
	return EXIT_OK;
}

int cmd_cell(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "create"))
		return cell_create(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "list"))
		return cell_list(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "destroy"))
		return cell_destroy(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout);
	return usage(stderr);
}
