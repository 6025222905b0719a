// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's VMX structures (contract in asm/vendor.h): the MSR bitmap,
 * built from the MSR policy (msr.c), and the VPID that tags the cell's
 * cached guest translations.  The I/O bitmap is the neutral one of struct
 * arch_cell: its two pages are VMX's I/O bitmaps A and B as they are.
 */
#include <asm/arch_cell.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/cell.h>
#include <hv/string.h>
#include <warden/hypercall.h>

/*
 * The MSR bitmap has read-low, read-high, write-low and write-high
 * quarters of 1 KiB (SDM Vol. 3C, 25.6.9); "low" is MSRs 0-0x1fff, "high"
 * 0xc0000000-0xc0001fff; a set bit makes the access exit, and so does
 * every MSR outside both ranges.
 */
static u8 *bit_byte(u8 *bitmap, u32 msr, bool write, u8 *bit)
{
	u32 offset = (msr & 0xc0000000) ? 1024 : 0, n = msr & 0x1fff;

	*bit = (u8)(1u << (n % 8));
	return &bitmap[(write ? 2048 : 0) + offset + n / 8];
}

static bool in_bitmap(u32 msr)
{
	return msr <= 0x1fff || (msr >= 0xc0000000 && msr <= 0xc0001fff);
}

static void pass(void *ctx, u32 first, u32 last, bool write)
{
	u8 *byte, bit;
	u32 msr;

	for (msr = first; msr <= last && in_bitmap(msr); msr++) {
		byte = bit_byte(ctx, msr, false, &bit);
		*byte &= (u8)~bit;
		if (write) {
			byte = bit_byte(ctx, msr, true, &bit);
			*byte &= (u8)~bit;
		}
	}
}

static void intercept(void *ctx, u32 msr, bool write)
{
	u8 *byte, bit;

	if (in_bitmap(msr)) {
		byte = bit_byte(ctx, msr, write, &bit);
		*byte |= bit;
	}
}

static u8 *build_msr_bitmap(bool root, bool x2apic)
{
	u8 *map = page_alloc(&hv.pool, 1);

	if (!map)
		return NULL;
	memset(map, 0xff, PAGE_SIZE);
	msr_policy_walk(root, x2apic, pass, intercept, map);
	return map;
}

int vendor_cell_init(struct cell *cell, bool x2apic)
{
	struct arch_cell *a = cell->arch;

	if (msr_maps_build(a, cell == &hv.root, x2apic, build_msr_bitmap)) {
		vendor_cell_exit(cell);
		return -WARDEN_ENOMEM;
	}
	/* VPID 0 is VMX root operation's own (SDM Vol. 3C, 29.1) */
	a->tlb_tag = (u16)(cell->id + 1);
	return 0;
}

void vendor_cell_exit(struct cell *cell)
{
	struct arch_cell *a = cell->arch;

	if (a->msr_bitmap)
		page_free(&hv.pool, a->msr_bitmap, 1);
	if (a->msr_bitmap_xapic)
		page_free(&hv.pool, a->msr_bitmap_xapic, 1);
	a->msr_bitmap = NULL;
	a->msr_bitmap_xapic = NULL;
}
