/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What "warden cell load" puts into a cell, checked against the cell
 * before anything is copied: each piece (an ELF segment, a flat image, the
 * command line) inside the cell's loadable memory, none over another, and
 * an ELF image's entry point where the cell's CPUs start.  The driver
 * checks the places again; this is for the reasons (docs/cli.md).
 */
#ifndef WARDEN_TOOLS_LOAD_CHECK_H
#define WARDEN_TOOLS_LOAD_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf_image.h"

#define LOAD_MAX_REGIONS 32

/* A cell's loadable memory (guest-physical) and its reset address. */
struct cell_memory {
	uint64_t reset_address;
	unsigned int num_regions;
	struct {
		uint64_t start, size;
	} regions[LOAD_MAX_REGIONS];
};

/* The loadable regions and reset address of a cell config blob (of
 * size bytes, whole: cy_load_file's); -1 if it is not a cell config. */
int cell_memory_from_config(const void *blob, size_t size,
			    struct cell_memory *m);

/*
 * The same from the driver's sysfs files of the cell
 * (/sys/kernel/warden/cells/ID/): loadable, one "0xSTART+0xSIZE" a line,
 * and reset_address, "0xADDRESS".  -1 if either is malformed.
 */
int cell_memory_parse(const char *loadable, const char *reset,
		      struct cell_memory *m);

/* One thing to load: what (for messages, e.g. "tiny.elf segment 1")
 * at address, size bytes. */
struct load_piece {
	char what[192];
	uint64_t address, size;
};

/*
 * Check pieces against m and one another: each inside one loadable
 * region, none overlapping another.  0, or -1 with the reason in why
 * ("tiny.elf segment 1 (0x...+0x...) is outside the cell's loadable
 * memory (0x0+0x100000)").
 */
int load_check_pieces(const struct cell_memory *m,
		      const struct load_piece *pieces, unsigned int n,
		      char *why, size_t len);

/*
 * An ELF image's entry point: honoured when it is the cell's reset
 * address (where its first CPU starts, in real mode) and inside one of
 * its segments; else -1 with the reason in why.
 */
int load_check_entry(const struct cell_memory *m, const struct elf_image *img,
		     const char *file, char *why, size_t len);

#endif /* WARDEN_TOOLS_LOAD_CHECK_H */
