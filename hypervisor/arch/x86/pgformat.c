// SPDX-License-Identifier: GPL-2.0
/*
 * Host and EPT page-table formats.  Large pages are used up to 2 MiB (every
 * VMX CPU with EPT has them; 1 GiB pages are optional, SDM A.10).
 *
 * Host memory types go through the PAT: Linux programs PAT entry 0 as WB
 * and entry 3 as UC (its default), which the hypervisor keeps, so WB is
 * PWT=PCD=0 and UC is PWT=PCD=1.  EPT memory types are written into the
 * entry with "ignore PAT" clear, so the guest's PAT still combines with
 * them (SDM 29.3.7.2).
 */
#include <asm/pgformat.h>
#include <warden/config.h>

static u64 large_mask(unsigned int level)
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
	return e &
	       (host_is_leaf(e, level) ? large_mask(level) : PHYS_ADDR_MASK);
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

/* ---- EPT ---- */

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
	return e & (ept_is_leaf(e, level) ? large_mask(level) : PHYS_ADDR_MASK);
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

const struct paging_format x86_ept_format = {
	.present = ept_present,
	.is_leaf = ept_is_leaf,
	.table = ept_table,
	.leaf = ept_leaf,
	.phys = ept_phys,
	.flags = ept_flags,
	.mem_type = ept_mem_type,
	.max_leaf_level = 1,
};
