// SPDX-License-Identifier: GPL-2.0
/*
 * "warden up" and "warden down": the whole setup of /etc/warden brought up
 * and taken down in one command, for the systemd unit (warden.service).
 * up enables the hypervisor with system.yaml, then creates, loads and
 * starts each cell of cells/<name>.yaml whose boot section says start: true,
 * in file-name order, through the same code as "warden enable" and "warden
 * cell ..." (so that each step's refusal reads the same; a Linux cell's
 * boot.linux through "warden cell linux").  Every boot
 * section is read before anything changes; the first step that fails
 * stops the rest and is named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_plan.h"
#include "warden.h"

#define DEFAULT_ETC "/etc/warden"

static int usage(FILE *out, const char *cmd)
{
	if (!strcmp(cmd, "down"))
		fprintf(out, "Usage: warden down\n\n"
			     "Takes down what 'warden up' brought up: destroys "
			     "the cells and disables\nthe hypervisor "
			     "('warden disable').\n\n"
			     "Exit status: 0 down, 2 refused or error.\n");
	else
		fprintf(out, "Usage: warden up [--etc DIR]\n\n"
			     "Enables the hypervisor with DIR/system.yaml "
			     "(default "
			     "DIR: " DEFAULT_ETC "), then\ncreates, loads and "
			     "starts each cell of DIR/cells/*.yaml, in "
			     "file-name "
			     "order,\nwhose 'boot:' section says 'start: true' "
			     "(docs/install.md). Every config is\nread first; "
			     "the "
			     "first step that fails stops the rest, and what "
			     "is "
			     "up stays up\n('warden down' takes it down).\n\n"
			     "Exit status: 0 up, 2 refused or error.\n");
	return out == stdout ? EXIT_OK : EXIT_ERROR;
}

/* Runs "warden cell load" for plan p: its images, then its command line. */
static int load(const struct boot_plan *p)
{
	char *argv[3 + 4 * BOOT_MAX_IMAGES + 4];
	char addr[BOOT_MAX_IMAGES + 1][24];
	int argc = 0;
	size_t i;

	argv[argc++] = "cell";
	argv[argc++] = "load";
	argv[argc++] = (char *)p->name;
	for (i = 0; i < p->n_images; i++) {
		snprintf(addr[i], sizeof(addr[i]), "0x%llx",
			 (unsigned long long)p->images[i].address);
		argv[argc++] = (char *)p->images[i].file;
		argv[argc++] = "-a";
		argv[argc++] = addr[i];
	}
	if (p->has_cmdline) {
		snprintf(addr[i], sizeof(addr[i]), "0x%llx",
			 (unsigned long long)p->cmdline_address);
		argv[argc++] = "-s";
		argv[argc++] = (char *)p->cmdline;
		argv[argc++] = "-a";
		argv[argc++] = addr[i];
	}
	argv[argc] = NULL;
	return cmd_cell(argc, argv);
}

/* "warden cell linux" for plan p: create, load and start in one. */
static int bring_up_linux(const char *file, const struct boot_plan *p)
{
	char *argv[9];
	int argc = 0;

	argv[argc++] = "cell";
	argv[argc++] = "linux";
	argv[argc++] = (char *)file;
	argv[argc++] = (char *)p->linux_kernel;
	if (p->linux_initrd[0]) {
		argv[argc++] = "--initrd";
		argv[argc++] = (char *)p->linux_initrd;
	}
	if (p->linux_cmdline[0]) {
		argv[argc++] = "--cmdline";
		argv[argc++] = (char *)p->linux_cmdline;
	}
	argv[argc] = NULL;
	return cmd_cell(argc, argv);
}

/* create, load, start: the name of the step that failed, or NULL */
static const char *bring_up(const char *file, const struct boot_plan *p)
{
	char *create[] = { "cell", "create", (char *)file, NULL };
	char *start[] = { "cell", "start", (char *)p->name, NULL };

	if (p->linux_kernel[0])
		return bring_up_linux(file, p) == EXIT_OK ? NULL : "cell linux";

	if (cmd_cell(3, create) != EXIT_OK)
		return "create";
	if (load(p) != EXIT_OK)
		return "load";
	if (cmd_cell(3, start) != EXIT_OK)
		return "start";
	return NULL;
}

static int up(const char *etc)
{
	char system[BOOT_PATH_MAX], cells[BOOT_PATH_MAX], err[600];
	char *enable[] = { "enable", system, NULL };
	struct boot_plan *plans;
	const char *failed;
	char **files;
	int n, i, ret = EXIT_ERROR;

	snprintf(system, sizeof(system), "%s/system.yaml", etc);
	snprintf(cells, sizeof(cells), "%s/cells", etc);
	n = boot_cells(cells, &files, err, sizeof(err));
	if (n < 0) {
		/* no cells folder: a system with no cells yet */
		n = 0;
		files = calloc(1, sizeof(*files));
		if (!files)
			return EXIT_ERROR;
	}
	plans = calloc((size_t)n + 1, sizeof(*plans));
	if (!plans)
		goto out;
	for (i = 0; i < n; i++) {
		if (boot_plan_read(files[i], &plans[i], err, sizeof(err))) {
			fprintf(stderr, "warden: up: %s; nothing was done\n",
				err);
			goto out;
		}
	}
	if (cmd_enable(2, enable) != EXIT_OK) {
		fprintf(stderr,
			"warden: up: enable with %s failed (above); nothing "
			"else was done\n",
			system);
		goto out;
	}
	printf("up: enabled with %s\n", system);
	for (i = 0; i < n; i++) {
		if (!plans[i].start) {
			printf("up: cell %s (%s): not started at boot\n",
			       plans[i].name, files[i]);
			continue;
		}
		failed = bring_up(files[i], &plans[i]);
		if (failed) {
			fprintf(stderr,
				"warden: up: cell %s (%s): %s failed "
				"(above); the cells after it were not "
				"started, and what is up stays up ('warden "
				"down' takes it down)\n",
				plans[i].name, files[i], failed);
			goto out;
		}
		printf("up: cell %s running\n", plans[i].name);
	}
	ret = EXIT_OK;
out:
	free(plans);
	free(files);
	return ret;
}

int cmd_up(int argc, char **argv)
{
	/* each step's lines in order with its errors (a pipe or the
	 * journal would get stdout in one block at exit) */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout, "up");
	if (argc == 1)
		return up(DEFAULT_ETC);
	if (argc == 3 && !strcmp(argv[1], "--etc"))
		return up(argv[2]);
	return usage(stderr, "up");
}

int cmd_down(int argc, char **argv)
{
	char *disable[] = { "disable", NULL };

	if (argc == 2 && !strcmp(argv[1], "--help"))
		return usage(stdout, "down");
	if (argc != 1)
		return usage(stderr, "down");
	return cmd_disable(1, disable);
}
