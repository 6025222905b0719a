// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the memmap= reservation on the kernel command line (memmap.h).
 * GRUB expands "$0" in a menu entry as its own variable (empty), so
 * "memmap=64M$0x30000000" written unescaped in /etc/default/grub reaches
 * Linux as "memmap=64Mx30000000", which Linux ignores with no complaint;
 * that form is recognised so that the user is told why and how to escape
 * it in /etc/default/grub, which the shell reads first: "\\\$".
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "config_values.h"
#include "memmap.h"

/* SIZE followed by "x" and hex digits: what GRUB leaves of SIZE$0xADDR. */
static int mangled(const char *val, struct memmap *m)
{
	const char *x = strrchr(val, 'x'), *why, *d;
	char size[64];
	uint64_t v;

	if (!x || x == val || !x[1] || (size_t)(x - val) >= sizeof(size))
		return -1;
	for (d = x + 1; *d; d++)
		if (!isxdigit((unsigned char)*d))
			return -1;
	snprintf(size, sizeof(size), "%.*s", (int)(x - val), val);
	if (cv_parse_u64(size, &v, &why))
		return -1;
	snprintf(m->fixed, sizeof(m->fixed), "memmap=%s\\\\\\$0x%s", size,
		 x + 1);
	return 0;
}

enum memmap_kind memmap_find(const char *cmdline, struct memmap *m)
{
	return memmap_find_from(cmdline, m, NULL);
}

size_t memmap_find_all(const char *cmdline, struct memmap *m, size_t max)
{
	const char *p = cmdline;
	size_t n = 0;

	while (n < max && memmap_find_from(p, &m[n], &p) == MEMMAP_FOUND)
		n++;
	return n;
}

enum memmap_kind memmap_find_from(const char *cmdline, struct memmap *m,
				  const char **rest)
{
	const char *p = cmdline, *why;
	char tok[128], *dollar, *addr;
	size_t n;

	memset(m, 0, sizeof(*m));
	while (*p) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		n = strcspn(p, " \n\t");
		snprintf(tok, sizeof(tok), "%.*s", (int)n, p);
		p += n;
		if (strncmp(tok, "memmap=", 7))
			continue;
		dollar = strchr(tok, '$');
		if (!dollar) {
			if (m->kind == MEMMAP_NONE && !mangled(tok + 7, m)) {
				m->kind = MEMMAP_MANGLED;
				snprintf(m->text, sizeof(m->text), "%s", tok);
			}
			continue;
		}
		addr = dollar + 1;
		if (dollar > tok && dollar[-1] == '\\')
			dollar--;
		*dollar = '\0';
		if (cv_parse_u64(tok + 7, &m->size, &why) ||
		    cv_parse_u64(addr, &m->start, &why))
			continue;
		/* tok is 128 bytes: both parts fit in text */
		snprintf(m->text, sizeof(m->text), "memmap=%.56s$%.56s",
			 tok + 7, addr);
		m->fixed[0] = '\0';
		m->kind = MEMMAP_FOUND;
		if (rest)
			*rest = p;
		return m->kind;
	}
	if (rest)
		*rest = p;
	return m->kind;
}
