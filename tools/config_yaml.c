// SPDX-License-Identifier: GPL-2.0
/*
 * YAML config → binary blob (see config_yaml.h and docs/config.md).
 *
 * libyaml loads the file into a node tree; the schema below walks it with
 * a known set of keys at every level, so any unknown key, wrong kind of
 * node or bad value is an error with its line.  Errors are collected, not
 * fatal: the walk goes on so that one run lists them all.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_values.h"
#include "config_yaml.h"

struct ctx {
	struct cy_config *c;
	yaml_document_t doc;
	struct warden_mem_region *regions;
	size_t n_regions, cap_regions;
	struct warden_pio_range *pio;
	size_t n_pio, cap_pio;
	struct warden_irq_pin *pins;
	size_t n_pins, cap_pins;
	struct warden_pci_device *pci;
	size_t n_pci, cap_pci;
	struct warden_ioapic *ioapics;
	size_t n_ioapics, cap_ioapics;
	struct warden_link *links;
	size_t n_links;
	const char *root_name; /* root_cell.name as compiled, for links */
};

static void diag(struct ctx *x, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void diag(struct ctx *x, unsigned int line, const char *fmt, ...)
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

static yaml_node_t *node(struct ctx *x, int id)
{
	return id ? yaml_document_get_node(&x->doc, id) : NULL;
}

static unsigned int line_of(const yaml_node_t *n)
{
	return n ? (unsigned int)n->start_mark.line + 1 : 0;
}

/* The text of a scalar node, or NULL. */
static const char *text(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE
		       ? (const char *)n->data.scalar.value
		       : NULL;
}

/* "", "~" or "null" written plainly: no value. */
static bool is_null(const yaml_node_t *n)
{
	const char *s = text(n);

	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") ||
		!strcmp(s, "Null") || !strcmp(s, "NULL"));
}

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	default:
		return "a value";
	}
}

/* A list's items, or a single value as a list of one. */
static size_t items(const yaml_node_t *n)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return (size_t)(n->data.sequence.items.top -
				n->data.sequence.items.start);
	return 1;
}

static yaml_node_t *item_of(struct ctx *x, yaml_node_t *n, size_t i)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return node(x, n->data.sequence.items.start[i]);
	return n;
}

/*
 * The values of a mapping's known keys: ids[i] is the node of keys[i] (0
 * when absent), lines[i] its key's line.  Unknown and duplicate keys are
 * errors.  Returns false when n is not a mapping.
 */
static bool fields(struct ctx *x, yaml_node_t *n, const char *what,
		   const char *const *keys, size_t n_keys, int *ids,
		   unsigned int *lines)
{
	yaml_node_pair_t *pair;
	char known[160];
	size_t i, used = 0;

	for (i = 0; i < n_keys; i++) {
		ids[i] = 0;
		lines[i] = 0;
	}
	if (!n || n->type != YAML_MAPPING_NODE) {
		diag(x, line_of(n), "%s must be a mapping (key: value), not %s",
		     what, n ? kind_name(n) : "empty");
		return false;
	}
	for (pair = n->data.mapping.pairs.start;
	     pair < n->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = node(x, pair->key);
		const char *key = text(k);

		for (i = 0; key && i < n_keys; i++)
			if (!strcmp(key, keys[i]))
				break;
		if (!key) {
			diag(x, line_of(k), "%s: a key must be a plain word",
			     what);
		} else if (i == n_keys) {
			known[0] = '\0';
			for (i = 0, used = 0;
			     i < n_keys && used < sizeof(known); i++)
				used += snprintf(known + used,
						 sizeof(known) - used, "%s%s",
						 i ? ", " : "", keys[i]);
			diag(x, line_of(k),
			     "unknown key '%s' in %s (known: %s)", key, what,
			     known);
		} else if (ids[i]) {
			diag(x, line_of(k), "duplicate key '%s' in %s", key,
			     what);
		} else {
			ids[i] = pair->value;
			lines[i] = line_of(k);
		}
	}
	return true;
}

/* A number that fits in max; 0 or -1 (reported). */
static int number(struct ctx *x, int id, const char *what, uint64_t max,
		  uint64_t *v)
{
	yaml_node_t *n = node(x, id);
	const char *s = text(n), *why;

	if (!s || is_null(n)) {
		diag(x, line_of(n), "%s: a number is needed, not %s", what,
		     s ? "an empty value" : kind_name(n));
		return -1;
	}
	if (cv_parse_u64(s, v, &why)) {
		diag(x, line_of(n), "%s: '%s' %s", what, s, why);
		return -1;
	}
	if (*v > max) {
		diag(x, line_of(n), "%s: %s is larger than 0x%llx", what, s,
		     (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* Optional number: left as it is when absent. */
static void opt_number(struct ctx *x, int id, const char *what, uint64_t max,
		       uint64_t *v)
{
	uint64_t value;

	if (id && !number(x, id, what, max, &value))
		*v = value;
}

/*
 * Names or numbers from a list or from one value ("read, write"), looked
 * up in table; numbers are taken as raw bits.  Returns their OR.
 */
static uint32_t flag_set(struct ctx *x, int id, const char *what,
			 const struct cv_name *table)
{
	yaml_node_t *n = node(x, id), *item;
	uint32_t flags = 0, v;
	char *buf, known[160], *tok, *save;
	const char *why;
	size_t i, count;
	uint64_t raw;

	if (!n || is_null(n))
		return 0;
	if (n->type == YAML_MAPPING_NODE) {
		diag(x, line_of(n), "%s: a list of names is needed", what);
		return 0;
	}
	cv_names_list(table, known, sizeof(known));
	count = items(n);
	for (i = 0; i < count; i++) {
		item = item_of(x, n, i);
		if (!text(item)) {
			diag(x, line_of(item), "%s: a name is needed, not %s",
			     what, kind_name(item));
		} else {
			buf = strdup(text(item));
			if (!buf) {
				perror("warden");
				exit(2);
			}
			for (tok = strtok_r(buf, ", \t", &save); tok;
			     tok = strtok_r(NULL, ", \t", &save)) {
				if (!cv_lookup(table, tok, &v))
					flags |= v;
				else if (tok[0] >= '0' && tok[0] <= '9' &&
					 !cv_parse_u64(tok, &raw, &why) &&
					 raw <= UINT32_MAX)
					flags |= (uint32_t)raw;
				else
					diag(x, line_of(item),
					     "%s: unknown name '%s' (known: "
					     "%s)",
					     what, tok, known);
			}
			free(buf);
		}
	}
	return flags;
}

/* A name from table, or a number up to max. */
static int named_value(struct ctx *x, int id, const char *what,
		       const struct cv_name *table, uint32_t max, uint32_t *v)
{
	yaml_node_t *n = node(x, id);
	const char *s = text(n), *why;
	char known[160];
	uint64_t raw;

	if (s && !is_null(n) && !cv_lookup(table, s, v))
		return 0;
	if (s && s[0] >= '0' && s[0] <= '9' && !cv_parse_u64(s, &raw, &why) &&
	    raw <= max) {
		*v = (uint32_t)raw;
		return 0;
	}
	cv_names_list(table, known, sizeof(known));
	if (s && !is_null(n))
		diag(x, line_of(n), "%s: unknown name '%s' (known: %s)", what,
		     s, known);
	else
		diag(x, line_of(n), "%s: one of %s is needed", what, known);
	return -1;
}

static void console(struct ctx *x, int id, const char *what,
		    struct warden_console *con)
{
	static const char *const keys[] = { "type", "port", "baud" };
	yaml_node_t *n = node(x, id);
	int ids[3];
	unsigned int lines[3];
	uint32_t type;
	uint64_t v;
	char sub[64];

	memset(con, 0, sizeof(*con));
	if (!n || is_null(n))
		return;
	if (text(n)) {
		/* "none", "hypercall", or a type and no port */
		if (!named_value(x, id, what, cv_console_types, 0xffff, &type))
			con->type = (uint16_t)type;
		return;
	}
	if (!fields(x, n, what, keys, 3, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.type", what);
	if (!ids[0])
		diag(x, line_of(n), "%s: 'type' is missing", what);
	else if (!named_value(x, ids[0], sub, cv_console_types, 0xffff, &type))
		con->type = (uint16_t)type;
	snprintf(sub, sizeof(sub), "%s.port", what);
	v = 0;
	opt_number(x, ids[1], sub, UINT64_MAX, &v);
	con->address = v;
	snprintf(sub, sizeof(sub), "%s.baud", what);
	v = 0;
	opt_number(x, ids[2], sub, UINT32_MAX, &v);
	con->baud = (uint32_t)v;
}

/* CPUs from a list, a value ("0-3,5") or a number. */
static void cpus(struct ctx *x, int id, const char *what,
		 struct warden_cpu_set *set, struct cy_cell_lines *l)
{
	yaml_node_t *n = node(x, id), *item;
	struct warden_cpu_set one;
	const char *why;
	unsigned int cpu, w;
	size_t i, count;

	if (!n || is_null(n))
		return;
	if (n->type == YAML_MAPPING_NODE) {
		diag(x, line_of(n), "%s: a CPU list such as 0-3,5 is needed",
		     what);
		return;
	}
	count = items(n);
	for (i = 0; i < count; i++) {
		item = item_of(x, n, i);
		memset(&one, 0, sizeof(one));
		if (!text(item))
			diag(x, line_of(item),
			     "%s: a CPU number is needed, not %s", what,
			     kind_name(item));
		else if (cv_parse_cpus(text(item), &one, &why))
			diag(x, line_of(item), "%s: '%s' %s", what, text(item),
			     why);
		for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
			if (cv_cpu_in(&one, cpu) && cv_cpu_in(set, cpu))
				diag(x, line_of(item),
				     "%s: CPU %u is listed twice (first on "
				     "line %u)",
				     what, cpu, l->cpu[cpu]);
		for (w = 0; w < WARDEN_CPU_SET_WORDS; w++)
			set->bits[w] |= one.bits[w];
		for (cpu = 0; cpu < WARDEN_MAX_CPUS; cpu++)
			if (cv_cpu_in(&one, cpu) && !l->cpu[cpu])
				l->cpu[cpu] = line_of(item);
	}
}

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
	size_t new_cap;
	void *q;

	if (n < *cap)
		return p;
	new_cap = *cap ? *cap * 2 : 16;
	q = realloc(p, new_cap * elem);
	if (!q) {
		perror("warden");
		exit(2);
	}
	*cap = new_cap;
	return q;
}

static void region(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "phys", "guest", "size", "flags",
					    "type" };
	struct warden_mem_region *r;
	int ids[5];
	unsigned int lines[5];
	uint32_t type;
	char sub[96];
	uint64_t v;

	x->regions =
		grow(x->regions, &x->cap_regions, x->n_regions, sizeof(*r));
	r = &x->regions[x->n_regions++];
	memset(r, 0, sizeof(*r));
	if (!fields(x, n, what, keys, 5, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.flags", what);
	if (!ids[3])
		diag(x, line_of(n),
		     "%s: 'flags' is missing (e.g. [read, "
		     "write])",
		     what);
	r->flags = flag_set(x, ids[3], sub, cv_mem_flags);
	snprintf(sub, sizeof(sub), "%s.phys", what);
	if (ids[0])
		opt_number(x, ids[0], sub, UINT64_MAX, &r->phys_start);
	else if (!(r->flags & WARDEN_MEM_COMM_REGION))
		diag(x, line_of(n), "%s: 'phys' is missing", what);
	snprintf(sub, sizeof(sub), "%s.guest", what);
	r->guest_start = r->phys_start;
	opt_number(x, ids[1], sub, UINT64_MAX, &r->guest_start);
	snprintf(sub, sizeof(sub), "%s.size", what);
	if (!ids[2])
		diag(x, line_of(n), "%s: 'size' is missing", what);
	else if (!number(x, ids[2], sub, UINT64_MAX, &v))
		r->size = v;
	snprintf(sub, sizeof(sub), "%s.type", what);
	r->mem_type = r->flags & WARDEN_MEM_IO ? WARDEN_MEMTYPE_UC
					       : WARDEN_MEMTYPE_WB;
	if (ids[4] && !named_value(x, ids[4], sub, cv_mem_types, 0xff, &type))
		r->mem_type = (uint8_t)type;
}

static void port_range(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "base", "length" };
	struct warden_pio_range *p;
	int ids[2];
	unsigned int lines[2];
	uint64_t base = 0, length = 0;
	uint32_t b;
	const char *why;
	char sub[96];

	x->pio = grow(x->pio, &x->cap_pio, x->n_pio, sizeof(*p));
	p = &x->pio[x->n_pio++];
	memset(p, 0, sizeof(*p));
	if (text(n)) {
		if (cv_parse_ports(text(n), &b, &length, &why))
			diag(x, line_of(n), "%s: '%s' %s", what, text(n), why);
		base = b;
	} else if (fields(x, n, what, keys, 2, ids, lines)) {
		snprintf(sub, sizeof(sub), "%s.base", what);
		if (!ids[0])
			diag(x, line_of(n), "%s: 'base' is missing", what);
		opt_number(x, ids[0], sub, 0xffff, &base);
		snprintf(sub, sizeof(sub), "%s.length", what);
		if (!ids[1])
			diag(x, line_of(n), "%s: 'length' is missing", what);
		opt_number(x, ids[1], sub, UINT32_MAX, &length);
	}
	if (length > UINT32_MAX) {
		diag(x, line_of(n), "%s: the length 0x%llx is too large", what,
		     (unsigned long long)length);
		length = 0;
	}
	p->base = (uint16_t)base;
	p->length = (uint32_t)length;
}

/* The items of a list (none when null); each one's line in *lines. */
static size_t list(struct ctx *x, int id, const char *what,
		   unsigned int **lines,
		   void (*one)(struct ctx *, yaml_node_t *, const char *))
{
	yaml_node_t *n = node(x, id), *item;
	yaml_node_item_t *it;
	char sub[80];
	size_t count, i = 0;

	if (!n || is_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		diag(x, line_of(n), "%s must be a list (- item), not %s", what,
		     kind_name(n));
		return 0;
	}
	count = (size_t)(n->data.sequence.items.top -
			 n->data.sequence.items.start);
	if (count > CY_MAX_ITEMS) {
		diag(x, line_of(n), "%s: %zu items, at most %u can be written",
		     what, count, CY_MAX_ITEMS);
		return 0;
	}
	*lines = calloc(count ? count : 1, sizeof(**lines));
	if (!*lines) {
		perror("warden");
		exit(2);
	}
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++, i++) {
		item = node(x, *it);
		(*lines)[i] = line_of(item);
		snprintf(sub, sizeof(sub), "%s[%zu]", what, i);
		one(x, item, sub);
	}
	return count;
}

static void irq_pin(struct ctx *x, yaml_node_t *n, const char *what)
{
	struct warden_irq_pin *p;
	const char *s = text(n), *why;
	uint64_t v;

	x->pins = grow(x->pins, &x->cap_pins, x->n_pins, sizeof(*p));
	p = &x->pins[x->n_pins++];
	memset(p, 0, sizeof(*p));
	if (!s || is_null(n)) {
		diag(x, line_of(n), "%s: a GSI number is needed, not %s", what,
		     s ? "an empty value" : kind_name(n));
		return;
	}
	if (cv_parse_u64(s, &v, &why))
		diag(x, line_of(n), "%s: '%s' %s", what, s, why);
	else if (v > UINT32_MAX)
		diag(x, line_of(n), "%s: %s is larger than 0x%x", what, s,
		     UINT32_MAX);
	else
		p->gsi = (uint32_t)v;
}

/* A true/false value; false when absent. */
static bool boolean(struct ctx *x, int id, const char *what)
{
	yaml_node_t *n = node(x, id);
	const char *s = text(n), *why;
	bool v = false;

	if (!n || is_null(n))
		return false;
	if (!s || cv_parse_bool(s, &v, &why))
		diag(x, line_of(n), "%s: true or false is needed", what);
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

	if (!fields(x, n, what, keys, 5, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.bar", what);
	if (!ids[0]) {
		diag(x, line_of(n), "%s: 'bar' (0 to 5) is missing", what);
		return;
	}
	if (number(x, ids[0], sub, WARDEN_PCI_BARS - 1, &index))
		return;
	if (seen[index]) {
		diag(x, line_of(n), "%s: BAR %u is listed twice", what,
		     (unsigned int)index);
		return;
	}
	seen[index] = true;
	bar = &d->bars[index];
	snprintf(sub, sizeof(sub), "%s.address", what);
	if (!ids[1])
		diag(x, line_of(n), "%s: 'address' is missing", what);
	opt_number(x, ids[1], sub, UINT64_MAX, &bar->address);
	snprintf(sub, sizeof(sub), "%s.size", what);
	if (!ids[2])
		diag(x, line_of(n), "%s: 'size' is missing", what);
	else if (!number(x, ids[2], sub, UINT64_MAX, &v))
		bar->size = v;
	/* type: a name, or raw flags (for tests of the validator) */
	snprintf(sub, sizeof(sub), "%s.type", what);
	if (!ids[3])
		diag(x, line_of(n),
		     "%s: 'type' (mem32, mem64 or io) is missing", what);
	else if (!named_value(x, ids[3], sub, cv_bar_types, UINT32_MAX, &type))
		bar->flags = type;
	snprintf(sub, sizeof(sub), "%s.prefetch", what);
	if (boolean(x, ids[4], sub))
		bar->flags |= WARDEN_PCI_BAR_PREFETCH;
}

static void pci_device(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = {
		"bdf", "ids",  "int_pin",	 "gsi",
		"msi", "msix", "dma_unisolated", "bars"
	};
	enum { BDF, IDS, INT_PIN, GSI, MSI, MSIX, DMA, BARS, N };
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

	x->pci = grow(x->pci, &x->cap_pci, x->n_pci, sizeof(*d));
	d = &x->pci[x->n_pci++];
	memset(d, 0, sizeof(*d));
	d->gsi = WARDEN_NO_GSI;
	if (!fields(x, n, what, keys, N, ids, lines))
		return;
	s = text(node(x, ids[BDF]));
	if (!ids[BDF])
		diag(x, line_of(n), "%s: 'bdf' is missing", what);
	else if (!s || cv_parse_bdf(s, &d->domain, &d->bdf, &why))
		diag(x, lines[BDF], "%s.bdf: '%s' %s", what, s ? s : "",
		     s ? why : "is not a PCI function such as 00:03.0");
	s = text(node(x, ids[IDS]));
	if (!ids[IDS])
		diag(x, line_of(n), "%s: 'ids' (vendor:device) is missing",
		     what);
	else if (!s || cv_parse_ids(s, &d->vendor_id, &d->device_id, &why))
		diag(x, lines[IDS], "%s.ids: '%s' %s", what, s ? s : "",
		     s ? why : "is not a vendor:device pair");
	snprintf(sub, sizeof(sub), "%s.int_pin", what);
	if (ids[INT_PIN] && !is_null(node(x, ids[INT_PIN])) &&
	    !named_value(x, ids[INT_PIN], sub, cv_int_pins, 0xff, &pin))
		d->int_pin = (uint8_t)pin;
	snprintf(sub, sizeof(sub), "%s.gsi", what);
	s = text(node(x, ids[GSI]));
	if (ids[GSI] && !is_null(node(x, ids[GSI])) &&
	    !(s && !strcmp(s, "none")) &&
	    !number(x, ids[GSI], sub, UINT32_MAX, &v))
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
	bars = node(x, ids[BARS]);
	if (!bars || is_null(bars))
		return;
	if (bars->type != YAML_SEQUENCE_NODE) {
		diag(x, line_of(bars),
		     "%s.bars must be a list (- item), not %s", what,
		     kind_name(bars));
		return;
	}
	count = items(bars);
	for (i = 0; i < count; i++) {
		item = item_of(x, bars, i);
		snprintf(bar_what, sizeof(bar_what), "%s.bars[%zu]", what, i);
		pci_bar(x, item, bar_what, d, seen);
	}
}

static void ioapic(struct ctx *x, yaml_node_t *n, const char *what)
{
	static const char *const keys[] = { "address", "id", "gsi_base",
					    "pins" };
	struct warden_ioapic *a;
	int ids[4];
	unsigned int lines[4];
	char sub[96];
	uint64_t v;

	x->ioapics =
		grow(x->ioapics, &x->cap_ioapics, x->n_ioapics, sizeof(*a));
	a = &x->ioapics[x->n_ioapics++];
	memset(a, 0, sizeof(*a));
	if (!fields(x, n, what, keys, 4, ids, lines))
		return;
	snprintf(sub, sizeof(sub), "%s.address", what);
	if (!ids[0])
		diag(x, line_of(n), "%s: 'address' is missing", what);
	opt_number(x, ids[0], sub, UINT64_MAX, &a->address);
	snprintf(sub, sizeof(sub), "%s.id", what);
	v = 0;
	opt_number(x, ids[1], sub, 0xff, &v);
	a->id = (uint8_t)v;
	snprintf(sub, sizeof(sub), "%s.gsi_base", what);
	v = 0;
	opt_number(x, ids[2], sub, UINT32_MAX, &v);
	a->gsi_base = (uint32_t)v;
	snprintf(sub, sizeof(sub), "%s.pins", what);
	v = 0;
	if (!ids[3])
		diag(x, line_of(n), "%s: 'pins' is missing", what);
	opt_number(x, ids[3], sub, 0xff, &v);
	a->num_pins = (uint8_t)v;
}

static void cell(struct ctx *x, int id, unsigned int key_line, const char *what,
		 struct warden_cell_desc *d, struct cy_cell_lines *l)
{
	static const char *const keys[] = {
		"name",	  "flags", "cpus",     "reset_address", "console",
		"memory", "ports", "irq_pins", "pci_devices",
	};
	enum { NAME, FLAGS, CPUS, RESET, CONSOLE, MEMORY, PORTS, PINS, PCI, N };
	yaml_node_t *n = node(x, id);
	int ids[N];
	unsigned int lines[N];
	char sub[64];
	const char *name;
	size_t len;

	l->cell = key_line;
	if (!fields(x, n, what, keys, N, ids, lines))
		return;
	l->name = lines[NAME];
	l->flags = lines[FLAGS];
	l->cpus = lines[CPUS];
	l->reset = lines[RESET];
	l->console = lines[CONSOLE];
	l->memory = lines[MEMORY];
	l->ports = lines[PORTS];
	l->irq_pins = lines[PINS];
	l->pci_devices = lines[PCI];

	snprintf(sub, sizeof(sub), "%s.name", what);
	name = text(node(x, ids[NAME]));
	if (!ids[NAME]) {
		diag(x, key_line, "%s: 'name' is missing", what);
	} else if (!name) {
		diag(x, l->name, "%s: a name is needed", sub);
	} else {
		/* A name ends at a NUL ("\0" in YAML); longer names fill the
		 * field without one: the validator says they are too long. */
		len = strnlen(name, node(x, ids[NAME])->data.scalar.length);
		memcpy(d->name, name,
		       len < WARDEN_NAME_LEN ? len : WARDEN_NAME_LEN);
	}
	snprintf(sub, sizeof(sub), "%s.flags", what);
	d->flags = flag_set(x, ids[FLAGS], sub, cv_cell_flags);
	snprintf(sub, sizeof(sub), "%s.cpus", what);
	if (!ids[CPUS])
		diag(x, key_line, "%s: 'cpus' is missing", what);
	cpus(x, ids[CPUS], sub, &d->cpus, l);
	snprintf(sub, sizeof(sub), "%s.reset_address", what);
	opt_number(x, ids[RESET], sub, UINT64_MAX, &d->reset_address);
	snprintf(sub, sizeof(sub), "%s.console", what);
	console(x, ids[CONSOLE], sub, &d->console);
	l->n_regions = list(x, ids[MEMORY], "memory", &l->regions, region);
	l->n_pio = list(x, ids[PORTS], "ports", &l->pio, port_range);
	l->n_pins = list(x, ids[PINS], "irq_pins", &l->pins, irq_pin);
	l->n_pci = list(x, ids[PCI], "pci_devices", &l->pci, pci_device);
	d->num_memory_regions = (uint32_t)l->n_regions;
	d->num_pio_ranges = (uint32_t)l->n_pio;
	d->num_irq_pins = (uint32_t)l->n_pins;
	d->num_pci_devices = (uint32_t)l->n_pci;
}

/* A name into a field of WARDEN_NAME_LEN bytes: it ends at a NUL ("\0"
 * in YAML); a longer one fills the field without one, and the validator
 * says it is too long. */
static void name_field(yaml_node_t *n, char *field)
{
	const char *name = text(n);
	size_t len = strnlen(name, n->data.scalar.length);

	memcpy(field, name, len < WARDEN_NAME_LEN ? len : WARDEN_NAME_LEN);
}

/* One peer of a link: {cell, bdf, regs, shmem, vectors}. */
static void link_peer(struct ctx *x, yaml_node_t *n, const char *what,
		      const struct warden_link *l, struct warden_link_peer *q)
{
	static const char *const keys[] = { "cell", "bdf", "regs", "shmem",
					    "vectors" };
	enum { CELL, BDF, REGS, SHMEM, VECTORS, N };
	int ids[N];
	unsigned int lines[N];
	uint16_t domain = 0;
	const char *s, *why;
	char sub[160];
	uint64_t v;

	if (!fields(x, n, what, keys, N, ids, lines))
		return;
	s = text(node(x, ids[CELL]));
	if (!ids[CELL])
		diag(x, line_of(n),
		     "%s: 'cell' is missing (the cell's name, the root "
		     "cell's for root)",
		     what);
	else if (!s || is_null(node(x, ids[CELL])))
		diag(x, lines[CELL], "%s.cell: a name is needed", what);
	else
		name_field(node(x, ids[CELL]), q->cell);
	s = text(node(x, ids[BDF]));
	if (!ids[BDF])
		diag(x, line_of(n), "%s: 'bdf' is missing", what);
	else if (!s || cv_parse_bdf(s, &domain, &q->bdf, &why))
		diag(x, lines[BDF], "%s.bdf: '%s' %s", what, s ? s : "",
		     s ? why : "is not a PCI function such as 00:10.0");
	else if (domain)
		diag(x, lines[BDF],
		     "%s.bdf: '%s': a link's function is in PCI segment 0",
		     what, s);
	snprintf(sub, sizeof(sub), "%s.regs", what);
	if (!ids[REGS])
		diag(x, line_of(n),
		     "%s: 'regs' (the address of its registers, BAR 0) is "
		     "missing",
		     what);
	opt_number(x, ids[REGS], sub, UINT64_MAX, &q->regs_address);
	/* root sees the memory where it is; a cell where it says */
	snprintf(sub, sizeof(sub), "%s.shmem", what);
	q->shmem_address = l->phys_start;
	if (ids[SHMEM])
		opt_number(x, ids[SHMEM], sub, UINT64_MAX, &q->shmem_address);
	else if (q->cell[0] && x->root_name &&
		 strncmp(q->cell, x->root_name, WARDEN_NAME_LEN))
		diag(x, line_of(n),
		     "%s: 'shmem' is missing: a cell's peer says where the "
		     "cell sees the link's memory (BAR 2); only the root "
		     "cell's defaults to memory.phys",
		     what);
	snprintf(sub, sizeof(sub), "%s.vectors", what);
	v = 0;
	if (!ids[VECTORS])
		diag(x, line_of(n), "%s: 'vectors' (1 to %d) is missing", what,
		     WARDEN_LINK_MAX_VECTORS);
	opt_number(x, ids[VECTORS], sub, 0xff, &v);
	q->vectors = (uint8_t)v;
}

/* One link: {name, memory: {phys, size}, access, peers}. */
static void link(struct ctx *x, yaml_node_t *n, const char *what,
		 struct warden_link *l, struct cy_link_lines *ll)
{
	static const char *const keys[] = { "name", "memory", "access", "peers",
					    "doorbell_rate" };
	static const char *const mem_keys[] = { "phys", "size" };
	enum { NAME, MEMORY, ACCESS, PEERS, RATE, N };
	int ids[N], mem[2];
	unsigned int lines[N], mem_lines[2];
	yaml_node_t *peers, *item;
	uint32_t access;
	uint64_t rate;
	size_t i, count;
	char sub[96], peer_what[112];

	memset(l, 0, sizeof(*l));
	ll->link = line_of(n);
	if (!fields(x, n, what, keys, N, ids, lines))
		return;
	ll->name = lines[NAME];
	ll->memory = lines[MEMORY];
	ll->access = lines[ACCESS];
	ll->peers = lines[PEERS];
	if (!ids[NAME])
		diag(x, line_of(n), "%s: 'name' is missing", what);
	else if (!text(node(x, ids[NAME])) || is_null(node(x, ids[NAME])))
		diag(x, lines[NAME], "%s.name: a name is needed", what);
	else
		name_field(node(x, ids[NAME]), l->name);
	snprintf(sub, sizeof(sub), "%s.memory", what);
	if (!ids[MEMORY])
		diag(x, line_of(n),
		     "%s: 'memory' ({phys, size}: from the memmap= "
		     "reservation) is missing",
		     what);
	else if (fields(x, node(x, ids[MEMORY]), sub, mem_keys, 2, mem,
			mem_lines)) {
		if (!mem[0] || !mem[1])
			diag(x, lines[MEMORY],
			     "%s: 'phys' and 'size' are needed", sub);
		snprintf(sub, sizeof(sub), "%s.memory.phys", what);
		opt_number(x, mem[0], sub, UINT64_MAX, &l->phys_start);
		snprintf(sub, sizeof(sub), "%s.memory.size", what);
		opt_number(x, mem[1], sub, UINT64_MAX, &l->size);
	}
	snprintf(sub, sizeof(sub), "%s.access", what);
	if (!ids[ACCESS])
		diag(x, line_of(n),
		     "%s: 'access' (directional or read-write) is missing",
		     what);
	else if (!named_value(x, ids[ACCESS], sub, cv_link_access, UINT32_MAX,
			      &access))
		l->flags = access;
	snprintf(sub, sizeof(sub), "%s.doorbell_rate", what);
	rate = 0;
	opt_number(x, ids[RATE], sub, 0xffff, &rate);
	l->doorbell_rate = (uint16_t)rate;
	peers = node(x, ids[PEERS]);
	if (!peers || is_null(peers)) {
		diag(x, ids[PEERS] ? lines[PEERS] : line_of(n),
		     "%s: 'peers' (a list of 2 to %d) is missing", what,
		     WARDEN_LINK_MAX_PEERS);
		return;
	}
	if (peers->type != YAML_SEQUENCE_NODE) {
		diag(x, line_of(peers),
		     "%s.peers must be a list (- item), not %s", what,
		     kind_name(peers));
		return;
	}
	count = items(peers);
	if (count > WARDEN_LINK_MAX_PEERS) {
		diag(x, line_of(peers),
		     "%s.peers: %zu peers, a link has 2 to %d", what, count,
		     WARDEN_LINK_MAX_PEERS);
		return;
	}
	l->num_peers = (uint16_t)count;
	for (i = 0; i < count; i++) {
		item = item_of(x, peers, i);
		ll->peer[i] = line_of(item);
		snprintf(peer_what, sizeof(peer_what), "%s.peers[%zu]", what,
			 i);
		link_peer(x, item, peer_what, l, &l->peers[i]);
	}
}

/* The top-level "links:" list of a system config. */
static void links(struct ctx *x, int id, unsigned int key_line)
{
	struct cy_config *c = x->c;
	yaml_node_t *n = node(x, id), *item;
	size_t i, count;
	char what[32];

	c->links = key_line;
	if (!n || is_null(n))
		return;
	if (n->type != YAML_SEQUENCE_NODE) {
		diag(x, line_of(n), "links must be a list (- item), not %s",
		     kind_name(n));
		return;
	}
	count = items(n);
	if (count > 0xffff) {
		diag(x, line_of(n), "links: more than 65535");
		return;
	}
	x->links = calloc(count ? count : 1, sizeof(*x->links));
	c->link = calloc(count ? count : 1, sizeof(*c->link));
	if (!x->links || !c->link) {
		perror("warden");
		exit(2);
	}
	x->n_links = c->n_links = count;
	for (i = 0; i < count; i++) {
		item = item_of(x, n, i);
		snprintf(what, sizeof(what), "links[%zu]", i);
		link(x, item, what, &x->links[i], &c->link[i]);
	}
}

static void system_part(struct ctx *x, int id, struct warden_system_desc *s)
{
	static const char *const keys[] = { "hypervisor_memory",
					    "debug_console", "platform",
					    "ioapics" };
	static const char *const hv_keys[] = { "start", "size" };
	static const char *const plat_keys[] = {
		"tsc_khz",	 "apic_khz",	     "pm_timer_port",
		"mmconfig_base", "mmconfig_end_bus", "iommu_base",
		"hpet_base"
	};
	struct warden_platform *p = &s->platform;
	int ids[4], hv[2], pl[7];
	unsigned int lines[4], hv_lines[2], pl_lines[7];
	uint64_t v;

	if (!fields(x, node(x, id), "system", keys, 4, ids, lines))
		return;
	x->c->ioapics = lines[3];
	x->c->n_ioapics = list(x, ids[3], "ioapics", &x->c->ioapic, ioapic);
	if (x->c->n_ioapics > 0xffff) {
		diag(x, lines[3], "system.ioapics: more than 65535");
		x->c->n_ioapics = 0;
	}
	p->num_ioapics = (uint16_t)x->c->n_ioapics;
	x->c->hv_mem = lines[0];
	x->c->debug_console = lines[1];
	x->c->platform = lines[2];
	if (!ids[0])
		diag(x, x->c->top, "system: 'hypervisor_memory' is missing");
	else if (fields(x, node(x, ids[0]), "system.hypervisor_memory", hv_keys,
			2, hv, hv_lines)) {
		if (!hv[0] || !hv[1])
			diag(x, lines[0],
			     "system.hypervisor_memory: 'start' and 'size' "
			     "are needed");
		opt_number(x, hv[0], "system.hypervisor_memory.start",
			   UINT64_MAX, &s->hv_mem_start);
		opt_number(x, hv[1], "system.hypervisor_memory.size",
			   UINT64_MAX, &s->hv_mem_size);
	}
	console(x, ids[1], "system.debug_console", &s->debug_console);
	if (ids[2] && !is_null(node(x, ids[2])) &&
	    fields(x, node(x, ids[2]), "system.platform", plat_keys, 7, pl,
		   pl_lines)) {
		v = 0;
		opt_number(x, pl[0], "platform.tsc_khz", UINT32_MAX, &v);
		p->tsc_khz = (uint32_t)v;
		v = 0;
		opt_number(x, pl[1], "platform.apic_khz", UINT32_MAX, &v);
		p->apic_khz = (uint32_t)v;
		v = 0;
		opt_number(x, pl[2], "platform.pm_timer_port", 0xffff, &v);
		p->pm_timer_port = (uint16_t)v;
		opt_number(x, pl[3], "platform.mmconfig_base", UINT64_MAX,
			   &p->mmconfig_base);
		v = 0;
		opt_number(x, pl[4], "platform.mmconfig_end_bus", 0xff, &v);
		p->mmconfig_end_bus = (uint8_t)v;
		opt_number(x, pl[5], "platform.iommu_base", UINT64_MAX,
			   &p->iommu_base);
		opt_number(x, pl[6], "platform.hpet_base", UINT64_MAX,
			   &p->hpet_base);
	}
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
	uint8_t *p, *at;

	memset(&h, 0, sizeof(h));
	memcpy(h.signature,
	       c->system ? WARDEN_SYSTEM_SIGNATURE : WARDEN_CELL_SIGNATURE, 8);
	h.revision = WARDEN_CONFIG_REVISION;
	h.architecture = WARDEN_ARCH_X86_64;
	c->size = sizeof(h) + desc_size + rsize + psize + pins + pci + ioapics +
		  links_size;
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
	 * (system) the IOAPICs and the links */
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
		diag(x, 1,
		     "the file is empty: a 'system:' or 'cell:' config "
		     "is needed");
		return;
	}
	if (!fields(x, root, "the file", keys, 5, ids, lines))
		return;
	if (ids[4] && !ids[2]) {
		diag(x, lines[4],
		     "'boot:' belongs in a cell config, beside 'cell:'");
		return;
	}
	if (ids[3] && ids[2] && !ids[0] && !ids[1]) {
		diag(x, lines[3],
		     "links belong in the system config (a cell config has "
		     "'cell:' only)");
		return;
	}
	if (ids[2] && (ids[0] || ids[1])) {
		diag(x, lines[2],
		     "a file holds a system config ('system:' and "
		     "'root_cell:') or a cell config ('cell:'), not both");
		return;
	}
	if (ids[2]) {
		c->system = false;
		c->top = lines[2];
		cell(x, ids[2], lines[2], "cell", &desc, &c->cell);
	} else if (ids[0] || ids[1]) {
		c->system = true;
		c->top = lines[0] ? lines[0] : lines[1];
		if (!ids[0])
			diag(x, lines[1], "'system:' is missing");
		else
			system_part(x, ids[0], &sys);
		if (!ids[1])
			diag(x, lines[0], "'root_cell:' is missing");
		else
			cell(x, ids[1], lines[1], "root_cell", &sys.root_cell,
			     &c->cell);
		/* after root_cell: a peer named like it is root's */
		memcpy(root_name, sys.root_cell.name, WARDEN_NAME_LEN);
		root_name[WARDEN_NAME_LEN] = '\0';
		x->root_name = root_name;
		links(x, ids[3], lines[3]);
		sys.platform.num_links = (uint16_t)x->n_links;
	} else if (ids[3]) {
		diag(x, lines[3],
		     "links belong in the system config, with 'system:' and "
		     "'root_cell:'");
		return;
	} else {
		diag(x, line_of(root),
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
		diag(&x, 0, "cannot start the YAML parser");
		return (int)c->n_diags;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text_in,
				     len);
	if (!yaml_parser_load(&parser, &x.doc)) {
		problem = parser.problem ? parser.problem : "syntax error";
		diag(&x, (unsigned int)parser.problem_mark.line + 1,
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
			diag(&x, (unsigned int)extra.start_mark.line + 1,
			     "only one YAML document per file");
		yaml_document_delete(&extra);
	} else {
		diag(&x, (unsigned int)parser.problem_mark.line + 1, "YAML: %s",
		     parser.problem ? parser.problem : "error");
	}
	yaml_parser_delete(&parser);
	free(x.regions);
	free(x.pio);
	free(x.pins);
	free(x.pci);
	free(x.ioapics);
	free(x.links);
	if (c->n_diags) {
		free(c->blob);
		c->blob = NULL;
		c->size = 0;
	}
	return (int)c->n_diags;
}
