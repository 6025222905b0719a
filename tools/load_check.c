// SPDX-License-Identifier: GPL-2.0
/* Checks of what "warden cell load" puts into a cell (load_check.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <warden/config.h>

#include "load_check.h"

int cell_memory_from_config(const void *blob, size_t size,
			    struct cell_memory *m)
{
	const struct warden_config_header *h = blob;
	const struct warden_cell_desc *desc;
	const struct warden_mem_region *r;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	if (size < sizeof(*h) + sizeof(*desc) ||
	    memcmp(h->signature, WARDEN_CELL_SIGNATURE, 8))
		return -1;
	desc = (const void *)(h + 1);
	if (size - sizeof(*h) - sizeof(*desc) <
	    (uint64_t)desc->num_memory_regions * sizeof(*r))
		return -1;
	r = warden_cell_mem_regions(desc);
	m->reset_address = desc->reset_address;
	for (i = 0; i < desc->num_memory_regions; i++) {
		if (!(r[i].flags & WARDEN_MEM_LOADABLE))
			continue;
		if (m->num_regions == LOAD_MAX_REGIONS)
			return -1;
		m->regions[m->num_regions].start = r[i].guest_start;
		m->regions[m->num_regions].size = r[i].size;
		m->num_regions++;
	}
	return 0;
}

/* A number as sysfs writes it: 0x and hex digits, then end or white
 * space; *end after it. */
static int parse_hex(const char *s, uint64_t *v, const char **end)
{
	char *e;

	if (strncmp(s, "0x", 2) || !s[2] ||
	    !strchr("0123456789abcdefABCDEF", s[2]))
		return -1;
	*v = strtoull(s, &e, 16);
	*end = e;
	return 0;
}

int cell_memory_parse(const char *loadable, const char *reset,
		      struct cell_memory *m)
{
	const char *p = loadable, *end;

	memset(m, 0, sizeof(*m));
	if (parse_hex(reset, &m->reset_address, &end) ||
	    (*end && strcmp(end, "\n")))
		return -1;
	while (*p) {
		if (m->num_regions == LOAD_MAX_REGIONS ||
		    parse_hex(p, &m->regions[m->num_regions].start, &end) ||
		    *end != '+' ||
		    parse_hex(end + 1, &m->regions[m->num_regions].size,
			      &end) ||
		    (*end && *end != '\n'))
			return -1;
		m->num_regions++;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* The cell's loadable memory, for a message: "0x0+0x100000, ..." or
 * "none". */
static void list_regions(const struct cell_memory *m, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	snprintf(buf, len, "none");
	for (i = 0; i < m->num_regions && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used,
					 "%s0x%" PRIx64 "+0x%" PRIx64,
					 i ? ", " : "", m->regions[i].start,
					 m->regions[i].size);
}

static bool inside(const struct cell_memory *m, uint64_t address, uint64_t size)
{
	unsigned int i;

	for (i = 0; i < m->num_regions; i++)
		if (address >= m->regions[i].start &&
		    size <= m->regions[i].size &&
		    address - m->regions[i].start <= m->regions[i].size - size)
			return true;
	return false;
}

int load_check_pieces(const struct cell_memory *m,
		      const struct load_piece *pieces, unsigned int n,
		      char *why, size_t len)
{
	const struct load_piece *a, *b;
	char regions[256];
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		a = &pieces[i];
		if (inside(m, a->address, a->size))
			continue;
		list_regions(m, regions, sizeof(regions));
		snprintf(why, len,
			 "%s (0x%" PRIx64 "+0x%" PRIx64 ") is outside the "
			 "cell's loadable memory (%s)",
			 a->what, a->address, a->size, regions);
		return -1;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			a = &pieces[i];
			b = &pieces[j];
			if (a->address < b->address + b->size &&
			    b->address < a->address + a->size) {
				snprintf(why, len,
					 "%s (0x%" PRIx64 "+0x%" PRIx64
					 ") and %s (0x%" PRIx64 "+0x%" PRIx64
					 ") overlap",
					 a->what, a->address, a->size, b->what,
					 b->address, b->size);
				return -1;
			}
		}
	return 0;
}

int load_check_entry(const struct cell_memory *m, const struct elf_image *img,
		     const char *file, char *why, size_t len)
{
	unsigned int i;

	if (img->entry != m->reset_address) {
		snprintf(why, len,
			 "%s: entry point 0x%" PRIx64 " is not the cell's "
			 "reset address 0x%" PRIx64 ": the cell's first CPU "
			 "starts there, in real mode (reset_address in the "
			 "cell config); link the image with its entry there "
			 "or change the config",
			 file, img->entry, m->reset_address);
		return -1;
	}
	for (i = 0; i < img->num_segments; i++)
		if (img->entry - img->segments[i].address <
		    img->segments[i].file_size)
			return 0;
	snprintf(why, len,
		 "%s: entry point 0x%" PRIx64 " is in none of its segments' "
		 "file bytes: the CPU would start on memory the image does "
		 "not write",
		 file, img->entry);
	return -1;
}
