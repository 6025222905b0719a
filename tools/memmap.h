/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memmap=SIZE$ADDR reservation on the kernel command line: the memory
 * Linux leaves alone, from which the hypervisor and the cells take theirs
 * (docs/install.md).  Found by "warden config create" and judged by
 * "warden hardware check".
 */
#ifndef WARDEN_TOOLS_MEMMAP_H
#define WARDEN_TOOLS_MEMMAP_H

#include <stddef.h>
#include <stdint.h>

/* Smallest reservation worth having: the hypervisor's default 6 MiB
 * (CC_HV_SIZE_DEFAULT) and a 1 MiB cell with room to spare. */
#define MEMMAP_MIN_SIZE (8ull << 20)

enum memmap_kind {
	MEMMAP_NONE,	/* no reservation */
	MEMMAP_FOUND,	/* memmap=SIZE$ADDR: start and size */
	MEMMAP_MANGLED, /* memmap=SIZExHEX: GRUB took "$0" for a variable */
};

struct memmap {
	enum memmap_kind kind;
	uint64_t start, size;
	char text[128];	 /* the option as found, e.g. memmap=64M$0x30000000 */
	char fixed[128]; /* MEMMAP_MANGLED: the option as /etc/default/grub
			    needs it, memmap=64M\\\$0x30000000 */
};

/* The first reservation (or mangled one) on cmdline. */
enum memmap_kind memmap_find(const char *cmdline, struct memmap *m);

/* The same from cmdline on; *rest (if not NULL) is set to where the
 * search stopped, after the reservation found. */
enum memmap_kind memmap_find_from(const char *cmdline, struct memmap *m,
				  const char **rest);

/* Every well-formed reservation on cmdline, in order, up to max; their
 * number.  The first is the one memmap_find finds (the hypervisor's);
 * the others are more cell memory (e.g. a Linux cell's, docs/linux-cell.md). */
size_t memmap_find_all(const char *cmdline, struct memmap *m, size_t max);

#endif /* WARDEN_TOOLS_MEMMAP_H */
