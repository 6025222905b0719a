// SPDX-License-Identifier: GPL-2.0
/*
 * The EPT page-table format (SDM Vol. 3, 29.3.2), the second-level format
 * of VMX, for the generic engine of hv/paging.h.  Large pages are used up
 * to 2 MiB (every VMX CPU with EPT has them; 1 GiB pages are optional,
 * SDM A.10).  Memory types are written into the entry with "ignore PAT"
 * clear, so the guest's PAT still combines with them (SDM 29.3.7.2).
 */
#include <asm/pgformat.h>
#include <vmx/ept.h>
#include <warden/config.h>

static bool ept_present(u64 e)
{
	return e & (EPT_READ | EPT_WRITE | EPT_EXEC);
}

static bool ept_is_leaf(u64 e, unsigned int level)
{
	return level == 0 || (e & EPT_LARGE);
}

static u64 ept_table(u64 phys)
{
	return phys | EPT_READ | EPT_WRITE | EPT_EXEC;
}

static u64 ept_leaf(u64 phys, unsigned int level, unsigned int flags,
		    unsigned int mem_type)
{
	u64 e = phys | ((u64)mem_type << EPT_MEMTYPE_SHIFT);

	if (flags & MAP_READ)
		e |= EPT_READ;
	if (flags & MAP_WRITE)
		e |= EPT_WRITE;
	if (flags & MAP_EXECUTE)
		e |= EPT_EXEC;
	if (level > 0)
		e |= EPT_LARGE;
	return e;
}

static u64 ept_phys(u64 e, unsigned int level)
{
	return e & (ept_is_leaf(e, level) ? pgformat_large_mask(level)
					  : PHYS_ADDR_MASK);
}

static unsigned int ept_flags(u64 e)
{
	return ((e & EPT_READ) ? MAP_READ : 0) |
	       ((e & EPT_WRITE) ? MAP_WRITE : 0) |
	       ((e & EPT_EXEC) ? MAP_EXECUTE : 0);
}

static unsigned int ept_mem_type(u64 e)
{
	return (e >> EPT_MEMTYPE_SHIFT) & 7;
}

const struct paging_format vmx_ept_format = {
	.present = ept_present,
	.is_leaf = ept_is_leaf,
	.table = ept_table,
	.leaf = ept_leaf,
	.phys = ept_phys,
	.flags = ept_flags,
	.mem_type = ept_mem_type,
	.max_leaf_level = 1,
};
