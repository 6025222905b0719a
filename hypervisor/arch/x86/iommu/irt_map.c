// SPDX-License-Identifier: GPL-2.0
/*
 * Root's remapping indexes translated to the hypervisor's (contracts in
 * irt_map.h).  Every loop is bounded by IRT_MAP_SLOTS; the map is
 * changed only when the whole change can be made (validate, then
 * commit).
 */
#include "irt_map.h"

#define ROOT_INDEXES 65536u

void irt_map_reset(struct irt_map *m, u32 base)
{
	u32 i;

	m->base = base;
	m->used = 0;
	for (i = 0; i < IRT_MAP_SLOTS; i++)
		m->rev[i] = 0;
}

bool irt_map_find(const struct irt_map *m, u32 r, u32 *h)
{
	u32 i;

	if (!m->used || r >= ROOT_INDEXES)
		return false;
	for (i = 0; i < IRT_MAP_SLOTS; i++)
		if (m->rev[i] == r + 1) {
			*h = m->base + i;
			return true;
		}
	return false;
}

bool irt_map_root_of(const struct irt_map *m, u32 h, u32 *r)
{
	if (h < m->base || h - m->base >= IRT_MAP_SLOTS || !m->rev[h - m->base])
		return false;
	*r = m->rev[h - m->base] - 1;
	return true;
}

/* Whether r .. r + n - 1 already map to a run: *h its first. */
static bool is_run(const struct irt_map *m, u32 r, u32 n, u32 *h)
{
	u32 i, first;

	if (!irt_map_find(m, r, &first) || first - m->base + n > IRT_MAP_SLOTS)
		return false;
	for (i = 1; i < n; i++)
		if (m->rev[first - m->base + i] != r + i + 1)
			return false;
	*h = first;
	return true;
}

int irt_map_run(struct irt_map *m, u32 r, u32 n, u32 *h, u32 *freed,
		unsigned int *nfreed, bool *made)
{
	u32 i, k, len = 0, start = 0, old;

	*nfreed = 0;
	*made = false;
	if (!n || n > IRT_MAP_RUN_MAX || r >= ROOT_INDEXES ||
	    n > ROOT_INDEXES - r)
		return -1;
	if (is_run(m, r, n, h))
		return 0;
	/* first fit among the free slots (the slots these root indexes
	 * hold now are not counted free: their entries stay until the
	 * new run has its copies) */
	for (i = 0; i < IRT_MAP_SLOTS && len < n; i++) {
		if (m->rev[i]) {
			len = 0;
			continue;
		}
		if (!len)
			start = i;
		len++;
	}
	if (len < n)
		return -1;
	for (k = 0; k < n; k++) {
		if (irt_map_find(m, r + k, &old)) {
			m->rev[old - m->base] = 0;
			m->used--;
			freed[(*nfreed)++] = old;
		}
	}
	for (k = 0; k < n; k++)
		m->rev[start + k] = r + k + 1;
	m->used += n;
	*h = m->base + start;
	*made = true;
	return 0;
}

void irt_map_free(struct irt_map *m, u32 h)
{
	if (h < m->base || h - m->base >= IRT_MAP_SLOTS || !m->rev[h - m->base])
		return;
	m->rev[h - m->base] = 0;
	m->used--;
}

bool irt_msi_remappable(u32 addr)
{
	return addr & (1u << 4);
}

u32 irt_msi_handle(u32 addr)
{
	return ((addr >> 5) & 0x7fff) | ((addr >> 2) & 1) << 15;
}

u32 irt_msi_subhandle(u32 addr, u32 data)
{
	return (addr & (1u << 3)) ? data & 0xffff : 0;
}

u32 irt_msi_with_handle(u32 addr, u32 handle)
{
	addr &= ~((0x7fffu << 5) | (1u << 2));
	return addr | (handle & 0x7fff) << 5 | ((handle >> 15) & 1) << 2;
}
