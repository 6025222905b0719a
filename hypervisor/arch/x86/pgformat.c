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

/* ---- host (IA-32e paging) ---- */

static bool host_present(u64 e)
{
	return e & PTE_PRESENT;
}

static bool host_is_leaf(u64 e, unsigned int level)
{
	return level == 0 || (e & PTE_LARGE);
}

static u64 host_table(u64 phys)
{
	return phys | PTE_PRESENT | PTE_WRITE;
}

static u64 host_leaf(u64 phys, unsigned int level, unsigned int flags,
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

static u64 host_phys(u64 e, unsigned int level)
{
	return e & (host_is_leaf(e, level) ? pgformat_large_mask(level)
					   : PHYS_ADDR_MASK);
}

static unsigned int host_flags(u64 e)
{
	return MAP_READ | ((e & PTE_WRITE) ? MAP_WRITE : 0) |
	       ((e & PTE_NX) ? 0 : MAP_EXECUTE);
}

static unsigned int host_mem_type(u64 e)
{
	return (e & PTE_PCD) ? WARDEN_MEMTYPE_UC : WARDEN_MEMTYPE_WB;
}

const struct paging_format x86_host_format = {
	.present = host_present,
	.is_leaf = host_is_leaf,
	.table = host_table,
	.leaf = host_leaf,
	.phys = host_phys,
	.flags = host_flags,
	.mem_type = host_mem_type,
	.max_leaf_level = 1,
};
