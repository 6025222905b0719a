// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML front end's nodes and values (config_yaml_parts.h): scalars,
 * lists and mappings with a known set of keys, so that any unknown key or
 * wrong kind of node is an error with its line; numbers, flags and named
 * values; the arrays that collect a config's items.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "config_yaml_parts.h"

yaml_node_t *cy_node(struct ctx *x, int id)
{
	return id ? yaml_document_get_node(&x->doc, id) : NULL;
}

unsigned int cy_line_of(const yaml_node_t *n)
{
	return n ? (unsigned int)n->start_mark.line + 1 : 0;
}

/* The text of a scalar node, or NULL. */
const char *cy_text(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE
		       ? (const char *)n->data.scalar.value
		       : NULL;
}

/* "", "~" or "null" written plainly: no value. */
bool cy_is_null(const yaml_node_t *n)
{
	const char *s = cy_text(n);

	return s && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (!*s || !strcmp(s, "~") || !strcmp(s, "null") ||
		!strcmp(s, "Null") || !strcmp(s, "NULL"));
}

const char *cy_kind_name(const yaml_node_t *n)
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
size_t cy_items(const yaml_node_t *n)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return (size_t)(n->data.sequence.items.top -
				n->data.sequence.items.start);
	return 1;
}

yaml_node_t *cy_item_of(struct ctx *x, yaml_node_t *n, size_t i)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return cy_node(x, n->data.sequence.items.start[i]);
	return n;
}

/*
 * The values of a mapping's known keys: ids[i] is the node of keys[i] (0
 * when absent), lines[i] its key's line.  Unknown and duplicate keys are
 * errors.  Returns false when n is not a mapping.
 */
bool cy_fields(struct ctx *x, yaml_node_t *n, const char *what,
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
		cy_diag_add(x, cy_line_of(n),
			    "%s must be a mapping (key: value), not %s", what,
			    n ? cy_kind_name(n) : "empty");
		return false;
	}
	for (pair = n->data.mapping.pairs.start;
	     pair < n->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = cy_node(x, pair->key);
		const char *key = cy_text(k);

		for (i = 0; key && i < n_keys; i++)
			if (!strcmp(key, keys[i]))
				break;
		if (!key) {
			cy_diag_add(x, cy_line_of(k),
				    "%s: a key must be a plain word", what);
		} else if (i == n_keys) {
			known[0] = '\0';
			for (i = 0, used = 0;
			     i < n_keys && used < sizeof(known); i++)
				used += snprintf(known + used,
						 sizeof(known) - used, "%s%s",
						 i ? ", " : "", keys[i]);
			cy_diag_add(x, cy_line_of(k),
				    "unknown key '%s' in %s (known: %s)", key,
				    what, known);
		} else if (ids[i]) {
			cy_diag_add(x, cy_line_of(k),
				    "duplicate key '%s' in %s", key, what);
		} else {
			ids[i] = pair->value;
			lines[i] = cy_line_of(k);
		}
	}
	return true;
}

/* A number that fits in max; 0 or -1 (reported). */
int cy_number(struct ctx *x, int id, const char *what, uint64_t max,
	      uint64_t *v)
{
	yaml_node_t *n = cy_node(x, id);
	const char *s = cy_text(n), *why;

	if (!s || cy_is_null(n)) {
		cy_diag_add(x, cy_line_of(n), "%s: a number is needed, not %s",
			    what, s ? "an empty value" : cy_kind_name(n));
		return -1;
	}
	if (cv_parse_u64(s, v, &why)) {
		cy_diag_add(x, cy_line_of(n), "%s: '%s' %s", what, s, why);
		return -1;
	}
	if (*v > max) {
		cy_diag_add(x, cy_line_of(n), "%s: %s is larger than 0x%llx",
			    what, s, (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* Optional number: left as it is when absent. */
void cy_opt_number(struct ctx *x, int id, const char *what, uint64_t max,
		   uint64_t *v)
{
	uint64_t value;

	if (id && !cy_number(x, id, what, max, &value))
		*v = value;
}

/*
 * Names or numbers from a list or from one value ("read, write"), looked
 * up in table; numbers are taken as raw bits.  Returns their OR.
 */
uint32_t cy_flag_set(struct ctx *x, int id, const char *what,
		     const struct cv_name *table)
{
	yaml_node_t *n = cy_node(x, id), *item;
	uint32_t flags = 0, v;
	char *buf, known[160], *tok, *save;
	const char *why;
	size_t i, count;
	uint64_t raw;

	if (!n || cy_is_null(n))
		return 0;
	if (n->type == YAML_MAPPING_NODE) {
		cy_diag_add(x, cy_line_of(n), "%s: a list of names is needed",
			    what);
		return 0;
	}
	cv_names_list(table, known, sizeof(known));
	count = cy_items(n);
	for (i = 0; i < count; i++) {
		item = cy_item_of(x, n, i);
		if (!cy_text(item)) {
			cy_diag_add(x, cy_line_of(item),
				    "%s: a name is needed, not %s", what,
				    cy_kind_name(item));
		} else {
			buf = strdup(cy_text(item));
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
					cy_diag_add(x, cy_line_of(item),
						    "%s: unknown name '%s' "
						    "(known: "
						    "%s)",
						    what, tok, known);
			}
			free(buf);
		}
	}
	return flags;
}

/* A name from table, or a number up to max. */
int cy_named_value(struct ctx *x, int id, const char *what,
		   const struct cv_name *table, uint32_t max, uint32_t *v)
{
	yaml_node_t *n = cy_node(x, id);
	const char *s = cy_text(n), *why;
	char known[160];
	uint64_t raw;

	if (s && !cy_is_null(n) && !cv_lookup(table, s, v))
		return 0;
	if (s && s[0] >= '0' && s[0] <= '9' && !cv_parse_u64(s, &raw, &why) &&
	    raw <= max) {
		*v = (uint32_t)raw;
		return 0;
	}
	cv_names_list(table, known, sizeof(known));
	if (s && !cy_is_null(n))
		cy_diag_add(x, cy_line_of(n),
			    "%s: unknown name '%s' (known: %s)", what, s,
			    known);
	else
		cy_diag_add(x, cy_line_of(n), "%s: one of %s is needed", what,
			    known);
	return -1;
}

void *cy_grow(void *p, size_t *cap, size_t n, size_t elem)
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

/* The items of a list (none when null); each one's line in *lines. */
size_t cy_list(struct ctx *x, int id, const char *what, unsigned int **lines,
	       void (*one)(struct ctx *, yaml_node_t *, const char *))
{
	yaml_node_t *n = cy_node(x, id), *item;
	yaml_node_item_t *it;
	char sub[80];
	size_t count, i = 0;

	if (!n || cy_is_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		cy_diag_add(x, cy_line_of(n),
			    "%s must be a list (- item), not %s", what,
			    cy_kind_name(n));
		return 0;
	}
	count = (size_t)(n->data.sequence.items.top -
			 n->data.sequence.items.start);
	if (count > CY_MAX_ITEMS) {
		cy_diag_add(x, cy_line_of(n),
			    "%s: %zu items, at most %u can be written", what,
			    count, CY_MAX_ITEMS);
		return 0;
	}
	*lines = calloc(count ? count : 1, sizeof(**lines));
	if (!*lines) {
		perror("warden");
		exit(2);
	}
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top;
	     it++, i++) {
		item = cy_node(x, *it);
		(*lines)[i] = cy_line_of(item);
		snprintf(sub, sizeof(sub), "%s[%zu]", what, i);
		one(x, item, sub);
	}
	return count;
}
