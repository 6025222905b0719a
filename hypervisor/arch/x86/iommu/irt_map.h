/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Root's remapping indexes translated to the hypervisor's (irt_map.c):
 * plain C, also compiled into the unit tests (tests/unit/test_irt_map.c).
 *
 * Root's Linux chooses the indexes of its interrupt remapping entries
 * anywhere in its own table (up to 65536 entries).  The hypervisor gives
 * each root index a device message names an index of its own, a slot of
 * the translated part of its table, and writes that index into the
 * device instead of root's (the message is rewritten at the trap that
 * sees it; root reads back its own value).  The map is a reverse array:
 * slot k holds root's index + 1 (0: free), so the hypervisor's index of
 * a root index is found by one bounded scan and root's index of a
 * hypervisor index by one read.
 *
 * VT-d 5.1.5.2: a remappable MSI names handle[15:0] in its address
 * (bits 19:5 handle[14:0], bit 2 handle[15], bit 4 the format, bit 3
 * SHV); with SHV the index is handle + the data's subhandle (15:0), which
 * a multiple-message MSI's device varies in its low bits, so an MSI of
 * 2^MME vectors needs a run of consecutive indexes.
 */
#ifndef WARDEN_IOMMU_IRT_MAP_H
#define WARDEN_IOMMU_IRT_MAP_H

#include <hv/types.h>

/* Slots of the translated part of the hypervisor's table. */
#define IRT_MAP_SLOTS 2048u
/* The most vectors one message names (MSI: 32, PCI 3.0 6.8.1.3). */
#define IRT_MAP_RUN_MAX 32u

struct irt_map {
	u32 base;		/* the hypervisor's index of slot 0 */
	u32 rev[IRT_MAP_SLOTS]; /* root's index + 1, 0: free */
	u32 used;
};

void irt_map_reset(struct irt_map *m, u32 base);

/* The hypervisor's index of root's index r: true with *h, or false. */
bool irt_map_find(const struct irt_map *m, u32 r, u32 *h);

/* Root's index of the hypervisor's index h: true with *r, or false (h
 * outside the translated part, or free). */
bool irt_map_root_of(const struct irt_map *m, u32 h, u32 *r);

/*
 * Make root's indexes r .. r + n - 1 (n 1 .. IRT_MAP_RUN_MAX, r + n
 * within 65536) map to consecutive hypervisor indexes *h .. *h + n - 1.
 * Already so: 0, nothing changes (*made 0).  Otherwise the lowest free
 * run of n slots is taken (first fit), and the slots those root indexes
 * had before are freed and listed in freed[] (*nfreed, at most n: the
 * caller makes them not present); *made: 1 when new slots were taken
 * (the caller copies root's entries into them).  -1 when r, n are out
 * of range or no run of n free slots exists: nothing changes.
 */
int irt_map_run(struct irt_map *m, u32 r, u32 n, u32 *h, u32 *freed,
		unsigned int *nfreed, bool *made);

/* Free hypervisor index h (root's entry went not present). */
void irt_map_free(struct irt_map *m, u32 h);

/* Remappable MSI messages (5.1.5.2).  Whether addr is in remappable
 * format; its handle; the index it names with data; addr with handle
 * replaced. */
bool irt_msi_remappable(u32 addr);
u32 irt_msi_handle(u32 addr);
u32 irt_msi_subhandle(u32 addr, u32 data);
u32 irt_msi_with_handle(u32 addr, u32 handle);

#endif /* WARDEN_IOMMU_IRT_MAP_H */
