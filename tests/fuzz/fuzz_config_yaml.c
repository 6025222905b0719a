// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the YAML config front end (tools/config_yaml*.c and
 * what the CLI does with its output).  An input is YAML text:
 *
 *  - it compiles, or every error has a line within the input and a
 *    terminated message;
 *  - a compiled config goes through the validator (alone, and a cell
 *    against the valid test system and cell B of yaml_corpus.c), every
 *    record is printed as "file:line: sentence" with a line within the
 *    input;
 *  - "config show" of the blob compiles back to the very same bytes (when
 *    show says everything could be written), and showing that again
 *    gives the same text.
 *
 * Any broken property aborts, so libFuzzer reports it as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_report.h"
#include "config_show.h"
#include "config_yaml.h"
#include "yaml_corpus.h"
#include <config_check.h>

struct sink {
	const struct cy_config *c;
	unsigned int lines; /* of the input */
	unsigned int n;
};

static void check_record(void *ctx, const struct warden_error *e)
{
	struct sink *s = ctx;
	char buf[1024];

	if (cy_error_line(s->c, e) > s->lines + 1)
		abort();
	config_describe(s->c, e, buf, sizeof(buf));
	if (!memchr(buf, '\0', sizeof(buf)))
		abort();
	s->n++;
}

static unsigned int count_lines(const uint8_t *data, size_t size)
{
	unsigned int n = 1;
	size_t i;

	/* an upper bound: YAML also breaks lines at NEL, LS and PS */
	for (i = 0; i < size; i++)
		if (data[i] == '\n' || data[i] == '\r' || data[i] == 0x85 ||
		    data[i] == 0xa8 || data[i] == 0xa9)
			n++;
	return n;
}

static char *show(const struct cy_config *c, int *ret)
{
	const char *why;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	*ret = config_show(f, c->blob, c->size, NULL, &why);
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cy_config sys, b;
	static int ready;
	struct cy_config c, again;
	struct sink s = { .c = &c, .lines = count_lines(data, size) };
	const void *others[1];
	size_t sizes[1];
	unsigned int i, n;
	char *text, *text2;
	int ret, ret2;

	if (!ready) {
		if (cy_compile(&sys, "system.yaml", yc_system,
			       strlen(yc_system)) ||
		    cy_compile(&b, "b.yaml", yc_cell_b, strlen(yc_cell_b)))
			abort();
		ready = 1;
	}
	if (cy_compile(&c, "fuzz.yaml", (const char *)data, size)) {
		if (c.blob || !c.n_diags)
			abort();
		for (i = 0; i < c.n_diags && i < CY_MAX_DIAGS; i++)
			if (c.diags[i].line > s.lines + 1 ||
			    !memchr(c.diags[i].msg, '\0',
				    sizeof(c.diags[i].msg)))
				abort();
		cy_free(&c);
		return 0;
	}
	if (!c.blob || c.size < sizeof(struct warden_config_header))
		abort();

	if (c.system) {
		n = config_check_system(c.blob, c.size, check_record, &s);
	} else {
		others[0] = b.blob;
		sizes[0] = b.size;
		n = config_check_cell(c.blob, c.size, NULL, 0, NULL, NULL, 0,
				      check_record, &s);
		n += config_check_cell(c.blob, c.size, sys.blob, sys.size,
				       others, sizes, 1, check_record, &s);
	}
	if (n != s.n)
		abort();

	text = show(&c, &ret);
	if (ret < 0)
		abort();
	if (ret == 0) {
		if (cy_compile(&again, "shown.yaml", text, strlen(text)) ||
		    again.size != c.size || memcmp(again.blob, c.blob, c.size))
			abort();
		text2 = show(&again, &ret2);
		if (ret2 != 0 || strcmp(text, text2))
			abort();
		free(text2);
		cy_free(&again);
	}
	free(text);
	cy_free(&c);
	return 0;
}
