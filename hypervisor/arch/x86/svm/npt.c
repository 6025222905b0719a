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
 * The entries are the host format's (pgformat.c) with U set.  The
 * trapped xAPIC pages are mapped to the APIC-access page (apic_unit.c),
 * which makes accesses exit on VMX only; here that one page is never
 * mapped at all: every access to it is a nested page fault, which
 * svm_exit.c reports as X86_EXIT_XAPIC.
 */
#include <asm/arch_cell.h>
#include <asm/pgformat.h>
#include <hv/hypervisor.h>
#include <svm/svm.h>
#include <warden/config.h>

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
	/* no read access: nothing a nested entry can say but "not present" */
	if (!(flags & MAP_READ) || is_apic_access_page(phys, level))
		return 0;
	return pgformat_leaf(phys, level, flags, mem_type) | PTE_USER;
}

const struct paging_format svm_npt_format = {
	.present = pgformat_present,
	.is_leaf = pgformat_is_leaf,
	.table = npt_table,
	.leaf = npt_leaf,
	.phys = pgformat_phys,
	.flags = pgformat_flags,
	.mem_type = pgformat_mem_type,
	.max_leaf_level = 1,
};
