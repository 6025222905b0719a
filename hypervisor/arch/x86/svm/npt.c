// SPDX-License-Identifier: GPL-2.0
/*
 * The nested page-table format of SVM for the generic engine of
 * hv/paging.h.  Nested tables are ordinary long-mode page tables (APM
 * Vol. 2, 15.25.1), walked as user accesses (15.25.5: every entry needs
 * U = 1) with the host's PAT combining with the guest's (15.25.8).
 * Memory types go through the PAT as for the host format (pgformat.c:
 * Linux's PAT entry 0 is WB, entry 3 UC): the guest's own PAT then
 * combines with them.  Large pages are used up to 2 MiB.
 *
 * The trapped xAPIC pages are mapped to the APIC-access page
 * (apic_unit.c), which makes accesses exit on VMX only; here that one
 * page is never mapped at all: every access to it is a nested page fault
 * in a registered region, X86_EXIT_MMIO.
 */
#include <asm/arch_cell.h>
#include <asm/pgformat.h>
#include <hv/hypervisor.h>
#include <svm/svm.h>
#include <warden/config.h>

static bool npt_present(u64 e)
{
	return e & PTE_PRESENT;
}

static bool npt_is_leaf(u64 e, unsigned int level)
{
	return level == 0 || (e & PTE_LARGE);
}

static u64 npt_table(u64 phys)
{
	return phys | PTE_PRESENT | PTE_WRITE | PTE_USER;
}

static bool is_apic_access_page(u64 phys, unsigned int level)
{
	const struct arch_cell *root = hv.root.arch;

	return level == 0 && root && root->apic_access_page &&
	       phys == hv_virt_to_phys(root->apic_access_page);
}

static u64 npt_leaf(u64 phys, unsigned int level, unsigned int flags,
		    unsigned int mem_type)
{
	u64 e = phys | PTE_PRESENT | PTE_USER;

	/* no read access: nothing a nested entry can say but "not present" */
	if (!(flags & MAP_READ) || is_apic_access_page(phys, level))
		return 0;
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

static u64 npt_phys(u64 e, unsigned int level)
{
	return e & (npt_is_leaf(e, level) ? pgformat_large_mask(level)
					  : PHYS_ADDR_MASK);
}

static unsigned int npt_flags(u64 e)
{
	return MAP_READ | ((e & PTE_WRITE) ? MAP_WRITE : 0) |
	       ((e & PTE_NX) ? 0 : MAP_EXECUTE);
}

static unsigned int npt_mem_type(u64 e)
{
	return (e & PTE_PCD) ? WARDEN_MEMTYPE_UC : WARDEN_MEMTYPE_WB;
}

const struct paging_format svm_npt_format = {
	.present = npt_present,
	.is_leaf = npt_is_leaf,
	.table = npt_table,
	.leaf = npt_leaf,
	.phys = npt_phys,
	.flags = npt_flags,
	.mem_type = npt_mem_type,
	.max_leaf_level = 1,
};
