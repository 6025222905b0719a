// SPDX-License-Identifier: GPL-2.0
/* YAML → JSON for "config show --json" (see yaml_json.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <yaml.h>

#include "config_values.h"
#include "json_out.h"
#include "yaml_json.h"

/* Deep enough for any config: system → root_cell → pci_devices → bars
 * → a bar is five levels. */
#define MAX_DEPTH 16

struct level {
	bool mapping;	 /* an object (else an array) */
	bool want_value; /* object: the key is written, its value is next */
	bool as_strings; /* under "cpus" or "ports" */
	unsigned int items;
};

struct writer {
	FILE *out;
	struct level stack[MAX_DEPTH];
	int depth;	     /* levels open; 0: at the top */
	bool key_as_strings; /* the last key written was cpus or ports */
};

static void indent(struct writer *w)
{
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Before a value or key at the current level: a comma and a new line
 * for items, nothing after a key. */
static void before_item(struct writer *w)
{
	struct level *l;

	if (!w->depth)
		return;
	l = &w->stack[w->depth - 1];
	if (l->mapping && l->want_value)
		return;
	if (l->items++)
		fputc(',', w->out);
	indent(w);
}

/* After a complete value: an object's next scalar is a key again. */
static void after_value(struct writer *w)
{
	if (w->depth && w->stack[w->depth - 1].mapping)
		w->stack[w->depth - 1].want_value = false;
}

static bool strings_here(const struct writer *w)
{
	const struct level *l = w->depth ? &w->stack[w->depth - 1] : NULL;

	if (!l)
		return false;
	if (l->mapping)
		return l->want_value && w->key_as_strings;
	return l->as_strings;
}

static void scalar_value(struct writer *w, const yaml_event_t *e)
{
	const char *s = (const char *)e->data.scalar.value;
	bool plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	const char *why;
	uint64_t v;
	bool b;

	if (plain && !strings_here(w) && !cv_parse_u64(s, &v, &why))
		fprintf(w->out, "%llu", (unsigned long long)v);
	else if (plain && !strings_here(w) && !cv_parse_bool(s, &b, &why))
		fputs(b ? "true" : "false", w->out);
	else if (plain && (!*s || !strcmp(s, "~") || !strcmp(s, "null")))
		fputs("null", w->out);
	else
		json_str(w->out, s, e->data.scalar.length);
}

static int open_level(struct writer *w, bool mapping, const char **why)
{
	bool strings = strings_here(w);

	if (w->depth >= MAX_DEPTH) {
		*why = "nests deeper than a config does";
		return -1;
	}
	before_item(w);
	fputc(mapping ? '{' : '[', w->out);
	w->stack[w->depth++] =
		(struct level){ .mapping = mapping, .as_strings = strings };
	return 0;
}

static void close_level(struct writer *w)
{
	bool mapping = w->stack[w->depth - 1].mapping;
	unsigned int items = w->stack[w->depth - 1].items;

	w->depth--;
	if (items)
		indent(w);
	fputc(mapping ? '}' : ']', w->out);
	after_value(w);
}

/* One event; 1 at the end of the document, 0 to go on, -1 on error. */
static int event(struct writer *w, const yaml_event_t *e, const char **why)
{
	struct level *l = w->depth ? &w->stack[w->depth - 1] : NULL;

	switch (e->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_START_EVENT:
		return 0;
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_ALIAS_EVENT:
		*why = "uses an alias";
		return -1;
	case YAML_MAPPING_START_EVENT:
	case YAML_SEQUENCE_START_EVENT:
		if (l && l->mapping && !l->want_value) {
			*why = "has a key that is not a scalar";
			return -1;
		}
		return open_level(w, e->type == YAML_MAPPING_START_EVENT, why);
	case YAML_MAPPING_END_EVENT:
	case YAML_SEQUENCE_END_EVENT:
		close_level(w);
		return 0;
	case YAML_SCALAR_EVENT:
		before_item(w);
		if (l && l->mapping && !l->want_value) {
			const char *k = (const char *)e->data.scalar.value;

			json_str(w->out, k, e->data.scalar.length);
			fputs(": ", w->out);
			l->want_value = true;
			w->key_as_strings = !strcmp(k, "cpus") ||
					    !strcmp(k, "ports");
			return 0;
		}
		scalar_value(w, e);
		after_value(w);
		return 0;
	default:
		*why = "holds an event JSON has no form for";
		return -1;
	}
}

int yaml_to_json(FILE *out, const char *yaml, size_t len, const char **why)
{
	struct writer w = { .out = out };
	yaml_parser_t parser;
	yaml_event_t e;
	int ret = 0;

	if (!yaml_parser_initialize(&parser)) {
		*why = "out of memory";
		return -1;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
	while (!ret) {
		if (!yaml_parser_parse(&parser, &e)) {
			*why = "is not YAML";
			ret = -1;
			break;
		}
		if ((e.type == YAML_SCALAR_EVENT && e.data.scalar.tag &&
		     !e.data.scalar.plain_implicit &&
		     !e.data.scalar.quoted_implicit) ||
		    (e.type == YAML_SCALAR_EVENT && e.data.scalar.anchor)) {
			*why = "uses a tag or an anchor";
			ret = -1;
		} else {
			ret = event(&w, &e, why);
		}
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&parser);
	if (ret < 0)
		return -1;
	fputc('\n', out);
	return 0;
}
