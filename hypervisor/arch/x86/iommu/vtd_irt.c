// SPDX-License-Identifier: GPL-2.0
/*
 * The hypervisor's interrupt remapping table (contracts in vtd_hw.h).
 * The unit remaps every interrupt through the table IRTA names (VT-d
 * 5.1.3); while root's Linux owned that table, any entry it wrote went
 * to the hardware unchecked, a cell's CPU included.  So the unit points
 * at the hypervisor's own table, and root's entries reach it only as
 * copies made after a check: present, the format's reserved bits clear,
 * not posted, Fixed, Lowest Priority or NMI, every CPU the destination
 * names root's (irq_root_remapped_refused).  A refused entry's copy is
 * left not present -- its interrupts fault in the unit instead of
 * arriving -- and the console names the index and why.
 *
 * Indexes are kept one to one: root's MSI, MSI-X, IOAPIC and HPET
 * entries name their index as root wrote them, and an interrupt entry
 * cache invalidation of root's names the same indexes in both tables.
 * Root's copies are indexes 0 .. VTD_IRT_ROOT_ENTRIES - 1 (Linux asks
 * for 65536 but allocates from the lowest free index; a root entry above
 * is refused); the indexes above, up to VTD_IRT_ENTRIES, are cells'
 * entries, which the hypervisor writes itself (vtd_irt_cell.c).
 *
 * When copies are made: at take-over for the whole table; for the
 * indexes of each interrupt entry cache invalidation root's queue
 * carries (Linux issues one after each change of an entry: 6.5.2.7
 * requires it before the change is sure to be used); for the whole table
 * at root's SIRTP.  A copy checked while its CPUs were root's is checked
 * again when a cell takes them (vtd_irt_cpus_leave_root), and every
 * copy is made anew when they come back (vtd_irt_cpus_back_to_root).
 * Entries are written whole with a 16-byte compare-and-exchange (9.10:
 * the unit may read an entry at any time), and the unit's cache is
 * invalidated after every change the hypervisor makes on its own.
 */
#include "vtd_hw.h"

#include <asm/irq_dest.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/hypercall.h>

#define IRT_PAGES (VTD_IRT_ENTRIES * 16u / PAGE_SIZE)

/* the unit was pointed at the hypervisor's table (or may have been: a
 * SIRTP that did not complete) */
static bool installed;
/* root's entries read at a time */
#define CHUNK 16u

u64 *vtd_irt_alloc(void)
{
	return page_alloc(&hv.pool, IRT_PAGES);
}

void vtd_irte_store(u32 i, u64 lo, u64 hi)
{
	u64 *e = &vtd.irt[2 * i], old_lo = e[0], old_hi = e[1];
	bool done;

	if (old_lo == lo && old_hi == hi)
		return;
	do {
		asm volatile("lock cmpxchg16b %1"
			     : "=@ccz"(done), "+m"(*(volatile u64(*)[2])e),
			       "+a"(old_lo), "+d"(old_hi)
			     : "b"(lo), "c"(hi)
			     : "memory");
	} while (!done);
}

static bool eime(void)
{
	return vtd.root.irta & VTD_IRTA_EIME;
}

/* Why root's entry index (lo, hi) may not be copied, or NULL; joining:
 * a cell whose CPUs are leaving root. */
static const char *refused(u32 index, u64 lo, u64 hi,
			   const struct cell *joining)
{
	struct vtd_irte_dest d;
	const char *why = vtd_irte_check(lo, hi, eime(), &d), *owner;
	u32 apic;

	if (!why && index >= VTD_IRT_ROOT_ENTRIES)
		why = "an index beyond the hypervisor's table";
	if (why) {
		printk("root IRTE %u (0x%016llx 0x%016llx): %s: refused\n",
		       index, (unsigned long long)hi, (unsigned long long)lo,
		       why);
		return why;
	}
	why = irq_root_remapped_refused(eime(), d.low, d.dest, joining, &apic,
					&owner);
	if (!why)
		return NULL;
	if (owner)
		printk("root IRTE %u: destination APIC %u belongs to cell "
		       "\"%s\": refused\n",
		       index, apic, owner);
	else
		printk("root IRTE %u: destination APIC %u names no CPU: "
		       "refused\n",
		       index, apic);
	return why;
}

/*
 * Take root's entries first .. first + n - 1 again: each present one
 * checked, copied or refused (counted; its copy not present).  Indexes
 * beyond root's table count as not present.  Whether a copy changed.
 */
static bool copy_range(struct per_cpu *pc, u32 first, u32 n)
{
	u32 size = VTD_IRTA_ENTRIES(vtd.root.irta), n0 = n, i, k, m;
	u64 base = vtd.root.irta & PAGE_MASK, buf[2 * CHUNK];
	bool changed = false, told = false;

	if (first >= size)
		n = 0;
	else if (n > size - first)
		n = size - first;
	for (i = first; i < first + n; i += m) {
		m = first + n - i < CHUNK ? first + n - i : CHUNK;
		if (arch_guest_copy(pc, base + (u64)i * 16, buf, m * 16,
				    false)) {
			/* once per walk: a table outside root's memory
			 * would otherwise be a line per chunk */
			if (!told)
				printk("root IRTE %u: root's table at 0x%llx "
				       "is not in its memory: refused (and "
				       "what follows there)\n",
				       i, (unsigned long long)base);
			told = true;
			for (k = 0; k < 2 * m; k++)
				buf[k] = 0;
		}
		for (k = 0; k < m; k++) {
			u64 lo = buf[2 * k], hi = buf[2 * k + 1];

			if ((lo & 1) && refused(i + k, lo, hi, NULL)) {
				vtd.irt_refused++;
				lo = hi = 0;
			}
			if (i + k >= VTD_IRT_ROOT_ENTRIES)
				continue;
			changed |= vtd.irt[2 * (i + k)] != lo ||
				   vtd.irt[2 * (i + k) + 1] != hi;
			vtd_irte_store(i + k, lo, hi);
		}
	}
	/* indexes the copy covers and root's table does not */
	for (i = size > first ? size : first;
	     i < VTD_IRT_ROOT_ENTRIES && i < first + n0; i++)
		vtd_irte_store(i, 0, 0);
	return changed;
}

/* The whole table again (the indexes it holds: an entry of root's
 * above them faults in the unit, named with its index, so 1 MiB of
 * Linux's table is not read at each global invalidation); then the
 * unit's cache, all of it (6.5.2.7). */
static void copy_all(struct per_cpu *pc, bool invalidate)
{
	struct vtd_desc d = vtd_desc_iec_global();

	copy_range(pc, 0, VTD_IRT_ROOT_ENTRIES);
	vtd_sync();
	if (invalidate && vtd_qi_run(&d, 1))
		printk("IOMMU: interrupt entry cache invalidation not "
		       "confirmed\n");
}

/* IRTA names table at phys (x2APIC mode as root's); SIRTP (10.4.4),
 * then the global interrupt entry cache invalidation it needs (6.5.2.7,
 * 10.4.29: the unit may hold entries of the old table). */
static int point_at(u64 irta)
{
	struct vtd_desc d = vtd_desc_iec_global();
	int err;

	vtd_write64(VTD_IRTA, irta);
	err = vtd_command(VTD_GCMD_SIRTP, true, VTD_GSTS_IRTPS, true);
	if (!err) {
		spin_lock(&vtd.qi_lock);
		err = vtd_qi_run(&d, 1);
		spin_unlock(&vtd.qi_lock);
	}
	return err;
}

int vtd_irt_take(struct per_cpu *pc)
{
	u64 irta = vtd_read64(VTD_IRTA);

	vtd.root.irta = vtd.root.irta_reg = irta;
	vtd.irt_refused = 0;
	if (!(vtd_read32(VTD_GSTS) & VTD_GSTS_IRES)) {
		vtd.irt = NULL;
		return 0;
	}
	installed = false;
	vtd_irt_cell_reset();
	copy_all(pc, false);
	printk("IOMMU: interrupt remapping through the hypervisor's table "
	       "(%u entries: root's first %u, of its %u, checked and copied, "
	       "the rest cells'; %s mode; %llu refused)\n",
	       VTD_IRT_ENTRIES, VTD_IRT_ROOT_ENTRIES, VTD_IRTA_ENTRIES(irta),
	       eime() ? "x2APIC" : "xAPIC",
	       (unsigned long long)vtd.irt_refused);
	installed = true;
	return point_at(pool_virt_to_phys(&hv.pool, vtd.irt) |
			(irta & VTD_IRTA_EIME) | VTD_IRT_S);
}

void vtd_irt_give_back(void)
{
	if (!vtd.irt || !installed)
		return;
	installed = false;
	if (point_at(vtd.root.irta))
		printk("IOMMU: root's interrupt remapping table not taken "
		       "back\n");
	printk("IOMMU: interrupt remapping through root's table again; %llu "
	       "of its entries were refused\n",
	       (unsigned long long)vtd.irt_refused);
	vtd.irt = NULL;
}

void vtd_irt_refresh(struct per_cpu *pc, u64 lo)
{
	u32 n, first;

	if (!vtd.irt)
		return;
	if (!VTD_IEC_INDEXED(lo)) {
		copy_range(pc, 0, VTD_IRT_ROOT_ENTRIES);
	} else {
		/* 6.5.2.7: IM low bits of IIDX ignored, 2^IM entries */
		n = 1u << VTD_IEC_IM(lo);
		first = VTD_IEC_IIDX(lo) & ~(n - 1);
		copy_range(pc, first, n);
	}
	vtd_sync();
}

void vtd_irt_root_sirtp(struct per_cpu *pc)
{
	if (!vtd.irt) {
		vtd.root.irta = vtd.root.irta_reg;
		return;
	}
	if ((vtd.root.irta_reg ^ vtd.root.irta) & VTD_IRTA_EIME) {
		printk("CPU %u: root's interrupt remapping table 0x%llx "
		       "refused: it changes the x2APIC mode\n",
		       pc->cpu_id, (unsigned long long)vtd.root.irta_reg);
		return;
	}
	spin_lock(&vtd.qi_lock);
	vtd.root.irta = vtd.root.irta_reg;
	copy_all(pc, true);
	spin_unlock(&vtd.qi_lock);
}

void vtd_irt_cpus_leave_root(const struct cell *cell)
{
	struct vtd_desc d = vtd_desc_iec_global();
	bool changed = false;
	u32 i;

	if (!vtd.irt)
		return;
	spin_lock(&vtd.qi_lock);
	for (i = 0; i < VTD_IRT_ROOT_ENTRIES; i++) {
		u64 lo = vtd.irt[2 * i], hi = vtd.irt[2 * i + 1];

		if (!(lo & 1) || !refused(i, lo, hi, cell))
			continue;
		vtd.irt_refused++;
		vtd_irte_store(i, 0, 0);
		changed = true;
	}
	if (changed) {
		vtd_sync();
		if (vtd_qi_run(&d, 1))
			printk("IOMMU: interrupt entry cache invalidation "
			       "not confirmed\n");
	}
	spin_unlock(&vtd.qi_lock);
}

void vtd_irt_cpus_back_to_root(struct per_cpu *pc)
{
	if (!vtd.irt)
		return;
	spin_lock(&vtd.qi_lock);
	copy_all(pc, true);
	spin_unlock(&vtd.qi_lock);
}

const char *vtd_irt_root_entry(u32 index, u64 *lo, bool *x2apic)
{
	if (!vtd.irt)
		return "interrupt remapping is not the hypervisor's";
	if (index >= VTD_IRT_ROOT_ENTRIES)
		return "its remapping index is past the hypervisor's table";
	*lo = __atomic_load_n(&vtd.irt[2 * index], __ATOMIC_ACQUIRE);
	*x2apic = eime();
	return NULL;
}
