// SPDX-License-Identifier: GPL-2.0
/*
 * "warden config create": root's memory regions (config_create_parts.h).
 * The intervals of /proc/iomem, the first MiB's legacy ranges, device
 * memory added where nothing covers it yet, the reservation cut out,
 * then sorted and merged.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "config_create_parts.h"
#include "iomem.h"

static bool is_ram_name(const char *name)
{
	return !strcmp(name, "System RAM") || !strcmp(name, "ACPI Tables") ||
	       !strcmp(name, "ACPI Non-volatile Storage") ||
	       !strcmp(name, "Persistent Memory (legacy)");
}

/*
 * A reserved range is RAM when System RAM lies below and above it, on the
 * same side of 4 GiB (above the last RAM below 4 GiB come the PCI hole
 * and firmware flash).
 */
static bool between_ram(const struct res_list *l, const struct res *r)
{
	const uint64_t four_g = 0x100000000ull;
	bool below = false, above = false, low = r->end < four_g;
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->r[i].depth || strcmp(l->r[i].name, "System RAM"))
			continue;
		if (l->r[i].end < r->start)
			below = true;
		if (l->r[i].start > r->end && (!low || l->r[i].end < four_g))
			above = true;
	}
	return below && above;
}

struct ival *cc_add(struct gen *g, uint64_t start, uint64_t end, enum cls cls)
{
	struct ival *v;

	g->iv = cc_xrealloc(g->iv, (g->n_iv + 1) * sizeof(*g->iv));
	v = &g->iv[g->n_iv++];
	v->start = start;
	v->end = end;
	v->cls = cls;
	v->notes = NULL;
	return v;
}

/* Removes [start, end) from every interval, splitting where needed. */
void cc_cut(struct gen *g, uint64_t start, uint64_t end)
{
	size_t i, n = g->n_iv;
	struct ival *v, *w;

	for (i = 0; i < n; i++) {
		v = &g->iv[i];
		if (v->end <= start || v->start >= end)
			continue;
		if (v->start < start && v->end > end) {
			w = cc_add(g, end, g->iv[i].end, g->iv[i].cls);
			v = &g->iv[i];
			w->notes = v->notes ? strdup(v->notes) : NULL;
			v->end = start;
		} else if (v->start < start) {
			v->end = start;
		} else if (v->end > end) {
			v->start = end;
		} else {
			v->end = v->start; /* dropped when sorted */
		}
	}
}

static int by_start(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Sorts, drops empty intervals, clips overlaps, merges adjacent RAM. */
void cc_tidy(struct gen *g)
{
	size_t i, out = 0;
	struct ival *prev, *v;

	qsort(g->iv, g->n_iv, sizeof(*g->iv), by_start);
	for (i = 0; i < g->n_iv; i++) {
		v = &g->iv[i];
		prev = out ? &g->iv[out - 1] : NULL;
		if (prev && v->start < prev->end)
			v->start = prev->end < v->end ? prev->end : v->end;
		if (v->start >= v->end) {
			free(v->notes);
			continue;
		}
		if (prev && prev->cls == RAM && v->cls == RAM &&
		    prev->end == v->start) {
			prev->end = v->end;
			if (v->notes)
				cc_note(&prev->notes, "%s", v->notes);
			free(v->notes);
			continue;
		}
		g->iv[out++] = *v;
	}
	g->n_iv = out;
}

/* Device memory from ACPI: added where no interval covers it yet. */
void cc_device(struct gen *g, uint64_t addr, uint64_t size, const char *what)
{
	uint64_t start = addr & ~(PAGE - 1);
	uint64_t end = (addr + size + PAGE - 1) & ~(PAGE - 1);
	uint64_t pos = start;
	struct ival *v;
	size_t i;
	bool progress = true;

	while (pos < end && progress) {
		progress = false;
		for (i = 0; i < g->n_iv && pos < end; i++) {
			v = &g->iv[i];
			if (v->start <= pos && v->end > pos) {
				cc_note(&v->notes, "%s", what);
				pos = v->end;
				progress = true;
			}
		}
	}
	if (pos >= end)
		return;
	/* the part from pos not covered, up to the next interval */
	for (i = 0; i < g->n_iv; i++)
		if (g->iv[i].start > pos && g->iv[i].start < end)
			end = g->iv[i].start;
	v = cc_add(g, pos, end, DEVICE);
	cc_note(&v->notes, "%s", what);
	if (end < ((addr + size + PAGE - 1) & ~(PAGE - 1)))
		cc_device(g, end, addr + size - end, what);
}

static void legacy(struct gen *g, const struct res_list *io)
{
	size_t first = g->n_iv, i;
	struct ival *v;

	cc_add(g, 0, 0xa0000, LEGACY);
	cc_add(g, 0xa0000, 0xc0000, DEVICE);
	cc_add(g, 0xc0000, MIB, LEGACY);
	v = &g->iv[first];
	cc_note(&v[0].notes, "low RAM below 640 KiB (interrupt vectors, BIOS "
			     "data, EBDA)");
	cc_note(&v[1].notes, "the legacy VGA window: device memory");
	cc_note(&v[2].notes, "option ROMs and the BIOS, which Linux may read");
	for (i = 0; i < io->n; i++) {
		const struct res *r = &io->r[i];

		if (r->start < MIB)
			cc_note(&v[r->start < 0xa0000	? 0
				   : r->start < 0xc0000 ? 1
							: 2]
					 .notes,
				"/proc/iomem: %s", r->line);
	}
}

void cc_memory_from_iomem(struct gen *g, const struct res_list *io)
{
	bool low = false, reserved;
	uint64_t start, end;
	struct ival *v;
	size_t i;

	for (i = 0; i < io->n; i++)
		if (!io->r[i].depth && io->r[i].start < MIB)
			low = true;
	if (low)
		legacy(g, io);
	for (i = 0; i < io->n; i++) {
		const struct res *r = &io->r[i];

		if (r->depth)
			continue;
		start = r->start & ~(PAGE - 1);
		end = (r->end + PAGE) & ~(PAGE - 1);
		if (low && start < MIB) {
			if (end <= MIB)
				continue;
			start = MIB;
		}
		reserved = !strcmp(r->name, "Reserved") ||
			   !strcmp(r->name, "reserved") ||
			   !strncmp(r->name, "Unknown E820", 12);
		v = cc_add(g, start, end,
			   is_ram_name(r->name) ||
					   (reserved && between_ram(io, r))
				   ? RAM
				   : DEVICE);
		cc_note(&v->notes, "/proc/iomem: %s", r->line);
	}
}
