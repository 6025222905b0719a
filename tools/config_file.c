// SPDX-License-Identifier: GPL-2.0
/*
 * Config files, compiled or YAML, and the map from validator records back
 * to their lines (see config_yaml.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_yaml.h"

bool cy_is_blob(const void *data, size_t size)
{
	return size >= 8 && (!memcmp(data, WARDEN_SYSTEM_SIGNATURE, 8) ||
			     !memcmp(data, WARDEN_CELL_SIGNATURE, 8));
}

/* One error without a line: the file cannot be used. */
static int unreadable(struct cy_config *c, const char *path, const char *why)
{
	c->file = strdup(path);
	if (!c->file) {
		perror("warden");
		exit(2);
	}
	snprintf(c->diags[0].msg, sizeof(c->diags[0].msg), "%s", why);
	c->n_diags = 1;
	return 1;
}

int cy_load_file(struct cy_config *c, const char *path)
{
	struct stat st;
	char *buf;
	ssize_t n = 0;
	size_t got = 0;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return unreadable(c, path, strerror(errno));
	if (fstat(fd, &st)) {
		ret = errno;
		close(fd);
		return unreadable(c, path, strerror(ret));
	}
	if (!S_ISREG(st.st_mode) || st.st_size > CY_MAX_FILE) {
		close(fd);
		return unreadable(c, path,
				  S_ISREG(st.st_mode) ? "the file is too large"
						      : "not a regular file");
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		perror("warden");
		exit(2);
	}
	while (got < (size_t)st.st_size &&
	       (n = read(fd, buf + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	ret = errno;
	close(fd);
	if (n < 0) {
		free(buf);
		return unreadable(c, path, strerror(ret));
	}
	if (cy_is_blob(buf, got)) {
		c->file = strdup(path);
		c->system = !memcmp(buf, WARDEN_SYSTEM_SIGNATURE, 8);
		c->blob = (uint8_t *)buf;
		c->size = got;
		return 0;
	}
	ret = cy_compile(c, path, buf, got);
	free(buf);
	return ret;
}

void cy_free(struct cy_config *c)
{
	free(c->file);
	free(c->blob);
	free(c->cell.regions);
	free(c->cell.pio);
	free(c->cell.pins);
	free(c->cell.pci);
	free(c->ioapic);
	free(c->iommu);
	free(c->link);
	memset(c, 0, sizeof(*c));
}

/* The line of a record about a link: the part the rule is about. */
static unsigned int link_line(const struct cy_config *c,
			      const struct warden_error *e)
{
	const struct cy_link_lines *l;
	uint64_t peer = WARDEN_LINK_MAX_PEERS;
	unsigned int line = 0;

	if (e->item_index >= c->n_links)
		return c->links;
	l = &c->link[e->item_index];
	switch (e->rule) {
	case WARDEN_RULE_LINK_FIELDS:
		if (e->values[0] == WARDEN_LINK_BAD_NAME ||
		    e->values[0] == WARDEN_LINK_BAD_NAME_DUPLICATE)
			line = l->name;
		else if (e->values[0] == WARDEN_LINK_BAD_FLAGS)
			line = l->access;
		else if (e->values[0] == WARDEN_LINK_BAD_NUM_PEERS)
			line = l->peers;
		else
			peer = e->values[2];
		break;
	case WARDEN_RULE_LINK_MEMORY:
	case WARDEN_RULE_LINK_MEMORY_OVERLAP:
		line = l->memory;
		break;
	case WARDEN_RULE_LINK_PEER:
	case WARDEN_RULE_LINK_PEER_BDF:
	case WARDEN_RULE_LINK_PEER_ADDRESS:
	case WARDEN_RULE_LINK_PEER_VECTORS:
		peer = e->values[0];
		break;
	default:
		break;
	}
	if (peer < WARDEN_LINK_MAX_PEERS)
		line = l->peer[peer] ? l->peer[peer] : l->peers;
	return line ? line : l->link;
}

static unsigned int cell_line(const struct cy_config *c,
			      const struct warden_error *e)
{
	const struct cy_cell_lines *l = &c->cell;
	unsigned int line = 0;

	switch (e->rule) {
	case WARDEN_RULE_NAME_EMPTY:
	case WARDEN_RULE_NAME_UNTERMINATED:
	case WARDEN_RULE_NAME_NOT_PRINTABLE:
	case WARDEN_RULE_NAME_DUPLICATE:
		line = l->name;
		break;
	case WARDEN_RULE_CELL_FLAGS:
		line = l->flags;
		break;
	case WARDEN_RULE_CPUS_EMPTY:
		line = l->cpus;
		break;
	case WARDEN_RULE_COMM_REGION_COUNT:
		line = l->memory;
		break;
	case WARDEN_RULE_RESET_NOT_LOADABLE:
		line = l->reset;
		break;
	default:
		break;
	}
	return line ? line : l->cell;
}

unsigned int cy_error_line(const struct cy_config *c,
			   const struct warden_error *e)
{
	const struct cy_cell_lines *l = &c->cell;
	unsigned int line = 0;

	if (!c->yaml)
		return 0;
	switch (e->item_kind) {
	case WARDEN_ITEM_CONFIG:
		if (e->rule != WARDEN_RULE_CONFIG_TOO_MANY)
			break;
		/* the index says which array (config_check.c) */
		switch (e->item_index) {
		case 0:
			line = l->memory;
			break;
		case 1:
			line = l->ports;
			break;
		case 2:
			line = l->irq_pins;
			break;
		case 3:
			line = l->pci_devices;
			break;
		case 5:
			line = c->links;
			break;
		case 6:
			line = c->iommus;
			break;
		default:
			line = c->ioapics;
			break;
		}
		break;
	case WARDEN_ITEM_SYSTEM:
		if (e->rule == WARDEN_RULE_HV_MEM ||
		    e->rule == WARDEN_RULE_MEM_NOT_RESERVED)
			line = c->hv_mem;
		else if (e->rule == WARDEN_RULE_IOMMU_UNIT)
			line = c->platform;
		break;
	case WARDEN_ITEM_CELL:
		line = cell_line(c, e);
		break;
	case WARDEN_ITEM_CPU:
		line = e->item_index < WARDEN_MAX_CPUS && l->cpu[e->item_index]
			       ? l->cpu[e->item_index]
			       : l->cpus;
		break;
	case WARDEN_ITEM_MEMORY_REGION:
		line = e->item_index < l->n_regions ? l->regions[e->item_index]
						    : l->memory;
		break;
	case WARDEN_ITEM_PIO_RANGE:
		line = e->item_index < l->n_pio ? l->pio[e->item_index]
						: l->ports;
		break;
	case WARDEN_ITEM_IRQ_PIN:
		line = e->item_index < l->n_pins ? l->pins[e->item_index]
						 : l->irq_pins;
		if (!line)
			line = l->cell;
		break;
	case WARDEN_ITEM_PCI_DEVICE:
		line = e->item_index < l->n_pci ? l->pci[e->item_index]
						: l->pci_devices;
		if (!line)
			line = l->cell;
		break;
	case WARDEN_ITEM_IOAPIC:
		line = e->item_index < c->n_ioapics ? c->ioapic[e->item_index]
						    : c->ioapics;
		break;
	case WARDEN_ITEM_IOMMU:
		line = e->item_index < c->n_iommus ? c->iommu[e->item_index]
						   : c->iommus;
		break;
	case WARDEN_ITEM_LINK:
		line = c->system ? link_line(c, e) : 0;
		break;
	case WARDEN_ITEM_CONSOLE:
		line = e->item_index == 0 && c->system ? c->debug_console
						       : l->console;
		if (!line)
			line = e->item_index == 0 ? c->top : l->cell;
		break;
	default:
		break;
	}
	return line ? line : c->top;
}

void cy_where(const struct cy_config *c, const struct warden_error *e,
	      char *buf, size_t len)
{
	unsigned int line = cy_error_line(c, e);

	if (line)
		snprintf(buf, len, "%s:%u: ", c->file, line);
	else
		snprintf(buf, len, "%s: ", c->file);
}
