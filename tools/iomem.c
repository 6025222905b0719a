// SPDX-License-Identifier: GPL-2.0
/* Parsing /proc/iomem and /proc/ioports, and a free place for the
 * memmap= reservation (iomem.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iomem.h"

#define MIB (1ull << 20)
#define SUGGEST_ALIGN (16 * MIB)
#define SUGGEST_LOW (16 * MIB)
#define SUGGEST_HIGH (4096 * MIB)

void iomem_parse(const char *text, struct res_list *l)
{
	const char *p = text, *eol, *colon;
	unsigned long long start, end;
	unsigned int spaces;
	struct res *r;
	size_t n;

	l->r = NULL;
	l->n = 0;
	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		for (spaces = 0; p[spaces] == ' '; spaces++)
			;
		colon = strstr(p, " : ");
		if (!colon || colon > eol ||
		    sscanf(p + spaces, "%llx-%llx", &start, &end) != 2 ||
		    end < start)
			continue;
		l->r = realloc(l->r, (l->n + 1) * sizeof(*l->r));
		if (!l->r) {
			perror("warden");
			exit(2);
		}
		r = &l->r[l->n++];
		r->start = start;
		r->end = end;
		r->depth = spaces / 2;
		n = (size_t)(eol - colon - 3);
		snprintf(r->name, sizeof(r->name), "%.*s", (int)n, colon + 3);
		n = (size_t)(eol - p - spaces);
		snprintf(r->line, sizeof(r->line), "%.*s", (int)n, p + spaces);
	}
}

/* Does [a, a + size) touch a range nested in the RAM range at index i? */
static bool clashes(const struct res_list *l, size_t i, uint64_t a,
		    uint64_t size)
{
	size_t j;

	for (j = i + 1; j < l->n && l->r[j].depth > 0; j++)
		if (l->r[j].start < a + size && l->r[j].end >= a)
			return true;
	return false;
}

int iomem_suggest(const char *text, uint64_t size, uint64_t *start)
{
	struct res_list l;
	bool found = false;
	size_t i;

	iomem_parse(text, &l);
	for (i = 0; i < l.n; i++) {
		const struct res *r = &l.r[i];
		uint64_t lo = r->start, hi = r->end + 1, a;

		if (r->depth || strcmp(r->name, "System RAM"))
			continue;
		if (lo < SUGGEST_LOW)
			lo = SUGGEST_LOW;
		if (hi > SUGGEST_HIGH)
			hi = SUGGEST_HIGH;
		if (hi < lo + size)
			continue;
		/* from the top of the range down, in aligned steps */
		for (a = (hi - size) & ~(SUGGEST_ALIGN - 1); a >= lo;
		     a -= SUGGEST_ALIGN) {
			if (!clashes(&l, i, a, size)) {
				if (!found || a > *start)
					*start = a;
				found = true;
				break;
			}
			if (a < SUGGEST_ALIGN)
				break;
		}
	}
	free(l.r);
	return found ? 0 : -1;
}
