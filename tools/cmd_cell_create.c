// SPDX-License-Identifier: GPL-2.0
/*
 * "cell create": the config checked by the running system, the cell's PCI
 * functions taken from Linux around the create, given back if it fails
 * (contract of cell_create_file in warden.h).  Used by "cell create" and
 * "cell run".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* A refusal of "cell create": the sentence, and the name of the other
 * cell it mentions (the hypervisor knows cells by id only). */
struct create_ctx {
	struct cy_config *config;
	int fd;
};

static void describe_create_refusal(void *ctx, const struct warden_error *e,
				    char *buf, size_t len)
{
	const struct create_ctx *cc = ctx;
	struct warden_cell_info info;
	char needle[40];
	int v = warden_rule_other_cell_value(e->rule);
	uint64_t other = v >= 0 ? e->values[v] : 0;
	size_t used;
	uint32_t i;

	describe_config_refusal(cc->config, e, buf, len);
	snprintf(needle, sizeof(needle), "cell %llu (\"",
		 (unsigned long long)other);
	if (!other || strstr(buf, needle))
		return; /* nothing to add, or the sentence names it already */
	for (i = 0; cell_at(cc->fd, i, &info); i++)
		if (info.cell_id == other) {
			used = strlen(buf);
			snprintf(buf + used, len - used, " (\"%.*s\")",
				 (int)sizeof(info.name), info.name);
			return;
		}
}

/* The create ioctl with flags; 0, or the exit status after the refusal
 * was said. */
static int create_ioctl(int fd, struct cy_config *c, uint32_t flags,
			uint32_t *cell_id)
{
	struct warden_cell_create arg;
	struct create_ctx ctx = { .config = c, .fd = fd };
	int ret;

	memset(&arg, 0, sizeof(arg));
	arg.config_ptr = (uintptr_t)c->blob;
	arg.config_size = (uint32_t)c->size;
	arg.flags = flags;
	ret = warden_ioctl_describe(fd, WARDEN_IOCTL_CELL_CREATE, &arg,
				    "cell create", describe_create_refusal,
				    &ctx);
	if (ret >= 0) {
		*cell_id = arg.cell_id;
		return EXIT_OK;
	}
	return arg.error.rule && config_rule(arg.error.rule) &&
			       arg.error.rule != WARDEN_RULE_MEM_NOT_RESERVED
		       ? EXIT_CHECK_FAILED
		       : EXIT_ERROR;
}

/*
 * Create with PCI functions: the hypervisor checks the config first, then
 * Linux lets go of the functions, then the cell is created; a failure
 * after the functions went gives them back.
 */
static int create_with_pci(int fd, struct cy_config *c,
			   const struct pci_fn *fns, unsigned int n,
			   uint32_t *cell_id)
{
	char name[WARDEN_NAME_LEN + 1];
	int ret;

	ret = create_ioctl(fd, c, WARDEN_CREATE_VALIDATE_ONLY, cell_id);
	if (ret)
		return ret;
	config_cell_name(c, name, sizeof(name));
	if (pci_give_up(stdout, stderr, PCI_SYSFS, fns, n, "cell create", name))
		return EXIT_ERROR;
	ret = create_ioctl(fd, c, 0, cell_id);
	if (ret) {
		fprintf(stderr, "warden: cell create: giving the cell's PCI "
				"functions back to Linux\n");
		pci_give_back(stdout, stderr, PCI_SYSFS, fns, n, "cell create");
	}
	return ret;
}

int cell_create_file(const char *file, bool check, uint32_t *cell_id)
{
	struct pci_fn *fns = NULL;
	struct cy_config c;
	int fd, n, ret;

	fd = config_open_device(&c, file, "cell create", &ret);
	if (fd < 0)
		return ret;
	/* before the cell takes the devices: nothing confines their DMA */
	config_dma_warnings(stderr, "warden: cell create: ", &c);
	fns = calloc(PCI_MAX_FUNCTIONS, sizeof(*fns));
	n = !fns       ? -ENOMEM
	    : c.system ? 0
		       : pci_config_functions(c.blob, c.size, fns,
					      PCI_MAX_FUNCTIONS);
	if (n == -ENOMEM) {
		fprintf(stderr, "warden: cell create: out of memory\n");
		ret = EXIT_ERROR;
		goto out;
	}
	/* n < 0: a blob the hypervisor refuses anyway.  With functions, the
	 * hypervisor's refusal (e.g. a function another cell owns, which
	 * Linux no longer lists) comes before Linux's view of them. */
	if (n > 0) {
		ret = create_ioctl(fd, &c, WARDEN_CREATE_VALIDATE_ONLY,
				   cell_id);
		if (!ret && pci_check(stderr, PCI_SYSFS, fns, (unsigned int)n,
				      "cell create"))
			ret = EXIT_ERROR;
		if (!ret && !check)
			ret = create_with_pci(fd, &c, fns, (unsigned int)n,
					      cell_id);
	} else {
		ret = create_ioctl(fd, &c,
				   check ? WARDEN_CREATE_VALIDATE_ONLY : 0,
				   cell_id);
	}
	if (ret)
		goto out;
	if (check)
		printf("%s: valid for the running system\n", file);
	else
		printf("Cell %u created\n", *cell_id);
out:
	free(fns);
	close(fd);
	cy_free(&c);
	return ret;
}
