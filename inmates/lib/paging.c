// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The identity map built by entry.S: 4 GiB in 2 MiB pages.  PAT entry 0
 * (WB with the power-on PAT) for RAM, PCD|PWT (entry 3, UC) where asked.
 *
 * A range that covers a 2 MiB page only partly splits it into 4 KiB
 * pages (a page table from a small pool), so that a device's registers
 * can be UC next to memory that stays WB in the same 2 MiB (a link's BAR
 * 0 and its shared memory, for instance).  When the pool is used up the
 * whole 2 MiB page changes, as without splitting: correct, only slower
 * for the memory that becomes UC.
 */
#include <inmate.h>
#include "internal.h"

#define SPLIT_TABLES 8
#define PTES 512
#define PAGE_4K 0x1000ull
#define ADDR_MASK 0x000ffffffffff000ull

static uint64_t split_tables[SPLIT_TABLES][PTES] __attribute__((aligned(4096)));
static unsigned int split_used;

/* The page table under pde (splitting its 2 MiB page at base), or NULL
 * when the pool is used up. */
static uint64_t *page_table(uint64_t *pde, uint64_t base)
{
	uint64_t flags, *table;
	unsigned int i;

	if (!(*pde & PTE_PS))
		return (uint64_t *)(*pde & ADDR_MASK);
	if (split_used == SPLIT_TABLES)
		return NULL;
	table = split_tables[split_used++];
	/* the same rights and cache type; bit 7 of a PTE is PAT, not PS */
	flags = *pde & (PTE_P | PTE_RW | PTE_PWT | PTE_PCD);
	for (i = 0; i < PTES; i++)
		table[i] = (base + i * PAGE_4K) | flags;
	/* identity map: the table's address is its physical address */
	*pde = (uint64_t)table | PTE_P | PTE_RW;
	/* drops the 2 MiB translation and the paging-structure caches */
	invlpg(base);
	return table;
}

static void set_uc(uint64_t *entry, bool uc)
{
	if (uc)
		*entry |= PTE_PCD | PTE_PWT;
	else
		*entry &= ~(uint64_t)(PTE_PCD | PTE_PWT);
}

int paging_set_uc(uint64_t start, uint64_t size, bool uc)
{
	uint64_t addr, end = start + size;

	if (!size || end < start || end > INMATE_MAP_SIZE)
		return -1;
	start &= ~(PAGE_4K - 1);
	for (addr = start & ~(uint64_t)(INMATE_PAGE_2M - 1); addr < end;
	     addr += INMATE_PAGE_2M) {
		uint64_t *pde = &inmate_pd[addr / INMATE_PAGE_2M];
		uint64_t first = addr < start ? start : addr;
		uint64_t last = addr + INMATE_PAGE_2M < end
					? addr + INMATE_PAGE_2M
					: end;
		uint64_t *table = NULL, page;

		if (*pde & PTE_PS && first == addr &&
		    last == addr + INMATE_PAGE_2M) {
			/* the whole 2 MiB page */
			set_uc(pde, uc);
			invlpg(addr);
			continue;
		}
		table = page_table(pde, addr);
		if (!table) {
			set_uc(pde, uc); /* the pool is used up */
			invlpg(addr);
			continue;
		}
		for (page = first; page < last; page += PAGE_4K) {
			set_uc(&table[(page - addr) / PAGE_4K], uc);
			invlpg(page);
		}
	}
	return 0;
}
