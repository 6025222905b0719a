/* SPDX-License-Identifier: GPL-2.0 */
/* The x86 part of a cell (root_cell.c for root, cell_tables.c for the
 * others). */
#ifndef WARDEN_ASM_ARCH_CELL_H
#define WARDEN_ASM_ARCH_CELL_H

#include <hv/hypervisor.h>

/* The I/O bitmap's pages: VMX reads the first two (bitmaps A and B), SVM
 * all three (its 12 KiB I/O permission map, whose bits past port 0xffff
 * stand for accesses that run past the last port, APM Vol. 2, 15.10.1). */
#define X86_IO_BITMAP_PAGES 3

struct arch_cell {
	/* guest-physical memory, in the vendor's second-level format */
	struct page_table tables;
	void *apic_access_page; /* root: backs the xAPIC pages, accesses exit */
	/* Held while the second-level tables are changed or walked by
	 * software (guest.c): root's changes while its other CPUs decode
	 * APIC accesses.  Never held while waiting for another CPU. */
	spinlock_t tables_lock;
	/* Bumped before and after every change of the tables (odd while one
	 * runs), so that lock-free readers can tell (asm/insn_cache.h). */
	u64 tables_gen;
	/* Ports that exit: one bit per port 0-0xffff, 1 = intercepted (8 KiB;
	 * the vendor's hardware reads it as it is), then a page of ones:
	 * X86_IO_BITMAP_PAGES in all. */
	u8 *io_bitmap;
	/* The MSR permission map in the vendor's format (vendor_cell_init) */
	u8 *msr_bitmap;
	/* A cell's map while its CPU's guest APIC is in xAPIC mode on a
	 * physical x2APIC: every x2APIC MSR exits and gets the #GP the
	 * architecture gives (apic_cell.c).  NULL (root, a physical xAPIC):
	 * msr_bitmap serves both modes. */
	u8 *msr_bitmap_xapic;
	/* the tag of the cell's cached guest translations (the vendor's:
	 * VMX's VPID, SVM's ASID) */
	u16 tlb_tag;
};

/* The MSR permission map for this CPU's cell and guest APIC mode. */
static inline u8 *arch_cell_msr_bitmap(const struct arch_cell *a,
				       bool guest_x2apic)
{
	return a->msr_bitmap_xapic && !guest_x2apic ? a->msr_bitmap_xapic
						    : a->msr_bitmap;
}

#endif /* WARDEN_ASM_ARCH_CELL_H */
