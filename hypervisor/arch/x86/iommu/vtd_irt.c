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
 * Indexes are translated (irt_map.h): every remappable message root
 * programs (MSI, MSI-X, IOAPIC entries) is rewritten by the unit that
 * traps it to name the hypervisor's own index for root's
 * (vtd_irt_root_msi, vtd_irt_root_index), a slot of the translated part
 * VTD_IRT_IDENT .. VTD_IRT_ROOT_ENTRIES - 1, made when a message first
 * names root's index and freed when root's entry goes not present.
 * Below VTD_IRT_IDENT root's entries are also copied one to one, for
 * what is not rewritten (root's HPET FSB messages, and messages
 * programmed before enable until root writes them again).  The indexes
 * from VTD_IRT_ROOT_ENTRIES to VTD_IRT_ENTRIES are cells' entries, which
 * the hypervisor writes itself (vtd_irt_cell.c).  An interrupt entry
 * cache invalidation of root's names root's indexes: the one-to-one
 * copies and the translated ones of those indexes are taken again.
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
#include "irt_map.h"
#include "vtd_hw.h"

#include <asm/irq_dest.h>
#include <hv/arch.h>
#include <hv/cell.h>
#include <hv/hypervisor.h>
#include <hv/printk.h>
#include <warden/hypercall.h>

#define IRT_PAGES (VTD_IRT_ENTRIES * 16u / PAGE_SIZE)

/* root's entries read at a time */
#define CHUNK 16u

_Static_assert(VTD_IRT_IDENT + IRT_MAP_SLOTS == VTD_IRT_ROOT_ENTRIES,
	       "the translated part fills root's range above the copies "
	       "kept one to one");

/* The unit's table and its map of root's indexes that messages the
 * hypervisor rewrites name, each with its index in the translated part
 * (qi_lock): root's indexes are the unit's (one table per unit). */
int vtd_irt_alloc(struct vtd_unit *u)
{
	u->irt = page_alloc(&hv.pool, IRT_PAGES);
	u->rootmap = page_alloc(
		&hv.pool, (sizeof(struct irt_map) + PAGE_SIZE - 1) / PAGE_SIZE);
	return u->irt && u->rootmap ? 0 : -WARDEN_ENOMEM;
}

void vtd_irte_store(struct vtd_unit *u, u32 i, u64 lo, u64 hi)
{
	u64 *e = &u->irt[2 * i], old_lo = e[0], old_hi = e[1];
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

static bool eime(const struct vtd_unit *u)
{
	return u->root.irta & VTD_IRTA_EIME;
}

/* Why root's entry index (lo, hi) may not be copied, or NULL; joining:
 * a cell whose CPUs are leaving root. */
static const char *refused(struct vtd_unit *u, u32 index, u64 lo, u64 hi,
			   const struct cell *joining)
{
	struct vtd_irte_dest d;
	const char *why = vtd_irte_check(lo, hi, eime(u), &d), *owner;
	u32 apic;

	if (why) {
		printk("root IRTE %u (0x%016llx 0x%016llx): %s: refused\n",
		       index, (unsigned long long)hi, (unsigned long long)lo,
		       why);
		return why;
	}
	why = irq_root_remapped_refused(eime(u), d.low, d.dest, joining, &apic,
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
 * Take root's entries first .. first + n - 1 again where they are kept one
 * to one (below VTD_IRT_IDENT): each present one checked, copied or
 * refused (counted; its copy not present).  Indexes beyond root's table
 * count as not present.
 */
static void copy_range(struct vtd_unit *u, struct per_cpu *pc, u32 first, u32 n)
{
	u32 size = VTD_IRTA_ENTRIES(u->root.irta), i, k, m;
	u64 base = u->root.irta & PAGE_MASK, buf[2 * CHUNK];
	bool told = false;

	if (first >= VTD_IRT_IDENT)
		return;
	if (n > VTD_IRT_IDENT - first)
		n = VTD_IRT_IDENT - first;
	for (i = first; i < first + n; i += m) {
		m = first + n - i < CHUNK ? first + n - i : CHUNK;
		if (i >= size || arch_guest_copy(pc, base + (u64)i * 16, buf,
						 m * 16, false)) {
			/* once per walk: a table outside root's memory
			 * would otherwise be a line per chunk */
			if (!told && i < size)
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

			if (i + k >= size)
				lo = hi = 0;
			if ((lo & 1) && refused(u, i + k, lo, hi, NULL)) {
				u->irt_refused++;
				lo = hi = 0;
			}
			vtd_irte_store(u, i + k, lo, hi);
		}
	}
}

/* Root's entry r into the hypervisor's index h, checked (refused or
 * outside root's table or memory: not present).  Whether root's entry
 * is present. */
static bool take_one(struct vtd_unit *u, struct per_cpu *pc, u32 r, u32 h)
{
	u64 e[2] = { 0, 0 };

	if (r < VTD_IRTA_ENTRIES(u->root.irta) &&
	    arch_guest_copy(pc, (u->root.irta & PAGE_MASK) + (u64)r * 16, e,
			    sizeof(e), false)) {
		printk("root IRTE %u: root's table at 0x%llx is not in its "
		       "memory: refused\n",
		       r, (unsigned long long)(u->root.irta & PAGE_MASK));
		e[0] = e[1] = 0;
	}
	if (!(e[0] & 1)) {
		vtd_irte_store(u, h, 0, 0);
		return false;
	}
	if (refused(u, r, e[0], e[1], NULL)) {
		u->irt_refused++;
		e[0] = e[1] = 0;
	}
	vtd_irte_store(u, h, e[0], e[1]);
	return true;
}

/* The translated copies of root's indexes first .. first + n - 1 again
 * (a bounded walk of the map): one whose entry root made not present is
 * freed (a message naming it gets a new index when root writes it).
 * Whether any was taken again (the unit's cache of the hypervisor's
 * indexes then needs invalidating, not only of root's). */
static bool refresh_translated(struct vtd_unit *u, struct per_cpu *pc,
			       u32 first, u32 n)
{
	bool any = false;
	u32 k, h, r;

	for (k = 0; k < IRT_MAP_SLOTS && u->rootmap->used; k++) {
		h = VTD_IRT_IDENT + k;
		if (!irt_map_root_of(u->rootmap, h, &r) || r < first ||
		    r - first >= n)
			continue;
		if (!take_one(u, pc, r, h))
			irt_map_free(u->rootmap, h);
		any = true;
	}
	return any;
}

/* The whole table again (the indexes kept one to one: an entry of
 * root's above them that no rewritten message names faults in the unit,
 * named with its index, so 1 MiB of Linux's table is not read at each
 * global invalidation; and every translated one); then the unit's
 * cache, all of it (6.5.2.7). */
static void copy_all(struct vtd_unit *u, struct per_cpu *pc, bool invalidate)
{
	struct vtd_desc d = vtd_desc_iec_global();

	copy_range(u, pc, 0, VTD_IRT_IDENT);
	refresh_translated(u, pc, 0, 0x10000);
	vtd_sync();
	if (invalidate && vtd_qi_run(u, &d, 1))
		printk("IOMMU: interrupt entry cache invalidation not "
		       "confirmed\n");
}

/* IRTA names table at phys (x2APIC mode as root's); SIRTP (10.4.4),
 * then the global interrupt entry cache invalidation it needs (6.5.2.7,
 * 10.4.29: the unit may hold entries of the old table). */
static int point_at(struct vtd_unit *u, u64 irta)
{
	struct vtd_desc d = vtd_desc_iec_global();
	int err;

	vtd_write64(u, VTD_IRTA, irta);
	err = vtd_command(u, VTD_GCMD_SIRTP, true, VTD_GSTS_IRTPS, true);
	if (!err) {
		spin_lock(&vtd.qi_lock);
		err = vtd_qi_run(u, &d, 1);
		spin_unlock(&vtd.qi_lock);
	}
	return err;
}

int vtd_irt_take(struct vtd_unit *u, struct per_cpu *pc)
{
	u64 irta = vtd_read64(u, VTD_IRTA);

	u->root.irta = u->root.irta_reg = irta;
	u->irt_refused = 0;
	if (!(vtd_read32(u, VTD_GSTS) & VTD_GSTS_IRES)) {
		u->irt = NULL;
		return 0;
	}
	u->irt_installed = false;
	irt_map_reset(u->rootmap, VTD_IRT_IDENT);
	copy_all(u, pc, false);
	printk("IOMMU at 0x%llx: interrupt remapping through the "
	       "hypervisor's table (%u entries: root's first %u, of its %u, "
	       "checked and copied, "
	       "%u for root's indexes its messages name, the rest cells'; "
	       "%s mode; %llu refused)\n",
	       (unsigned long long)u->base, VTD_IRT_ENTRIES, VTD_IRT_IDENT,
	       VTD_IRTA_ENTRIES(irta), IRT_MAP_SLOTS,
	       eime(u) ? "x2APIC" : "xAPIC",
	       (unsigned long long)u->irt_refused);
	u->irt_installed = true;
	return point_at(u, pool_virt_to_phys(&hv.pool, u->irt) |
				   (irta & VTD_IRTA_EIME) | VTD_IRT_S);
}

void vtd_irt_give_back(struct vtd_unit *u)
{
	if (!u->irt || !u->irt_installed)
		return;
	u->irt_installed = false;
	if (point_at(u, u->root.irta))
		printk("IOMMU: root's interrupt remapping table not taken "
		       "back\n");
	printk("IOMMU at 0x%llx: interrupt remapping through root's table "
	       "again; %llu of its entries were refused\n",
	       (unsigned long long)u->base, (unsigned long long)u->irt_refused);
	u->irt = NULL;
}

bool vtd_irt_refresh(struct vtd_unit *u, struct per_cpu *pc, u64 lo)
{
	u32 n, first;
	bool any;

	if (!u->irt)
		return false;
	if (!VTD_IEC_INDEXED(lo)) {
		first = 0;
		n = 0x10000;
	} else {
		/* 6.5.2.7: IM low bits of IIDX ignored, 2^IM entries */
		n = 1u << VTD_IEC_IM(lo);
		first = VTD_IEC_IIDX(lo) & ~(n - 1);
	}
	copy_range(u, pc, first, n);
	any = refresh_translated(u, pc, first, n);
	vtd_sync();
	return any;
}

void vtd_irt_root_sirtp(struct vtd_unit *u, struct per_cpu *pc)
{
	if (!u->irt) {
		u->root.irta = u->root.irta_reg;
		return;
	}
	if ((u->root.irta_reg ^ u->root.irta) & VTD_IRTA_EIME) {
		printk("CPU %u: root's interrupt remapping table 0x%llx "
		       "refused: it changes the x2APIC mode\n",
		       pc->cpu_id, (unsigned long long)u->root.irta_reg);
		return;
	}
	spin_lock(&vtd.qi_lock);
	u->root.irta = u->root.irta_reg;
	copy_all(u, pc, true);
	spin_unlock(&vtd.qi_lock);
}

void vtd_irt_cpus_leave_root(struct vtd_unit *u, const struct cell *cell)
{
	struct vtd_desc d = vtd_desc_iec_global();
	bool changed = false;
	u32 i;

	if (!u->irt)
		return;
	spin_lock(&vtd.qi_lock);
	for (i = 0; i < VTD_IRT_ROOT_ENTRIES; i++) {
		u64 lo = u->irt[2 * i], hi = u->irt[2 * i + 1];
		u32 r = i;

		if (i >= VTD_IRT_IDENT && !irt_map_root_of(u->rootmap, i, &r))
			continue;
		if (!(lo & 1) || !refused(u, r, lo, hi, cell))
			continue;
		u->irt_refused++;
		vtd_irte_store(u, i, 0, 0);
		changed = true;
	}
	if (changed) {
		vtd_sync();
		if (vtd_qi_run(u, &d, 1))
			printk("IOMMU: interrupt entry cache invalidation "
			       "not confirmed\n");
	}
	spin_unlock(&vtd.qi_lock);
}

void vtd_irt_cpus_back_to_root(struct vtd_unit *u, struct per_cpu *pc)
{
	if (!u->irt)
		return;
	spin_lock(&vtd.qi_lock);
	copy_all(u, pc, true);
	spin_unlock(&vtd.qi_lock);
}

const char *vtd_irt_root_entry(struct vtd_unit *u, u32 index, u64 *lo,
			       bool *x2apic)
{
	u32 h = index;

	if (!u->irt)
		return "interrupt remapping is not the hypervisor's";
	if (!irt_map_find(u->rootmap, index, &h) && index >= VTD_IRT_IDENT)
		return "its remapping index is neither copied nor translated "
		       "by the hypervisor";
	*lo = __atomic_load_n(&u->irt[2 * h], __ATOMIC_ACQUIRE);
	*x2apic = eime(u);
	return NULL;
}

/* The unit of requester sid with the hypervisor's table in use, or
 * NULL (nothing translated). */
static struct vtd_unit *remapping_unit(u16 sid)
{
	struct vtd_unit *u = vtd_unit_of(sid);

	return u && u->irt ? u : NULL;
}

const char *vtd_irt_root_index(struct per_cpu *pc, u16 sid, u32 r,
			       unsigned int n, u32 *h)
{
	struct vtd_unit *u = remapping_unit(sid);
	struct vtd_desc d = vtd_desc_iec_global();
	u32 i, freed[IRT_MAP_RUN_MAX];
	unsigned int nfreed;
	bool made;
	int err;

	*h = r;
	if (!u)
		return NULL;
	spin_lock(&vtd.qi_lock);
	err = irt_map_run(u->rootmap, r, n, h, freed, &nfreed, &made);
	if (err) {
		/* full: drop the indexes whose entries root made not
		 * present without an invalidation the map saw, then once
		 * more (bounded: one walk of the map) */
		refresh_translated(u, pc, 0, 0x10000);
		vtd_sync();
		err = irt_map_run(u->rootmap, r, n, h, freed, &nfreed, &made);
	}
	if (err) {
		spin_unlock(&vtd.qi_lock);
		*h = r;
		return "the hypervisor's table has no room for its remapping "
		       "entries";
	}
	if (made || nfreed) {
		for (i = 0; i < n; i++)
			take_one(u, pc, r + i, *h + i);
		for (i = 0; i < nfreed; i++)
			vtd_irte_store(u, freed[i], 0, 0);
		vtd_sync();
		if (vtd_qi_run(u, &d, 1))
			printk("IOMMU: interrupt entry cache invalidation "
			       "not confirmed\n");
		printk("IOMMU: root's remapping index %u is the hypervisor's "
		       "%u (%u in a row), unit 0x%llx\n",
		       r, *h, n, (unsigned long long)u->base);
	}
	spin_unlock(&vtd.qi_lock);
	return NULL;
}

u32 vtd_irt_root_index_back(u16 sid, u32 h)
{
	struct vtd_unit *u = remapping_unit(sid);
	u32 r;

	return u && irt_map_root_of(u->rootmap, h, &r) ? r : h;
}

const char *vtd_irt_root_msi(struct per_cpu *pc, u16 bdf, u32 addr, u32 data,
			     unsigned int n, u32 *out)
{
	u32 s = irt_msi_subhandle(addr, data), r = irt_msi_handle(addr) + s;
	const char *why;
	u32 h;

	*out = addr;
	if (!remapping_unit(bdf) || !irt_msi_remappable(addr))
		return NULL;
	if (!(addr & VTD_MSI_SHV))
		n = 1; /* every vector names the handle itself */
	/* the device keeps root's data: the hypervisor's handle is its
	 * index less the subhandle, which a large one would not allow */
	if (s >= VTD_IRT_IDENT || r > 0xffff)
		return "its remapping subhandle is too large to translate";
	why = vtd_irt_root_index(pc, bdf, r, n, &h);
	if (!why)
		*out = irt_msi_with_handle(addr, h - s);
	return why;
}

u32 vtd_irt_root_msi_back(u16 bdf, u32 addr, u32 data)
{
	struct vtd_unit *u = remapping_unit(bdf);
	u32 s = irt_msi_subhandle(addr, data), r;

	if (!u || !irt_msi_remappable(addr) ||
	    !irt_map_root_of(u->rootmap, irt_msi_handle(addr) + s, &r) || r < s)
		return addr;
	return irt_msi_with_handle(addr, r - s);
}
