// SPDX-License-Identifier: GPL-2.0
/*
 * "warden link": the links of the running system (docs/cli.md).  The
 * subcommands are in one table, so that adding one is one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_link.h"
#include "link_ping.h"
#include "link_sysfs.h"
#include "warden.h"

static const struct link_subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary; /* for the usage text, after the name */
} subcommands[] = {
	{ "list", link_list_main,
	  "the links, their peers and states (from /sys/kernel/warden/links)" },
	{ "ping", cmd_link_ping,
	  "NAME [-c N] [-p PEER] [-s SIZE] [-q]: round trips to a peer's "
	  "echo, timed" },
};

#define N_SUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

static int usage(FILE *out, int ret)
{
	size_t i;

	fprintf(out, "Usage: warden link <subcommand> [args]\n\n");
	for (i = 0; i < N_SUBCOMMANDS; i++)
		fprintf(out, "  %-6s %s\n", subcommands[i].name,
			subcommands[i].summary);
	fputs("\nLinks are shared memory between the root cell and cells "
	      "(system config,\n'links:'); they exist while Warden is "
	      "enabled. 'warden link <subcommand>\n--help' describes a "
	      "subcommand.\n",
	      out);
	return ret;
}

int cmd_link(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return usage(stderr, EXIT_ERROR);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return usage(stdout, EXIT_OK);
	for (i = 0; i < N_SUBCOMMANDS; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "warden: link: unknown subcommand '%s'\n", argv[1]);
	return usage(stderr, EXIT_ERROR);
}

int link_list_main(int argc, char **argv)
{
	struct link_state *links;
	char err[1024];
	bool json;
	size_t n;
	int r;

	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("Usage: warden link list [--json]\n\nEvery link of the "
		       "system "
		       "config while Warden is enabled: its memory and\n"
		       "access, and per peer its index, cell, virtual PCI "
		       "function, MSI-X vectors,\nwhether its cell exists "
		       "(present) and whether it has set its state up; for\n"
		       "root's peer the character device and the net "
		       "interface. --json: the same as one JSON array.\n\nExit "
		       "status: 0 listed (also none), 2 "
		       "Warden not enabled or the driver's\nlist "
		       "unreadable.\n");
		return EXIT_OK;
	}
	json = argc == 2 && !strcmp(argv[1], "--json");
	if (argc != 1 && !json) {
		fprintf(stderr, "Usage: warden link list [--json]\n");
		return EXIT_ERROR;
	}
	r = link_enabled(LINK_SYSFS);
	if (r == -ENOENT) {
		fprintf(stderr,
			"warden: link list: %s/kernel/warden does not exist: "
			"load the driver first (modprobe warden, or insmod "
			"warden.ko)\n",
			LINK_SYSFS);
		return EXIT_ERROR;
	}
	if (r < 0) {
		fprintf(stderr,
			"warden: link list: %s/kernel/warden/enabled: %s\n",
			LINK_SYSFS, strerror(-r));
		return EXIT_ERROR;
	}
	if (!r) {
		fprintf(stderr, "warden: link list: Warden is not enabled: "
				"links exist while it is ('warden enable')\n");
		return EXIT_ERROR;
	}
	r = link_read_all(LINK_SYSFS, &links, &n, err, sizeof(err));
	if (r == -ENOENT) {
		fprintf(stderr,
			"warden: link list: %s: the driver lists no links "
			"(a warden.ko without links?)\n",
			err);
		return EXIT_ERROR;
	}
	if (r) {
		fprintf(stderr, "warden: link list: %s\n", err);
		return EXIT_ERROR;
	}
	if (json)
		link_print_json(stdout, links, n);
	else if (!n)
		printf("No links: the system config has none\n");
	else
		link_print_table(stdout, links, n);
	free(links);
	return EXIT_OK;
}
