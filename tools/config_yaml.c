// SPDX-License-Identifier: GPL-2.0
/*
 * YAML config → binary blob (see config_yaml.h and docs/config.md): the
 * document.  libyaml loads the file into a node tree; the top level picks
 * a system or a cell config and hands each part to its file
 * (config_yaml_parts.h), then the blob is assembled from what they
 * collected.  Errors are collected, not fatal: the walk goes on so that
 * one run lists them all.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml.h"
#include "config_yaml_parts.h"

void cy_diag_add(struct ctx *x, unsigned int line, const char *fmt, ...)
{
	struct cy_config *c = x->c;
	va_list ap;

	if (c->n_diags < CY_MAX_DIAGS) {
		c->diags[c->n_diags].line = line;
		va_start(ap, fmt);
		vsnprintf(c->diags[c->n_diags].msg,
			  sizeof(c->diags[c->n_diags].msg), fmt, ap);
		va_end(ap);
	}
	c->n_diags++;
}

/* Header, descriptor and arrays into c->blob. */
static void assemble(struct ctx *x, const void *desc, size_t desc_size)
{
	struct cy_config *c = x->c;
	struct warden_config_header h;
	size_t rsize = x->n_regions * sizeof(*x->regions);
	size_t psize = x->n_pio * sizeof(*x->pio);
	size_t pins = x->n_pins * sizeof(*x->pins);
	size_t pci = x->n_pci * sizeof(*x->pci);
	size_t ioapics = c->system ? x->n_ioapics * sizeof(*x->ioapics) : 0;
	size_t links_size = c->system ? x->n_links * sizeof(*x->links) : 0;
	size_t iommus = c->system ? x->n_iommus * sizeof(*x->iommus) : 0;
	uint8_t *p, *at;

	memset(&h, 0, sizeof(h));
	memcpy(h.signature,
	       c->system ? WARDEN_SYSTEM_SIGNATURE : WARDEN_CELL_SIGNATURE, 8);
	h.revision = WARDEN_CONFIG_REVISION;
	h.architecture = WARDEN_ARCH_X86_64;
	c->size = sizeof(h) + desc_size + rsize + psize + pins + pci + ioapics +
		  links_size + iommus;
	h.total_size = (uint32_t)c->size;
	c->blob = p = malloc(c->size);
	if (!p) {
		perror("warden");
		exit(2);
	}
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), desc, desc_size);
	at = p + sizeof(h) + desc_size;
	/* in the order of config.h: regions, ports, pins, devices, then
	 * (system) the IOAPICs, the links and the IOMMU units */
	if (rsize)
		memcpy(at, x->regions, rsize);
	at += rsize;
	if (psize)
		memcpy(at, x->pio, psize);
	at += psize;
	if (pins)
		memcpy(at, x->pins, pins);
	at += pins;
	if (pci)
		memcpy(at, x->pci, pci);
	at += pci;
	if (ioapics)
		memcpy(at, x->ioapics, ioapics);
	at += ioapics;
	if (links_size)
		memcpy(at, x->links, links_size);
	at += links_size;
	if (iommus)
		memcpy(at, x->iommus, iommus);
}

static void top_level(struct ctx *x)
{
	/* "boot:" is read by "warden up" (boot_plan.c), not compiled */
	static const char *const keys[] = { "system", "root_cell", "cell",
					    "links", "boot" };
	struct warden_system_desc sys;
	struct warden_cell_desc desc;
	yaml_node_t *root = yaml_document_get_root_node(&x->doc);
	struct cy_config *c = x->c;
	char root_name[WARDEN_NAME_LEN + 1];
	int ids[5];
	unsigned int lines[5];

	memset(&sys, 0, sizeof(sys));
	memset(&desc, 0, sizeof(desc));
	if (!root) {
		cy_diag_add(x, 1,
			    "the file is empty: a 'system:' or 'cell:' config "
			    "is needed");
		return;
	}
	if (!cy_fields(x, root, "the file", keys, 5, ids, lines))
		return;
	if (ids[4] && !ids[2]) {
		cy_diag_add(x, lines[4],
			    "'boot:' belongs in a cell config, beside 'cell:'");
		return;
	}
	if (ids[3] && ids[2] && !ids[0] && !ids[1]) {
		cy_diag_add(x, lines[3],
			    "links belong in the system config (a cell config "
			    "has "
			    "'cell:' only)");
		return;
	}
	if (ids[2] && (ids[0] || ids[1])) {
		cy_diag_add(x, lines[2],
			    "a file holds a system config ('system:' and "
			    "'root_cell:') or a cell config ('cell:'), not "
			    "both");
		return;
	}
	if (ids[2]) {
		c->system = false;
		c->top = lines[2];
		cy_cell(x, ids[2], lines[2], "cell", &desc, &c->cell);
	} else if (ids[0] || ids[1]) {
		c->system = true;
		c->top = lines[0] ? lines[0] : lines[1];
		if (!ids[0])
			cy_diag_add(x, lines[1], "'system:' is missing");
		else
			cy_system_part(x, ids[0], &sys);
		if (!ids[1])
			cy_diag_add(x, lines[0], "'root_cell:' is missing");
		else
			cy_cell(x, ids[1], lines[1], "root_cell",
				&sys.root_cell, &c->cell);
		/* after root_cell: a peer named like it is root's */
		memcpy(root_name, sys.root_cell.name, WARDEN_NAME_LEN);
		root_name[WARDEN_NAME_LEN] = '\0';
		x->root_name = root_name;
		cy_links(x, ids[3], lines[3]);
		sys.platform.num_links = (uint16_t)x->n_links;
	} else if (ids[3]) {
		cy_diag_add(x, lines[3],
			    "links belong in the system config, with 'system:' "
			    "and "
			    "'root_cell:'");
		return;
	} else {
		cy_diag_add(x, cy_line_of(root),
			    "not a Warden config: a 'system:' or "
			    "'cell:' key is needed");
		return;
	}
	if (c->n_diags)
		return;
	if (c->system)
		assemble(x, &sys, sizeof(sys));
	else
		assemble(x, &desc, sizeof(desc));
}

int cy_compile(struct cy_config *c, const char *file, const char *text_in,
	       size_t len)
{
	struct ctx x = { .c = c };
	yaml_parser_t parser;
	yaml_document_t extra;
	const char *problem;

	memset(c, 0, sizeof(*c));
	c->file = strdup(file);
	c->yaml = true;
	if (!c->file) {
		perror("warden");
		exit(2);
	}
	if (!yaml_parser_initialize(&parser)) {
		cy_diag_add(&x, 0, "cannot start the YAML parser");
		return (int)c->n_diags;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text_in,
				     len);
	if (!yaml_parser_load(&parser, &x.doc)) {
		problem = parser.problem ? parser.problem : "syntax error";
		cy_diag_add(&x, (unsigned int)parser.problem_mark.line + 1,
			    "YAML: %s%s%s", problem, parser.context ? " " : "",
			    parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return (int)c->n_diags;
	}
	top_level(&x);
	yaml_document_delete(&x.doc);
	/* A second document is a mistake (e.g. a stray "---"). */
	if (yaml_parser_load(&parser, &extra)) {
		if (yaml_document_get_root_node(&extra))
			cy_diag_add(&x, (unsigned int)extra.start_mark.line + 1,
				    "only one YAML document per file");
		yaml_document_delete(&extra);
	} else {
		cy_diag_add(&x, (unsigned int)parser.problem_mark.line + 1,
			    "YAML: %s",
			    parser.problem ? parser.problem : "error");
	}
	yaml_parser_delete(&parser);
	free(x.regions);
	free(x.pio);
	free(x.pins);
	free(x.pci);
	free(x.ioapics);
	free(x.links);
	free(x.iommus);
	if (c->n_diags) {
		free(c->blob);
		c->blob = NULL;
		c->size = 0;
	}
	return (int)c->n_diags;
}
