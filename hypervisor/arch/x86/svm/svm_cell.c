// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's SVM structures (contract in asm/vendor.h): the MSR permission
 * map, built from the MSR policy (msr.c), and the ASID that tags the
 * cell's translations in the TLB.  The I/O permission map is the neutral
 * bitmap of struct arch_cell: one bit per port, 1 = intercept, as SVM
 * reads it (APM Vol. 2, 15.10.1), with a third page of ones for the
 * accesses that run past port 0xffff.
 */
#include <asm/arch_cell.h>
#include <asm/vendor.h>
#include <asm/x86_cpu.h>
#include <hv/cell.h>
#include <hv/string.h>
#include <svm/svm.h>
#include <warden/hypercall.h>
#include <x86/msr.h>

/* 8 KiB: three 2 KiB vectors and a reserved fourth (APM 15.11) */
#define MSRPM_PAGES 2

/*
 * The MSR permission map (APM Vol. 2, 15.11, Table 15-5): MSRs 0-0x1fff
 * at byte 0, 0xc0000000-0xc0001fff at 0x800, 0xc0010000-0xc0011fff at
 * 0x1000; two bits per MSR, the even one for reads, the odd one for
 * writes; 1 = intercept.  Every MSR outside the three ranges is
 * intercepted.
 */
static bool msrpm_bit(u32 msr, bool write, u32 *byte, u8 *bit)
{
	u32 base, n;

	if (msr <= 0x1fff)
		base = 0;
	else if (msr >= 0xc0000000 && msr <= 0xc0001fff)
		base = 0x800;
	else if (msr >= 0xc0010000 && msr <= 0xc0011fff)
		base = 0x1000;
	else
		return false;
	n = (msr & 0x1fff) * 2 + (write ? 1 : 0);
	*byte = base + n / 8;
	*bit = (u8)(1u << (n % 8));
	return true;
}

static void set_intercept(u8 *map, u32 msr, bool write, bool on)
{
	u32 byte;
	u8 bit;

	if (!msrpm_bit(msr, write, &byte, &bit))
		return;
	if (on)
		map[byte] |= bit;
	else
		map[byte] &= (u8)~bit;
}

static void pass(void *ctx, u32 first, u32 last, bool write)
{
	u32 msr;

	for (msr = first; msr <= last; msr++) {
		set_intercept(ctx, msr, false, false);
		if (write)
			set_intercept(ctx, msr, true, false);
		if (msr == 0xffffffff)
			break;
	}
}

static void intercept(void *ctx, u32 msr, bool write)
{
	set_intercept(ctx, msr, write, true);
}

static u8 *build_msr_bitmap(bool root, bool x2apic)
{
	u8 *map = page_alloc(&hv.pool, MSRPM_PAGES);

	if (!map)
		return NULL;
	memset(map, 0xff, MSRPM_PAGES * PAGE_SIZE);
	msr_policy_walk(root, x2apic, pass, intercept, map);
	/*
	 * Whatever the policy says: EFER is the guest's in the VMCB and
	 * must keep SVME set (VMRUN refuses a guest EFER without it, APM
	 * 15.5.1), so reads and writes exit (msr.c emulates them on the
	 * guest's view); SVM's own MSRs and SYSCFG never pass through.
	 */
	set_intercept(map, MSR_IA32_EFER, false, true);
	set_intercept(map, MSR_IA32_EFER, true, true);
	set_intercept(map, MSR_AMD_VM_CR, false, true);
	set_intercept(map, MSR_AMD_VM_CR, true, true);
	set_intercept(map, MSR_AMD_VM_HSAVE_PA, false, true);
	set_intercept(map, MSR_AMD_VM_HSAVE_PA, true, true);
	set_intercept(map, MSR_AMD_SYSCFG, false, true);
	set_intercept(map, MSR_AMD_SYSCFG, true, true);
	return map;
}

int vendor_cell_init(struct cell *cell, bool x2apic)
{
	struct arch_cell *a = cell->arch;

	if (msr_maps_build(a, cell == &hv.root, x2apic, build_msr_bitmap)) {
		vendor_cell_exit(cell);
		return -WARDEN_ENOMEM;
	}
	/*
	 * ASID 0 is the host's (VMRUN refuses it, APM 15.5.1).  Cells get
	 * id + 1 while there are enough; beyond, cells share ASIDs, which is
	 * safe because a CPU flushes its TLB whenever it changes cells
	 * (events.c: vcpu_flush_second_level, vcpu_flush_guest_tlb).
	 */
	a->tlb_tag = (u16)(1 + cell->id % (svm_caps.num_asids - 1));
	return 0;
}

void vendor_cell_exit(struct cell *cell)
{
	struct arch_cell *a = cell->arch;

	if (a->msr_bitmap)
		page_free(&hv.pool, a->msr_bitmap, MSRPM_PAGES);
	if (a->msr_bitmap_xapic)
		page_free(&hv.pool, a->msr_bitmap_xapic, MSRPM_PAGES);
	a->msr_bitmap = NULL;
	a->msr_bitmap_xapic = NULL;
}
