/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hypervisor's own page-table format (IA-32e paging, SDM Vol. 3, 4.5)
 * for the generic engine of hv/paging.h.  The guests' second-level format
 * is the vendor's (vendor_second_level_format).
 */
#ifndef WARDEN_ASM_PGFORMAT_H
#define WARDEN_ASM_PGFORMAT_H

#include <hv/paging.h>

extern const struct paging_format x86_host_format;

/* Bits 51:12 of an entry that maps a page at level (0: 4 KiB, 1: 2 MiB,
 * ...): the address bits less those a large page must have clear. */
u64 pgformat_large_mask(unsigned int level);

/*
 * The IA-32e entry, shared by the host format and every format built on
 * the same entries (SVM's nested tables): present bit, leaf at level,
 * a leaf's bits for flags (MAP_*) and memory type (through the PAT, WB
 * or UC), and back from an entry.
 */
bool pgformat_present(u64 e);
bool pgformat_is_leaf(u64 e, unsigned int level);
u64 pgformat_leaf(u64 phys, unsigned int level, unsigned int flags,
		  unsigned int mem_type);
u64 pgformat_phys(u64 e, unsigned int level);
unsigned int pgformat_flags(u64 e);
unsigned int pgformat_mem_type(u64 e);

/* IA-32e paging entry bits (SDM Vol. 3, Tables 4-15 to 4-20). */
#define PTE_PRESENT (1ull << 0)
#define PTE_WRITE (1ull << 1)
#define PTE_USER (1ull << 2)
#define PTE_PWT (1ull << 3)
#define PTE_PCD (1ull << 4)
#define PTE_LARGE (1ull << 7)
#define PTE_NX (1ull << 63)

#define PHYS_ADDR_MASK 0x000ffffffffff000ull

#endif /* WARDEN_ASM_PGFORMAT_H */
