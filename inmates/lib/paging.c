// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The identity map built by entry.S: 4 GiB in 2 MiB pages.  PAT entry 0
 * (WB with the power-on PAT) for RAM, PCD|PWT (entry 3, UC) where asked.
 */
#include <inmate.h>
#include "internal.h"

int paging_set_uc(uint64_t start, uint64_t size, bool uc)
{
	uint64_t addr, end = start + size;

	if (!size || end < start || end > INMATE_MAP_SIZE)
		return -1;
	for (addr = start & ~(uint64_t)(INMATE_PAGE_2M - 1); addr < end;
	     addr += INMATE_PAGE_2M) {
		uint64_t *pde = &inmate_pd[addr / INMATE_PAGE_2M];

		if (uc)
			*pde |= PTE_PCD | PTE_PWT;
		else
			*pde &= ~(uint64_t)(PTE_PCD | PTE_PWT);
		invlpg(addr);
	}
	return 0;
}
