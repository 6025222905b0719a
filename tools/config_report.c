// SPDX-License-Identifier: GPL-2.0
/* Validator records of loaded configs, as "file:line: sentence". */
#include <stdio.h>
#include <string.h>

#include <config_check.h>

#include "config_report.h"
#include "config_values.h"
#include "errmsg.h"

struct rep {
	FILE *out;
	const char *prefix;
	const struct cy_config *c;
	const struct cy_config *sys;
	const struct cy_config *const *others;
	size_t n_others;
	uint32_t self_id; /* c's cell id in records */
	unsigned int errors;
};

void config_print_diags(FILE *out, const char *prefix,
			const struct cy_config *c)
{
	unsigned int i;

	for (i = 0; i < c->n_diags && i < CY_MAX_DIAGS; i++) {
		if (c->diags[i].line)
			fprintf(out, "%s%s:%u: %s\n", prefix, c->file,
				c->diags[i].line, c->diags[i].msg);
		else
			fprintf(out, "%s%s: %s\n", prefix, c->file,
				c->diags[i].msg);
	}
	if (c->n_diags > CY_MAX_DIAGS)
		fprintf(out, "%s%s: ... and %u more errors\n", prefix, c->file,
			c->n_diags - CY_MAX_DIAGS);
}

void config_cell_name(const struct cy_config *c, char *buf, size_t len)
{
	const struct warden_cell_desc *d;
	size_t off = sizeof(struct warden_config_header) +
		     (c->system ? offsetof(struct warden_system_desc, root_cell)
				: 0);
	size_t n = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!c->blob || c->size < off + sizeof(*d))
		return;
	d = (const struct warden_cell_desc *)(c->blob + off);
	while (n + 1 < len && n < WARDEN_NAME_LEN && d->name[n]) {
		buf[n] = d->name[n] >= 0x20 && d->name[n] <= 0x7e ? d->name[n]
								  : '?';
		n++;
	}
	buf[n] = '\0';
}

bool config_link(const struct cy_config *sys, uint32_t i, struct warden_link *l)
{
	const struct warden_system_desc *d;
	size_t off = sizeof(struct warden_config_header);
	uint64_t at;

	if (!sys || !sys->blob || !sys->system || sys->size < off + sizeof(*d))
		return false;
	d = (const struct warden_system_desc *)(sys->blob + off);
	if (i >= d->platform.num_links)
		return false;
	at = off + sizeof(*d) + warden_cell_arrays_size(&d->root_cell) +
	     (uint64_t)d->platform.num_ioapics * sizeof(struct warden_ioapic) +
	     (uint64_t)i * sizeof(*l);
	if (at + sizeof(*l) > sys->size)
		return false;
	memcpy(l, sys->blob + at, sizeof(*l));
	return true;
}

/* A name field as text: at most WARDEN_NAME_LEN bytes, unprintable
 * ones as '?'. */
static void name_text(const char *name, char *buf, size_t len)
{
	size_t n = 0;

	if (!len)
		return;
	while (n + 1 < len && n < WARDEN_NAME_LEN && name[n]) {
		buf[n] = name[n] >= 0x20 && name[n] <= 0x7e ? name[n] : '?';
		n++;
	}
	buf[n] = '\0';
}

/* The system config of a record about a link: the one checked, or the
 * one a cell is checked against. */
static const struct cy_config *link_config(const struct rep *r)
{
	return r->c->system ? r->c : r->sys;
}

/* The config a record is about. */
static const struct cy_config *subject(const struct rep *r,
				       const struct warden_error *e)
{
	/* a link is in the system config, whichever config it concerns */
	if (e->item_kind == WARDEN_ITEM_LINK && link_config(r))
		return link_config(r);
	if (e->rule == WARDEN_RULE_CONFIG_CONTEXT) {
		if (e->item_kind == WARDEN_ITEM_SYSTEM && r->sys)
			return r->sys;
		if (e->item_kind == WARDEN_ITEM_CELL && e->item_index >= 1 &&
		    e->item_index <= r->n_others)
			return r->others[e->item_index - 1];
	}
	return r->c;
}

/* The config of cell id in r's numbering, or NULL. */
static const struct cy_config *cell_config(const struct rep *r, uint64_t id)
{
	if (id == WARDEN_ROOT_CELL_ID)
		return r->sys ? r->sys : (r->c->system ? r->c : NULL);
	if (id >= 1 && id <= r->n_others)
		return r->others[id - 1];
	if (id == r->self_id)
		return r->c;
	return NULL;
}

static void describe(const struct rep *r, const struct warden_error *e,
		     char *buf, size_t len)
{
	const struct cy_config *s = subject(r, e), *o;
	struct warden_error copy = *e;
	char name[WARDEN_NAME_LEN + 1], where[512], sentence[320];
	int v;

	struct warden_link l;
	bool have_link = false;
	size_t used;

	if (copy.item_kind == WARDEN_ITEM_CELL)
		config_cell_name(s, copy.text, sizeof(copy.text));
	/* a link by its name: the record's link, or the link a cell's
	 * memory overlaps */
	if (copy.item_kind == WARDEN_ITEM_LINK)
		have_link = config_link(link_config(r), e->item_index, &l);
	else if (e->rule == WARDEN_RULE_LINK_MEMORY_OVERLAP &&
		 e->values[2] == 2)
		have_link =
			config_link(link_config(r), (uint32_t)e->values[3], &l);
	if (have_link)
		name_text(l.name, copy.text, sizeof(copy.text));
	cy_where(s, e, where, sizeof(where));
	warden_error_describe(&copy, sentence, sizeof(sentence));
	v = warden_rule_other_cell_value(e->rule);
	o = v >= 0 ? cell_config(r, e->values[v]) : NULL;
	if (o && o != s) {
		config_cell_name(o, name, sizeof(name));
		snprintf(buf, len, "%s%s (\"%s\", %s)", where, sentence, name,
			 o->file);
	} else {
		snprintf(buf, len, "%s%s", where, sentence);
	}
	/* the peer's cell, for the rules about a peer */
	if (have_link && e->item_kind == WARDEN_ITEM_LINK &&
	    e->rule >= WARDEN_RULE_LINK_PEER &&
	    e->rule <= WARDEN_RULE_LINK_PEER_VECTORS &&
	    e->values[0] < WARDEN_LINK_MAX_PEERS) {
		name_text(l.peers[e->values[0]].cell, name, sizeof(name));
		used = strlen(buf);
		snprintf(buf + used, len - used, " (cell \"%s\")", name);
	}
}

static void report(void *ctx, const struct warden_error *e)
{
	struct rep *r = ctx;
	char line[1024];

	r->errors++;
	if (!r->out)
		return;
	describe(r, e, line, sizeof(line));
	fprintf(r->out, "%s%s\n", r->prefix, line);
}

unsigned int config_validate(FILE *out, const char *prefix,
			     const struct cy_config *c,
			     const struct cy_config *sys,
			     const struct cy_config *const *others,
			     size_t n_others)
{
	struct rep r = {
		.out = out,
		.prefix = prefix ? prefix : "",
		.c = c,
		.sys = sys,
		.others = others,
		.n_others = sys ? n_others : 0,
	};
	const void *blobs[64];
	size_t sizes[64], i;

	if (!c->blob)
		return 0;
	if (c->system) {
		r.sys = NULL;
		r.n_others = 0;
		r.self_id = WARDEN_ROOT_CELL_ID;
		config_check_system(c->blob, c->size, report, &r);
		return r.errors;
	}
	if (r.n_others > sizeof(blobs) / sizeof(blobs[0]))
		r.n_others = sizeof(blobs) / sizeof(blobs[0]);
	for (i = 0; i < r.n_others; i++) {
		blobs[i] = others[i]->blob;
		sizes[i] = others[i]->size;
	}
	r.self_id = (uint32_t)r.n_others + 1;
	config_check_cell(c->blob, c->size, sys ? sys->blob : NULL,
			  sys ? sys->size : 0, blobs, sizes, r.n_others, report,
			  &r);
	return r.errors;
}

void config_describe(const struct cy_config *c, const struct warden_error *e,
		     char *buf, size_t len)
{
	struct rep r = { .c = c, .self_id = c->system ? 0 : 1 };

	describe(&r, e, buf, len);
}

unsigned int config_dma_warnings(FILE *out, const char *prefix,
				 const struct cy_config *c)
{
	const struct warden_cell_desc *d;
	struct warden_pci_device dev;
	const uint8_t *arr;
	unsigned int i, n = 0;
	uint64_t end;
	char bdf[32];

	if (!c->blob || c->system ||
	    c->size < sizeof(struct warden_config_header) + sizeof(*d))
		return 0;
	d = (const struct warden_cell_desc
		     *)(c->blob + sizeof(struct warden_config_header));
	end = sizeof(struct warden_config_header) + sizeof(*d) +
	      warden_cell_arrays_size(d);
	/* a blob the counts do not fit is refused anyway */
	if (end > c->size)
		return 0;
	arr = (const uint8_t *)warden_cell_pci_devices(d);
	for (i = 0; i < d->num_pci_devices; i++) {
		memcpy(&dev, arr + (size_t)i * sizeof(dev), sizeof(dev));
		if (!(dev.flags & WARDEN_PCI_DMA_UNISOLATED))
			continue;
		cv_format_bdf(dev.domain, dev.bdf, bdf, sizeof(bdf));
		fprintf(out,
			"%swarning: PCI device %s (%04x:%04x): its DMA is not "
			"isolated where no IOMMU confines it (dma_unisolated: "
			"the system config names none): it can then read and "
			"write all memory, the hypervisor's and other cells' "
			"included\n",
			prefix, bdf, dev.vendor_id, dev.device_id);
		n++;
	}
	return n;
}

bool config_rule(uint32_t rule)
{
	return rule < WARDEN_RULE_CPU_OFFLINE ||
	       rule == WARDEN_RULE_MEM_NOT_RESERVED ||
	       (rule >= WARDEN_RULE_IOAPIC_ADDRESS && rule < 160) ||
	       rule == WARDEN_RULE_IOAPIC_IN_CELL_MEMORY ||
	       rule == WARDEN_RULE_PCI_CONFIG_IN_CELL ||
	       rule == WARDEN_RULE_MEM_TRAPPED ||
	       rule == WARDEN_RULE_MEM_LINUX_USES ||
	       (rule >= WARDEN_RULE_LINK_FIELDS &&
		rule <= WARDEN_RULE_LINK_PEER_VECTORS);
}

unsigned int config_link_peers(FILE *out, const char *prefix,
			       const struct cy_config *sys,
			       const struct cy_config *const *cells,
			       size_t n_cells)
{
	struct rep r = { .out = out, .prefix = prefix ? prefix : "", .c = sys };
	char root[WARDEN_NAME_LEN + 1], cell[WARDEN_NAME_LEN + 1],
		other[WARDEN_NAME_LEN + 1];
	struct warden_error e;
	struct warden_link l;
	uint32_t i, p;
	size_t k;
	bool named;

	config_cell_name(sys, root, sizeof(root));
	for (i = 0; config_link(sys, i, &l); i++) {
		for (p = 0; p < l.num_peers && p < WARDEN_LINK_MAX_PEERS; p++) {
			name_text(l.peers[p].cell, cell, sizeof(cell));
			named = !strcmp(cell, root);
			for (k = 0; k < n_cells && !named; k++) {
				config_cell_name(cells[k], other,
						 sizeof(other));
				named = !strcmp(cell, other);
			}
			if (named)
				continue;
			/* as the validator would say it, had it the set */
			memset(&e, 0, sizeof(e));
			e.code = -22;
			e.rule = WARDEN_RULE_LINK_PEER;
			e.item_kind = WARDEN_ITEM_LINK;
			e.item_index = i;
			e.cpu = WARDEN_NO_CPU;
			e.values[0] = p;
			e.values[1] = 1;
			report(&r, &e);
		}
	}
	return r.errors;
}
