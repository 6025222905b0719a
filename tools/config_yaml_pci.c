// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end: a cell's PCI devices (config_yaml_parts.h), each
 * with its bdf, ids, interrupt pin and GSI, MSI and MSI-X, and its BARs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

/* A true/false value; false when absent. */
static bool boolean(struct ctx *x, int id, const char *what)
{
	yaml_node_t *n = cy_node(x, id);
	const char *s = cy_text(n), *why;
	bool v = false;

	if (!n || cy_is_null(n))
		return false;
	if (!s || cv_parse_bool(s, &v, &why))
		cy_diag_add(x, cy_line_of(n), "%s: true or false is needed",
			    what);
	return v;
}

/* One BAR entry of a device: {bar, address, size, type, prefetch}. */
static void pci_bar(struct ctx *x, yaml_node_t *n, const char *what,
		    struct warden_pci_device *d, bool *seen)
{
	static const char *const keys[] = { "bar", "address", "size", "type",
					    "prefetch" };
	struct warden_pci_bar *bar;
	int ids[5];
	unsigned int lines[5];
	uint64_t index = 0, v;
	uint32_t type = 0;
	char sub[160];

	if (!cy_fields(x, n, what, keys, 5, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.bar", what);
	if (!ids[0]) {
		cy_diag_add(x, cy_line_of(n), "%s: 'bar' (0 to 5) is missing",
			    what);
		return;
	}
	if (cy_number(x, ids[0], sub, WARDEN_PCI_BARS - 1, &index))
		return;
	if (seen[index]) {
		cy_diag_add(x, cy_line_of(n), "%s: BAR %u is listed twice",
			    what, (unsigned int)index);
		return;
	}
	seen[index] = true;
	bar = &d->bars[index];
	snprintf(sub, sizeof(sub), "%s.address", what);
	if (!ids[1])
		cy_diag_add(x, cy_line_of(n), "%s: 'address' is missing", what);
	cy_opt_number(x, ids[1], sub, UINT64_MAX, &bar->address);
	snprintf(sub, sizeof(sub), "%s.size", what);
	if (!ids[2])
		cy_diag_add(x, cy_line_of(n), "%s: 'size' is missing", what);
	else if (!cy_number(x, ids[2], sub, UINT64_MAX, &v))
		bar->size = v;
	/* type: a name, or raw flags (for tests of the validator) */
	snprintf(sub, sizeof(sub), "%s.type", what);
	if (!ids[3])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'type' (mem32, mem64 or io) is missing", what);
	else if (!cy_named_value(x, ids[3], sub, cv_bar_types, UINT32_MAX,
				 &type))
		bar->flags = type;
	snprintf(sub, sizeof(sub), "%s.prefetch", what);
	if (boolean(x, ids[4], sub))
		bar->flags |= WARDEN_PCI_BAR_PREFETCH;
}

/* dma_alias: "bb:dd.f", the other requester id of d's DMA, in d's
 * segment (no segment of its own: an alias never leaves it). */
static void dma_alias(struct ctx *x, const char *s, unsigned int line,
		      const char *what, struct warden_pci_device *d)
{
	uint16_t domain = 0, bdf = 0;
	const char *why = "is not a PCI function such as 01:00.0";

	if (!s || cv_parse_bdf(s, &domain, &bdf, &why))
		cy_diag_add(x, line, "%s.dma_alias: '%s' %s", what, s ? s : "",
			    why);
	else if (domain)
		cy_diag_add(x, line,
			    "%s.dma_alias: '%s' names a segment: an alias is "
			    "in the function's own",
			    what, s);
	else {
		d->dma_alias = bdf;
		d->flags |= WARDEN_PCI_DMA_ALIAS;
	}
}

void cy_pci_device(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = {
		"bdf",	    "ids",  "int_pin",	      "gsi",
		"msi",	    "msix", "dma_unisolated", "bars",
		"dma_alias"
	};
	enum { BDF, IDS, INT_PIN, GSI, MSI, MSIX, DMA, BARS, ALIAS, N };
	bool seen[WARDEN_PCI_BARS] = { false };
	struct warden_pci_device *d;
	yaml_node_t *bars, *item;
	int ids[N];
	unsigned int lines[N];
	const char *s, *why;
	uint32_t pin;
	uint64_t v;
	size_t i, count;
	char sub[96], bar_what[112];

	x->pci = cy_grow(x->pci, &x->cap_pci, x->n_pci, sizeof(*d));
	d = &x->pci[x->n_pci++];
	memset(d, 0, sizeof(*d));
	d->gsi = WARDEN_NO_GSI;
	if (!cy_fields(x, n, what, keys, N, ids, lines))
		return;
	s = cy_text(cy_node(x, ids[BDF]));
	if (!ids[BDF])
		cy_diag_add(x, cy_line_of(n), "%s: 'bdf' is missing", what);
	else if (!s || cv_parse_bdf(s, &d->domain, &d->bdf, &why))
		cy_diag_add(x, lines[BDF], "%s.bdf: '%s' %s", what, s ? s : "",
			    s ? why : "is not a PCI function such as 00:03.0");
	s = cy_text(cy_node(x, ids[IDS]));
	if (!ids[IDS])
		cy_diag_add(x, cy_line_of(n),
			    "%s: 'ids' (vendor:device) is missing", what);
	else if (!s || cv_parse_ids(s, &d->vendor_id, &d->device_id, &why))
		cy_diag_add(x, lines[IDS], "%s.ids: '%s' %s", what, s ? s : "",
			    s ? why : "is not a vendor:device pair");
	snprintf(sub, sizeof(sub), "%s.int_pin", what);
	if (ids[INT_PIN] && !cy_is_null(cy_node(x, ids[INT_PIN])) &&
	    !cy_named_value(x, ids[INT_PIN], sub, cv_int_pins, 0xff, &pin))
		d->int_pin = (uint8_t)pin;
	snprintf(sub, sizeof(sub), "%s.gsi", what);
	s = cy_text(cy_node(x, ids[GSI]));
	if (ids[GSI] && !cy_is_null(cy_node(x, ids[GSI])) &&
	    !(s && !strcmp(s, "none")) &&
	    !cy_number(x, ids[GSI], sub, UINT32_MAX, &v))
		d->gsi = (uint32_t)v;
	snprintf(sub, sizeof(sub), "%s.msi", what);
	if (boolean(x, ids[MSI], sub))
		d->flags |= WARDEN_PCI_MSI;
	snprintf(sub, sizeof(sub), "%s.msix", what);
	if (boolean(x, ids[MSIX], sub))
		d->flags |= WARDEN_PCI_MSIX;
	snprintf(sub, sizeof(sub), "%s.dma_unisolated", what);
	if (boolean(x, ids[DMA], sub))
		d->flags |= WARDEN_PCI_DMA_UNISOLATED;
	s = cy_text(cy_node(x, ids[ALIAS]));
	if (ids[ALIAS] && !cy_is_null(cy_node(x, ids[ALIAS])))
		dma_alias(x, s, lines[ALIAS], what, d);
	bars = cy_node(x, ids[BARS]);
	if (!bars || cy_is_null(bars))
		return;
	if (bars->type != YAML_SEQUENCE_NODE) {
		cy_diag_add(x, cy_line_of(bars),
			    "%s.bars must be a list (- item), not %s", what,
			    cy_kind_name(bars));
		return;
	}
	count = cy_items(bars);
	for (i = 0; i < count; i++) {
		item = cy_item_of(x, bars, i);
		snprintf(bar_what, sizeof(bar_what), "%s.bars[%zu]", what, i);
		pci_bar(x, item, bar_what, d, seen);
	}
}
