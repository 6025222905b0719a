// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a cell config's "boot:" section for "warden up" (boot_plan.h).
 * The rest of the file is the config compiler's: only cell.name is taken
 * from it here, to name the cell to load and start.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "boot_plan.h"
#include "config_values.h"

struct reader {
	yaml_document_t doc;
	const char *file;
	char *err;
	size_t len;
};

static int bad(struct reader *r, const yaml_node_t *n, const char *fmt,
	       const char *arg)
{
	char what[200];

	snprintf(what, sizeof(what), fmt, arg);
	snprintf(r->err, r->len, "%s:%lu: %s", r->file,
		 n ? (unsigned long)n->start_mark.line + 1 : 0ul, what);
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE
		       ? (const char *)n->data.scalar.value
		       : NULL;
}

/* The value of key in mapping n, or NULL. */
static yaml_node_t *get(struct reader *r, yaml_node_t *n, const char *key)
{
	yaml_node_pair_t *pair;

	if (!n || n->type != YAML_MAPPING_NODE)
		return NULL;
	for (pair = n->data.mapping.pairs.start;
	     pair < n->data.mapping.pairs.top; pair++) {
		const char *k =
			scalar(yaml_document_get_node(&r->doc, pair->key));

		if (k && !strcmp(k, key))
			return yaml_document_get_node(&r->doc, pair->value);
	}
	return NULL;
}

/* Every key of mapping n must be one of keys (NULL-terminated). */
static int known_keys(struct reader *r, yaml_node_t *n, const char *what,
		      const char *const *keys)
{
	yaml_node_pair_t *pair;
	size_t i;

	if (!n || n->type != YAML_MAPPING_NODE)
		return bad(r, n, "%s must be a mapping (key: value)", what);
	for (pair = n->data.mapping.pairs.start;
	     pair < n->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = yaml_document_get_node(&r->doc, pair->key);

		for (i = 0; keys[i]; i++)
			if (scalar(k) && !strcmp(scalar(k), keys[i]))
				break;
		if (!keys[i])
			return bad(r, k, "unknown key '%s' in boot",
				   scalar(k) ? scalar(k) : "?");
	}
	return 0;
}

static int number(struct reader *r, yaml_node_t *n, const char *what,
		  uint64_t *out)
{
	const char *why;

	if (!scalar(n) || cv_parse_u64(scalar(n), out, &why))
		return bad(r, n, "%s: a number is needed (e.g. 0 or 0xff000)",
			   what);
	return 0;
}

/* A relative image path is the config folder's, so that a tree can be
 * moved as a whole (/etc/warden, or a test's copy). */
static void path_of(struct reader *r, const char *file, char *out, size_t len)
{
	const char *slash = strrchr(r->file, '/');

	if (file[0] == '/' || !slash)
		snprintf(out, len, "%s", file);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - r->file), r->file,
			 file);
}

static int image(struct reader *r, yaml_node_t *n, struct boot_image *img)
{
	static const char *const keys[] = { "file", "address", NULL };
	const char *file = scalar(get(r, n, "file"));

	if (known_keys(r, n, "boot.images[]", keys))
		return -1;
	if (!file || !*file)
		return bad(r, n, "%s: 'file' is missing", "boot.images[]");
	path_of(r, file, img->file, sizeof(img->file));
	img->address = 0;
	if (get(r, n, "address") &&
	    number(r, get(r, n, "address"), "boot.images[].address",
		   &img->address))
		return -1;
	return 0;
}

/* boot.linux: the kernel, and optionally an initramfs and command-line
 * words, for "warden cell linux". */
static int linux_section(struct reader *r, yaml_node_t *n, struct boot_plan *p)
{
	static const char *const keys[] = { "kernel", "initrd", "cmdline",
					    NULL };
	const char *kernel = scalar(get(r, n, "kernel"));
	yaml_node_t *initrd = get(r, n, "initrd"),
		    *cmdline = get(r, n, "cmdline");

	if (known_keys(r, n, "boot.linux", keys))
		return -1;
	if (!kernel || !*kernel)
		return bad(r, n, "%s: 'kernel' is missing", "boot.linux");
	path_of(r, kernel, p->linux_kernel, sizeof(p->linux_kernel));
	if (initrd) {
		if (!scalar(initrd) || !*scalar(initrd))
			return bad(r, initrd, "boot.linux.initrd: %s is needed",
				   "a file name");
		path_of(r, scalar(initrd), p->linux_initrd,
			sizeof(p->linux_initrd));
	}
	if (cmdline) {
		if (!scalar(cmdline) ||
		    strlen(scalar(cmdline)) >= sizeof(p->linux_cmdline))
			return bad(r, cmdline,
				   "boot.linux.cmdline: %s is needed",
				   "a string shorter than 4 KiB");
		snprintf(p->linux_cmdline, sizeof(p->linux_cmdline), "%s",
			 scalar(cmdline));
	}
	return 0;
}

static int boot_section(struct reader *r, yaml_node_t *b, struct boot_plan *p)
{
	static const char *const keys[] = { "start",   "images",
					    "cmdline", "cmdline_address",
					    "linux",   NULL };
	yaml_node_t *start = get(r, b, "start"), *images = get(r, b, "images");
	yaml_node_t *cmdline = get(r, b, "cmdline");
	yaml_node_item_t *it;

	if (known_keys(r, b, "boot", keys))
		return -1;
	if (start) {
		const char *s = scalar(start);

		if (s && !strcmp(s, "true"))
			p->start = true;
		else if (!s || strcmp(s, "false"))
			return bad(r, start, "boot.start: %s is needed",
				   "true or false");
	}
	if (images) {
		if (images->type != YAML_SEQUENCE_NODE)
			return bad(r, images, "boot.images: %s is needed",
				   "a list of {file, address}");
		for (it = images->data.sequence.items.start;
		     it < images->data.sequence.items.top; it++) {
			if (p->n_images == BOOT_MAX_IMAGES)
				return bad(r, images, "boot.images: %s",
					   "at most 8 images");
			if (image(r, yaml_document_get_node(&r->doc, *it),
				  &p->images[p->n_images++]))
				return -1;
		}
	}
	if (cmdline) {
		if (!scalar(cmdline) ||
		    strlen(scalar(cmdline)) >= sizeof(p->cmdline))
			return bad(r, cmdline, "boot.cmdline: %s is needed",
				   "a string shorter than 4 KiB");
		snprintf(p->cmdline, sizeof(p->cmdline), "%s", scalar(cmdline));
		p->has_cmdline = true;
	}
	if (get(r, b, "cmdline_address") &&
	    number(r, get(r, b, "cmdline_address"), "boot.cmdline_address",
		   &p->cmdline_address))
		return -1;
	if (get(r, b, "linux")) {
		if (images || cmdline || get(r, b, "cmdline_address"))
			return bad(r, get(r, b, "linux"), "boot: %s",
				   "linux takes no images, cmdline or "
				   "cmdline_address (its command line is "
				   "linux.cmdline)");
		if (linux_section(r, get(r, b, "linux"), p))
			return -1;
	}
	if (p->start && !p->n_images && !p->linux_kernel[0])
		return bad(r, b, "boot: %s",
			   "start: true needs an image or linux");
	return 0;
}

int boot_plan_read(const char *file, struct boot_plan *p, char *err, size_t len)
{
	struct reader r = { .file = file, .err = err, .len = len };
	yaml_parser_t parser;
	yaml_node_t *root, *name, *boot;
	FILE *f = fopen(file, "r");
	int ret = -1;

	memset(p, 0, sizeof(*p));
	p->cmdline_address = BOOT_CMDLINE_ADDRESS;
	if (!f) {
		snprintf(err, len, "%s: cannot be read", file);
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &r.doc)) {
		snprintf(err, len, "%s:%lu: not YAML: %s", file,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "?");
		yaml_parser_delete(&parser);
		fclose(f);
		return -1;
	}
	root = yaml_document_get_root_node(&r.doc);
	name = get(&r, get(&r, root, "cell"), "name");
	boot = get(&r, root, "boot");
	if (!scalar(name) || strlen(scalar(name)) > WARDEN_NAME_LEN) {
		bad(&r, root, "%s", "not a cell config with a cell.name");
	} else {
		snprintf(p->name, sizeof(p->name), "%s", scalar(name));
		ret = boot ? boot_section(&r, boot, p) : 0;
	}
	yaml_document_delete(&r.doc);
	yaml_parser_delete(&parser);
	fclose(f);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int boot_cells(const char *dir, char ***names, char *err, size_t len)
{
	size_t n = 0, cap = 0, bytes = 0, i;
	struct dirent *e;
	char **list = NULL, *at;
	DIR *d = opendir(dir);

	*names = NULL;
	if (!d) {
		snprintf(err, len, "%s: cannot be read", dir);
		return -1;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") ||
		    e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			list = realloc(list, cap * sizeof(*list));
			if (!list)
				abort();
		}
		list[n++] = strdup(e->d_name);
		bytes += strlen(dir) + l + 2;
	}
	closedir(d);
	/* one allocation: the pointers, then the paths */
	*names = malloc((n + 1) * sizeof(char *) + bytes + 1);
	if (!*names)
		abort();
	qsort(list, n, sizeof(*list), by_name);
	at = (char *)(*names + n + 1);
	for (i = 0; i < n; i++) {
		(*names)[i] = at;
		at += sprintf(at, "%s/%s", dir, list[i]) + 1;
		free(list[i]);
	}
	(*names)[n] = NULL;
	free(list);
	return (int)n;
}
