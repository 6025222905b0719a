/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linux's resource trees as /proc/iomem and /proc/ioports print them
 * ("start-end : name", two spaces of indentation per level), parsed for
 * "warden config create" and its --suggest-reservation.
 */
#ifndef WARDEN_TOOLS_IOMEM_H
#define WARDEN_TOOLS_IOMEM_H

#include <stddef.h>
#include <stdint.h>

/* The size "config create --suggest-reservation" proposes: the
 * hypervisor's 6 MiB and room for the example cells. */
#define RESERVATION_SUGGESTED (64ull << 20)

struct res {
	uint64_t start, end; /* end inclusive, as Linux prints it */
	unsigned int depth;  /* indentation level */
	char name[80];
	char line[128]; /* trimmed, for comments */
};

struct res_list {
	struct res *r; /* free() it */
	size_t n;
};

/* Every line of text that names a range, in order. */
void iomem_parse(const char *text, struct res_list *l);

/*
 * A free place for a memmap=SIZE$ADDR reservation of size bytes in the
 * /proc/iomem of text: inside one top-level System RAM range, clear of
 * everything Linux placed in it (its code, data, a crash kernel, ...),
 * at least 16 MiB up, below 4 GiB, aligned to 16 MiB; the highest such
 * place, furthest from where Linux loads itself.  Returns 0 with *start
 * set, or -1 if there is none.
 */
int iomem_suggest(const char *text, uint64_t size, uint64_t *start);

#endif /* WARDEN_TOOLS_IOMEM_H */
