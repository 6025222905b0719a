// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's own page-table format (IA-32e paging, SDM Vol. 3,
 * 4.5).  Large pages are used up to 2 MiB.
 *
 * Host memory types go through the PAT: Linux programs PAT entry 0 as WB
 * and entry 3 as UC (its default), which the hypervisor keeps, so WB is
 * PWT=PCD=0 and UC is PWT=PCD=1.
 */
#include <asm/pgformat.h>
#include <warden/config.h>

u64 pgformat_large_mask(unsigned int level)
{
	/* Bits 51:12, less the low bits a large page must have clear. */
	return PHYS_ADDR_MASK & ~((PAGE_SIZE << (9 * level)) - 1);
}

/* ---- the IA-32e entry ---- */

bool pgformat_present(u64 e)
{
	return e & PTE_PRESENT;
}

bool pgformat_is_leaf(u64 e, unsigned int level)
{
	return level == 0 || (e & PTE_LARGE);
}

u64 pgformat_leaf(u64 phys, unsigned int level, unsigned int flags,
		  unsigned int mem_type)
{
	u64 e = phys | PTE_PRESENT;

	if (flags & MAP_WRITE)
		e |= PTE_WRITE;
	if (!(flags & MAP_EXECUTE))
		e |= PTE_NX;
	if (mem_type == WARDEN_MEMTYPE_UC)
		e |= PTE_PCD | PTE_PWT;
	if (level > 0)
		e |= PTE_LARGE;
	return e;
}

u64 pgformat_phys(u64 e, unsigned int level)
{
	return e & (pgformat_is_leaf(e, level) ? pgformat_large_mask(level)
					       : PHYS_ADDR_MASK);
}

unsigned int pgformat_flags(u64 e)
{
	return MAP_READ | ((e & PTE_WRITE) ? MAP_WRITE : 0) |
	       ((e & PTE_NX) ? 0 : MAP_EXECUTE);
}

unsigned int pgformat_mem_type(u64 e)
{
	return (e & PTE_PCD) ? WARDEN_MEMTYPE_UC : WARDEN_MEMTYPE_WB;
}

/* ---- host (IA-32e paging) ---- */

static u64 host_table(u64 phys)
{
	return phys | PTE_PRESENT | PTE_WRITE;
}

const struct paging_format x86_host_format = {
	.present = pgformat_present,
	.is_leaf = pgformat_is_leaf,
	.table = host_table,
	.leaf = pgformat_leaf,
	.phys = pgformat_phys,
	.flags = pgformat_flags,
	.mem_type = pgformat_mem_type,
	.max_leaf_level = 1,
};
