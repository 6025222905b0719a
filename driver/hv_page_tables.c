// SPDX-License-Identifier: GPL-2.0
/*
 * The page tables the hypervisor starts with (IA-32e paging, 4 KiB
 * pages), built by enable in the hypervisor memory after the config: the
 * image at WARDEN_HV_BASE, the entry stub where Linux has it, each CPU's
 * entry context.  Pages come from a bump allocator (wd.next_free).
 */
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <asm/io.h>

#include "enable_steps.h"
#include "hv_state.h"
#include "warden-driver.h"

#define PT_P BIT_ULL(0)
#define PT_RW BIT_ULL(1)
#define PT_NX BIT_ULL(63)
#define PT_ADDR 0x000ffffffffff000ULL

static u64 *pt_page(u64 *phys)
{
	u64 offset = wd.next_free;

	if (offset + PAGE_SIZE > wd.hv_size)
		return NULL;
	wd.next_free += PAGE_SIZE;
	*phys = wd.hv_phys + offset;
	return memset(wd.hv_mem + offset, 0, PAGE_SIZE);
}

static u64 *pt_virt(u64 entry)
{
	return wd.hv_mem + ((entry & PT_ADDR) - wd.hv_phys);
}

static int pt_map_page(u64 *pml4, u64 virt, u64 phys, u64 flags)
{
	u64 *table = pml4;
	int level;

	for (level = 3; level > 0; level--) {
		u64 *e = &table[(virt >> (12 + 9 * level)) & 511];

		if (!(*e & PT_P)) {
			u64 table_phys;

			if (!pt_page(&table_phys))
				return -ENOMEM;
			*e = table_phys | PT_P | PT_RW;
		}
		table = pt_virt(*e);
	}
	table[(virt >> 12) & 511] = phys | PT_P | flags;
	return 0;
}

int build_page_tables(struct wd_reason *why, u64 *cr3)
{
	u64 *pml4, off, stub = (u64)wd_stub_start;
	unsigned int cpu;
	int err = 0;

	pml4 = pt_page(cr3);
	if (!pml4)
		return -ENOMEM;
	for (off = 0; off < wd.hv_size && !err; off += PAGE_SIZE)
		err = pt_map_page(pml4, WARDEN_HV_BASE + off, wd.hv_phys + off,
				  PT_RW);
	for (off = 0; stub + off < (u64)wd_stub_end && !err; off += PAGE_SIZE)
		err = pt_map_page(
			pml4, stub + off,
			PFN_PHYS(vmalloc_to_pfn((void *)(stub + off))), 0);
	for_each_online_cpu (cpu) {
		if (err)
			break;
		err = pt_map_page(pml4, (u64)wd.ctx[cpu],
				  virt_to_phys(wd.ctx[cpu]), PT_RW | PT_NX);
	}
	if (err) {
		why->rule = WARDEN_RULE_HV_MEM_TOO_SMALL;
		why->values[0] = wd.next_free + PAGE_SIZE;
		why->values[1] = wd.hv_size;
	}
	return err;
}
