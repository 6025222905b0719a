// SPDX-License-Identifier: GPL-2.0
/*
 * What the CLI's commands share (contracts in warden.h): a config loaded
 * and the device opened, refusals described with file:line, the cells as
 * the driver lists them, a cell named by number or name, their PCI
 * functions, and the names of the exit counters.  Below every cmd_*.c
 * file, so that none of them needs another.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <warden/cell.h>
#include <warden/ioctl.h>

#include "cli_args.h"
#include "config_report.h"
#include "config_values.h"
#include "config_yaml.h"
#include "errmsg.h"
#include "json_out.h"
#include "pci_linux.h"
#include "warden.h"

const char *const stat_names[WARDEN_NUM_STATS] = {
	"total",     "cpuid",	   "cr",	"msr_read",
	"msr_write", "x2apic_icr", "xapic",	"xsetbv",
	"pio",	     "mmio",	   "hypercall", "management",
	"nmi",	     "init_sipi",  "exception", "other",
};

void describe_config_refusal(void *ctx, const struct warden_error *e, char *buf,
			     size_t len)
{
	const struct cy_config *c = ctx;

	if (c->yaml && config_rule(e->rule) && e->item_kind != WARDEN_ITEM_NONE)
		config_describe(c, e, buf, len);
	else
		warden_error_describe(e, buf, len);
}

int config_open_device(struct cy_config *c, const char *file, const char *what,
		       int *status)
{
	char prefix[64];
	int fd;

	snprintf(prefix, sizeof(prefix), "warden: %s: ", what);
	if (cy_load_file(c, file)) {
		config_print_diags(stderr, prefix, c);
		/* one message without a line: the file itself is the
		 * problem (its errno text), not what it says */
		*status = c->n_diags == 1 && !c->diags[0].line && !c->yaml
				  ? EXIT_ERROR
				  : EXIT_CHECK_FAILED;
		cy_free(c);
		return -1;
	}
	/* Without the driver, the config's own errors come first: the user
	 * fixes them before loading it, not after. */
	if (access(WARDEN_DEVICE, F_OK) && errno == ENOENT) {
		if (config_validate(stderr, prefix, c, NULL, NULL, 0)) {
			*status = EXIT_CHECK_FAILED;
			cy_free(c);
			return -1;
		}
		fprintf(stderr,
			"warden: %s: %s is valid on its own; the running "
			"system checks the rest\n",
			what, file);
	}
	fd = warden_open_device();
	*status = EXIT_ERROR;
	if (fd < 0)
		cy_free(c);
	return fd;
}

/* Fill info for the cell at index; false when there is none. */
bool cell_at(int fd, uint32_t index, struct warden_cell_info *info)
{
	memset(info, 0, sizeof(*info));
	info->index = index;
	return ioctl(fd, WARDEN_IOCTL_CELL_INFO, info) == 0;
}

uint32_t resolve_cell(int fd, const char *arg, const char *what)
{
	struct warden_cell_info info;
	unsigned long id;
	char *end;
	uint32_t i;

	id = strtoul(arg, &end, 0);
	if (*end != 0 || end == arg) {
		for (i = 0; cell_at(fd, i, &info); i++)
			if (!strncmp(info.name, arg, sizeof(info.name)))
				break;
		if (!cell_at(fd, i, &info)) {
			fprintf(stderr,
				"warden: %s: no cell named '%s' (see 'warden "
				"cell list')\n",
				what, arg);
			return 0;
		}
		id = info.cell_id;
	}
	/* 0 means "none" to the callers: say why instead of failing mute */
	if (id == WARDEN_ROOT_CELL_ID)
		fprintf(stderr,
			"warden: %s: '%s' is the root cell, Linux itself: "
			"this takes another cell (see 'warden status' for "
			"root)\n",
			what, arg);
	return (uint32_t)id;
}

/* The PCI functions of cell id as the driver lists them: their number
 * (0 after a warning if they cannot be read). */
unsigned int cell_functions(uint32_t id, struct pci_fn *fns, unsigned int max,
			    const char *what)
{
	int n = pci_cell_functions(PCI_SYSFS, id, fns, max);

	if (n >= 0)
		return (unsigned int)n;
	fprintf(stderr,
		"warden: %s: warning: cannot read the PCI functions of cell "
		"%u (%s/kernel/warden/cells/%u/pci_devices: %s; an older "
		"driver?): they will not be given back to Linux\n",
		what, id, PCI_SYSFS, id, strerror(-n));
	return 0;
}

unsigned int cells_pci_functions(int fd, struct pci_fn *fns, unsigned int max,
				 const char *what)
{
	struct warden_cell_info info;
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; cell_at(fd, i, &info); i++)
		n += cell_functions(info.cell_id, fns + n, max - n, what);
	return n;
}

/* (warden.h) */
int cli_read_file(const char *what, const char *path, void **data, size_t *size)
{
	struct stat st;
	ssize_t got;
	size_t done = 0;
	int fd, err;

	*data = NULL;
	errno = 0; /* a short read says nothing in errno: EIO then */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		fprintf(stderr,
			"warden: %s: cannot read %s: not a regular "
			"file\n",
			what, path);
		return -1;
	}
	*data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!*data)
		goto fail;
	while (done < (size_t)st.st_size &&
	       (got = read(fd, (char *)*data + done,
			   (size_t)st.st_size - done)) > 0)
		done += (size_t)got;
	if (done != (size_t)st.st_size)
		goto fail;
	close(fd);
	*size = done;
	return 0;
fail:
	err = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	free(*data);
	*data = NULL;
	fprintf(stderr, "warden: %s: cannot read %s: %s\n", what, path,
		strerror(err));
	return -1;
}
